// MaxPool's Indices output (nn.max_pool_with_indices): JIT against the
// interpreter. Integer inputs in [-8, 8) tie often: the first maximum in
// window order wins in both.
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @pads_dilations(%x: tensor<2x3x7x6xf32>) -> (tensor<2x3x5x6xf32>, tensor<2x3x5x6xi64>) {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 1>} : (tensor<2x3x7x6xf32>) -> (tensor<2x3x5x6xf32>, tensor<2x3x5x6xi64>)
  return %y, %i : tensor<2x3x5x6xf32>, tensor<2x3x5x6xi64>
}
func.func @column_major_ceil(%x: tensor<2x3x7x6xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x3x3xi64>) {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64, storage_order = 1 : i64} : (tensor<2x3x7x6xf32>) -> (tensor<2x3x3x3xf32>, tensor<2x3x3x3xi64>)
  return %y, %i : tensor<2x3x3x3xf32>, tensor<2x3x3x3xi64>
}
func.func @same_upper(%x: tensor<1x2x7x6xf64>) -> (tensor<1x2x4x3xf64>, tensor<1x2x4x3xi64>) {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 3, 2>, strides = array<i64: 2, 2>, auto_pad = "SAME_UPPER"} : (tensor<1x2x7x6xf64>) -> (tensor<1x2x4x3xf64>, tensor<1x2x4x3xi64>)
  return %y, %i : tensor<1x2x4x3xf64>, tensor<1x2x4x3xi64>
}
func.func @one_d_i8(%x: tensor<2x3x9xi8>) -> (tensor<2x3x4xi8>, tensor<2x3x4xi64>) {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<2x3x9xi8>) -> (tensor<2x3x4xi8>, tensor<2x3x4xi64>)
  return %y, %i : tensor<2x3x4xi8>, tensor<2x3x4xi64>
}
func.func @three_d_ui8(%x: tensor<1x2x4x5x3xui8>) -> (tensor<1x2x3x4x2xui8>, tensor<1x2x3x4x2xi64>) {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 2, 2, 2>, storage_order = 1 : i64} : (tensor<1x2x4x5x3xui8>) -> (tensor<1x2x3x4x2xui8>, tensor<1x2x3x4x2xi64>)
  return %y, %i : tensor<1x2x3x4x2xui8>, tensor<1x2x3x4x2xi64>
}
// MaxUnpool of MaxPool's indices: the maxima back in place, zeros elsewhere.
func.func @pool_unpool(%x: tensor<2x3x6x8xf32>) -> tensor<2x3x6x8xf32> {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x6x8xf32>) -> (tensor<2x3x3x4xf32>, tensor<2x3x3x4xi64>)
  %u = "nn.max_unpool"(%y, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x3x4xf32>, tensor<2x3x3x4xi64>) -> tensor<2x3x6x8xf32>
  return %u : tensor<2x3x6x8xf32>
}
// Overlapping windows (stride 1) write some places twice.
func.func @unpool_overlap(%x: tensor<1x2x5x5xi8>) -> tensor<1x2x5x5xi8> {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x5x5xi8>) -> (tensor<1x2x4x4xi8>, tensor<1x2x4x4xi64>)
  %u = "nn.max_unpool"(%y, %i) {kernel_shape = array<i64: 2, 2>} : (tensor<1x2x4x4xi8>, tensor<1x2x4x4xi64>) -> tensor<1x2x5x5xi8>
  return %u : tensor<1x2x5x5xi8>
}
// A larger output_shape: the default-shaped result at the origin of its zeros
// (every extent larger, N and C included, and one equal).
func.func @unpool_output_shape(%x: tensor<2x3x6x8xf32>) -> tensor<3x4x7x8xf32> {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x6x8xf32>) -> (tensor<2x3x3x4xf32>, tensor<2x3x3x4xi64>)
  %s = "nn.constant"() {value = dense<[3, 4, 7, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  %u = "nn.max_unpool"(%y, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x3x4xf32>, tensor<2x3x3x4xi64>, tensor<4xi64>) -> tensor<3x4x7x8xf32>
  return %u : tensor<3x4x7x8xf32>
}
func.func @unpool_output_shape_1d_i8(%x: tensor<1x2x9xi8>) -> tensor<1x2x12xi8> {
  %y, %i = "nn.max_pool_with_indices"(%x) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x2x9xi8>) -> (tensor<1x2x5xi8>, tensor<1x2x5xi64>)
  %s = "nn.constant"() {value = dense<[1, 2, 12]> : tensor<3xi64>} : () -> tensor<3xi64>
  %u = "nn.max_unpool"(%y, %i, %s) {kernel_shape = array<i64: 3>, strides = array<i64: 2>, pads = array<i64: 1, 1>} : (tensor<1x2x5xi8>, tensor<1x2x5xi64>, tensor<3xi64>) -> tensor<1x2x12xi8>
  return %u : tensor<1x2x12xi8>
}
