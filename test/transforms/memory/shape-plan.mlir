// --strata-shape-plan: top-level buffers of dynamic size whose sizes
// follow from the arguments' extents (or from values the function computes
// before the alloc) come from a per-shape-class plan the runtime makes:
// the function opens a call state with its class's key, each planned alloc
// asks for buffer i of its byte size and views it at the alloc's type, the
// dealloc gives buffer i back, and the state ends before the return.
// RUN: strata-opt %s --split-input-file --strata-shape-plan | FileCheck %s

// Three buffers sized by %x's extent. The description: slot 0, 3 buffers,
// then [first, last] per buffer in top-level steps (the begin's ops are
// not counted: planning sees the body as it was).
// CHECK-DAG: memref.global "private" constant @__strata_shape_life_0 : memref<8xi64> = dense<[0, 3, 2, 5, 4, 8, 7, 8]>
// CHECK-DAG: memref.global @__strata_shape_plans : memref<2xi64> = dense<[1, 0]>
// CHECK-DAG: func.func private @strata_rt_shape_plan_begin(memref<*xi64>, memref<*xi64>, memref<*xi64>, memref<*xi64>) -> memref<?xi8>
// CHECK-DAG: func.func private @strata_rt_shape_plan_alloc(memref<?xi8>, i64, i64) -> memref<?xi8>
// CHECK-DAG: func.func private @strata_rt_shape_plan_free(memref<?xi8>, i64)
// CHECK-DAG: func.func private @strata_rt_shape_plan_end(memref<?xi8>)
// CHECK-LABEL: func.func @chain
// CHECK: %[[TAB:.*]] = memref.get_global @__strata_shape_plans
// CHECK: %[[LIFE:.*]] = memref.get_global @__strata_shape_life_0
// The key: %x's one dynamic extent.
// CHECK: %[[KEY:.*]] = memref.alloca() : memref<1xi64>
// CHECK: %[[D:.*]] = memref.dim %arg0, %{{.*}} : memref<?x4xf32>
// CHECK: %[[D64:.*]] = arith.index_cast %[[D]] : index to i64
// CHECK: memref.store %[[D64]], %[[KEY]]
// Every size follows from the class: the three are computed at entry (the
// extent read again there, once), so the runtime plans a new class before
// its first call's buffers are asked for.
// CHECK: %[[E:.*]] = memref.dim %arg0, %{{.*}} : memref<?x4xf32>
// CHECK: arith.muli %{{.*}}, %[[E]] : index
// CHECK: arith.muli %{{.*}}, %[[E]] : index
// CHECK: arith.muli %{{.*}}, %[[E]] : index
// CHECK: %[[SIZES:.*]] = memref.alloca() : memref<3xi64>
// CHECK-COUNT-3: memref.store %{{.*}}, %[[SIZES]]
// CHECK: %[[SZ:.*]] = memref.cast %[[SIZES]] : memref<3xi64> to memref<*xi64>
// CHECK: %[[ST:.*]] = call @strata_rt_shape_plan_begin(%{{.*}}, %{{.*}}, %{{.*}}, %[[SZ]])
// Buffer 0: 4 bytes x N x 4.
// CHECK: %[[B0:.*]] = call @strata_rt_shape_plan_alloc(%[[ST]], %c0_i64{{.*}}, %{{.*}})
// CHECK: memref.view %[[B0]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?x4xf32>
// CHECK: call @strata_rt_shape_plan_alloc(%[[ST]], %c1_i64{{.*}}, %{{.*}})
// CHECK: call @strata_rt_shape_plan_free(%[[ST]], %c0_i64
// CHECK: call @strata_rt_shape_plan_alloc(%[[ST]], %c2_i64{{.*}}, %{{.*}})
// CHECK: call @strata_rt_shape_plan_free(%[[ST]], %c1_i64
// CHECK: call @strata_rt_shape_plan_free(%[[ST]], %c2_i64
// CHECK-NOT: memref.alloc(
// CHECK-NOT: memref.dealloc
// CHECK: call @strata_rt_shape_plan_end(%[[ST]])
// CHECK-NEXT: return
func.func @chain(%x: memref<?x4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  %a = memref.alloc(%n) : memref<?x4xf32>
  memref.copy %x, %a : memref<?x4xf32> to memref<?x4xf32>
  %b = memref.alloc(%n) : memref<?x4xf32>
  memref.copy %a, %b : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %a : memref<?x4xf32>
  %c = memref.alloc(%n) : memref<?x4xf32>
  memref.copy %b, %c : memref<?x4xf32> to memref<?x4xf32>
  memref.dealloc %b : memref<?x4xf32>
  memref.dealloc %c : memref<?x4xf32>
  return
}

// -----
// Arithmetic on extents is the class's; a size loaded from memory (here an
// argument, which another might alias) is planned as the first call of the
// class meets it (the runtime checks it against its slot). Sizes counted in
// a loop (data), allocs inside a loop, and buffers with no top-level
// dealloc stay on the heap.
// CHECK-LABEL: func.func @kinds
// A size loaded from an argument is not the class's: no sizes at entry.
// CHECK: %[[NONE:.*]] = memref.alloca() : memref<0xi64>
// CHECK: %[[NS:.*]] = memref.cast %[[NONE]]
// CHECK: call @strata_rt_shape_plan_begin(%{{.*}}, %{{.*}}, %{{.*}}, %[[NS]])
// CHECK: call @strata_rt_shape_plan_alloc(%{{.*}}, %c0_i64{{.*}}, %{{.*}})
// CHECK: call @strata_rt_shape_plan_alloc(%{{.*}}, %c1_i64{{.*}}, %{{.*}})
// CHECK: scf.for
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.dealloc
// CHECK: memref.alloc(%[[COUNT:.*]]) : memref<?xf32>
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: return %{{.*}} : memref<?xf32>
func.func @kinds(%x: memref<?x?xf32>, %shape: memref<1xindex>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %x, %c0 : memref<?x?xf32>
  %m = memref.dim %x, %c1 : memref<?x?xf32>
  %nm = arith.muli %n, %m : index
  memref.store %nm, %shape[%c0] : memref<1xindex>
  %l = memref.load %shape[%c0] : memref<1xindex>
  %a = memref.alloc(%l) : memref<?xf32>
  %r = memref.reshape %x(%shape) : (memref<?x?xf32>, memref<1xindex>) -> memref<?xf32>
  memref.copy %r, %a : memref<?xf32> to memref<?xf32>
  %b = memref.alloc(%nm) : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  %count = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> index {
    %t = memref.alloc(%m) : memref<?xf32>
    memref.dealloc %t : memref<?xf32>
    %next = arith.addi %acc, %c1 : index
    scf.yield %next : index
  }
  %d = memref.alloc(%count) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  %e = memref.alloc(%n) : memref<?xf32>
  return %e : memref<?xf32>
}

// -----
// A size stored to a shape list (a lowered reshape's) and loaded back is the
// class's: at entry it is computed from the value stored, not loaded.
// CHECK-LABEL: func.func @shape_list
// CHECK: memref.cast %{{.*}} : memref<1xi64> to memref<*xi64>
// CHECK: %[[E:.*]] = memref.dim %arg0, %{{.*}} : memref<?x4xf32>
// CHECK: %[[M:.*]] = arith.muli %[[E]], %{{.*}} : index
// CHECK-NOT: memref.load
// CHECK: memref.alloca() : memref<1xi64>
// CHECK-NOT: memref.load
// CHECK: call @strata_rt_shape_plan_begin(
func.func @shape_list(%x: memref<?x4xf32>) {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %n = memref.dim %x, %c0 : memref<?x4xf32>
  %shape = memref.alloca() : memref<1xindex>
  %nm = arith.muli %n, %c4 : index
  memref.store %nm, %shape[%c0] : memref<1xindex>
  %r = memref.reshape %x(%shape) : (memref<?x4xf32>, memref<1xindex>) -> memref<?xf32>
  %l = memref.load %shape[%c0] : memref<1xindex>
  %a = memref.alloc(%l) : memref<?xf32>
  memref.copy %r, %a : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----
// Shape arithmetic is a DAG that can be deep and shared (an exported
// graph's Shape/Gather/Concat chains): each value's kind is found once, so
// 48 levels that each use the one below twice cost 48 visits, not 2^48, and
// a chain deeper than the old bound of 32 is still the class's.
// CHECK-LABEL: func.func @deep_dag
// The key's buffer, then the size's: computed at entry.
// CHECK-COUNT-2: memref.alloca() : memref<1xi64>
// CHECK: call @strata_rt_shape_plan_begin(
// CHECK: call @strata_rt_shape_plan_alloc(
// CHECK-NOT: memref.alloc(
func.func @deep_dag(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %a0 = memref.dim %x, %c0 : memref<?xf32>
  %a1 = arith.maxui %a0, %a0 : index
  %a2 = arith.maxui %a1, %a1 : index
  %a3 = arith.maxui %a2, %a2 : index
  %a4 = arith.maxui %a3, %a3 : index
  %a5 = arith.maxui %a4, %a4 : index
  %a6 = arith.maxui %a5, %a5 : index
  %a7 = arith.maxui %a6, %a6 : index
  %a8 = arith.maxui %a7, %a7 : index
  %a9 = arith.maxui %a8, %a8 : index
  %a10 = arith.maxui %a9, %a9 : index
  %a11 = arith.maxui %a10, %a10 : index
  %a12 = arith.maxui %a11, %a11 : index
  %a13 = arith.maxui %a12, %a12 : index
  %a14 = arith.maxui %a13, %a13 : index
  %a15 = arith.maxui %a14, %a14 : index
  %a16 = arith.maxui %a15, %a15 : index
  %a17 = arith.maxui %a16, %a16 : index
  %a18 = arith.maxui %a17, %a17 : index
  %a19 = arith.maxui %a18, %a18 : index
  %a20 = arith.maxui %a19, %a19 : index
  %a21 = arith.maxui %a20, %a20 : index
  %a22 = arith.maxui %a21, %a21 : index
  %a23 = arith.maxui %a22, %a22 : index
  %a24 = arith.maxui %a23, %a23 : index
  %a25 = arith.maxui %a24, %a24 : index
  %a26 = arith.maxui %a25, %a25 : index
  %a27 = arith.maxui %a26, %a26 : index
  %a28 = arith.maxui %a27, %a27 : index
  %a29 = arith.maxui %a28, %a28 : index
  %a30 = arith.maxui %a29, %a29 : index
  %a31 = arith.maxui %a30, %a30 : index
  %a32 = arith.maxui %a31, %a31 : index
  %a33 = arith.maxui %a32, %a32 : index
  %a34 = arith.maxui %a33, %a33 : index
  %a35 = arith.maxui %a34, %a34 : index
  %a36 = arith.maxui %a35, %a35 : index
  %a37 = arith.maxui %a36, %a36 : index
  %a38 = arith.maxui %a37, %a37 : index
  %a39 = arith.maxui %a38, %a38 : index
  %a40 = arith.maxui %a39, %a39 : index
  %a41 = arith.maxui %a40, %a40 : index
  %a42 = arith.maxui %a41, %a41 : index
  %a43 = arith.maxui %a42, %a42 : index
  %a44 = arith.maxui %a43, %a43 : index
  %a45 = arith.maxui %a44, %a44 : index
  %a46 = arith.maxui %a45, %a45 : index
  %a47 = arith.maxui %a46, %a46 : index
  %a48 = arith.maxui %a47, %a47 : index
  %b = memref.alloc(%a48) : memref<?xf32>
  memref.copy %x, %b : memref<?xf32> to memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  return
}

// -----
// A size divided by a constant is computed at entry; one divided by another
// extent is not (at entry it would run before the checks the code makes
// first, and a zero divisor would trap there): still planned, the sizes
// learnt in the class's first call.
// CHECK-LABEL: func.func @halves
// CHECK: %[[E:.*]] = memref.dim %arg0
// CHECK: arith.divui %[[E]]
// CHECK: memref.alloca() : memref<1xi64>
// CHECK: call @strata_rt_shape_plan_begin(
func.func @halves(%x: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %h = arith.divui %n, %c2 : index
  %a = memref.alloc(%h) : memref<?xf32>
  memref.copy %x, %a : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----
// CHECK-LABEL: func.func @ratio
// CHECK: memref.alloca() : memref<0xi64>
// CHECK: call @strata_rt_shape_plan_begin(
// CHECK: call @strata_rt_shape_plan_alloc(
func.func @ratio(%x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %m = memref.dim %y, %c0 : memref<?xf32>
  %q = arith.divui %n, %m : index
  %a = memref.alloc(%q) : memref<?xf32>
  memref.copy %x, %a : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}

// -----
// Static buffers are strata-buffer-arena's; a function without planned
// buffers is left alone (no table).
// CHECK-NOT: __strata_shape_plans
// CHECK-LABEL: func.func @static
// CHECK-NOT: strata_rt_shape_plan
func.func @static(%x: memref<4xf32>) {
  %a = memref.alloc() : memref<4xf32>
  memref.copy %x, %a : memref<4xf32> to memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

