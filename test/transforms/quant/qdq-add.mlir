// --nn-qdq-to-qlinear, the residual Add: DequantizeLinear x2 -> Add [-> Relu
// | Clip] -> QuantizeLinear, all per tensor on 8-bit tensors, becomes
// nn.gather of a constant table of the chain's 65536 values (and 4 zero
// bytes) at (a - amin) * 256 + (b - bmin); not per tensor, or another user
// of the Add, keeps the float chain. Values: qdq-add-numerics.test.
// RUN: strata-opt %s --split-input-file --nn-qdq-to-qlinear | FileCheck %s

// a i8 (offset 128 * 256), b u8; a Relu. The Add's broadcast stays in the
// index.
// CHECK-LABEL: func.func @add_relu
// CHECK: %[[T:.*]] = "nn.constant"() {value = dense<{{.*}}> : tensor<65540xui8>}
// CHECK: %[[IA:.*]] = "nn.cast"(%arg0) : (tensor<2x1x3xi8>) -> tensor<2x1x3xi32>
// CHECK: %[[IB:.*]] = "nn.cast"(%arg1) : (tensor<4x1xui8>) -> tensor<4x1xi32>
// CHECK: %[[K:.*]] = "nn.constant"() {value = dense<256> : tensor<i32>}
// CHECK: %[[M:.*]] = "nn.mul"(%[[IA]], %[[K]])
// CHECK: %[[S:.*]] = "nn.add"(%[[M]], %[[IB]]) : (tensor<2x1x3xi32>, tensor<4x1xi32>) -> tensor<2x4x3xi32>
// CHECK: %[[O:.*]] = "nn.constant"() {value = dense<32768> : tensor<i32>}
// CHECK: %[[S2:.*]] = "nn.add"(%[[S]], %[[O]])
// CHECK: %[[Y:.*]] = "nn.gather"(%[[T]], %[[S2]]) {axis = 0 : i64} : (tensor<65540xui8>, tensor<2x4x3xi32>) -> tensor<2x4x3xui8>
// CHECK: return %[[Y]]
// CHECK-NOT: nn.relu
// CHECK-NOT: nn.quantize_linear
func.func @add_relu(%a: tensor<2x1x3xi8>, %b: tensor<4x1xui8>) -> tensor<2x4x3xui8> {
  %sa = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %za = "nn.constant"() {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  %sb = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %zb = "nn.constant"() {value = dense<100> : tensor<ui8>} : () -> tensor<ui8>
  %sy = "nn.constant"() {value = dense<0.04> : tensor<f32>} : () -> tensor<f32>
  %zy = "nn.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %fa = "nn.dequantize_linear"(%a, %sa, %za) : (tensor<2x1x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x1x3xf32>
  %fb = "nn.dequantize_linear"(%b, %sb, %zb) : (tensor<4x1xui8>, tensor<f32>, tensor<ui8>) -> tensor<4x1xf32>
  %s = "nn.add"(%fa, %fb) : (tensor<2x1x3xf32>, tensor<4x1xf32>) -> tensor<2x4x3xf32>
  %r = "nn.relu"(%s) : (tensor<2x4x3xf32>) -> tensor<2x4x3xf32>
  %y = "nn.quantize_linear"(%r, %sy, %zy) : (tensor<2x4x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x4x3xui8>
  return %y : tensor<2x4x3xui8>
}

// -----
// b's scale per channel: the chain is no function of the two bytes alone.
// CHECK-LABEL: func.func @per_channel
// CHECK: "nn.add"({{.*}}) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK: nn.quantize_linear
// CHECK-NOT: nn.gather
func.func @per_channel(%a: tensor<1x2xui8>, %b: tensor<1x2xui8>) -> tensor<1x2xui8> {
  %s = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %s2 = "nn.constant"() {value = dense<[0.05, 0.1]> : tensor<2xf32>} : () -> tensor<2xf32>
  %z = "nn.constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %z2 = "nn.constant"() {value = dense<3> : tensor<2xui8>} : () -> tensor<2xui8>
  %fa = "nn.dequantize_linear"(%a, %s, %z) : (tensor<1x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2xf32>
  %fb = "nn.dequantize_linear"(%b, %s2, %z2) {axis = 1 : i64} : (tensor<1x2xui8>, tensor<2xf32>, tensor<2xui8>) -> tensor<1x2xf32>
  %sum = "nn.add"(%fa, %fb) : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  %y = "nn.quantize_linear"(%sum, %s, %z) : (tensor<1x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2xui8>
  return %y : tensor<1x2xui8>
}

// -----
// The Add's value is also returned: it stays float.
// CHECK-LABEL: func.func @add_used_twice
// CHECK: nn.add
// CHECK: nn.quantize_linear
// CHECK-NOT: nn.gather
func.func @add_used_twice(%a: tensor<3xui8>, %b: tensor<3xui8>) -> (tensor<3xui8>, tensor<3xf32>) {
  %s = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<3> : tensor<ui8>} : () -> tensor<ui8>
  %fa = "nn.dequantize_linear"(%a, %s, %z) : (tensor<3xui8>, tensor<f32>, tensor<ui8>) -> tensor<3xf32>
  %fb = "nn.dequantize_linear"(%b, %s, %z) : (tensor<3xui8>, tensor<f32>, tensor<ui8>) -> tensor<3xf32>
  %sum = "nn.add"(%fa, %fb) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %y = "nn.quantize_linear"(%sum, %s, %z) : (tensor<3xf32>, tensor<f32>, tensor<ui8>) -> tensor<3xui8>
  return %y, %sum : tensor<3xui8>, tensor<3xf32>
}
