// Table 3.4 row 7 (distributive): Square(A+B) − (A+B)⊙C → (A+B)⊙(A+B−C),
// 5mn → 3mn FLOPs (160 → 96) with A+B written twice as in the table;
// 4mn → 3mn after CSE. It is the square instance of row 5's Sub form, and
// its own pattern (distr-square), which wins the tie against distr-factor.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row7
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg0, %arg1)
// CHECK-NEXT: %[[D:.*]] = "nn.sub"(%[[S]], %arg2)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[S]], %[[D]])
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row7: distr-square saves 64 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row7 FLOPs 160 -> 96 (rules applied: 1)
func.func @row7(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = "nn.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = "nn.mul"(%s1, %s1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = "nn.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%s2, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.sub"(%sq, %t) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A+B computed once (after CSE), C on the left of its product: 4mn → 3mn.
// CHECK-LABEL: func.func @row7_cse
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg0, %arg1)
// CHECK-NEXT: %[[D:.*]] = "nn.sub"(%[[S]], %arg2)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[S]], %[[D]])
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row7_cse: distr-square saves 32 FLOPs
// REPORT-NEXT: @row7_cse FLOPs 128 -> 96 (rules applied: 1)
func.func @row7_cse(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = "nn.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = "nn.mul"(%s, %s) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%c, %s) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.sub"(%sq, %t) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// A+B and A−B are different values: nothing in common.
// CHECK-LABEL: func.func @row7_different
// CHECK-NEXT: "nn.add"(%arg0, %arg1)
// CHECK-NEXT: "nn.mul"
// CHECK-NEXT: "nn.sub"(%arg0, %arg1)
// CHECK-NEXT: "nn.mul"
// CHECK-NEXT: "nn.sub"
// CHECK-NEXT: return
// REPORT: @row7_different FLOPs 160 -> 160 (rules applied: 0)
func.func @row7_different(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = "nn.add"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %sq = "nn.mul"(%s1, %s1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = "nn.sub"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%s2, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.sub"(%sq, %t) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
