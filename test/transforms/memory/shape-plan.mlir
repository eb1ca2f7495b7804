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
// CHECK-DAG: func.func private @strata_rt_shape_plan_begin(memref<*xi64>, memref<*xi64>, memref<*xi64>) -> memref<?xi8>
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
// CHECK: %[[ST:.*]] = call @strata_rt_shape_plan_begin(
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
// CHECK: call @strata_rt_shape_plan_begin(
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
