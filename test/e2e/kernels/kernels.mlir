// The libstrata_rt kernels behind --nn-to-kernels against the interpreter:
// fused epilogues (bias, residual, both, relu, clip), GEMM blocking edges
// (tails of MR/NR; kernels-large.mlir crosses KC, NC and MC),
// batch folding, broadcast batches, transposes, 1-D operands, one-row
// products (GEMV as rows or dot products), 1-D conv,
// depthwise with a multiplier, groups, strides, dilations, asymmetric pads
// (the channel-blocked depthwise kernel with channel tails, strided inputs
// and residuals; the per-plane one with STRATA_RT_DEPTHWISE=plane), max and
// average pooling on the same blocked kernel (pads, ceil_mode, dilation, 1-D),
// layer normalization (raised from its decomposed chain, broadcast params,
// strided rows), scalar Mul/Div and last-two-dims Transposes absorbed by
// matmul/gemm,
// on every ISA the host has, on one and two threads.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_DEPTHWISE=plane %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @conv_bias_residual_clip(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>, %r: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
  %s = "nn.add"(%r, %y) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %z = "nn.clip"(%s) {min = 0.0 : f32, max = 0.5 : f32} : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %z : tensor<1x4x8x8xf32>
}
func.func @conv_broadcast_addend_relu(%x: tensor<2x5x9x7xf32>, %w: tensor<6x5x2x3xf32>, %r: tensor<6x1x1xf32>) -> tensor<2x6x4x2xf32> {
  %y = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>, dilations = array<i64: 1, 2>, pads = array<i64: 0, 1, 0, 0>} : (tensor<2x5x9x7xf32>, tensor<6x5x2x3xf32>) -> tensor<2x6x4x2xf32>
  %s = "nn.add"(%y, %r) : (tensor<2x6x4x2xf32>, tensor<6x1x1xf32>) -> tensor<2x6x4x2xf32>
  %z = "nn.relu"(%s) : (tensor<2x6x4x2xf32>) -> tensor<2x6x4x2xf32>
  return %z : tensor<2x6x4x2xf32>
}
func.func @conv_row_addend(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x1x1xf32>, %r: tensor<6xf32>) -> tensor<1x3x6x6xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<1x2x6x6xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x6x6xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x3x6x6xf32>, tensor<6xf32>) -> tensor<1x3x6x6xf32>
  return %s : tensor<1x3x6x6xf32>
}
func.func @conv_stride3_groups(%x: tensor<2x6x11x10xf32>, %w: tensor<9x2x3x2xf32>) -> tensor<2x9x4x4xf32> {
  %y = "nn.conv"(%x, %w) {group = 3 : i64, strides = array<i64: 3, 3>, pads = array<i64: 1, 0, 0, 1>} : (tensor<2x6x11x10xf32>, tensor<9x2x3x2xf32>) -> tensor<2x9x4x4xf32>
  return %y : tensor<2x9x4x4xf32>
}
func.func @depthwise_multiplier(%x: tensor<1x3x10x9xf32>, %w: tensor<6x1x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x10x9xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 3 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x10x9xf32>, tensor<6x1x3x3xf32>, tensor<6xf32>) -> tensor<1x6x10x9xf32>
  %z = "nn.clip"(%y) {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x6x10x9xf32>) -> tensor<1x6x10x9xf32>
  return %z : tensor<1x6x10x9xf32>
}
func.func @depthwise_stride2_dilated(%x: tensor<2x4x23x21xf32>, %w: tensor<4x1x3x5xf32>) -> tensor<2x4x11x8xf32> {
  %y = "nn.conv"(%x, %w) {group = 4 : i64, strides = array<i64: 2, 2>, dilations = array<i64: 1, 2>, pads = array<i64: 1, 3, 0, 0>} : (tensor<2x4x23x21xf32>, tensor<4x1x3x5xf32>) -> tensor<2x4x11x8xf32>
  return %y : tensor<2x4x11x8xf32>
}
func.func @depthwise_wide(%x: tensor<1x2x5x70xf32>, %w: tensor<2x1x1x3xf32>) -> tensor<1x2x5x68xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64} : (tensor<1x2x5x70xf32>, tensor<2x1x1x3xf32>) -> tensor<1x2x5x68xf32>
  return %y : tensor<1x2x5x68xf32>
}
func.func @conv1d(%x: tensor<2x3x17xf32>, %w: tensor<5x3x4xf32>, %b: tensor<5xf32>) -> tensor<2x5x8xf32> {
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2>, pads = array<i64: 1, 0>} : (tensor<2x3x17xf32>, tensor<5x3x4xf32>, tensor<5xf32>) -> tensor<2x5x8xf32>
  return %y : tensor<2x5x8xf32>
}
func.func @matmul_bias_relu(%a: tensor<2x3x5x7xf32>, %b: tensor<3x7x4xf32>, %c: tensor<4xf32>) -> tensor<2x3x5x4xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<2x3x5x7xf32>, tensor<3x7x4xf32>) -> tensor<2x3x5x4xf32>
  %s = "nn.add"(%y, %c) : (tensor<2x3x5x4xf32>, tensor<4xf32>) -> tensor<2x3x5x4xf32>
  %z = "nn.relu"(%s) : (tensor<2x3x5x4xf32>) -> tensor<2x3x5x4xf32>
  return %z : tensor<2x3x5x4xf32>
}
func.func @matmul_folded_batch(%a: tensor<16x1x31xf32>, %b: tensor<31x9xf32>, %c: tensor<9xf32>, %r: tensor<16x1x9xf32>) -> tensor<16x1x9xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<16x1x31xf32>, tensor<31x9xf32>) -> tensor<16x1x9xf32>
  %s = "nn.add"(%y, %c) : (tensor<16x1x9xf32>, tensor<9xf32>) -> tensor<16x1x9xf32>
  %t = "nn.add"(%r, %s) : (tensor<16x1x9xf32>, tensor<16x1x9xf32>) -> tensor<16x1x9xf32>
  return %t : tensor<16x1x9xf32>
}
func.func @matmul_unfoldable_addend(%a: tensor<2x3x5x7xf32>, %b: tensor<1x7x4xf32>, %c: tensor<3x1x4xf32>) -> tensor<2x3x5x4xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<2x3x5x7xf32>, tensor<1x7x4xf32>) -> tensor<2x3x5x4xf32>
  %s = "nn.add"(%y, %c) : (tensor<2x3x5x4xf32>, tensor<3x1x4xf32>) -> tensor<2x3x5x4xf32>
  return %s : tensor<2x3x5x4xf32>
}
func.func @matmul_broadcast_batches(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  return %y : tensor<2x5x3x6xf32>
}
func.func @vec_mat(%a: tensor<7xf32>, %b: tensor<3x7x4xf32>) -> tensor<3x4xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<7xf32>, tensor<3x7x4xf32>) -> tensor<3x4xf32>
  return %y : tensor<3x4xf32>
}
func.func @mat_vec(%a: tensor<2x5x7xf32>, %b: tensor<7xf32>) -> tensor<2x5xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<2x5x7xf32>, tensor<7xf32>) -> tensor<2x5xf32>
  return %y : tensor<2x5xf32>
}
func.func @dot(%a: tensor<9xf32>, %b: tensor<9xf32>) -> tensor<f32> {
  %y = "nn.matmul"(%a, %b) : (tensor<9xf32>, tensor<9xf32>) -> tensor<f32>
  return %y : tensor<f32>
}
func.func @gemm_transposed_scaled(%a: tensor<7x5xf32>, %b: tensor<9x7xf32>, %c: tensor<5x1xf32>) -> tensor<5x9xf32> {
  %y = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<7x5xf32>, tensor<9x7xf32>, tensor<5x1xf32>) -> tensor<5x9xf32>
  return %y : tensor<5x9xf32>
}
func.func @gemm_constant_weights(%a: tensor<3x20xf32>) -> tensor<3x4xf32> {
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 0.25, 2.0], [1.5, 0.0, -0.75, 1.0], [0.1, 0.2, 0.3, 0.4], [-0.5, 1.0, -1.5, 2.0], [0.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [2.0, -2.0, 0.5, -0.5], [0.3, 0.6, 0.9, 1.2], [-1.0, -0.5, 0.0, 0.5], [0.7, -0.7, 0.7, -0.7], [0.5, -1.0, 0.25, 2.0], [1.5, 0.0, -0.75, 1.0], [0.1, 0.2, 0.3, 0.4], [-0.5, 1.0, -1.5, 2.0], [0.0, 0.0, 1.0, 0.0], [1.0, 1.0, 1.0, 1.0], [2.0, -2.0, 0.5, -0.5], [0.3, 0.6, 0.9, 1.2], [-1.0, -0.5, 0.0, 0.5], [0.7, -0.7, 0.7, -0.7]]> : tensor<20x4xf32>} : () -> tensor<20x4xf32>
  %y = "nn.gemm"(%a, %w) : (tensor<3x20xf32>, tensor<20x4xf32>) -> tensor<3x4xf32>
  %z = "nn.relu"(%y) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %z : tensor<3x4xf32>
}
func.func @shared_result_not_fused(%a: tensor<4x6xf32>, %b: tensor<6x3xf32>, %c: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %y = "nn.matmul"(%a, %b) : (tensor<4x6xf32>, tensor<6x3xf32>) -> tensor<4x3xf32>
  %s = "nn.add"(%y, %c) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
  return %y, %s : tensor<4x3xf32>, tensor<4x3xf32>
}
func.func @nan_propagates_through_epilogue(%x: tensor<1x2x4x4xf32>, %w: tensor<3x2x1x1xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>) {
  %s = "nn.sqrt"(%x) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = "nn.conv"(%s, %w) : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %r = "nn.relu"(%y) : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  %y2 = "nn.conv"(%s, %w) : (tensor<1x2x4x4xf32>, tensor<3x2x1x1xf32>) -> tensor<1x3x4x4xf32>
  %c = "nn.clip"(%y2) {min = -0.5 : f32, max = 0.5 : f32} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %r, %c : tensor<1x3x4x4xf32>, tensor<1x3x4x4xf32>
}
func.func @strided_weights(%x: tensor<1x3x6x6xf32>, %big: tensor<4x5x3x3xf32>, %dbig: tensor<3x1x3x5xf32>) -> (tensor<1x4x4x4xf32>, tensor<1x3x4x4xf32>) {
  // Weights sliced out of bigger tensors reach the kernels as strided views.
  %s = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "nn.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %w = "nn.slice"(%big, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<4x5x3x3xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4x3x3x3xf32>
  %y = "nn.conv"(%x, %w) : (tensor<1x3x6x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %s3 = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e3 = "nn.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a3 = "nn.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %dw = "nn.slice"(%dbig, %s3, %e3, %a3) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<3x1x3x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x1x3x3xf32>
  %z = "nn.conv"(%x, %dw) {group = 3 : i64} : (tensor<1x3x6x6xf32>, tensor<3x1x3x3xf32>) -> tensor<1x3x4x4xf32>
  return %y, %z : tensor<1x4x4x4xf32>, tensor<1x3x4x4xf32>
}
func.func @softmax_last(%x: tensor<3x5x37xf32>) -> tensor<3x5x37xf32> {
  %y = "nn.softmax"(%x) {axis = -1 : i64} : (tensor<3x5x37xf32>) -> tensor<3x5x37xf32>
  return %y : tensor<3x5x37xf32>
}
func.func @softmax_middle(%x: tensor<3x21x4xf32>) -> tensor<3x21x4xf32> {
  %y = "nn.softmax"(%x) {axis = 1 : i64} : (tensor<3x21x4xf32>) -> tensor<3x21x4xf32>
  return %y : tensor<3x21x4xf32>
}
func.func @log_softmax_first(%x: tensor<19x6xf32>) -> tensor<19x6xf32> {
  %y = "nn.log_softmax"(%x) {axis = 0 : i64} : (tensor<19x6xf32>) -> tensor<19x6xf32>
  return %y : tensor<19x6xf32>
}
func.func @softmax_scaled_wide(%x: tensor<2x300xf32>) -> tensor<2x300xf32> {
  %c = "nn.constant"() {value = dense<40.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %c) : (tensor<2x300xf32>, tensor<f32>) -> tensor<2x300xf32>
  %y = "nn.softmax"(%s) {axis = 1 : i64} : (tensor<2x300xf32>) -> tensor<2x300xf32>
  return %y : tensor<2x300xf32>
}
func.func @softmax_nan_row(%x: tensor<2x20xf32>) -> tensor<2x20xf32> {
  // sqrt of the negative inputs: NaN poisons its row, as in the reference.
  %s = "nn.sqrt"(%x) : (tensor<2x20xf32>) -> tensor<2x20xf32>
  %y = "nn.softmax"(%s) {axis = 1 : i64} : (tensor<2x20xf32>) -> tensor<2x20xf32>
  return %y : tensor<2x20xf32>
}
func.func @depthwise_blocked_tail_residual(%x: tensor<1x20x14x14xf32>, %w: tensor<20x1x3x3xf32>, %b: tensor<20xf32>, %r: tensor<1x20x14x14xf32>) -> tensor<1x20x14x14xf32> {
  // 20 channels: a full vector group and a tail on every ISA; the residual
  // varies per pixel, so the epilogue runs after the transposes.
  %y = "nn.conv"(%x, %w, %b) {group = 20 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x20x14x14xf32>, tensor<20x1x3x3xf32>, tensor<20xf32>) -> tensor<1x20x14x14xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x20x14x14xf32>, tensor<1x20x14x14xf32>) -> tensor<1x20x14x14xf32>
  %z = "nn.relu"(%s) : (tensor<1x20x14x14xf32>) -> tensor<1x20x14x14xf32>
  return %z : tensor<1x20x14x14xf32>
}
func.func @depthwise_strided_input(%big: tensor<2x18x9x12xf32>, %w: tensor<18x1x3x3xf32>, %b: tensor<18xf32>) -> tensor<2x18x5x5xf32> {
  // The input is a column slice (rows 12 apart, 10 wide): gathered element
  // by element; stride 2, two images, bias and clip in the vectors.
  %s = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "nn.constant"() {value = dense<[11]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "nn.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %x = "nn.slice"(%big, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<2x18x9x12xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2x18x9x10xf32>
  %y = "nn.conv"(%x, %w, %b) {group = 18 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x18x9x10xf32>, tensor<18x1x3x3xf32>, tensor<18xf32>) -> tensor<2x18x5x5xf32>
  %z = "nn.clip"(%y) {min = -0.5 : f32, max = 0.5 : f32} : (tensor<2x18x5x5xf32>) -> tensor<2x18x5x5xf32>
  return %z : tensor<2x18x5x5xf32>
}
func.func @max_pool_resnet_stem(%x: tensor<1x20x15x14xf32>) -> tensor<1x20x8x7xf32> {
  // 3x3, stride 2, pad 1 (ResNet's stem): -inf padding, channel tail.
  %y = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x20x15x14xf32>) -> tensor<1x20x8x7xf32>
  return %y : tensor<1x20x8x7xf32>
}
func.func @max_pool_ceil_dilated(%x: tensor<2x5x11x10xf32>) -> tensor<2x5x4x4xf32> {
  // ceil_mode overhang past the trailing pad, dilation, asymmetric pads.
  %y = "nn.max_pool"(%x) {kernel_shape = array<i64: 2, 3>, strides = array<i64: 3, 3>, dilations = array<i64: 2, 1>, pads = array<i64: 0, 1, 1, 0>, ceil_mode = 1 : i64} : (tensor<2x5x11x10xf32>) -> tensor<2x5x4x4xf32>
  return %y : tensor<2x5x4x4xf32>
}
func.func @average_pool_pads(%x: tensor<1x17x9x9xf32>) -> (tensor<1x17x5x5xf32>, tensor<1x17x5x5xf32>) {
  // The divisor with and without count_include_pad.
  %a = "nn.average_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x17x9x9xf32>) -> tensor<1x17x5x5xf32>
  %b = "nn.average_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, count_include_pad = 1 : i64} : (tensor<1x17x9x9xf32>) -> tensor<1x17x5x5xf32>
  return %a, %b : tensor<1x17x5x5xf32>, tensor<1x17x5x5xf32>
}
func.func @average_pool_ceil_1d(%x: tensor<2x6x10xf32>) -> tensor<2x6x4xf32> {
  // 1-D, ceil_mode: the overhang never counts, even with count_include_pad.
  %y = "nn.average_pool"(%x) {kernel_shape = array<i64: 3>, strides = array<i64: 3>, pads = array<i64: 1, 0>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<2x6x10xf32>) -> tensor<2x6x4xf32>
  return %y : tensor<2x6x4xf32>
}
func.func @gemv_rows_bias_relu(%a: tensor<1x300xf32>, %b: tensor<300x70xf32>, %c: tensor<70xf32>) -> tensor<1x70xf32> {
  // One row of A: B streamed row by row (y += a_k B_k), bias and relu after.
  %y = "nn.matmul"(%a, %b) : (tensor<1x300xf32>, tensor<300x70xf32>) -> tensor<1x70xf32>
  %s = "nn.add"(%y, %c) : (tensor<1x70xf32>, tensor<70xf32>) -> tensor<1x70xf32>
  %z = "nn.relu"(%s) : (tensor<1x70xf32>) -> tensor<1x70xf32>
  return %z : tensor<1x70xf32>
}
func.func @gemv_dots(%a: tensor<1x300xf32>, %at: tensor<300x1xf32>, %b: tensor<70x300xf32>, %c: tensor<70xf32>) -> (tensor<1x70xf32>, tensor<1x70xf32>) {
  // A transposed B: dot products; with A transposed too its row is strided.
  %y = "nn.gemm"(%a, %b, %c) {transB = 1 : i64, alpha = 0.5 : f32} : (tensor<1x300xf32>, tensor<70x300xf32>, tensor<70xf32>) -> tensor<1x70xf32>
  %z = "nn.gemm"(%at, %b) {transA = 1 : i64, transB = 1 : i64} : (tensor<300x1xf32>, tensor<70x300xf32>) -> tensor<1x70xf32>
  return %y, %z : tensor<1x70xf32>, tensor<1x70xf32>
}
func.func @layer_norm_chain(%x: tensor<2x5x40xf32>, %g: tensor<40xf32>, %b: tensor<40xf32>) -> tensor<2x5x40xf32> {
  // PyTorch's decomposed export: nn-raise makes it one op, the JIT runs the
  // row kernel, the interpreter the chain as written.
  %m = "nn.reduce_mean"(%x) {axes = array<i64: -1>} : (tensor<2x5x40xf32>) -> tensor<2x5x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x5x40xf32>, tensor<2x5x1xf32>) -> tensor<2x5x40xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x5x40xf32>, tensor<f32>) -> tensor<2x5x40xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: -1>} : (tensor<2x5x40xf32>) -> tensor<2x5x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x5x1xf32>, tensor<f32>) -> tensor<2x5x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x5x40xf32>, tensor<2x5x1xf32>) -> tensor<2x5x40xf32>
  %y0 = "nn.mul"(%n, %g) : (tensor<2x5x40xf32>, tensor<40xf32>) -> tensor<2x5x40xf32>
  %y = "nn.add"(%y0, %b) : (tensor<2x5x40xf32>, tensor<40xf32>) -> tensor<2x5x40xf32>
  return %y : tensor<2x5x40xf32>
}
func.func @layer_norm_broadcast_strided(%big: tensor<3x4x9xf32>, %g: tensor<1x7xf32>, %b: tensor<4x1xf32>) -> (tensor<3x4x7xf32>, tensor<3x4x7xf32>) {
  // Two normalized dims of a column slice (rows gathered), scale and bias
  // broadcast inside them (made dense); and no bias, one dim.
  %s = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "nn.constant"() {value = dense<[8]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "nn.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %x = "nn.slice"(%big, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<3x4x9xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<3x4x7xf32>
  %y = "nn.layer_normalization"(%x, %g, %b) {axis = 1 : i64, epsilon = 1.0e-3 : f32} : (tensor<3x4x7xf32>, tensor<1x7xf32>, tensor<4x1xf32>) -> tensor<3x4x7xf32>
  %g1 = "nn.constant"() {value = dense<[0.5, 1.0, 1.5, 2.0, -1.0, 0.25, 3.0]> : tensor<7xf32>} : () -> tensor<7xf32>
  %z = "nn.layer_normalization"(%x, %g1) : (tensor<3x4x7xf32>, tensor<7xf32>) -> tensor<3x4x7xf32>
  return %y, %z : tensor<3x4x7xf32>, tensor<3x4x7xf32>
}
func.func @matmul_scale_transpose(%a: tensor<6x5xf32>, %b: tensor<6x7xf32>, %c: tensor<7xf32>, %x: tensor<2x9x4xf32>, %y: tensor<2x4x11xf32>, %bias: tensor<9xf32>, %q: tensor<9x11xf32>) -> (tensor<5x7xf32>, tensor<2x11x9xf32>, tensor<4x9xf32>) {
  // Scalars into alpha (and an absorbed bias's beta), transposes as
  // B^T A^T: gemm(transA)+bias / 4; batched matmul * 3, last dims swapped,
  // + bias, relu; GEMM -> Div -> Transpose with a constant B (the thesis'
  // example; B^T's packed form is cached).
  %four = "nn.constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %g = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, alpha = 0.5 : f32} : (tensor<6x5xf32>, tensor<6x7xf32>, tensor<7xf32>) -> tensor<5x7xf32>
  %d = "nn.div"(%g, %four) : (tensor<5x7xf32>, tensor<f32>) -> tensor<5x7xf32>
  %three = "nn.constant"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = "nn.matmul"(%x, %y) : (tensor<2x9x4xf32>, tensor<2x4x11xf32>) -> tensor<2x9x11xf32>
  %s = "nn.mul"(%three, %m) : (tensor<1xf32>, tensor<2x9x11xf32>) -> tensor<2x9x11xf32>
  %t = "nn.transpose"(%s) {perm = array<i64: 0, 2, 1>} : (tensor<2x9x11xf32>) -> tensor<2x11x9xf32>
  %ab = "nn.add"(%t, %bias) : (tensor<2x11x9xf32>, tensor<9xf32>) -> tensor<2x11x9xf32>
  %r = "nn.relu"(%ab) : (tensor<2x11x9xf32>) -> tensor<2x11x9xf32>
  %k = "nn.constant"() {value = dense<[[1.0, 0.5, -2.0, 0.25], [0.0, 1.0, 3.0, -1.0], [2.0, 2.0, 0.5, 0.5], [1.0, -1.0, 1.0, -1.0], [0.1, 0.2, 0.3, 0.4], [4.0, 3.0, 2.0, 1.0], [-0.5, 0.5, -0.5, 0.5], [1.5, 2.5, 3.5, 4.5], [0.0, 0.0, 1.0, 0.0], [9.0, 8.0, 7.0, 6.0], [1.0, 1.0, 1.0, 1.0]]> : tensor<11x4xf32>} : () -> tensor<11x4xf32>
  %gm = "nn.matmul"(%q, %k) : (tensor<9x11xf32>, tensor<11x4xf32>) -> tensor<9x4xf32>
  %gd = "nn.div"(%gm, %four) : (tensor<9x4xf32>, tensor<f32>) -> tensor<9x4xf32>
  %gt = "nn.transpose"(%gd) {perm = array<i64: 1, 0>} : (tensor<9x4xf32>) -> tensor<4x9xf32>
  return %d, %r, %gt : tensor<5x7xf32>, tensor<2x11x9xf32>, tensor<4x9xf32>
}
func.func @conv_trailing_pads_padded_1x1(%x: tensor<1x5x7x6xf32>, %w: tensor<4x5x3x3xf32>, %v: tensor<4x5x1x1xf32>) -> (tensor<1x4x6x5xf32>, tensor<1x4x9x8xf32>) {
  // Windows that leave the image only at the end (no leading pad), and a
  // padded 1x1: both im2col'ed from a padded copy of the image.
  %y = "nn.conv"(%x, %w) {pads = array<i64: 0, 0, 1, 1>} : (tensor<1x5x7x6xf32>, tensor<4x5x3x3xf32>) -> tensor<1x4x6x5xf32>
  %z = "nn.conv"(%x, %v) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x5x7x6xf32>, tensor<4x5x1x1xf32>) -> tensor<1x4x9x8xf32>
  return %y, %z : tensor<1x4x6x5xf32>, tensor<1x4x9x8xf32>
}

// Transposed operands read in place (a permuted strided view): attention's
// Q.K^T with K transposed from (seq, heads, dim), and a constant B
// transposed (packed and cached through the view's strides); a transposed
// A read by two products stays a transposed copy.
func.func @transposed_operands(%q: tensor<3x9x5xf32>, %k: tensor<9x3x5xf32>, %a: tensor<7x4xf32>, %b: tensor<7x6xf32>, %c: tensor<6xf32>) -> (tensor<3x9x9xf32>, tensor<4x6xf32>, tensor<4x3xf32>) {
  %kt = "nn.transpose"(%k) {perm = array<i64: 1, 2, 0>} : (tensor<9x3x5xf32>) -> tensor<3x5x9xf32>
  %s = "nn.matmul"(%q, %kt) : (tensor<3x9x5xf32>, tensor<3x5x9xf32>) -> tensor<3x9x9xf32>
  %at = "nn.transpose"(%a) : (tensor<7x4xf32>) -> tensor<4x7xf32>
  %g = "nn.gemm"(%at, %b, %c) : (tensor<4x7xf32>, tensor<7x6xf32>, tensor<6xf32>) -> tensor<4x6xf32>
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 0.25, 2.0, -0.75, 1.5, 0.125], [1.0, 0.5, -0.5, 0.0, 0.25, -2.0, 0.75], [-1.5, 0.0, 1.0, 0.5, -0.25, 0.75, 1.25]]> : tensor<3x7xf32>} : () -> tensor<3x7xf32>
  %wt = "nn.transpose"(%w) : (tensor<3x7xf32>) -> tensor<7x3xf32>
  %p = "nn.matmul"(%at, %wt) : (tensor<4x7xf32>, tensor<7x3xf32>) -> tensor<4x3xf32>
  return %s, %g, %p : tensor<3x9x9xf32>, tensor<4x6xf32>, tensor<4x3xf32>
}

// A transposed view that only moves a unit dim (1x8x12 -> 8x1x12, as a
// transformer's (batch, seq) swap): its batches still fold into one GEMM
// with 8 rows (the unit dim's stride is ignored), with a bias and a
// residual in the epilogue.
func.func @unit_dim_view_batches(%x: tensor<1x8x12xf32>, %w: tensor<12x10xf32>, %b: tensor<10xf32>, %r: tensor<8x1x10xf32>) -> tensor<8x1x10xf32> {
  %t = "nn.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<1x8x12xf32>) -> tensor<8x1x12xf32>
  %m = "nn.matmul"(%t, %w) : (tensor<8x1x12xf32>, tensor<12x10xf32>) -> tensor<8x1x10xf32>
  %a = "nn.add"(%b, %m) : (tensor<10xf32>, tensor<8x1x10xf32>) -> tensor<8x1x10xf32>
  %y = "nn.add"(%a, %r) : (tensor<8x1x10xf32>, tensor<8x1x10xf32>) -> tensor<8x1x10xf32>
  return %y : tensor<8x1x10xf32>
}
// The sigmoid gates (SiLU, sigmoid) in the conv, depthwise and GEMM
// epilogues, with vector tails, after a bias and a residual; the scaled
// product reaches exp's overflow (sigmoid(-big) is exactly 0).
func.func @conv_bias_silu(%x: tensor<1x5x7x9xf32>, %w: tensor<6x5x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x7x9xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x5x7x9xf32>, tensor<6x5x3x3xf32>, tensor<6xf32>) -> tensor<1x6x7x9xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x6x7x9xf32>) -> tensor<1x6x7x9xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x6x7x9xf32>, tensor<1x6x7x9xf32>) -> tensor<1x6x7x9xf32>
  return %z : tensor<1x6x7x9xf32>
}
func.func @depthwise5x5_s2_silu(%x: tensor<1x19x11x13xf32>, %w: tensor<19x1x5x5xf32>, %b: tensor<19xf32>) -> tensor<1x19x6x7xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 19 : i64, strides = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x19x11x13xf32>, tensor<19x1x5x5xf32>, tensor<19xf32>) -> tensor<1x19x6x7xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x19x6x7xf32>) -> tensor<1x19x6x7xf32>
  %z = "nn.mul"(%s, %y) : (tensor<1x19x6x7xf32>, tensor<1x19x6x7xf32>) -> tensor<1x19x6x7xf32>
  return %z : tensor<1x19x6x7xf32>
}
func.func @matmul_residual_silu(%a: tensor<7x13xf32>, %b: tensor<13x19xf32>, %r: tensor<7x19xf32>) -> tensor<7x19xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<7x13xf32>, tensor<13x19xf32>) -> tensor<7x19xf32>
  %t = "nn.add"(%y, %r) : (tensor<7x19xf32>, tensor<7x19xf32>) -> tensor<7x19xf32>
  %s = "nn.sigmoid"(%t) : (tensor<7x19xf32>) -> tensor<7x19xf32>
  %z = "nn.mul"(%t, %s) : (tensor<7x19xf32>, tensor<7x19xf32>) -> tensor<7x19xf32>
  return %z : tensor<7x19xf32>
}
func.func @matmul_scaled_sigmoid(%a: tensor<9x33xf32>, %b: tensor<33x21xf32>) -> tensor<9x21xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<9x33xf32>, tensor<33x21xf32>) -> tensor<9x21xf32>
  %k = "nn.constant"() {value = dense<400.0> : tensor<f32>} : () -> tensor<f32>
  %big = "nn.mul"(%y, %k) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  %g = "nn.sigmoid"(%big) : (tensor<9x21xf32>) -> tensor<9x21xf32>
  return %g : tensor<9x21xf32>
}
func.func @matmul_scaled_silu(%a: tensor<9x33xf32>, %b: tensor<33x21xf32>) -> tensor<9x21xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<9x33xf32>, tensor<33x21xf32>) -> tensor<9x21xf32>
  %k = "nn.constant"() {value = dense<400.0> : tensor<f32>} : () -> tensor<f32>
  %big = "nn.mul"(%y, %k) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  %s = "nn.sigmoid"(%big) : (tensor<9x21xf32>) -> tensor<9x21xf32>
  %z = "nn.mul"(%big, %s) : (tensor<9x21xf32>, tensor<9x21xf32>) -> tensor<9x21xf32>
  return %z : tensor<9x21xf32>
}
// Padding wider than the kernel's reach: whole windows in the padding
// (the im2col packing reads the image in place and writes the zeros).
func.func @conv_wide_pads(%x: tensor<1x4x7x6xf32>, %w: tensor<5x4x3x3xf32>) -> tensor<1x5x4x5xf32> {
  %y = "nn.conv"(%x, %w) {pads = array<i64: 4, 5, 3, 2>, strides = array<i64: 3, 2>, dilations = array<i64: 2, 2>} : (tensor<1x4x7x6xf32>, tensor<5x4x3x3xf32>) -> tensor<1x5x4x5xf32>
  return %y : tensor<1x5x4x5xf32>
}
// A squeeze-and-excitation scale before a 1x1 conv, applied while the
// conv packs its input: per image (batch 2) and shared, strided, with a
// bias and an activation after; a 3x3 conv keeps its Mul.
func.func @se_scale_conv1x1(%x: tensor<2x19x5x7xf32>, %g: tensor<2x19x1x1xf32>, %w: tensor<13x19x1x1xf32>, %b: tensor<13xf32>) -> tensor<2x13x5x7xf32> {
  %s = "nn.mul"(%x, %g) : (tensor<2x19x5x7xf32>, tensor<2x19x1x1xf32>) -> tensor<2x19x5x7xf32>
  %y = "nn.conv"(%s, %w, %b) : (tensor<2x19x5x7xf32>, tensor<13x19x1x1xf32>, tensor<13xf32>) -> tensor<2x13x5x7xf32>
  %r = "nn.relu"(%y) : (tensor<2x13x5x7xf32>) -> tensor<2x13x5x7xf32>
  return %r : tensor<2x13x5x7xf32>
}
func.func @se_scale_shared_strided(%x: tensor<2x33x9x8xf32>, %g: tensor<1x33x1x1xf32>, %w: tensor<40x33x1x1xf32>) -> tensor<2x40x5x4xf32> {
  %s = "nn.mul"(%g, %x) : (tensor<1x33x1x1xf32>, tensor<2x33x9x8xf32>) -> tensor<2x33x9x8xf32>
  %y = "nn.conv"(%s, %w) {strides = array<i64: 2, 2>} : (tensor<2x33x9x8xf32>, tensor<40x33x1x1xf32>) -> tensor<2x40x5x4xf32>
  return %y : tensor<2x40x5x4xf32>
}
func.func @se_scale_one_channel(%x: tensor<1x24x16x16xf32>, %g: tensor<1x24x1x1xf32>, %w: tensor<1x24x1x1xf32>, %w2: tensor<40x24x1x1xf32>) -> (tensor<1x1x16x16xf32>, tensor<1x40x16x16xf32>) {
  %s = "nn.mul"(%x, %g) : (tensor<1x24x16x16xf32>, tensor<1x24x1x1xf32>) -> tensor<1x24x16x16xf32>
  %y = "nn.conv"(%s, %w) : (tensor<1x24x16x16xf32>, tensor<1x24x1x1xf32>) -> tensor<1x1x16x16xf32>
  %t = "nn.mul"(%g, %x) : (tensor<1x24x1x1xf32>, tensor<1x24x16x16xf32>) -> tensor<1x24x16x16xf32>
  %z = "nn.conv"(%t, %w2) : (tensor<1x24x16x16xf32>, tensor<40x24x1x1xf32>) -> tensor<1x40x16x16xf32>
  return %y, %z : tensor<1x1x16x16xf32>, tensor<1x40x16x16xf32>
}
func.func @se_scale_one_input_channel(%x: tensor<1x1x6x6xf32>, %g: tensor<1x1x1x1xf32>, %w: tensor<3x1x1x1xf32>) -> tensor<1x3x6x6xf32> {
  %s = "nn.mul"(%x, %g) : (tensor<1x1x6x6xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x6x6xf32>
  %y = "nn.conv"(%s, %w) : (tensor<1x1x6x6xf32>, tensor<3x1x1x1xf32>) -> tensor<1x3x6x6xf32>
  return %y : tensor<1x3x6x6xf32>
}
func.func @se_scale_conv3x3(%x: tensor<1x8x6x6xf32>, %g: tensor<1x8x1x1xf32>, %w: tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32> {
  %s = "nn.mul"(%x, %g) : (tensor<1x8x6x6xf32>, tensor<1x8x1x1xf32>) -> tensor<1x8x6x6xf32>
  %y = "nn.conv"(%s, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x6x6xf32>, tensor<4x8x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
// GELU, erf and tanh forms, in the conv, depthwise and GEMM epilogues:
// the matmul's decomposed erf chain (as PyTorch exports it, raised by
// nn-raise), values scaled past erf's clamp at 4 and tanh's exp range.
func.func @matmul_bias_gelu_chain(%a: tensor<9x33xf32>, %b: tensor<33x21xf32>, %c: tensor<21xf32>) -> tensor<9x21xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<9x33xf32>, tensor<33x21xf32>) -> tensor<9x21xf32>
  %t = "nn.add"(%y, %c) : (tensor<9x21xf32>, tensor<21xf32>) -> tensor<9x21xf32>
  %k = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %x = "nn.mul"(%t, %k) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  %r2 = "nn.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %u = "nn.div"(%x, %r2) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  %e = "nn.erf"(%u) : (tensor<9x21xf32>) -> tensor<9x21xf32>
  %p = "nn.add"(%e, %one) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  %m = "nn.mul"(%x, %p) : (tensor<9x21xf32>, tensor<9x21xf32>) -> tensor<9x21xf32>
  %g = "nn.mul"(%m, %half) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  return %g : tensor<9x21xf32>
}
func.func @matmul_gelu_tanh(%a: tensor<7x40xf32>, %b: tensor<40x35xf32>) -> tensor<7x35xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<7x40xf32>, tensor<40x35xf32>) -> tensor<7x35xf32>
  %k = "nn.constant"() {value = dense<40.0> : tensor<f32>} : () -> tensor<f32>
  %x = "nn.mul"(%y, %k) : (tensor<7x35xf32>, tensor<f32>) -> tensor<7x35xf32>
  %g = "nn.gelu"(%x) {approximate = "tanh"} : (tensor<7x35xf32>) -> tensor<7x35xf32>
  return %g : tensor<7x35xf32>
}
func.func @conv_bias_gelu(%x: tensor<1x5x7x9xf32>, %w: tensor<6x5x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x7x9xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x5x7x9xf32>, tensor<6x5x3x3xf32>, tensor<6xf32>) -> tensor<1x6x7x9xf32>
  %z = "nn.gelu"(%y) : (tensor<1x6x7x9xf32>) -> tensor<1x6x7x9xf32>
  return %z : tensor<1x6x7x9xf32>
}
func.func @depthwise7x7_gelu_tanh(%x: tensor<1x19x11x13xf32>, %w: tensor<19x1x7x7xf32>, %b: tensor<19xf32>) -> tensor<1x19x11x13xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 19 : i64, pads = array<i64: 3, 3, 3, 3>} : (tensor<1x19x11x13xf32>, tensor<19x1x7x7xf32>, tensor<19xf32>) -> tensor<1x19x11x13xf32>
  %z = "nn.gelu"(%y) {approximate = "tanh"} : (tensor<1x19x11x13xf32>) -> tensor<1x19x11x13xf32>
  return %z : tensor<1x19x11x13xf32>
}
// Hard-swish (MobileNetV3's) in the conv, depthwise and GEMM epilogues.
func.func @conv_hardswish(%x: tensor<1x5x7x9xf32>, %w: tensor<6x5x3x3xf32>, %b: tensor<6xf32>) -> tensor<1x6x7x9xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x5x7x9xf32>, tensor<6x5x3x3xf32>, tensor<6xf32>) -> tensor<1x6x7x9xf32>
  %z = "nn.hard_swish"(%y) : (tensor<1x6x7x9xf32>) -> tensor<1x6x7x9xf32>
  return %z : tensor<1x6x7x9xf32>
}
func.func @depthwise_hardswish(%x: tensor<1x19x11x13xf32>, %w: tensor<19x1x3x3xf32>) -> tensor<1x19x11x13xf32> {
  %y = "nn.conv"(%x, %w) {group = 19 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x19x11x13xf32>, tensor<19x1x3x3xf32>) -> tensor<1x19x11x13xf32>
  %z = "nn.hard_swish"(%y) : (tensor<1x19x11x13xf32>) -> tensor<1x19x11x13xf32>
  return %z : tensor<1x19x11x13xf32>
}
func.func @matmul_scaled_hardswish(%a: tensor<9x33xf32>, %b: tensor<33x21xf32>) -> tensor<9x21xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<9x33xf32>, tensor<33x21xf32>) -> tensor<9x21xf32>
  %k = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%y, %k) : (tensor<9x21xf32>, tensor<f32>) -> tensor<9x21xf32>
  %z = "nn.hard_swish"(%s) : (tensor<9x21xf32>) -> tensor<9x21xf32>
  return %z : tensor<9x21xf32>
}
