// Matching procedure step 3: when matches overlap, the one with the larger
// FLOP saving is applied, and the other one is gone. Here a chain of
// constant factors (assoc-const-mul) competes with moving a scalar out of a
// ReduceSum (comm-reduce-scalar) for the same product m = (y⊙v)⊙c, where v
// is a per-column vector and c a scalar:
//   assoc-const-mul:    y⊙(v⊙c)        saves |m| − |v|
//   comm-reduce-scalar: ReduceSum(y⊙v)⊙c saves |m| − |reduced|
// With max-iterations=1 only the first choice is made; the full run shows
// the loser did not fire afterwards either.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=max-iterations=1 | FileCheck %s --check-prefix=ONE
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// 4x8, reduced to 4x1: the reduction's saving (32 − 4) beats the
// constants' (32 − 8).
// ONE-LABEL: func.func @reduce_wins
// ONE: %[[YV:.*]] = "nn.mul"(%arg0, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// ONE-NEXT: %[[S:.*]] = "nn.reduce_sum"(%[[YV]])
// ONE-NEXT: %[[R:.*]] = "nn.mul"(%[[S]], %{{.*}}) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// ONE-NEXT: return %[[R]]
// CHECK-LABEL: func.func @reduce_wins
// CHECK: %[[YV:.*]] = "nn.mul"(%arg0, %{{.*}}) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[S:.*]] = "nn.reduce_sum"(%[[YV]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[S]], %{{.*}}) : (tensor<4x1xf32>, tensor<f32>) -> tensor<4x1xf32>
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @reduce_wins: comm-reduce-scalar saves 28 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @reduce_wins FLOPs 96 -> 68 (rules applied: 1)
func.func @reduce_wins(%y: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %v = "nn.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %c = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %yv = "nn.mul"(%y, %v) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %m = "nn.mul"(%yv, %c) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %r = "nn.reduce_sum"(%m) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// 8x4, reduced to 8x1: now the constants' saving (32 − 4) beats the
// reduction's (32 − 8); afterwards the factor v⊙c is no longer a scalar, so
// the reduction rule cannot follow.
// ONE-LABEL: func.func @consts_win
// ONE: %[[K:.*]] = "nn.mul"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// ONE-NEXT: %[[M:.*]] = "nn.mul"(%arg0, %[[K]]) : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
// ONE-NEXT: %[[S:.*]] = "nn.reduce_sum"(%[[M]])
// ONE-NEXT: return %[[S]]
// CHECK-LABEL: func.func @consts_win
// CHECK: %[[K:.*]] = "nn.mul"(%{{.*}}, %{{.*}}) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
// CHECK-NEXT: %[[M:.*]] = "nn.mul"(%arg0, %[[K]]) : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
// CHECK-NEXT: %[[S:.*]] = "nn.reduce_sum"(%[[M]])
// CHECK-NEXT: return %[[S]]
// REPORT: nn-algebraic-rewrite: @consts_win: assoc-const-mul saves 28 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @consts_win FLOPs 96 -> 68 (rules applied: 1)
func.func @consts_win(%y: tensor<8x4xf32>) -> tensor<8x1xf32> {
  %v = "nn.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %c = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %yv = "nn.mul"(%y, %v) : (tensor<8x4xf32>, tensor<4xf32>) -> tensor<8x4xf32>
  %m = "nn.mul"(%yv, %c) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %r = "nn.reduce_sum"(%m) {axes = array<i64: 1>} : (tensor<8x4xf32>) -> tensor<8x1xf32>
  return %r : tensor<8x1xf32>
}

// -----

// Two rules at one root: in S⊙Abs(C)⊙S⊙Abs(D), with S a 4x1 factor and
// C, D 4x8, merging the Abs saves one 4x8 product (32 FLOPs); squaring S
// saves one 4x8 product but costs a 4x1 one (28). Abs goes first; rewrites
// of one chain cannot share a sweep, so the square follows in the next.
// ONE-LABEL: func.func @two_rules_one_root
// ONE: %[[P:.*]] = "nn.mul"(%arg1, %arg2)
// ONE-NEXT: %[[A:.*]] = "nn.abs"(%[[P]])
// ONE-NEXT: %[[M1:.*]] = "nn.mul"(%arg0, %[[A]])
// ONE-NEXT: %[[M2:.*]] = "nn.mul"(%[[M1]], %arg0)
// ONE-NEXT: return %[[M2]]
// CHECK-LABEL: func.func @two_rules_one_root
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%arg1, %arg2)
// CHECK-NEXT: %[[A:.*]] = "nn.abs"(%[[P]])
// CHECK-NEXT: %[[SQ:.*]] = "nn.mul"(%arg0, %arg0) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[M:.*]] = "nn.mul"(%[[SQ]], %[[A]])
// CHECK-NEXT: return %[[M]]
// REPORT: nn-algebraic-rewrite: @two_rules_one_root: assoc-abs saves 32 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @two_rules_one_root: assoc-square saves 28 FLOPs
// REPORT-NEXT: @two_rules_one_root FLOPs 160 -> 100 (rules applied: 2)
func.func @two_rules_one_root(%s: tensor<4x1xf32>, %c: tensor<4x8xf32>, %d: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ad = "nn.abs"(%d) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t1 = "nn.mul"(%s, %ac) : (tensor<4x1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t2 = "nn.mul"(%t1, %s) : (tensor<4x8xf32>, tensor<4x1xf32>) -> tensor<4x8xf32>
  %t3 = "nn.mul"(%t2, %ad) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t3 : tensor<4x8xf32>
}
