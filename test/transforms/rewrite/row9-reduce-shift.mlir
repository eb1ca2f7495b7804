// Table 3.4 row 9 (commutative), ¶ = ReduceSum over the innermost axis:
// ReduceSum(BitShift(A)) → BitShift(ReduceSum(A)), 2mn → mn+m FLOPs
// (64 → 36). Fast-math only, and LEFT shifts only: Σ(a << s) = (Σa) << s
// modulo 2^8 (wrap-around), but a right shift drops different bits per term.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=fast-math=1 | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s --check-prefix=NOFAST

// CHECK-LABEL: func.func @row9
// CHECK-NEXT: %[[S:.*]] = "nn.constant"() {value = dense<2> : tensor<ui8>}
// CHECK-NEXT: %[[R:.*]] = "nn.reduce_sum"(%arg0) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
// CHECK-NEXT: %[[B:.*]] = "nn.bit_shift"(%[[R]], %[[S]]) {direction = "LEFT"} : (tensor<4x1xui8>, tensor<ui8>) -> tensor<4x1xui8>
// CHECK-NEXT: return %[[B]]
// REPORT: nn-algebraic-rewrite: @row9: comm-reduce-shift saves 28 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row9 FLOPs 64 -> 36 (rules applied: 1)
// NOFAST-LABEL: func.func @row9
// NOFAST: "nn.bit_shift"(%arg0
// NOFAST-NEXT: "nn.reduce_sum"
func.func @row9(%a: tensor<4x8xui8>) -> tensor<4x1xui8> {
  %s = "nn.constant"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
  %b = "nn.bit_shift"(%a, %s) {direction = "LEFT"} : (tensor<4x8xui8>, tensor<ui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  return %r : tensor<4x1xui8>
}

// -----

// A RIGHT shift does not commute with the sum: no rewrite even in fast-math.
// CHECK-LABEL: func.func @row9_right
// CHECK: "nn.bit_shift"(%arg0, %{{.*}}) {direction = "RIGHT"}
// CHECK-NEXT: "nn.reduce_sum"
// REPORT: @row9_right FLOPs 64 -> 64 (rules applied: 0)
func.func @row9_right(%a: tensor<4x8xui8>) -> tensor<4x1xui8> {
  %s = "nn.constant"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
  %b = "nn.bit_shift"(%a, %s) {direction = "RIGHT"} : (tensor<4x8xui8>, tensor<ui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  return %r : tensor<4x1xui8>
}

// -----

// A shift amount per row is uniform along the reduced (innermost) axis.
// CHECK-LABEL: func.func @row9_per_row
// CHECK-NEXT: %[[R:.*]] = "nn.reduce_sum"(%arg0)
// CHECK-NEXT: %[[B:.*]] = "nn.bit_shift"(%[[R]], %arg1) {direction = "LEFT"} : (tensor<4x1xui8>, tensor<4x1xui8>) -> tensor<4x1xui8>
// CHECK-NEXT: return %[[B]]
func.func @row9_per_row(%a: tensor<4x8xui8>, %s: tensor<4x1xui8>) -> tensor<4x1xui8> {
  %b = "nn.bit_shift"(%a, %s) {direction = "LEFT"} : (tensor<4x8xui8>, tensor<4x1xui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  return %r : tensor<4x1xui8>
}

// -----

// A shift amount per column varies along the reduced axis: no rewrite.
// CHECK-LABEL: func.func @row9_per_column
// CHECK-NEXT: "nn.bit_shift"(%arg0, %arg1)
// CHECK-NEXT: "nn.reduce_sum"
func.func @row9_per_column(%a: tensor<4x8xui8>, %s: tensor<8xui8>) -> tensor<4x1xui8> {
  %b = "nn.bit_shift"(%a, %s) {direction = "LEFT"} : (tensor<4x8xui8>, tensor<8xui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  return %r : tensor<4x1xui8>
}

// -----

// keepdims = 0 with a single-element shift amount.
// CHECK-LABEL: func.func @row9_keepdims0
// CHECK-NEXT: "nn.constant"
// CHECK-NEXT: %[[R:.*]] = "nn.reduce_sum"(%arg0) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<4x8xui8>) -> tensor<4xui8>
// CHECK-NEXT: "nn.bit_shift"(%[[R]], %{{.*}}) {direction = "LEFT"} : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
func.func @row9_keepdims0(%a: tensor<4x8xui8>) -> tensor<4xui8> {
  %s = "nn.constant"() {value = dense<3> : tensor<1xui8>} : () -> tensor<1xui8>
  %b = "nn.bit_shift"(%a, %s) {direction = "LEFT"} : (tensor<4x8xui8>, tensor<1xui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<4x8xui8>) -> tensor<4xui8>
  return %r : tensor<4xui8>
}
