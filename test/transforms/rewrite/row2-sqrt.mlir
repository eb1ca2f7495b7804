// Table 3.4 row 2 (associative): (A⊙√B)⊙(√B⊙C) → A⊙B⊙C, 5mn → 2mn
// FLOPs (160 → 64; 4mn → 2mn when √B is computed once). Family: √x⊙√x → x.
// Fast-math only: for x < 0, √x⊙√x is NaN but x is not.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=fast-math=1 | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s --check-prefix=NOFAST

// CHECK-LABEL: func.func @row2
// CHECK-NEXT: %[[AB:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[AB]], %arg2)
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row2: assoc-sqrt saves 96 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row2 FLOPs 160 -> 64 (rules applied: 1)
// Without fast-math the square roots stay; the two equal ones still meet
// as a square (assoc-square, exact), one sqrt fewer.
// NOFAST-LABEL: func.func @row2
// NOFAST-NEXT: %[[S:.*]] = "nn.sqrt"(%arg1)
// NOFAST-NEXT: %[[SQ:.*]] = "nn.mul"(%[[S]], %[[S]])
// NOFAST-NEXT: %[[A:.*]] = "nn.mul"(%arg0, %[[SQ]])
// NOFAST-NEXT: %[[R:.*]] = "nn.mul"(%[[A]], %arg2)
// NOFAST-NEXT: return %[[R]]
func.func @row2(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = "nn.sqrt"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = "nn.mul"(%a, %s1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = "nn.sqrt"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%s2, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// √B computed once and used twice (the IR after CSE): 4mn → 2mn.
// CHECK-LABEL: func.func @row2_cse
// CHECK-NEXT: %[[AB:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[AB]], %arg2)
// CHECK-NEXT: return %[[R]]
// REPORT: @row2_cse FLOPs 128 -> 64 (rules applied: 1)
// NOFAST-LABEL: func.func @row2_cse
// NOFAST: "nn.sqrt"
func.func @row2_cse(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = "nn.sqrt"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = "nn.mul"(%a, %s) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%s, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// Family: √x⊙√x → x, the whole expression disappears.
// CHECK-LABEL: func.func @sqrt_family
// CHECK-NEXT: return %arg0
// REPORT: @sqrt_family FLOPs 64 -> 0 (rules applied: 1)
// NOFAST-LABEL: func.func @sqrt_family
// NOFAST-NEXT: "nn.sqrt"
// NOFAST-NEXT: "nn.mul"
func.func @sqrt_family(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = "nn.sqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%s, %s) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Square roots of different values do not merge.
// CHECK-LABEL: func.func @sqrt_different
// CHECK-COUNT-2: "nn.sqrt"
// CHECK: "nn.mul"
// REPORT: @sqrt_different FLOPs 96 -> 96 (rules applied: 0)
func.func @sqrt_different(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %sx = "nn.sqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %sy = "nn.sqrt"(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%sx, %sy) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
