// Table 3.4 row 3 (associative): Abs(A)⊙B⊙Abs(C) → Abs(A⊙C)⊙B, 4mn → 3mn
// FLOPs (128 → 96). The two Abs are not neighbours: B and Abs(C) swap first
// (†, the commutative enabler of row 8). Family: |x|⊙|y| → |x⊙y|.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row3
// CHECK-NEXT: %[[AC:.*]] = "nn.mul"(%arg0, %arg2)
// CHECK-NEXT: %[[ABS:.*]] = "nn.abs"(%[[AC]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[ABS]], %arg1)
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row3: assoc-abs saves 32 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row3 FLOPs 128 -> 96 (rules applied: 1)
func.func @row3(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %aa = "nn.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%aa, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %ac) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// B first: B⊙(Abs(A)⊙Abs(C)) written as (B⊙Abs(A))⊙Abs(C); the merged
// factor takes the first Abs's place.
// CHECK-LABEL: func.func @row3_b_first
// CHECK-NEXT: %[[AC:.*]] = "nn.mul"(%arg0, %arg2)
// CHECK-NEXT: %[[ABS:.*]] = "nn.abs"(%[[AC]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg1, %[[ABS]])
// CHECK-NEXT: return %[[R]]
func.func @row3_b_first(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %aa = "nn.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%b, %aa) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %ac) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Integers: with wrap-around |x|·|y| ≠ |x·y| (i32: 65536·65536), no rewrite.
// CHECK-LABEL: func.func @row3_int
// CHECK-COUNT-2: "nn.abs"
// REPORT: @row3_int FLOPs 128 -> 128 (rules applied: 0)
func.func @row3_int(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>, %c: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %aa = "nn.abs"(%a) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %t = "nn.mul"(%aa, %b) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %ac = "nn.abs"(%c) : (tensor<4x8xi32>) -> tensor<4x8xi32>
  %r = "nn.mul"(%t, %ac) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}
