// QuantizeLinear / DequantizeLinear: JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @quantize_u8_per_tensor(%x: tensor<3x4xf32>) -> tensor<3x4xui8> {
  %s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.quantize_linear"(%x, %s, %z) : (tensor<3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x4xui8>
  return %r : tensor<3x4xui8>
}
func.func @quantize_i8_per_axis_saturating(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xi8> {
  %s = "nn.constant"() {value = dense<[0.004, 0.01, 0.02]> : tensor<3xf32>} : () -> tensor<3xf32>
  %z = "nn.constant"() {value = dense<[0, -5, 3]> : tensor<3xi8>} : () -> tensor<3xi8>
  %r = "nn.quantize_linear"(%x, %s, %z) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<2x3x4xi8>
  return %r : tensor<2x3x4xi8>
}
func.func @quantize_default_zp(%x: tensor<6xf32>) -> tensor<6xui8> {
  %s = "nn.constant"() {value = dense<[0.005]> : tensor<1xf32>} : () -> tensor<1xf32>
  %a = "nn.abs"(%x) : (tensor<6xf32>) -> tensor<6xf32>
  %r = "nn.quantize_linear"(%a, %s) : (tensor<6xf32>, tensor<1xf32>) -> tensor<6xui8>
  return %r : tensor<6xui8>
}
func.func @dequantize_u8(%x: tensor<3x4xui8>) -> tensor<3x4xf32> {
  %s = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<7> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.dequantize_linear"(%x, %s, %z) : (tensor<3x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @dequantize_i8_per_axis(%x: tensor<2x3xi8>) -> tensor<2x3xf32> {
  %s = "nn.constant"() {value = dense<[0.1, 0.2]> : tensor<2xf32>} : () -> tensor<2xf32>
  %z = "nn.constant"() {value = dense<[1, -1]> : tensor<2xi8>} : () -> tensor<2xi8>
  %r = "nn.dequantize_linear"(%x, %s, %z) {axis = 0 : i64} : (tensor<2x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @qdq_roundtrip(%x: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %s = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %q = "nn.quantize_linear"(%x, %s, %z) : (tensor<4x5xf32>, tensor<f32>, tensor<i8>) -> tensor<4x5xi8>
  %r = "nn.dequantize_linear"(%q, %s, %z) : (tensor<4x5xi8>, tensor<f32>, tensor<i8>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
