// Pooling and normalization: JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @max_basic(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x3x3xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x7x6xf32>) -> tensor<2x3x3x3xf32>
  return %r : tensor<2x3x3x3xf32>
}
func.func @max_pad_dil(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x5x6xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 1>} : (tensor<2x3x7x6xf32>) -> tensor<2x3x5x6xf32>
  return %r : tensor<2x3x5x6xf32>
}
func.func @max_ceil(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x3x3xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<2x3x7x6xf32>) -> tensor<2x3x3x3xf32>
  return %r : tensor<2x3x3x3xf32>
}
func.func @max_same(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, auto_pad = "SAME_UPPER"} : (tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32>
  return %r : tensor<2x3x4x3xf32>
}
func.func @avg_basic(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x5x4xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 3, 3>} : (tensor<2x3x7x6xf32>) -> tensor<2x3x5x4xf32>
  return %r : tensor<2x3x5x4xf32>
}
func.func @avg_pad_exclude(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32>
  return %r : tensor<2x3x4x3xf32>
}
func.func @avg_pad_include(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>, count_include_pad = 1 : i64} : (tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32>
  return %r : tensor<2x3x4x3xf32>
}
func.func @avg_ceil(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<2x3x7x6xf32>) -> tensor<2x3x4x3xf32>
  return %r : tensor<2x3x4x3xf32>
}
func.func @avg_ceil_include(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x4x4xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, ceil_mode = 1 : i64, count_include_pad = 1 : i64} : (tensor<2x3x7x6xf32>) -> tensor<2x3x4x4xf32>
  return %r : tensor<2x3x4x4xf32>
}
func.func @max_pool_1d(%x: tensor<2x3x9xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<2x3x9xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @avg_pool_3d(%x: tensor<1x2x4x5x6xf32>) -> tensor<1x2x3x6x6xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 2, 2, 3>, pads = array<i64: 0, 1, 1, 0, 1, 1>} : (tensor<1x2x4x5x6xf32>) -> tensor<1x2x3x6x6xf32>
  return %r : tensor<1x2x3x6x6xf32>
}
func.func @max_pool_i8(%x: tensor<1x2x5x5xi8>) -> tensor<1x2x5x5xi8> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x5x5xi8>) -> tensor<1x2x5x5xi8>
  return %r : tensor<1x2x5x5xi8>
}
func.func @global_avg(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x1x1xf32> {
  %r = "nn.global_average_pool"(%x) : (tensor<2x3x7x6xf32>) -> tensor<2x3x1x1xf32>
  return %r : tensor<2x3x1x1xf32>
}
func.func @global_max(%x: tensor<2x3x7x6xf32>) -> tensor<2x3x1x1xf32> {
  %r = "nn.global_max_pool"(%x) : (tensor<2x3x7x6xf32>) -> tensor<2x3x1x1xf32>
  return %r : tensor<2x3x1x1xf32>
}
func.func @batch_norm(%x: tensor<2x3x7x6xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) -> tensor<2x3x7x6xf32> {
  %a = "nn.abs"(%v) : (tensor<3xf32>) -> tensor<3xf32>
  %r = "nn.batch_normalization"(%x, %s, %b, %m, %a) {epsilon = 1.0e-3 : f32} : (tensor<2x3x7x6xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x7x6xf32>
  return %r : tensor<2x3x7x6xf32>
}
func.func @layer_norm_last(%x: tensor<2x4x8xf32>, %s: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %r = "nn.layer_normalization"(%x, %s, %b) : (tensor<2x4x8xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %r : tensor<2x4x8xf32>
}
func.func @layer_norm_axis1_nobias(%x: tensor<2x4x8xf32>, %s: tensor<4x8xf32>) -> tensor<2x4x8xf32> {
  %r = "nn.layer_normalization"(%x, %s) {axis = 1 : i64, epsilon = 1.0e-2 : f32} : (tensor<2x4x8xf32>, tensor<4x8xf32>) -> tensor<2x4x8xf32>
  return %r : tensor<2x4x8xf32>
}
func.func @instance_norm(%x: tensor<2x3x7x6xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<2x3x7x6xf32> {
  %r = "nn.instance_normalization"(%x, %s, %b) : (tensor<2x3x7x6xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x7x6xf32>
  return %r : tensor<2x3x7x6xf32>
}
func.func @group_norm_per_channel(%x: tensor<2x6x3x4xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<2x6x3x4xf32> {
  %r = "nn.group_normalization"(%x, %s, %b) {num_groups = 3 : i64} : (tensor<2x6x3x4xf32>, tensor<6xf32>, tensor<6xf32>) -> tensor<2x6x3x4xf32>
  return %r : tensor<2x6x3x4xf32>
}
func.func @group_norm_per_group(%x: tensor<2x6x3x4xf32>, %s: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2x6x3x4xf32> {
  %r = "nn.group_normalization"(%x, %s, %b) {num_groups = 2 : i64} : (tensor<2x6x3x4xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x6x3x4xf32>
  return %r : tensor<2x6x3x4xf32>
}
