// Table 3.4 row 8 (commutative): A⊙B ↔ B⊙A saves nothing by itself (‡); it
// is only the enabler inside other rules (row 3's †). There is no
// standalone swapping rule -- it could only loop -- so a lone product is
// left exactly as written, while chains match in any factor order.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row8
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row8 FLOPs 32 -> 32 (rules applied: 0)
func.func @row8(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// (Recip(A)⊙B)⊙Recip(C): B and Recip(C) swap so the reciprocals meet.
// CHECK-LABEL: func.func @row8_enables
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%arg0, %arg2)
// CHECK-NEXT: %[[R:.*]] = "nn.reciprocal"(%[[P]])
// CHECK-NEXT: %[[M:.*]] = "nn.mul"(%[[R]], %arg1)
// CHECK-NEXT: return %[[M]]
// REPORT: @row8_enables FLOPs 128 -> 96 (rules applied: 1)
func.func @row8_enables(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ra = "nn.reciprocal"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%ra, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %rc = "nn.reciprocal"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %rc) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
