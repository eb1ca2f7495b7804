// --nn-raise: GELU's erf and tanh spellings become nn.gelu; chains that
// compute something else, or whose values have other readers, stay.
// RUN: strata-opt %s --split-input-file --nn-raise | FileCheck %s

// PyTorch's opset-14 export: Div, Erf, Add, Mul(x, .), Mul(., 0.5).
// CHECK-LABEL: func.func @torch_erf
// CHECK: %[[Y:.*]] = "nn.gelu"(%arg0) {approximate = "none"}
// CHECK-NOT: nn.erf
// CHECK-NOT: nn.mul
// CHECK: return %[[Y]]
func.func @torch_erf(%x: tensor<2x8xf32>) -> tensor<2x8xf32> {
  %r2 = "nn.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %u = "nn.div"(%x, %r2) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %e = "nn.erf"(%u) : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %a = "nn.add"(%e, %one) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  %m = "nn.mul"(%x, %a) : (tensor<2x8xf32>, tensor<2x8xf32>) -> tensor<2x8xf32>
  %y = "nn.mul"(%m, %half) : (tensor<2x8xf32>, tensor<f32>) -> tensor<2x8xf32>
  return %y : tensor<2x8xf32>
}

// -----
// x * (1/sqrt 2), constants on the left, (0.5 * x) * (1 + e); x has
// another reader, which keeps it.
// CHECK-LABEL: func.func @half_first
// CHECK: %[[Y:.*]] = "nn.gelu"(%arg0) {approximate = "none"}
// CHECK: "nn.add"(%[[Y]], %arg0)
// CHECK-NOT: nn.erf
func.func @half_first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "nn.constant"() {value = dense<0.707106769> : tensor<1xf32>} : () -> tensor<1xf32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %u = "nn.mul"(%r, %x) : (tensor<1xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e = "nn.erf"(%u) : (tensor<4xf32>) -> tensor<4xf32>
  %a = "nn.add"(%one, %e) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %h = "nn.mul"(%half, %x) : (tensor<f32>, tensor<4xf32>) -> tensor<4xf32>
  %g = "nn.mul"(%h, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = "nn.add"(%g, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----
// The tanh form as torch exports approximate='tanh': x * (x * x).
// CHECK-LABEL: func.func @torch_tanh
// CHECK: %[[Y:.*]] = "nn.gelu"(%arg0) {approximate = "tanh"}
// CHECK-NOT: nn.tanh
// CHECK: return %[[Y]]
func.func @torch_tanh(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %b = "nn.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %k = "nn.constant"() {value = dense<0.044715> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %sq = "nn.mul"(%x, %x) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %cube = "nn.mul"(%x, %sq) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %kc = "nn.mul"(%k, %cube) : (tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %in = "nn.add"(%x, %kc) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %s = "nn.mul"(%b, %in) : (tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %t = "nn.tanh"(%s) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %a = "nn.add"(%one, %t) : (tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %m = "nn.mul"(%x, %a) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  %y = "nn.mul"(%half, %m) : (tensor<f32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %y : tensor<3x5xf32>
}

// -----
// Hugging Face's gelu_new: Pow(x, 3), x * ((1 + t) * 0.5) order.
// CHECK-LABEL: func.func @hf_gelu_new
// CHECK: %[[Y:.*]] = "nn.gelu"(%arg0) {approximate = "tanh"}
// CHECK-NOT: nn.pow
// CHECK: return %[[Y]]
func.func @hf_gelu_new(%x: tensor<8xf32>) -> tensor<8xf32> {
  %three = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %b = "nn.constant"() {value = dense<0.797884583> : tensor<f32>} : () -> tensor<f32>
  %k = "nn.constant"() {value = dense<0.044715> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %cube = "nn.pow"(%x, %three) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %kc = "nn.mul"(%cube, %k) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %in = "nn.add"(%kc, %x) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %s = "nn.mul"(%in, %b) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %t = "nn.tanh"(%s) : (tensor<8xf32>) -> tensor<8xf32>
  %a = "nn.add"(%t, %one) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %g = "nn.mul"(%a, %half) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
  %y = "nn.mul"(%x, %g) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %y : tensor<8xf32>
}

// -----
// Not GELU: the wrong constant (x / 2), an intermediate read elsewhere
// (the Erf's result is returned too), 0.25 instead of 0.5.
// CHECK-LABEL: func.func @wrong_scale
// CHECK: nn.erf
// CHECK-NOT: nn.gelu
func.func @wrong_scale(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %u = "nn.div"(%x, %two) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = "nn.erf"(%u) : (tensor<4xf32>) -> tensor<4xf32>
  %a = "nn.add"(%e, %one) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %m = "nn.mul"(%x, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = "nn.mul"(%m, %half) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----
// CHECK-LABEL: func.func @erf_read_elsewhere
// CHECK: nn.erf
// CHECK-NOT: nn.gelu
func.func @erf_read_elsewhere(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r2 = "nn.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %u = "nn.div"(%x, %r2) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = "nn.erf"(%u) : (tensor<4xf32>) -> tensor<4xf32>
  %a = "nn.add"(%e, %one) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %m = "nn.mul"(%x, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = "nn.mul"(%m, %half) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y, %e : tensor<4xf32>, tensor<4xf32>
}

// -----
// CHECK-LABEL: func.func @quarter
// CHECK: nn.erf
// CHECK-NOT: nn.gelu
func.func @quarter(%x: tensor<4xf32>) -> tensor<4xf32> {
  %r2 = "nn.constant"() {value = dense<1.41421354> : tensor<f32>} : () -> tensor<f32>
  %one = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %q = "nn.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %u = "nn.div"(%x, %r2) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %e = "nn.erf"(%u) : (tensor<4xf32>) -> tensor<4xf32>
  %a = "nn.add"(%e, %one) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  %m = "nn.mul"(%x, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %y = "nn.mul"(%m, %q) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
