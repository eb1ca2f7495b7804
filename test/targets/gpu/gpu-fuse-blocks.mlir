// One GPU kernel per nn-fuse block (gpu-fuse-blocks in
// strata-gpu-kernels-fused, the GPU targets' --fusion dnnfusion): each
// function's gpu.launch_func count (KERNELS) is its nn-fuse block count
// (BLOCKS, the same planning as the pipeline's) -- a convolution with its
// padding and bias, a ReLU and reshape recomputed inside a matmul with its
// bias add, a GELU with a softmax, a layer norm, a transpose read by a
// matmul, a max-pool whose padding and ReLU fold into its loads, and nests
// whose dimensions run in another order, which are permuted to line up: a
// softmax over the leading axis (its sums run over the trailing dimensions,
// its quotients over the whole tensor, reordered to put the leading axis
// last), a transpose after a batched matmul (with the reshape of
// attention's heads) and after a layer norm, as in @attention (two heads of
// self-attention: the projection with its bias, the scores, their softmax,
// the weighted values with the heads' transpose back), and MobileNetV2's
// residual add, yielded by its block, beside the 1x1 convolution and clip
// that recompute it (@residual: they share only N, one iteration, so run
// as independent nests of one loop). Without gpu-fuse-blocks,
// @model launches 13 kernels and 7 copies (PLAIN, the fixed-fusion
// pipeline). test/e2e/{opencl,vulkan}/fused-blocks.test run these functions
// against the interpreter with strata-run --stats.
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-fold),func.func(nn-raise),func.func(nn-algebraic-rewrite),nn-fuse{target=opencl profile=always})' | FileCheck %s --check-prefix=BLOCKS
// RUN: strata-opt %s --strata-gpu-kernels-fused | FileCheck %s --check-prefix=KERNELS
// RUN: strata-opt %s --strata-gpu-kernels | FileCheck %s --check-prefix=PLAIN

// BLOCKS-LABEL: func.func @model(
// BLOCKS-COUNT-4: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @transpose_matmul(
// BLOCKS-COUNT-1: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @pool(
// BLOCKS-COUNT-2: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @softmax_axis0(
// BLOCKS-COUNT-1: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @matmul_transpose(
// BLOCKS-COUNT-1: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @layer_norm_transpose(
// BLOCKS-COUNT-1: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @attention(
// BLOCKS-COUNT-4: strata.fused
// BLOCKS-NOT: strata.fused
// BLOCKS-LABEL: func.func @residual(
// BLOCKS-COUNT-2: strata.fused
// BLOCKS-NOT: strata.fused

// KERNELS-LABEL: func.func @model(
// KERNELS-NOT: memref.copy
// KERNELS-COUNT-4: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module @model_kernel
// KERNELS-LABEL: func.func @transpose_matmul(
// KERNELS-COUNT-1: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module
// KERNELS-LABEL: func.func @pool(
// KERNELS-NOT: memref.copy
// KERNELS-COUNT-2: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module
// KERNELS-LABEL: func.func @softmax_axis0(
// KERNELS-COUNT-1: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module
// KERNELS-LABEL: func.func @matmul_transpose(
// KERNELS-COUNT-1: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module
// KERNELS-LABEL: func.func @layer_norm_transpose(
// KERNELS-COUNT-1: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module
// KERNELS-LABEL: func.func @attention(
// KERNELS-COUNT-4: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module
// KERNELS-LABEL: func.func @residual(
// KERNELS-COUNT-2: gpu.launch_func
// KERNELS-NOT: gpu.launch_func
// KERNELS: gpu.module

// PLAIN-LABEL: func.func @model(
// PLAIN-COUNT-13: gpu.launch_func
// PLAIN-NOT: gpu.launch_func
// PLAIN: gpu.module

func.func @model(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %m: tensor<16x8xf32>, %mb: tensor<8xf32>, %s: tensor<8xf32>, %lb: tensor<8xf32>) -> (tensor<16x8xf32>, tensor<16x8xf32>) {
  %c = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %r = "nn.relu"(%c) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %sh = "nn.constant"() {value = dense<[16, 16]> : tensor<2xi64>} : () -> tensor<2xi64>
  %f = "nn.reshape"(%r, %sh) : (tensor<1x4x8x8xf32>, tensor<2xi64>) -> tensor<16x16xf32>
  %mm = "nn.matmul"(%f, %m) : (tensor<16x16xf32>, tensor<16x8xf32>) -> tensor<16x8xf32>
  %a = "nn.add"(%mm, %mb) : (tensor<16x8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  %g = "nn.gelu"(%a) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %sm = "nn.softmax"(%g) : (tensor<16x8xf32>) -> tensor<16x8xf32>
  %ln = "nn.layer_normalization"(%g, %s, %lb) : (tensor<16x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<16x8xf32>
  return %sm, %ln : tensor<16x8xf32>, tensor<16x8xf32>
}
func.func @transpose_matmul(%a: tensor<8x16xf32>, %b: tensor<8x4xf32>) -> tensor<16x4xf32> {
  %t = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %m = "nn.matmul"(%t, %b) : (tensor<16x8xf32>, tensor<8x4xf32>) -> tensor<16x4xf32>
  %r = "nn.tanh"(%m) : (tensor<16x4xf32>) -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}
func.func @pool(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>) -> tensor<1x4x4x4xf32> {
  %c = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x8x8xf32>
  %r = "nn.relu"(%c) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %p = "nn.max_pool"(%r) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>} : (tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32>
  return %p : tensor<1x4x4x4xf32>
}
func.func @softmax_axis0(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.softmax"(%x) {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @matmul_transpose(%a: tensor<4x8x6xf32>, %b: tensor<4x6x5xf32>) -> tensor<8x20xf32> {
  %m = "nn.matmul"(%a, %b) : (tensor<4x8x6xf32>, tensor<4x6x5xf32>) -> tensor<4x8x5xf32>
  %t = "nn.transpose"(%m) {perm = array<i64: 1, 0, 2>} : (tensor<4x8x5xf32>) -> tensor<8x4x5xf32>
  %sh = "nn.constant"() {value = dense<[8, 20]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reshape"(%t, %sh) : (tensor<8x4x5xf32>, tensor<2xi64>) -> tensor<8x20xf32>
  return %r : tensor<8x20xf32>
}
func.func @layer_norm_transpose(%x: tensor<1x6x8xf32>, %y: tensor<1x6x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<1x6x8xf32>, tensor<6x1x8xf32>) {
  %a = "nn.add"(%x, %y) : (tensor<1x6x8xf32>, tensor<1x6x8xf32>) -> tensor<1x6x8xf32>
  %l = "nn.layer_normalization"(%a, %s, %b) {axis = 2 : i64, epsilon = 1.0e-5 : f32} : (tensor<1x6x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<1x6x8xf32>
  %t = "nn.transpose"(%l) {perm = array<i64: 1, 0, 2>} : (tensor<1x6x8xf32>) -> tensor<6x1x8xf32>
  return %l, %t : tensor<1x6x8xf32>, tensor<6x1x8xf32>
}
func.func @attention(%x: tensor<1x4x8xf32>, %w: tensor<8x24xf32>, %b: tensor<24xf32>) -> tensor<4x8xf32> {
  %xt = "nn.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<1x4x8xf32>) -> tensor<4x1x8xf32>
  %m = "nn.matmul"(%xt, %w) : (tensor<4x1x8xf32>, tensor<8x24xf32>) -> tensor<4x1x24xf32>
  %a = "nn.add"(%b, %m) : (tensor<24xf32>, tensor<4x1x24xf32>) -> tensor<4x1x24xf32>
  %s0 = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %s8 = "nn.constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
  %s16 = "nn.constant"() {value = dense<16> : tensor<1xi64>} : () -> tensor<1xi64>
  %s24 = "nn.constant"() {value = dense<24> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %sh = "nn.constant"() {value = dense<[4, 2, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %sh2 = "nn.constant"() {value = dense<[4, 8]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sc = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %q = "nn.slice"(%a, %s0, %s8, %ax) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x1x24xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1x8xf32>
  %k = "nn.slice"(%a, %s8, %s16, %ax) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x1x24xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1x8xf32>
  %qr = "nn.reshape"(%q, %sh) : (tensor<4x1x8xf32>, tensor<3xi64>) -> tensor<4x2x4xf32>
  %qt = "nn.transpose"(%qr) {perm = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
  %kr = "nn.reshape"(%k, %sh) : (tensor<4x1x8xf32>, tensor<3xi64>) -> tensor<4x2x4xf32>
  %qd = "nn.div"(%qt, %sc) : (tensor<2x4x4xf32>, tensor<f32>) -> tensor<2x4x4xf32>
  %kt = "nn.transpose"(%kr) {perm = array<i64: 1, 2, 0>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
  %s = "nn.matmul"(%qd, %kt) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %p = "nn.softmax"(%s) {axis = -1 : i64} : (tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %v = "nn.slice"(%a, %s16, %s24, %ax) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x1x24xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x1x8xf32>
  %vr = "nn.reshape"(%v, %sh) : (tensor<4x1x8xf32>, tensor<3xi64>) -> tensor<4x2x4xf32>
  %vt = "nn.transpose"(%vr) {perm = array<i64: 1, 0, 2>} : (tensor<4x2x4xf32>) -> tensor<2x4x4xf32>
  %o = "nn.matmul"(%p, %vt) : (tensor<2x4x4xf32>, tensor<2x4x4xf32>) -> tensor<2x4x4xf32>
  %ot = "nn.transpose"(%o) {perm = array<i64: 1, 0, 2>} : (tensor<2x4x4xf32>) -> tensor<4x2x4xf32>
  %r = "nn.reshape"(%ot, %sh2) : (tensor<4x2x4xf32>, tensor<2xi64>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
func.func @residual(%x: tensor<1x4x6x6xf32>, %y: tensor<1x4x6x6xf32>, %w: tensor<8x4x1x1xf32>, %v: tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %a = "nn.add"(%x, %y) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c = "nn.conv"(%a, %w) : (tensor<1x4x6x6xf32>, tensor<8x4x1x1xf32>) -> tensor<1x8x6x6xf32>
  %r = "nn.clip"(%c) {max = 6.0 : f64, min = 0.0 : f64} : (tensor<1x8x6x6xf32>) -> tensor<1x8x6x6xf32>
  %d = "nn.conv"(%r, %v) : (tensor<1x8x6x6xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x6x6xf32>
  %o = "nn.add"(%a, %d) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %o : tensor<1x4x6x6xf32>
}
