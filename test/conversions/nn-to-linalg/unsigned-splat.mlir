// nn-to-linalg makes a generic's unsigned splat-constant input signless, so
// that linalg-fuse-elementwise-ops folds it into a valid scalar
// arith.constant (a ui8 one is rejected by the verifier).
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-to-linalg))' | FileCheck %s --check-prefix=LOWER
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-to-linalg,linalg-fuse-elementwise-ops))' | FileCheck %s --check-prefix=FUSED

// LOWER-LABEL: func.func @quantize_u8(
// LOWER: %[[ZP:.+]] = arith.constant dense<-128> : tensor<i8>
// LOWER: linalg.generic {{.*}} ins(%{{.+}}, %{{.+}}, %[[ZP]] : tensor<3x4xf32>, tensor<f32>, tensor<i8>)
// LOWER-NEXT: ^bb0(%{{.+}}: f32, %{{.+}}: f32, %[[IN:.+]]: i8, %{{.+}}: ui8):
// LOWER: arith.uitofp %[[IN]] : i8 to f32
// FUSED-LABEL: func.func @quantize_u8(
// FUSED: arith.constant 1.280000e+02 : f32
// FUSED-NOT: arith.constant {{.*}} : ui8
func.func @quantize_u8(%x: tensor<3x4xf32>) -> tensor<3x4xui8> {
  %s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.quantize_linear"(%x, %s, %z) : (tensor<3x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x4xui8>
  return %r : tensor<3x4xui8>
}

// A ui16 splat operand of an element-wise add (same bits, signless).
// LOWER-LABEL: func.func @add_u16(
// LOWER: arith.constant dense<7> : tensor<3xi16>
// LOWER: ^bb0(%[[B:.+]]: i16, %{{.+}}: ui16, %{{.+}}: ui16):
func.func @add_u16(%x: tensor<3xui16>) -> tensor<3xui16> {
  %c = "nn.constant"() {value = dense<7> : tensor<3xui16>} : () -> tensor<3xui16>
  %r = "nn.add"(%c, %x) : (tensor<3xui16>, tensor<3xui16>) -> tensor<3xui16>
  return %r : tensor<3xui16>
}
