// --nn-to-kernels: f32 conv/matmul/gemm become libstrata_rt calls that
// absorb their sole-user epilogue (adds, then relu/clip); what it must not
// take stays nn.
// RUN: strata-opt %s --split-input-file --nn-to-kernels | FileCheck %s

// CHECK-DAG: func.func private @strata_rt_conv2d_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i64, f32, f32) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @conv_bias_residual_clip
// CHECK: %[[B:.*]] = tensor.reshape %arg2(%{{.*}}) : (tensor<4xf32>, tensor<3xi64>) -> tensor<4x1x1xf32>
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x8x8xf32>
// CHECK: bufferization.to_buffer %arg0 read_only
// CHECK: bufferization.to_buffer %[[B]] read_only
// CHECK: bufferization.to_buffer %arg3 read_only
// CHECK: call @strata_rt_conv2d_f32(
// CHECK-SAME: %c2_i64{{.*}}, %c2_i64
// CHECK: %[[Y:.*]] = bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT: nn.
// CHECK: return %[[Y]]
func.func @conv_bias_residual_clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %r: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %s = "nn.add"(%r, %y) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %z = "nn.clip"(%s) {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %z : tensor<1x4x8x8xf32>
}

// -----
// The matmul result has a second user: nothing is fused, the add stays.
// CHECK-LABEL: func.func @shared
// CHECK: call @strata_rt_matmul_f32(
// CHECK: "nn.add"
func.func @shared(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %s = "nn.add"(%y, %c) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y, %s : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----
// An add that broadcasts the product itself to a larger shape is not an
// epilogue; relu after it is not reached.
// CHECK-LABEL: func.func @growing_add
// CHECK: call @strata_rt_matmul_f32(
// CHECK: "nn.add"
// CHECK: "nn.relu"
func.func @growing_add(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<2x4x3xf32>) -> tensor<2x4x3xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %s = "nn.add"(%y, %c) : (tensor<4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %r = "nn.relu"(%s) : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  return %r : tensor<2x4x3xf32>
}

// -----
// Gemm: transposes, alpha, beta * C as the first addend, a constant B
// (constant mask bit 1 = 2).
// CHECK-LABEL: func.func @gemm
// CHECK-DAG: %[[T:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[MASK:.*]] = arith.constant 2 : i64
// CHECK-DAG: %[[ALPHA:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[BETA:.*]] = arith.constant 2.000000e+00 : f32
// CHECK: call @strata_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[T]], %{{.*}}, %[[MASK]], %{{.*}}, %[[ALPHA]], %[[BETA]],
func.func @gemm(%a: tensor<7x5xf32>, %c: tensor<5x1xf32>) -> tensor<5x2xf32> {
  %b = "nn.constant"() {value = dense<1.0> : tensor<2x7xf32>} : () -> tensor<2x7xf32>
  %y = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<7x5xf32>, tensor<2x7xf32>, tensor<5x1xf32>) -> tensor<5x2xf32>
  return %y : tensor<5x2xf32>
}

// -----
// Not taken: other element types, 3-D convolution.
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT: call @strata_rt
// CHECK: "nn.conv"
// CHECK: "nn.matmul"
func.func @not_taken(%x: tensor<1x1x4x4x4xf32>, %w: tensor<1x1x2x2x2xf32>, %a: tensor<2x2xf64>) -> (tensor<1x1x3x3x3xf32>, tensor<2x2xf64>) {
  %y = "nn.conv"(%x, %w) : (tensor<1x1x4x4x4xf32>, tensor<1x1x2x2x2xf32>) -> tensor<1x1x3x3x3xf32>
  %m = "nn.matmul"(%a, %a) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %y, %m : tensor<1x1x3x3x3xf32>, tensor<2x2xf64>
}

// -----
// Dynamic dims (issue 19): the result buffer takes the run-time extent of
// the operand, and the inner dims are checked at run time before the call
// (the kernel takes them on trust).
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[K:.*]] = tensor.dim %arg0, %c1
// CHECK: arith.cmpi ne, %[[K]], %{{.*}}
// CHECK: scf.if
// CHECK: call @strata_rt_shape_error
// CHECK: memref.alloc(%[[M]]) {{.*}} : memref<?x3xf32>
// CHECK: call @strata_rt_matmul_f32
func.func @dynamic(%d: tensor<?x?xf32>, %e: tensor<3x3xf32>) -> tensor<?x3xf32> {
  %n = "nn.matmul"(%d, %e) : (tensor<?x?xf32>, tensor<3x3xf32>) -> tensor<?x3xf32>
  return %n : tensor<?x3xf32>
}

// -----
// Softmax along a middle axis: axis 1, not log form.
// CHECK-DAG: func.func private @strata_rt_softmax_f32(memref<*xf32>, memref<*xf32>, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @softmax
// CHECK-DAG: %[[AXIS:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[LOG:.*]] = arith.constant 0 : i64
// CHECK: call @strata_rt_softmax_f32(%{{.*}}, %{{.*}}, %[[AXIS]], %[[LOG]])
// CHECK-NOT: nn.softmax
func.func @softmax(%x: tensor<2x7x3xf32>) -> tensor<2x7x3xf32> {
  %y = "nn.softmax"(%x) {axis = -2 : i64} : (tensor<2x7x3xf32>) -> tensor<2x7x3xf32>
  return %y : tensor<2x7x3xf32>
}

// -----
// 2-D pools: kind (1 max, 2 average), window, strides, leading and trailing
// pads, dilations, count_include_pad; 3-D pools and windows over 64
// positions stay nn.
// CHECK-DAG: func.func private @strata_rt_pool2d_f32(memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @pools
// CHECK: call @strata_rt_pool2d_f32(%{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %c1_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c3_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}})
// CHECK: call @strata_rt_pool2d_f32(%{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %c2_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}})
// CHECK: "nn.average_pool"
// CHECK: "nn.max_pool"
func.func @pools(%x: tensor<1x3x8x8xf32>, %v: tensor<1x1x4x4x4xf32>, %big: tensor<1x1x20x20xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x7x7xf32>, tensor<1x1x3x3x3xf32>, tensor<1x1x12x12xf32>) {
  %a = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 0, 1, 1, 0>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x4x4xf32>
  %b = "nn.average_pool"(%x) {kernel_shape = array<i64: 2, 2>, count_include_pad = 1 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  %d = "nn.average_pool"(%v) {kernel_shape = array<i64: 2, 2, 2>} : (tensor<1x1x4x4x4xf32>) -> tensor<1x1x3x3x3xf32>
  %e = "nn.max_pool"(%big) {kernel_shape = array<i64: 9, 9>} : (tensor<1x1x20x20xf32>) -> tensor<1x1x12x12xf32>
  return %a, %b, %d, %e : tensor<1x3x4x4xf32>, tensor<1x3x7x7xf32>, tensor<1x1x3x3x3xf32>, tensor<1x1x12x12xf32>
}

// -----
// matmul/gemm absorb a Mul or Div by a scalar constant into alpha (the
// betas of addends absorbed before it scale too) and, before any addend, a
// Transpose of the last two dims: B^T A^T, operands exchanged and their
// transposes flipped. gemm(transA) + bias / 4: alpha 0.5 / 4, beta 1 / 4.
// CHECK-LABEL: func.func @scale_transpose
// CHECK-DAG: %[[Q:.*]] = arith.constant 1.250000e-01 : f32
// CHECK-DAG: %[[QB:.*]] = arith.constant 2.500000e-01 : f32
// CHECK: call @strata_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}}, %{{.*}}, %c1_i64{{[_0-9]*}}, %[[Q]], %[[QB]],
// CHECK-NOT: nn.div
// Batched matmul * 3 then swap of the last two dims, then a bias and relu:
// the call takes b first, both transposed, alpha 3.
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3.000000e+00 : f32
// CHECK: call @strata_rt_matmul_f32(%[[BB:[a-z_0-9]*]], %[[AA:[a-z_0-9]*]], %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %{{.*}}, %c1_i64{{[_0-9]*}}, %[[THREE]], %{{.*}}, %{{.*}}, %c1_i64
// CHECK-NOT: nn.transpose
// CHECK-NOT: nn.mul
// CHECK-NOT: nn.relu
func.func @scale_transpose(%a: tensor<6x5xf32>, %b: tensor<6x7xf32>, %c: tensor<7xf32>, %x: tensor<2x3x4xf32>, %y: tensor<2x4x5xf32>, %bias: tensor<3xf32>) -> (tensor<5x7xf32>, tensor<2x5x3xf32>) {
  %four = "nn.constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %g = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, alpha = 0.5 : f32} : (tensor<6x5xf32>, tensor<6x7xf32>, tensor<7xf32>) -> tensor<5x7xf32>
  %d = "nn.div"(%g, %four) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  %three = "nn.constant"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = "nn.matmul"(%x, %y) : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %s = "nn.mul"(%three, %m) : (tensor<1xf32>, tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %t = "nn.transpose"(%s) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x5xf32>) -> tensor<2x5x3xf32>
  %ab = "nn.add"(%t, %bias) : (tensor<2x5x3xf32>, tensor<3xf32>) -> tensor<2x5x3xf32>
  %r = "nn.relu"(%ab) : (tensor<2x5x3xf32>) -> tensor<2x5x3xf32>
  return %d, %r : tensor<5x7xf32>, tensor<2x5x3xf32>
}

// -----
// Not absorbed: a constant divided by the product, a scale after the
// activation, a non-scalar factor, a transpose after an addend, a
// transpose of other dims, and any of these after a conv.
// CHECK-LABEL: func.func @no_scale_transpose
// CHECK: call @strata_rt_matmul_f32
// CHECK: "nn.div"
// CHECK: call @strata_rt_matmul_f32
// CHECK: "nn.mul"
// CHECK: call @strata_rt_matmul_f32
// CHECK: "nn.transpose"(%{{.*}}) {perm = array<i64: 1, 0>}
// CHECK: call @strata_rt_matmul_f32
// CHECK: "nn.transpose"(%{{.*}}) {perm = array<i64: 1, 0, 2>}
// CHECK: call @strata_rt_conv2d_f32
// CHECK: "nn.mul"
func.func @no_scale_transpose(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %v: tensor<5xf32>, %z: tensor<2x3x4xf32>, %w: tensor<2x4x4xf32>, %x: tensor<1x2x5x5xf32>, %k: tensor<3x2x3x3xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>, tensor<5x3xf32>, tensor<3x2x4xf32>, tensor<1x3x3x3xf32>) {
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %m0 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %d0 = "nn.div"(%two, %m0) : (tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %m1 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %r1 = "nn.relu"(%m1) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %s1 = "nn.mul"(%r1, %v) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %m2 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %a2 = "nn.add"(%m2, %v) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %t2 = "nn.transpose"(%a2) {perm = array<i64: 1, 0>} : (tensor<3x5xf32>) -> tensor<5x3xf32>
  %m3 = "nn.matmul"(%z, %w) : (tensor<2x3x4xf32>, tensor<2x4x4xf32>) -> tensor<2x3x4xf32>
  %t3 = "nn.transpose"(%m3) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %c = "nn.conv"(%x, %k) : (tensor<1x2x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x3x3xf32>
  %c2 = "nn.mul"(%c, %two) : (tensor<1x3x3x3xf32>, tensor<f32>) -> tensor<1x3x3x3xf32>
  return %d0, %s1, %t2, %t3, %c2 : tensor<3x5xf32>, tensor<3x5xf32>, tensor<5x3xf32>, tensor<3x2x4xf32>, tensor<1x3x3x3xf32>
}

// -----

// A Transpose read only by a matmul is read in place: the call takes its
// input through a memref.transpose view (any permutation: the kernel reads
// any strides), and no transposed copy is made. A Transpose with another
// reader stays.
// CHECK-LABEL: func.func @transposed_operands
// CHECK: memref.transpose %{{.*}} (d0, d1, d2) -> (d1, d2, d0) : memref<128x12x26xf32, strided<[?, ?, ?], offset: ?>> to memref<12x26x128xf32, strided<[?, ?, ?], offset: ?>>
// CHECK: call @strata_rt_matmul_f32
// CHECK: %[[KEPT:.*]] = "nn.transpose"(%arg2)
// CHECK: call @strata_rt_matmul_f32
// CHECK: return %{{.*}}, %[[KEPT]]
// CHECK-NOT: nn.transpose
func.func @transposed_operands(%q: tensor<12x128x26xf32>, %k: tensor<128x12x26xf32>, %a: tensor<6x6xf32>) -> (tensor<12x128x128xf32>, tensor<6x6xf32>, tensor<6x6xf32>) {
  %kt = "nn.transpose"(%k) {perm = array<i64: 1, 2, 0>} : (tensor<128x12x26xf32>) -> tensor<12x26x128xf32>
  %s = "nn.matmul"(%q, %kt) : (tensor<12x128x26xf32>, tensor<12x26x128xf32>) -> tensor<12x128x128xf32>
  %at = "nn.transpose"(%a) : (tensor<6x6xf32>) -> tensor<6x6xf32>
  %p = "nn.matmul"(%at, %a) : (tensor<6x6xf32>, tensor<6x6xf32>) -> tensor<6x6xf32>
  return %s, %p, %at : tensor<12x128x128xf32>, tensor<6x6xf32>, tensor<6x6xf32>
}

// -----
// SiLU as exporters write it (x * sigmoid(x): the kernel result read by a
// sigmoid and by the Mul of the two) is the kernel's act 4; a sigmoid alone
// is act 3.
// CHECK-LABEL: func.func @conv_bias_silu
// CHECK: %[[SILU:.*]] = arith.constant 4 : i64
// CHECK: call @strata_rt_conv2d_f32(
// CHECK-SAME: %[[SILU]]
// CHECK-NOT: nn.
// CHECK: return
func.func @conv_bias_silu(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %z = "nn.mul"(%s, %y) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %z : tensor<1x4x8x8xf32>
}

// -----
// CHECK-LABEL: func.func @matmul_sigmoid
// CHECK: %[[SIG:.*]] = arith.constant 3 : i64
// CHECK: call @strata_rt_matmul_f32(
// CHECK-SAME: %[[SIG]]
// CHECK-NOT: nn.
// CHECK: return
func.func @matmul_sigmoid(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>) -> tensor<4x3xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %s = "nn.sigmoid"(%y) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %s : tensor<4x3xf32>
}

// -----
// GELU is act 6, its tanh form act 7.
// CHECK-LABEL: func.func @matmul_gelu
// CHECK: %[[GELU:.*]] = arith.constant 6 : i64
// CHECK: call @strata_rt_matmul_f32(
// CHECK-SAME: %[[GELU]]
// CHECK-NOT: nn.
// CHECK-LABEL: func.func @conv_gelu_tanh
// CHECK: %[[TANH:.*]] = arith.constant 7 : i64
// CHECK: call @strata_rt_conv2d_f32(
// CHECK-SAME: %[[TANH]]
// CHECK-NOT: nn.
// CHECK: return
func.func @matmul_gelu(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>) -> tensor<4x3xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %g = "nn.gelu"(%y) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %g : tensor<4x3xf32>
}
func.func @conv_gelu_tanh(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %g = "nn.gelu"(%y) {approximate = "tanh"} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %g : tensor<1x4x8x8xf32>
}

// -----
// A squeeze-and-excitation gate [N, C, 1, 1] multiplying the input of a
// 1x1 conv becomes the call's xscale (scaled = 1) and the Mul goes; a gate
// that varies over the image, or a Mul with another reader, stays.
// CHECK-LABEL: func.func @se_scale
// CHECK-NOT: nn.mul
// CHECK: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK: call @strata_rt_conv2d_f32(%[[X:[a-z0-9_]+]], %[[W:[a-z0-9_]+]], %[[Y:[a-z0-9_]+]], %[[Y]], %[[Y]], %[[S:cast_[0-9]+]], %[[ONE]],
// CHECK-NOT: nn.
// CHECK: return
func.func @se_scale(%x: tensor<1x8x4x4xf32>, %g: tensor<1x8x1x1xf32>, %w: tensor<6x8x1x1xf32>) -> tensor<1x6x4x4xf32> {
  %s = "nn.mul"(%x, %g) : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %y = "nn.conv"(%s, %w) : (tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) -> tensor<1x6x4x4xf32>
  return %y : tensor<1x6x4x4xf32>
}

// -----
// CHECK-LABEL: func.func @not_se_scale
// CHECK: "nn.mul"
// CHECK: call @strata_rt_conv2d_f32(
// CHECK: "nn.mul"
// CHECK: call @strata_rt_conv2d_f32(
func.func @not_se_scale(%x: tensor<1x8x4x4xf32>, %g: tensor<1x8x4x1xf32>, %h: tensor<1x8x1x1xf32>, %w: tensor<6x8x1x1xf32>) -> (tensor<1x6x4x4xf32>, tensor<1x8x4x4xf32>) {
  %s = "nn.mul"(%x, %g) : (tensor<1x8x4x4xf32>, tensor<1x8x4x1xf32>) -> tensor<1x8x4x4xf32>
  %y = "nn.conv"(%s, %w) : (tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) -> tensor<1x6x4x4xf32>
  %t = "nn.mul"(%x, %h) : (tensor<1x8x4x4xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %z = "nn.conv"(%t, %w) : (tensor<1x8x4x4xf32>, tensor<6x8x1x1xf32>) -> tensor<1x6x4x4xf32>
  return %z, %t : tensor<1x6x4x4xf32>, tensor<1x8x4x4xf32>
}

// -----
// Not a SiLU: the Mul multiplies the sigmoid by another value, or the
// sigmoid has a second user; the kernel keeps no gate and the ops stay.
// CHECK-LABEL: func.func @gate_of_other
// CHECK: call @strata_rt_matmul_f32(
// CHECK: "nn.sigmoid"
// CHECK: "nn.mul"
// CHECK-LABEL: func.func @sigmoid_shared
// CHECK: call @strata_rt_matmul_f32(
// CHECK: "nn.sigmoid"
// CHECK: "nn.mul"
func.func @gate_of_other(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %s = "nn.sigmoid"(%y) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %z = "nn.mul"(%s, %c) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  %w = "nn.add"(%y, %c) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %z, %w : tensor<4x3xf32>, tensor<4x3xf32>
}
func.func @sigmoid_shared(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %s = "nn.sigmoid"(%y) : (tensor<4x3xf32>) -> tensor<4x3xf32>
  %z = "nn.mul"(%y, %s) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %z, %s : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----
// CHECK-LABEL: func.func @conv_hardswish
// CHECK: %[[HS:.*]] = arith.constant 5 : i64
// CHECK: call @strata_rt_conv2d_f32(
// CHECK-SAME: %[[HS]]
// CHECK-NOT: nn.
// CHECK: return
func.func @conv_hardswish(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  %z = "nn.hard_swish"(%y) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %z : tensor<1x4x8x8xf32>
}

// -----
// Global pooling (kind 1 max, 2 average): the global pools, and ReduceMean
// and ReduceMax of 4-D inputs over exactly the spatial dims (any order,
// either keepdims). Reductions over other dims, a 3-D input's last axis (a
// row reduction, left to fusion), dynamic shapes and other dtypes stay nn.
// CHECK-DAG: func.func private @strata_rt_global_pool_f32(memref<*xf32>, memref<*xf32>, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @global_pools
// CHECK: call @strata_rt_global_pool_f32(%{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %c2_i64{{[_0-9]*}})
// CHECK: call @strata_rt_global_pool_f32(%{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %c1_i64{{[_0-9]*}})
// CHECK: call @strata_rt_global_pool_f32(%{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %c2_i64{{[_0-9]*}})
// CHECK: call @strata_rt_global_pool_f32(%{{[a-z_0-9]*}}, %{{[a-z_0-9]*}}, %c1_i64{{[_0-9]*}})
// CHECK-NOT: call
// CHECK: "nn.reduce_mean"{{.*}}axes = array<i64: 1, 2, 3>
// CHECK: "nn.reduce_mean"{{.*}}axes = array<i64: 3>
// CHECK: "nn.global_average_pool"{{.*}}tensor<1x?x7x7xf32>
// CHECK: "nn.global_average_pool"{{.*}}f64
// CHECK: "nn.reduce_mean"{{.*}}tensor<2x6xf32>
// CHECK: "nn.reduce_mean"{{.*}}tensor<2x5x24xf32>
func.func @global_pools(%x: tensor<2x6x7x5xf32>, %d: tensor<1x?x7x7xf32>, %f: tensor<1x3x4x4xf64>, %r: tensor<2x6xf32>, %t: tensor<2x5x24xf32>) -> (tensor<2x6x1x1xf32>, tensor<2x6x1x1xf32>, tensor<2x6xf32>, tensor<2x6x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x6x7x1xf32>, tensor<1x?x1x1xf32>, tensor<1x3x1x1xf64>, tensor<2x1xf32>, tensor<2x5x1xf32>) {
  %a = "nn.global_average_pool"(%x) : (tensor<2x6x7x5xf32>) -> tensor<2x6x1x1xf32>
  %b = "nn.global_max_pool"(%x) : (tensor<2x6x7x5xf32>) -> tensor<2x6x1x1xf32>
  %c = "nn.reduce_mean"(%x) {axes = array<i64: 2, 3>, keepdims = 0 : i64} : (tensor<2x6x7x5xf32>) -> tensor<2x6xf32>
  %e = "nn.reduce_max"(%x) {axes = array<i64: -1, -2>} : (tensor<2x6x7x5xf32>) -> tensor<2x6x1x1xf32>
  %g = "nn.reduce_mean"(%x) {axes = array<i64: 1, 2, 3>} : (tensor<2x6x7x5xf32>) -> tensor<2x1x1x1xf32>
  %h = "nn.reduce_mean"(%x) {axes = array<i64: 3>} : (tensor<2x6x7x5xf32>) -> tensor<2x6x7x1xf32>
  %i = "nn.global_average_pool"(%d) : (tensor<1x?x7x7xf32>) -> tensor<1x?x1x1xf32>
  %j = "nn.global_average_pool"(%f) : (tensor<1x3x4x4xf64>) -> tensor<1x3x1x1xf64>
  %k = "nn.reduce_mean"(%r) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %l = "nn.reduce_mean"(%t) {axes = array<i64: -1>} : (tensor<2x5x24xf32>) -> tensor<2x5x1xf32>
  return %a, %b, %c, %e, %g, %h, %i, %j, %k, %l : tensor<2x6x1x1xf32>, tensor<2x6x1x1xf32>, tensor<2x6xf32>, tensor<2x6x1x1xf32>, tensor<2x1x1x1xf32>, tensor<2x6x7x1xf32>, tensor<1x?x1x1xf32>, tensor<1x3x1x1xf64>, tensor<2x1xf32>, tensor<2x5x1xf32>
}
