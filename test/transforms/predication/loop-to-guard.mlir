// --pred-loop-to-guard: a while loop whose exit is `i < UB and not flag`
// becomes scf.for over its trip bound with the body under a guard.
// RUN: strata-opt %s --pred-loop-to-guard --split-input-file --verify-diagnostics | FileCheck %s
// RUN: strata-opt %s --pred-loop-to-guard=bound=5 --split-input-file 2>/dev/null | FileCheck %s --check-prefix=BOUND

// T4: a search loop, `while (i < 8 and not found)`: scf.for 0..8 carrying
// the counter and the break flag; the body runs under the exit condition,
// so once `found` is set the carried values stay.
// CHECK-LABEL: func.func @search
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK: %[[FALSE:.*]] = arith.constant false
// CHECK-NOT: scf.while
// CHECK: %[[LB:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[UB:.*]] = arith.constant 8 : index
// CHECK-NOT: scf.while
// CHECK: %{{.*}}:2 = scf.for %{{.*}} = %[[LB]] to %[[UB]] step %{{.*}} iter_args(%[[I:.*]] = %[[C0]], %[[F:.*]] = %[[FALSE]]) -> (index, i1) {
// CHECK: %[[LT:.*]] = arith.cmpi slt, %[[I]], %{{.*}}
// CHECK: %[[NF:.*]] = arith.xori %[[F]]
// CHECK: %[[GO:.*]] = arith.andi %[[LT]], %[[NF]]
// CHECK: %[[NI:.*]] = "pred.guard"(%[[GO]], %[[I]]) ({
// CHECK: arith.addi %[[I]]
// CHECK: %[[NF2:.*]] = "pred.guard"(%[[GO]], %[[F]]) ({
// CHECK: tensor.extract %{{.*}}[%[[I]]]
// CHECK: arith.cmpf oeq
// CHECK: scf.yield %[[NI]], %[[NF2]] : index, i1
// BOUND-LABEL: func.func @search
// BOUND: scf.for
// BOUND-NOT: scf.while
func.func @search(%a: tensor<8xf32>, %k: f32) -> (index, i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %true = arith.constant true
  %r:2 = scf.while (%i = %c0, %found = %false) : (index, i1) -> (index, i1) {
    %lt = arith.cmpi slt, %i, %c8 : index
    %nf = arith.xori %found, %true : i1
    %go = arith.andi %lt, %nf : i1
    scf.condition(%go) %i, %found : index, i1
  } do {
  ^bb0(%i: index, %found: i1):
    %v = tensor.extract %a[%i] : tensor<8xf32>
    %eq = arith.cmpf oeq, %v, %k : f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %eq : index, i1
  }
  return %r#0, %r#1 : index, i1
}

// -----

// The trip count is ceil((UB - init) / step): 2 to 9 by 3 runs 3 times.
// CHECK-LABEL: func.func @stepped
// CHECK: %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: arith.constant 1 : index
// CHECK-NEXT: scf.for %{{.*}} = %{{.*}} to %[[C3]] step
func.func @stepped(%x: f32) -> (i32, f32) {
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c9 = arith.constant 9 : i32
  %r:2 = scf.while (%i = %c2, %acc = %x) : (i32, f32) -> (i32, f32) {
    %lt = arith.cmpi ult, %i, %c9 : i32
    scf.condition(%lt) %i, %acc : i32, f32
  } do {
  ^bb0(%i: i32, %acc: f32):
    %a2 = arith.addf %acc, %acc : f32
    %i2 = arith.addi %c3, %i : i32
    scf.yield %i2, %a2 : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}

// -----

// T6: the exit depends on data only, with no static bound: unchanged, with
// a remark. With bound=5, five predicated iterations run, then the original
// loop (marked pred.tail) continues from their result: exact for any trip
// count.
// CHECK-LABEL: func.func @unbounded
// CHECK-NOT: scf.for
// CHECK: scf.while
// BOUND-LABEL: func.func @unbounded
// BOUND: %[[C5:.*]] = arith.constant 5 : index
// BOUND: %[[F:.*]] = scf.for %{{.*}} = %{{.*}} to %[[C5]] step %{{.*}} iter_args
// BOUND: "pred.guard"
// BOUND: scf.while (%{{.*}} = %[[F]]) : (f32) -> f32 {
// BOUND: } attributes {pred.tail}
func.func @unbounded(%x: f32) -> f32 {
  %lim = arith.constant 100.0 : f32
  // expected-remark@+1 {{pred-loop-to-guard: left as it is: no static trip bound}}
  %r = scf.while (%v = %x) : (f32) -> f32 {
    %lt = arith.cmpf olt, %v, %lim : f32
    scf.condition(%lt) %v : f32
  } do {
  ^bb0(%v: f32):
    %d = arith.addf %v, %v : f32
    scf.yield %d : f32
  }
  return %r : f32
}

// -----

// A before-region that changes what it passes on is not predicated.
// CHECK-LABEL: func.func @forwards_changed
// CHECK: scf.while
func.func @forwards_changed(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  // expected-remark@+1 {{pred-loop-to-guard: left as it is: the before-region changes the values it passes on}}
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %lt = arith.cmpi slt, %i, %c8 : i32
    %j = arith.addi %i, %c1 : i32
    scf.condition(%lt) %j : i32
  } do {
  ^bb0(%i: i32):
    scf.yield %i : i32
  }
  return %r : i32
}

// -----

// The ONNX importer's trip count: `tensor.extract` of a one-element integer
// constant tensor is a static bound too (an ONNX Loop with M = 4).
// CHECK-LABEL: func.func @onnx_trip_count
// CHECK-NOT: scf.while
// CHECK: %[[UB:.*]] = arith.constant 4 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step
// BOUND-LABEL: func.func @onnx_trip_count
// BOUND-NOT: scf.while
func.func @onnx_trip_count(%x: f32) -> (i64, i1, f32) {
  %m = "nn.constant"() {value = dense<4> : tensor<i64>} : () -> tensor<i64>
  %ub = tensor.extract %m[] : tensor<i64>
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %true = arith.constant true
  %r:3 = scf.while (%i = %c0, %go = %true, %acc = %x) : (i64, i1, f32) -> (i64, i1, f32) {
    %lt = arith.cmpi slt, %i, %ub : i64
    %c = arith.andi %lt, %go : i1
    scf.condition(%c) %i, %go, %acc : i64, i1, f32
  } do {
  ^bb0(%i: i64, %go: i1, %acc: f32):
    %a2 = arith.addf %acc, %acc : f32
    %big = arith.constant 100.0 : f32
    %more = arith.cmpf olt, %a2, %big : f32
    %i2 = arith.addi %i, %c1 : i64
    scf.yield %i2, %more, %a2 : i64, i1, f32
  }
  return %r#0, %r#1, %r#2 : i64, i1, f32
}

// -----

// The same with an i32 counter and trip-count tensor (any integer width).
// CHECK-LABEL: func.func @trip_count_i32
// CHECK-NOT: scf.while
// CHECK: %[[UB:.*]] = arith.constant 3 : index
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[UB]] step
// BOUND-LABEL: func.func @trip_count_i32
// BOUND-NOT: scf.while
func.func @trip_count_i32(%x: f32) -> (i32, f32) {
  %m = arith.constant dense<3> : tensor<1xi32>
  %c0 = arith.constant 0 : index
  %ub = tensor.extract %m[%c0] : tensor<1xi32>
  %z = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%i = %z, %acc = %x) : (i32, f32) -> (i32, f32) {
    %lt = arith.cmpi slt, %i, %ub : i32
    scf.condition(%lt) %i, %acc : i32, f32
  } do {
  ^bb0(%i: i32, %acc: f32):
    %a2 = arith.addf %acc, %acc : f32
    %i2 = arith.addi %i, %one : i32
    scf.yield %i2, %a2 : i32, f32
  }
  return %r#0, %r#1 : i32, f32
}
