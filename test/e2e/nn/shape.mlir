// Shape computation and constants: JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @shape_all(%x: tensor<2x3x4xf32>) -> tensor<3xi64> {
  %r = "nn.shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  return %r : tensor<3xi64>
}
func.func @shape_slice(%x: tensor<2x3x4x5xf32>) -> tensor<2xi64> {
  %r = "nn.shape"(%x) {start = 1 : i64, end = -1 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2xi64>
  return %r : tensor<2xi64>
}
func.func @size(%x: tensor<2x3x4xf32>) -> tensor<i64> {
  %r = "nn.size"(%x) : (tensor<2x3x4xf32>) -> tensor<i64>
  return %r : tensor<i64>
}
func.func @constant_of_shape_default() -> tensor<2x3xf32> {
  %s = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.constant_of_shape"(%s) : (tensor<2xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @constant_of_shape_value() -> tensor<4xi32> {
  %s = "nn.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "nn.constant_of_shape"(%s) {value = dense<7> : tensor<1xi32>} : (tensor<1xi64>) -> tensor<4xi32>
  return %r : tensor<4xi32>
}
func.func @range_float() -> tensor<5xf32> {
  %a = "nn.constant"() {value = dense<-1.0> : tensor<f32>} : () -> tensor<f32>
  %b = "nn.constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %d = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %r = "nn.range"(%a, %b, %d) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  return %r : tensor<5xf32>
}
func.func @range_int_down() -> tensor<3xi64> {
  %a = "nn.constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %b = "nn.constant"() {value = dense<2> : tensor<i64>} : () -> tensor<i64>
  %d = "nn.constant"() {value = dense<-3> : tensor<i64>} : () -> tensor<i64>
  %r = "nn.range"(%a, %b, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<3xi64>
  %c = "nn.shape"(%r) : (tensor<3xi64>) -> tensor<1xi64>
  %z = "nn.add"(%r, %c) : (tensor<3xi64>, tensor<1xi64>) -> tensor<3xi64>
  return %z : tensor<3xi64>
}
