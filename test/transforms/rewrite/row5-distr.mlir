// Table 3.4 row 5 (distributive), as corrected in the digest:
// A⊙C + A⊙B → A⊙(C+B) (the thesis prints (A+B)⊙C), 3mn → 2mn FLOPs
// (96 → 64). Also the Sub form A⊙B − A⊙C → A⊙(B−C), and the common factor
// in either operand of either product.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row5
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg2, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row5: distr-factor saves 32 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row5 FLOPs 96 -> 64 (rules applied: 1)
func.func @row5(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ac = "nn.mul"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ac, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// C⊙A + B⊙A: the common factor is the second operand of both.
// CHECK-LABEL: func.func @row5_right
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg2, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @row5_right(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ca = "nn.mul"(%c, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ba = "nn.mul"(%b, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ca, %ba) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Sub keeps its operand order: A⊙B − C⊙A → A⊙(B−C).
// CHECK-LABEL: func.func @row5_sub
// CHECK-NEXT: %[[S:.*]] = "nn.sub"(%arg1, %arg2)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
// REPORT: @row5_sub FLOPs 96 -> 64 (rules applied: 1)
func.func @row5_sub(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ca = "nn.mul"(%c, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.sub"(%ab, %ca) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Broadcast operands: the sum is taken at their size (4x1), then one
// full-size product: 96 → 4 + 32.
// CHECK-LABEL: func.func @row5_broadcast
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg2, %arg1) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]]) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
// REPORT: @row5_broadcast FLOPs 96 -> 36 (rules applied: 1)
func.func @row5_broadcast(%a: tensor<4x8xf32>, %b: tensor<4x1xf32>, %c: tensor<4x1xf32>) -> tensor<4x8xf32> {
  %ac = "nn.mul"(%a, %c) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ac, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Add, Sub and Mul form a ring under wrap-around, so integers qualify.
// CHECK-LABEL: func.func @row5_int
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg2, %arg1) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
// CHECK-NEXT: "nn.mul"(%arg0, %[[S]])
func.func @row5_int(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>, %c: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %ac = "nn.mul"(%a, %c) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %r = "nn.add"(%ac, %ab) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}

// -----

// No common factor: no rewrite.
// CHECK-LABEL: func.func @row5_none
// CHECK-COUNT-2: "nn.mul"
// CHECK: "nn.add"
// REPORT: @row5_none FLOPs 96 -> 96 (rules applied: 0)
func.func @row5_none(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>, %d: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %cd = "nn.mul"(%c, %d) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ab, %cd) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
