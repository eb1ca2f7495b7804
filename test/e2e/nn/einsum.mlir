// Einsum: explicit and implicit results, diagonals, '...' broadcasting,
// sums over subscripts, size-1 broadcasting, integer and f16 operands:
// JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-3 --atol 1e-3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "ij,jk->ik"} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @matmul_implicit(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "ij,jk"} : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "bij,bjk->bik"} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %r : tensor<2x3x5xf32>
}
func.func @transpose(%a: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %r = "nn.einsum"(%a) {equation = "ij->ji"} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
func.func @transpose_implicit(%a: tensor<3x4xf32>) -> tensor<4x3xf32> {
  %r = "nn.einsum"(%a) {equation = "ba"} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
func.func @trace(%a: tensor<4x4xf32>) -> tensor<f32> {
  %r = "nn.einsum"(%a) {equation = "ii"} : (tensor<4x4xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @diagonal(%a: tensor<4x4xf64>) -> tensor<4xf64> {
  %r = "nn.einsum"(%a) {equation = "ii->i"} : (tensor<4x4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}
func.func @batch_diagonal(%a: tensor<3x5x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.einsum"(%a) {equation = "...ii->...i"} : (tensor<3x5x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @repeated_summed(%a: tensor<3x3x2xf32>) -> tensor<2xf32> {
  %r = "nn.einsum"(%a) {equation = "iij->j"} : (tensor<3x3x2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @row_sum(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  %r = "nn.einsum"(%a) {equation = "ij->i"} : (tensor<3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @sum_all(%a: tensor<3x4xf32>) -> tensor<f32> {
  %r = "nn.einsum"(%a) {equation = "ij->"} : (tensor<3x4xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @inner(%a: tensor<7xf32>, %b: tensor<7xf32>) -> tensor<f32> {
  %r = "nn.einsum"(%a, %b) {equation = "i,i"} : (tensor<7xf32>, tensor<7xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
func.func @outer(%a: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "i,j->ij"} : (tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @ellipsis_bcast(%a: tensor<2x1x3x4xf32>, %b: tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "...ij,...jk->...ik"} : (tensor<2x1x3x4xf32>, tensor<5x4x2xf32>) -> tensor<2x5x3x2xf32>
  return %r : tensor<2x5x3x2xf32>
}
func.func @ellipsis_middle(%a: tensor<3x2x4xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "i...j,j->...i"} : (tensor<3x2x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @label_bcast(%a: tensor<1x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "ij,ij->ij"} : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @upper_case(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<4x2xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "Ab,bC->CA"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}
func.func @spaces(%a: tensor<2x3xf32>, %b: tensor<3x2xf32>) -> tensor<2x2xf32> {
  %r = "nn.einsum"(%a, %b) {equation = " ij , jk -> ik "} : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
func.func @scalar_operand(%a: tensor<f32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %r = "nn.einsum"(%a, %b) {equation = ",ij->ij"} : (tensor<f32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @i32(%a: tensor<3x4xi32>, %b: tensor<4x2xi32>) -> tensor<3x2xi32> {
  %r = "nn.einsum"(%a, %b) {equation = "ij,jk"} : (tensor<3x4xi32>, tensor<4x2xi32>) -> tensor<3x2xi32>
  return %r : tensor<3x2xi32>
}
func.func @i64_trace(%a: tensor<3x3xi64>) -> tensor<i64> {
  %r = "nn.einsum"(%a) {equation = "ii->"} : (tensor<3x3xi64>) -> tensor<i64>
  return %r : tensor<i64>
}
func.func @i8_outer(%a: tensor<3xi8>, %b: tensor<2xi8>) -> tensor<3x2xi8> {
  %r = "nn.einsum"(%a, %b) {equation = "i,j"} : (tensor<3xi8>, tensor<2xi8>) -> tensor<3x2xi8>
  return %r : tensor<3x2xi8>
}
func.func @f16(%a: tensor<3x4xf16>, %b: tensor<4xf16>) -> tensor<3xf16> {
  %r = "nn.einsum"(%a, %b) {equation = "ij,j->i"} : (tensor<3x4xf16>, tensor<4xf16>) -> tensor<3xf16>
  return %r : tensor<3xf16>
}
func.func @empty_sum(%a: tensor<2x0xf32>, %b: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "ij,jk->ik"} : (tensor<2x0xf32>, tensor<0x3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
