// The quantized ops' i32 sums: the operands minus their zero points widened
// to i32, then a contraction whose innermost loop walks the rows (MatMul: k
// before n; Conv: c and the kernel before the output's spatial dims), so
// that it vectorizes. The numerics are test/e2e/nn/qlinear.mlir.
// RUN: strata-opt %s --split-input-file --nn-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @matmul_integer
// CHECK: arith.extui {{.*}} : i8 to i32
// CHECK: arith.subi
// CHECK: arith.extsi {{.*}} : i8 to i32
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK: arith.muli
// CHECK: arith.addi
func.func @matmul_integer(%a: tensor<4x8xui8>, %b: tensor<8x16xi8>, %z: tensor<ui8>) -> tensor<4x16xi32> {
  %r = "nn.matmul_integer"(%a, %b, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<4x8xui8>, tensor<8x16xi8>, tensor<ui8>) -> tensor<4x16xi32>
  return %r : tensor<4x16xi32>
}

// -----

// CHECK-LABEL: func.func @qlinear_conv
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction", "reduction", "parallel", "parallel"]
// CHECK: math.roundeven {{.*}} : f64
func.func @qlinear_conv(%x: tensor<1x3x6x6xui8>, %w: tensor<4x3x3x3xi8>, %s: tensor<f32>, %zu: tensor<ui8>, %zi: tensor<i8>) -> tensor<1x4x4x4xui8> {
  %r = "nn.qlinear_conv"(%x, %s, %zu, %w, %s, %zi, %s, %zu) : (tensor<1x3x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x4x4xui8>
  return %r : tensor<1x4x4x4xui8>
}
