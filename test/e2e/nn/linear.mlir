// MatMul, Gemm, Conv (1-D/2-D/3-D, groups, depthwise, strides, dilations,
// explicit and auto pads), ConvTranspose: JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @matmul_i32(%a: tensor<3x4xi32>, %b: tensor<4x5xi32>) -> tensor<3x5xi32> {
  %r = "nn.matmul"(%a, %b) : (tensor<3x4xi32>, tensor<4x5xi32>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}
func.func @matmul_batch_bcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<2x1x3x4xf32>, tensor<5x4x6xf32>) -> tensor<2x5x3x6xf32>
  return %r : tensor<2x5x3x6xf32>
}
func.func @gemm_plain(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.gemm"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @gemm_trans_bias_row(%a: tensor<4x3xf32>, %b: tensor<5x4xf32>, %c: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<4x3xf32>, tensor<5x4xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @gemm_bias_full(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.gemm"(%a, %b, %c) {beta = 0.0 : f32} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @gemm_bias_scalar(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<1xf32>) -> tensor<3x5xf32> {
  %r = "nn.gemm"(%a, %b, %c) {transB = 0 : i64} : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<1xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @conv1d_stride_pad(%x: tensor<2x3x11xf32>, %w: tensor<4x3x3xf32>, %b: tensor<4xf32>) -> tensor<2x4x6xf32> {
  %r = "nn.conv"(%x, %w, %b) {strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<2x3x11xf32>, tensor<4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x6xf32>
  return %r : tensor<2x4x6xf32>
}
func.func @conv1d_dilated(%x: tensor<1x2x10xf32>, %w: tensor<3x2x3xf32>) -> tensor<1x3x6xf32> {
  %r = "nn.conv"(%x, %w) {dilations = array<i64: 2>} : (tensor<1x2x10xf32>, tensor<3x2x3xf32>) -> tensor<1x3x6xf32>
  return %r : tensor<1x3x6xf32>
}
func.func @conv2d_same_upper(%x: tensor<1x2x7x6xf32>, %w: tensor<3x2x3x2xf32>) -> tensor<1x3x4x3xf32> {
  %r = "nn.conv"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x2x7x6xf32>, tensor<3x2x3x2xf32>) -> tensor<1x3x4x3xf32>
  return %r : tensor<1x3x4x3xf32>
}
func.func @conv2d_same_lower(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x4x4xf32>) -> tensor<1x3x6x6xf32> {
  %r = "nn.conv"(%x, %w) {auto_pad = "SAME_LOWER"} : (tensor<1x2x6x6xf32>, tensor<3x2x4x4xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}
func.func @conv2d_valid(%x: tensor<1x2x6x6xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32> {
  %r = "nn.conv"(%x, %w) {auto_pad = "VALID", strides = array<i64: 3, 3>} : (tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x2x2xf32>
  return %r : tensor<1x3x2x2xf32>
}
func.func @conv2d_groups_dilation(%x: tensor<2x6x9x9xf32>, %w: tensor<9x2x3x3xf32>, %b: tensor<9xf32>) -> tensor<2x9x5x5xf32> {
  %r = "nn.conv"(%x, %w, %b) {group = 3 : i64, dilations = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, 0>} : (tensor<2x6x9x9xf32>, tensor<9x2x3x3xf32>, tensor<9xf32>) -> tensor<2x9x5x5xf32>
  return %r : tensor<2x9x5x5xf32>
}
func.func @conv2d_depthwise_multiplier(%x: tensor<1x3x5x5xf32>, %w: tensor<6x1x3x3xf32>) -> tensor<1x6x5x5xf32> {
  %r = "nn.conv"(%x, %w) {group = 3 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x5x5xf32>
  return %r : tensor<1x6x5x5xf32>
}
func.func @conv3d(%x: tensor<1x2x5x6x4xf32>, %w: tensor<3x2x3x3x2xf32>, %b: tensor<3xf32>) -> tensor<1x3x3x3x4xf32> {
  %r = "nn.conv"(%x, %w, %b) {strides = array<i64: 1, 2, 1>, pads = array<i64: 0, 0, 1, 0, 1, 0>} : (tensor<1x2x5x6x4xf32>, tensor<3x2x3x3x2xf32>, tensor<3xf32>) -> tensor<1x3x3x3x4xf32>
  return %r : tensor<1x3x3x3x4xf32>
}
func.func @conv_transpose_basic(%x: tensor<1x2x4x4xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x3x6x6xf32> {
  %r = "nn.conv_transpose"(%x, %w) : (tensor<1x2x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x3x6x6xf32>
  return %r : tensor<1x3x6x6xf32>
}
func.func @conv_transpose_stride_pad_outpad(%x: tensor<2x4x3x3xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<2x2x6x6xf32> {
  %r = "nn.conv_transpose"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, output_padding = array<i64: 1, 1>} : (tensor<2x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x6x6xf32>
  return %r : tensor<2x2x6x6xf32>
}
func.func @conv_transpose_group_dilation(%x: tensor<1x4x3x3xf32>, %w: tensor<4x3x2x2xf32>) -> tensor<1x6x5x5xf32> {
  %r = "nn.conv_transpose"(%x, %w) {group = 2 : i64, dilations = array<i64: 2, 2>, strides = array<i64: 1, 1>} : (tensor<1x4x3x3xf32>, tensor<4x3x2x2xf32>) -> tensor<1x6x5x5xf32>
  return %r : tensor<1x6x5x5xf32>
}
func.func @conv_transpose_same_upper(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  %r = "nn.conv_transpose"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %r : tensor<1x2x6x6xf32>
}
func.func @conv_transpose_output_shape(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x7x6xf32> {
  %r = "nn.conv_transpose"(%x, %w) {strides = array<i64: 2, 2>, output_shape = array<i64: 7, 6>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x7x6xf32>
  return %r : tensor<1x2x7x6xf32>
}
func.func @conv_transpose_1d(%x: tensor<1x2x5xf32>, %w: tensor<2x3x4xf32>) -> tensor<1x3x13xf32> {
  %r = "nn.conv_transpose"(%x, %w) {strides = array<i64: 3>, pads = array<i64: 1, 2>} : (tensor<1x2x5xf32>, tensor<2x3x4xf32>) -> tensor<1x3x13xf32>
  return %r : tensor<1x3x13xf32>
}
