// Table 3.4 row 10 (commutative), ¶ = ReduceProd over the innermost axis:
// ReduceProd(Exp(A)) → Exp(ReduceSum(A)), 2mn → mn+m FLOPs (64 → 36).
// Fast-math only: the product of exponentials overflows (or flushes to 0)
// at different inputs than the exponential of the sum.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=fast-math=1 | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s --check-prefix=NOFAST

// CHECK-LABEL: func.func @row10
// CHECK-NEXT: %[[S:.*]] = "nn.reduce_sum"(%arg0) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[E:.*]] = "nn.exp"(%[[S]]) : (tensor<4x1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: return %[[E]]
// REPORT: nn-algebraic-rewrite: @row10: comm-reduce-exp saves 28 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row10 FLOPs 64 -> 36 (rules applied: 1)
// NOFAST-LABEL: func.func @row10
// NOFAST-NEXT: "nn.exp"(%arg0)
// NOFAST-NEXT: "nn.reduce_prod"
func.func @row10(%a: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %e = "nn.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.reduce_prod"(%e) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// All axes, keepdims = 0: the new ReduceSum takes ReduceProd's attributes.
// CHECK-LABEL: func.func @row10_all
// CHECK-NEXT: %[[S:.*]] = "nn.reduce_sum"(%arg0) {keepdims = 0 : i64} : (tensor<4x8xf32>) -> tensor<f32>
// CHECK-NEXT: %[[E:.*]] = "nn.exp"(%[[S]]) : (tensor<f32>) -> tensor<f32>
// CHECK-NEXT: return %[[E]]
// REPORT: @row10_all FLOPs 64 -> 33 (rules applied: 1)
func.func @row10_all(%a: tensor<4x8xf32>) -> tensor<f32> {
  %e = "nn.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.reduce_prod"(%e) {keepdims = 0 : i64} : (tensor<4x8xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
