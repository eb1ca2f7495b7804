// The rule families Table 3.4's rows stand for: constants in Mul/Div/Add/Sub
// chains meet (and --nn-fold folds them), scalar factors move out of
// reductions. Scalar and broadcast constants alike; the new constant
// expression is computed at the constants' size.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite --nn-fold | FileCheck %s --check-prefix=FOLD

// c2⊙(x⊙c1) → (c2⊙c1)⊙x: 64 → 1 + 32. The constants' product takes the
// first constant's place in the chain.
// CHECK-LABEL: func.func @mul_consts
// CHECK: %[[K:.*]] = "nn.mul"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[K]], %arg0)
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @mul_consts: assoc-const-mul saves 31 FLOPs
// REPORT-NEXT: @mul_consts FLOPs 64 -> 33 (rules applied: 1)
// FOLD-LABEL: func.func @mul_consts
// FOLD-NEXT: %[[K:.*]] = "nn.constant"() {value = dense<6.000000e+00> : tensor<f32>}
// FOLD-NEXT: %[[R:.*]] = "nn.mul"(%[[K]], %arg0)
// FOLD-NEXT: return %[[R]]
func.func @mul_consts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c2 = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.mul"(%x, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %b = "nn.mul"(%c2, %a) : (tensor<f32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// Three constants, one a per-column vector: all meet first, at 8 elements.
// CHECK-LABEL: func.func @mul_three_consts
// CHECK: %[[K1:.*]] = "nn.mul"(%{{.*}}, %{{.*}}) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %[[K2:.*]] = "nn.mul"(%[[K1]], %{{.*}}) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[K2]]) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[R]]
// REPORT: @mul_three_consts FLOPs 96 -> 48 (rules applied: 1)
func.func @mul_three_consts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %v = "nn.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %c1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c2 = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.mul"(%x, %v) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %b = "nn.mul"(%a, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %c = "nn.mul"(%b, %c2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %c : tensor<4x8xf32>
}

// -----

// (x+c1)+c2 → x+(c1+c2).
// CHECK-LABEL: func.func @add_consts
// CHECK: %[[K:.*]] = "nn.add"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "nn.add"(%arg0, %[[K]])
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @add_consts: assoc-const-add saves 31 FLOPs
// FOLD-LABEL: func.func @add_consts
// FOLD-NEXT: "nn.constant"() {value = dense<5.000000e+00> : tensor<f32>}
// FOLD-NEXT: "nn.add"(%arg0
func.func @add_consts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c2 = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.add"(%x, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %b = "nn.add"(%a, %c2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// (x−c1)+c2 → x+(c2−c1) is written x − (c1−c2): the constant keeps the
// first constant's sign.
// CHECK-LABEL: func.func @sub_add_consts
// CHECK: %[[K:.*]] = "nn.sub"(%[[C1:.*]], %[[C2:.*]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "nn.sub"(%arg0, %[[K]])
// CHECK-NEXT: return %[[R]]
// FOLD-LABEL: func.func @sub_add_consts
// FOLD-NEXT: "nn.constant"() {value = dense<-1.000000e+00> : tensor<f32>}
// FOLD-NEXT: "nn.sub"(%arg0
func.func @sub_add_consts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c2 = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.sub"(%x, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %b = "nn.add"(%a, %c2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// c1 − x + c2 (integers: a ring): the only variable term is negated, so
// the constant leads.
// CHECK-LABEL: func.func @const_minus_x
// CHECK: %[[K:.*]] = "nn.add"(%{{.*}}, %{{.*}}) : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK-NEXT: %[[R:.*]] = "nn.sub"(%[[K]], %arg0) : (tensor<i32>, tensor<4x8xi32>) -> tensor<4x8xi32>
func.func @const_minus_x(%x: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %c1 = "nn.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %c2 = "nn.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %a = "nn.sub"(%c1, %x) : (tensor<i32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %b = "nn.add"(%a, %c2) : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi32>
  return %b : tensor<4x8xi32>
}

// -----

// x/c1/c2 → x/(c1⊙c2).
// CHECK-LABEL: func.func @div_consts
// CHECK: %[[K:.*]] = "nn.mul"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "nn.div"(%arg0, %[[K]])
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @div_consts: assoc-const-div saves 31 FLOPs
func.func @div_consts(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %c1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c2 = "nn.constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.div"(%x, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %b = "nn.div"(%a, %c2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// (x⊙c1)/c2 → x⊙(c1/c2) and (x/c1)⊙c2 → x⊙(c2/c1).
// CHECK-LABEL: func.func @mul_div_consts
// CHECK: %[[K:.*]] = "nn.div"(%[[C1:.*]], %[[C2:.*]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[K]])
// CHECK: %[[K2:.*]] = "nn.div"(%[[C2]], %[[C1]]) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R2:.*]] = "nn.mul"(%arg0, %[[K2]])
// CHECK-NEXT: return %[[R]], %[[R2]]
func.func @mul_div_consts(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %c1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %c2 = "nn.constant"() {value = dense<4.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.mul"(%x, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %b = "nn.div"(%a, %c2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %d = "nn.div"(%x, %c1) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %e = "nn.mul"(%d, %c2) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  return %b, %e : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Integer division truncates and does not associate: no rewrite.
// CHECK-LABEL: func.func @div_consts_int
// CHECK-COUNT-2: "nn.div"(
// REPORT: @div_consts_int FLOPs 64 -> 64 (rules applied: 0)
func.func @div_consts_int(%x: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %c1 = "nn.constant"() {value = dense<2> : tensor<i32>} : () -> tensor<i32>
  %c2 = "nn.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %a = "nn.div"(%x, %c1) : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi32>
  %b = "nn.div"(%a, %c2) : (tensor<4x8xi32>, tensor<i32>) -> tensor<4x8xi32>
  return %b : tensor<4x8xi32>
}

// -----

// ReduceSum(x⊙c) → ReduceSum(x)⊙c for a single-element c: the scaling runs
// on the 4 reduced values. 64 → 32 + 4.
// CHECK-LABEL: func.func @reduce_scalar
// CHECK: %[[S:.*]] = "nn.reduce_sum"(%arg0) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[S]], %{{.*}}) : (tensor<4x1xf32>, tensor<1xf32>) -> tensor<4x1xf32>
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @reduce_scalar: comm-reduce-scalar saves 28 FLOPs
func.func @reduce_scalar(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %c = "nn.constant"() {value = dense<3.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %m = "nn.mul"(%c, %x) : (tensor<1xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.reduce_sum"(%m) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}

// -----

// ReduceMean(x/c) → ReduceMean(x)/c.
// CHECK-LABEL: func.func @reduce_mean_div
// CHECK: %[[S:.*]] = "nn.reduce_mean"(%arg0) {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<4x8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[R:.*]] = "nn.div"(%[[S]], %{{.*}}) : (tensor<8xf32>, tensor<f32>) -> tensor<8xf32>
// CHECK-NEXT: return %[[R]]
func.func @reduce_mean_div(%x: tensor<4x8xf32>) -> tensor<8xf32> {
  %c = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %m = "nn.div"(%x, %c) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
  %r = "nn.reduce_mean"(%m) {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<4x8xf32>) -> tensor<8xf32>
  return %r : tensor<8xf32>
}

// -----

// A per-column constant varies along the reduced axis: no rewrite (only
// single-element constants move out of a reduction).
// CHECK-LABEL: func.func @reduce_vector_const
// CHECK-NEXT: "nn.constant"
// CHECK-NEXT: "nn.mul"(%arg0
// CHECK-NEXT: "nn.reduce_sum"
func.func @reduce_vector_const(%x: tensor<4x8xf32>) -> tensor<4x1xf32> {
  %c = "nn.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %m = "nn.mul"(%x, %c) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  %r = "nn.reduce_sum"(%m) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}
