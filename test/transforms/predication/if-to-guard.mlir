// --pred-if-to-guard: scf.if becomes a guard on %c and one on %c xor true,
// results merged by arith.select.
// RUN: strata-opt %s --pred-if-to-guard --split-input-file | FileCheck %s

// T1: both branches as guards, one select on %c.
// CHECK-LABEL: func.func @t1
// CHECK-SAME: (%[[C:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NOT: scf.if
// CHECK: %[[NC:.*]] = arith.xori %[[C]], %{{.*}} : i1
// CHECK: %[[T:.*]] = "pred.guard"(%[[C]], %[[Z:.*]]) ({
// CHECK-NEXT: arith.mulf %[[A]], %[[B]]
// CHECK: %[[E:.*]] = "pred.guard"(%[[NC]], %[[Z]]) ({
// CHECK-NEXT: arith.addf %[[A]], %[[B]]
// CHECK: %[[R:.*]] = arith.select %[[C]], %[[T]], %[[E]] : f32
// CHECK: return %[[R]]
func.func @t1(%c: i1, %a: f32, %b: f32) -> f32 {
  %r = scf.if %c -> f32 {
    %m = arith.mulf %a, %b : f32
    scf.yield %m : f32
  } else {
    %s = arith.addf %a, %b : f32
    scf.yield %s : f32
  }
  return %r : f32
}

// -----

// T3 (R5): the condition is loaded once, before the then-branch writes the
// flag; both guards use that one value, the flag is not read again.
// CHECK-LABEL: func.func @t3
// CHECK: %[[C:.*]] = memref.load %[[FLAG:.*]][] : memref<i1>
// CHECK-NOT: memref.load %[[FLAG]]
// CHECK: %[[NC:.*]] = arith.xori %[[C]]
// CHECK: "pred.guard"(%[[C]], %{{.*}}) ({
// CHECK: memref.store %{{.*}}, %[[FLAG]][]
// CHECK: "pred.guard"(%[[NC]], %{{.*}}) ({
// CHECK-NOT: memref.load %[[FLAG]]
func.func @t3(%flag: memref<i1>, %x: f32) -> f32 {
  %c = memref.load %flag[] : memref<i1>
  %r = scf.if %c -> f32 {
    %false = arith.constant false
    memref.store %false, %flag[] : memref<i1>
    %d = arith.addf %x, %x : f32
    scf.yield %d : f32
  } else {
    %n = arith.negf %x : f32
    scf.yield %n : f32
  }
  return %r : f32
}

// -----

// T5: `for: if x_i continue; A` -- the empty then-branch needs no guard;
// A runs under a guard on not x_i.
// CHECK-LABEL: func.func @t5
// CHECK: scf.for
// CHECK: %[[X:.*]] = tensor.extract
// CHECK: %[[NX:.*]] = arith.xori %[[X]]
// CHECK-NOT: "pred.guard"(%[[X]]
// CHECK: "pred.guard"(%[[NX]]) ({
// CHECK: memref.store
// CHECK: }) : (i1) -> ()
func.func @t5(%skip: tensor<4xi1>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    %x = tensor.extract %skip[%i] : tensor<4xi1>
    scf.if %x {
    } else {
      memref.store %one, %out[%i] : memref<4xf32>
    }
  }
  return
}

// -----

// T7 (first half): nested ifs become nested guards (pred-lower conjoins
// their predicates, test/conversions/pred-lower/masked.mlir).
// CHECK-LABEL: func.func @nested
// CHECK: "pred.guard"(%arg0
// CHECK: "pred.guard"(%arg1
// CHECK: "pred.guard"(%arg2
func.func @nested(%p: i1, %q: i1, %r: i1, %x: f32) -> f32 {
  %a = scf.if %p -> f32 {
    %b = scf.if %q -> f32 {
      %c = scf.if %r -> f32 {
        %m = arith.mulf %x, %x : f32
        scf.yield %m : f32
      } else {
        scf.yield %x : f32
      }
      scf.yield %c : f32
    } else {
      scf.yield %x : f32
    }
    scf.yield %b : f32
  } else {
    scf.yield %x : f32
  }
  return %a : f32
}

// -----

// Results of two types: one guard per type, each on a copy of the branch
// (a guard's variadic groups are of one type).
// CHECK-LABEL: func.func @two_types
// CHECK: %[[G1:.*]] = "pred.guard"(%arg0, %{{.*}}) ({
// CHECK: }) : (i1, f32) -> f32
// CHECK: %[[G2:.*]] = "pred.guard"(%arg0, %{{.*}}) ({
// CHECK: }) : (i1, i32) -> i32
// CHECK: arith.select %arg0, %[[G1]]
// CHECK: arith.select %arg0, %[[G2]]
func.func @two_types(%c: i1, %x: f32, %n: i32) -> (f32, i32) {
  %r:2 = scf.if %c -> (f32, i32) {
    %m = arith.mulf %x, %x : f32
    %k = arith.addi %n, %n : i32
    scf.yield %m, %k : f32, i32
  } else {
    scf.yield %x, %n : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}

// -----

// A constant condition is not data-dependent: left for folding.
// CHECK-LABEL: func.func @constant
// CHECK: scf.if %true
// CHECK-NOT: pred.guard
func.func @constant(%x: f32) -> f32 {
  %true = arith.constant true
  %r = scf.if %true -> f32 {
    scf.yield %x : f32
  } else {
    %n = arith.negf %x : f32
    scf.yield %n : f32
  }
  return %r : f32
}

// -----

// T11 (R4): an scf.if whose result shape may depend on the predicate stays a
// branch (with a remark: if-to-guard-invalid.mlir); the static scf.if nested
// in it and the one after it still become guards.
// CHECK-LABEL: func.func @r4_left
// CHECK-SAME: (%[[C:.*]]: i1, %[[D:.*]]: i1,
// CHECK: scf.if %[[C]] -> (tensor<?xf32>) {
// CHECK: "pred.guard"(%[[D]],
// CHECK: } else {
// CHECK: "pred.guard"(%[[D]],
// CHECK-NOT: scf.if
// CHECK: return
func.func @r4_left(%c: i1, %d: i1, %x: tensor<?xf32>, %y: tensor<?xf32>, %a: f32) -> (tensor<?xf32>, f32) {
  %r = scf.if %c -> tensor<?xf32> {
    %u = scf.if %d -> f32 {
      %m = arith.mulf %a, %a : f32
      scf.yield %m : f32
    } else {
      scf.yield %a : f32
    }
    %c0 = arith.constant 0 : index
    %t = tensor.insert %u into %x[%c0] : tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  } else {
    scf.yield %y : tensor<?xf32>
  }
  %s = scf.if %d -> f32 {
    %m = arith.addf %a, %a : f32
    scf.yield %m : f32
  } else {
    scf.yield %a : f32
  }
  return %r, %s : tensor<?xf32>, f32
}
