// Table 3.4 row 4 (associative), ¶ = ReduceSum over the innermost axis:
// (A⊙ReduceSum(B))⊙(ReduceSum(B)⊙C) → A⊙Square(ReduceSum(B))⊙C,
// 5mn → 3mn+m FLOPs (160 → 100). Family: equal factors of a multiplication
// chain meet and become a square, taken at the factor's (reduced) size.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row4
// CHECK-NEXT: %[[S:.*]] = "nn.reduce_sum"(%arg1) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[SQ:.*]] = "nn.mul"(%[[S]], %[[S]]) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[A:.*]] = "nn.mul"(%arg0, %[[SQ]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[A]], %arg2)
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row4: assoc-square saves 60 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row4 FLOPs 160 -> 100 (rules applied: 1)
func.func @row4(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s1 = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %l = "nn.mul"(%a, %s1) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %s2 = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %r = "nn.mul"(%s2, %c) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// One ReduceSum used twice: 4mn → 3mn+m.
// CHECK-LABEL: func.func @row4_cse
// CHECK-NEXT: %[[S:.*]] = "nn.reduce_sum"(%arg1)
// CHECK-NEXT: %[[SQ:.*]] = "nn.mul"(%[[S]], %[[S]])
// CHECK-NEXT: %[[A:.*]] = "nn.mul"(%arg0, %[[SQ]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[A]], %arg2)
// CHECK-NEXT: return %[[R]]
// REPORT: @row4_cse FLOPs 128 -> 100 (rules applied: 1)
func.func @row4_cse(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %s = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %l = "nn.mul"(%a, %s) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%s, %c) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}

// -----

// Reductions over different axes are different values: no square.
// CHECK-LABEL: func.func @row4_other_axis
// CHECK-COUNT-2: "nn.reduce_sum"
// REPORT: @row4_other_axis FLOPs 320 -> 320 (rules applied: 0)
func.func @row4_other_axis(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %s1 = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<8x8xf32>) -> tensor<8x1xf32>
  %l = "nn.mul"(%a, %s1) : (tensor<8x8xf32>, tensor<8x1xf32>) -> tensor<8x8xf32>
  %s2 = "nn.reduce_sum"(%b) {axes = array<i64: 0>} : (tensor<8x8xf32>) -> tensor<1x8xf32>
  %r = "nn.mul"(%s2, %c) : (tensor<1x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %o : tensor<8x8xf32>
}

// -----

// A full-size factor squared saves nothing (mn either way): no rewrite.
// CHECK-LABEL: func.func @square_no_gain
// CHECK-NEXT: "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: "nn.mul"
// CHECK-NEXT: "nn.mul"
// REPORT: @square_no_gain FLOPs 96 -> 96 (rules applied: 0)
func.func @square_no_gain(%a: tensor<4x8xf32>, %x: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %l = "nn.mul"(%a, %x) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%x, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o : tensor<4x8xf32>
}
