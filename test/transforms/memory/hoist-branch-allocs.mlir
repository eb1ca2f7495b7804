// --strata-hoist-branch-allocs: an allocation both branches of an scf.if
// make alike becomes one before the scf.if; a buffer both yield is the
// scf.if's result (canonicalize then drops it).
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(strata-hoist-branch-allocs{stats},canonicalize))' | FileCheck %s

func.func private @few(memref<?x4xf32>)
func.func private @many(memref<?x4xf32>)
func.func private @use(memref<?x4xf32>)

// Two versions of one op: the result is allocated once, each branch writes
// it, and the scf.if's result (through casts to one layout) is that buffer.
// CHECK-LABEL: func.func @versions
// CHECK-SAME: strata.hoisted_branch_allocs = 2
// CHECK: %[[TMP:.*]] = memref.alloc(%[[N:.*]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: %[[OUT:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?x4xf32>
// CHECK: %[[CAST:.*]] = memref.cast %[[OUT]] : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
// CHECK: scf.if
// CHECK-NOT: memref.alloc
// CHECK: call @few(%[[TMP]])
// CHECK: call @few(%[[OUT]])
// CHECK: } else {
// CHECK-NOT: memref.alloc
// CHECK: call @many(%[[TMP]])
// CHECK: call @many(%[[OUT]])
// CHECK: }
// CHECK: return %[[CAST]]
func.func @versions(%x: memref<?x6xf32>, %c: i1) -> memref<?x4xf32, strided<[?, ?], offset: ?>> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x6xf32>
  %r = scf.if %c -> (memref<?x4xf32, strided<[?, ?], offset: ?>>) {
    %t = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @few(%t) : (memref<?x4xf32>) -> ()
    %a = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @few(%a) : (memref<?x4xf32>) -> ()
    %ca = memref.cast %a : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
    scf.yield %ca : memref<?x4xf32, strided<[?, ?], offset: ?>>
  } else {
    %t = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @many(%t) : (memref<?x4xf32>) -> ()
    %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @many(%b) : (memref<?x4xf32>) -> ()
    %cb = memref.cast %b : memref<?x4xf32> to memref<?x4xf32, strided<[?, ?], offset: ?>>
    scf.yield %cb : memref<?x4xf32, strided<[?, ?], offset: ?>>
  }
  return %r : memref<?x4xf32, strided<[?, ?], offset: ?>>
}

// Not alike: another size, a size computed in the branch, another
// alignment. Each branch keeps its allocation and the result stays.
// CHECK-LABEL: func.func @unlike
// CHECK-SAME: strata.hoisted_branch_allocs = 0
// CHECK: %[[R:.*]] = scf.if
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64}
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64}
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64}
// CHECK: } else {
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64}
// CHECK: memref.alloc(%{{.*}}) {alignment = 64 : i64}
// CHECK: memref.alloc(%{{.*}}) {alignment = 16 : i64}
// CHECK: return %[[R]]
func.func @unlike(%x: memref<?x6xf32>, %c: i1, %m: index) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x6xf32>
  %r = scf.if %c -> (memref<?x4xf32>) {
    %k = arith.addi %n, %c1 : index
    %a = memref.alloc(%k) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @use(%a) : (memref<?x4xf32>) -> ()
    %s = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @use(%s) : (memref<?x4xf32>) -> ()
    %t = memref.alloc(%n) {alignment = 64 : i64} : memref<?x4xf32>
    scf.yield %t : memref<?x4xf32>
  } else {
    %k = arith.addi %n, %c1 : index
    %a = memref.alloc(%k) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @use(%a) : (memref<?x4xf32>) -> ()
    %s = memref.alloc(%m) {alignment = 64 : i64} : memref<?x4xf32>
    func.call @use(%s) : (memref<?x4xf32>) -> ()
    %t = memref.alloc(%n) {alignment = 16 : i64} : memref<?x4xf32>
    scf.yield %t : memref<?x4xf32>
  }
  return %r : memref<?x4xf32>
}

// Alike, but the branches yield different buffers: both allocations rise
// (each with its twin), the result is not either (canonicalize turns the
// yields into a select).
// CHECK-LABEL: func.func @crossed
// CHECK-SAME: strata.hoisted_branch_allocs = 2
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?x4xf32>
// CHECK: %[[B:.*]] = memref.alloc(%{{.*}}) : memref<?x4xf32>
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %[[A]], %[[B]]
// CHECK: return %[[R]]
func.func @crossed(%x: memref<?x6xf32>, %c: i1) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x6xf32>
  %r = scf.if %c -> (memref<?x4xf32>) {
    %a = memref.alloc(%n) : memref<?x4xf32>
    %b = memref.alloc(%n) : memref<?x4xf32>
    func.call @use(%b) : (memref<?x4xf32>) -> ()
    scf.yield %a : memref<?x4xf32>
  } else {
    %a = memref.alloc(%n) : memref<?x4xf32>
    %b = memref.alloc(%n) : memref<?x4xf32>
    func.call @use(%a) : (memref<?x4xf32>) -> ()
    scf.yield %b : memref<?x4xf32>
  }
  return %r : memref<?x4xf32>
}

// Nested: the inner scf.if's buffer rises into the outer branch, then out
// of the outer scf.if, whose else-branch allocates it alike.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: strata.hoisted_branch_allocs = 2
// CHECK: %[[A:.*]] = memref.alloc(%{{.*}}) : memref<?x4xf32>
// CHECK-NOT: memref.alloc
// CHECK: return %[[A]]
func.func @nested(%x: memref<?x6xf32>, %c: i1, %d: i1) -> memref<?x4xf32> {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x6xf32>
  %r = scf.if %c -> (memref<?x4xf32>) {
    %i = scf.if %d -> (memref<?x4xf32>) {
      %a = memref.alloc(%n) : memref<?x4xf32>
      func.call @few(%a) : (memref<?x4xf32>) -> ()
      scf.yield %a : memref<?x4xf32>
    } else {
      %a = memref.alloc(%n) : memref<?x4xf32>
      func.call @many(%a) : (memref<?x4xf32>) -> ()
      scf.yield %a : memref<?x4xf32>
    }
    scf.yield %i : memref<?x4xf32>
  } else {
    %a = memref.alloc(%n) : memref<?x4xf32>
    func.call @use(%a) : (memref<?x4xf32>) -> ()
    scf.yield %a : memref<?x4xf32>
  }
  return %r : memref<?x4xf32>
}
