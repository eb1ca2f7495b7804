// f16 elementwise ops: computed in f32 and rounded once more than the
// double-precision interpreter, so the tolerance is f16-sized.
// RUN: %python %S/../compare_all.py %s --rtol 2e-3 --atol 1e-3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @add_f16(%a: tensor<3x5xf16>, %b: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.add"(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @mul_f16(%a: tensor<3x5xf16>, %b: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.mul"(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @max_f16(%a: tensor<3x5xf16>, %b: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.max"(%a, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @exp_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.exp"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @relu_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.relu"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @sigmoid_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.sigmoid"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @tanh_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.tanh"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @gelu_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.gelu"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @erf_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.erf"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
