// --pred-lower=mode=skip: each guard becomes a branch around its body
// (Grape's nullified kernel), else yielding the else operands.
// RUN: strata-opt %s --pred-if-to-guard --pred-lower=mode=skip | FileCheck %s
// RUN: strata-opt %s --pred-if-to-guard | FileCheck %s --check-prefix=GUARD

// T2 (skip): the store stays inside scf.if on the predicate.
// GUARD-LABEL: func.func @t2
// GUARD: "pred.guard"(%arg0) ({
// GUARD-NEXT: memref.store
// CHECK-LABEL: func.func @t2
// CHECK: scf.if %arg0 {
// CHECK-NEXT: memref.store %arg3, %arg1[%arg2]
// CHECK-NOT: arith.select
func.func @t2(%c: i1, %m: memref<4xf32>, %i: index, %v: f32) {
  scf.if %c {
    memref.store %v, %m[%i] : memref<4xf32>
  }
  return
}

// T8 (skip): the division is not speculated; it stays under the branch.
// CHECK-LABEL: func.func @t8
// CHECK: %[[NZ:.*]] = arith.cmpi ne
// CHECK: %[[Q:.*]] = scf.if %[[NZ]] -> (i32) {
// CHECK-NEXT: %[[D:.*]] = arith.divsi %arg0, %arg1 : i32
// CHECK-NEXT: scf.yield %[[D]]
// CHECK-NEXT: } else {
// CHECK: arith.select %[[NZ]], %[[Q]]
func.func @t8(%a: i32, %b: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %nz = arith.cmpi ne, %b, %c0 : i32
  %r = scf.if %nz -> i32 {
    %d = arith.divsi %a, %b : i32
    scf.yield %d : i32
  } else {
    scf.yield %c0 : i32
  }
  return %r : i32
}
