// gpu-flatten-parallel: top-level parallel loops with constant bounds become
// one dimension over all iterations; host loops and scalar memory code become
// one-iteration parallel loops (kernels of one work-item). Everything else is
// left alone (the pass emits no diagnostics; what a target cannot run it
// refuses later).
// RUN: strata-opt %s --gpu-flatten-parallel | FileCheck %s

// i in [0,2), j in [1,3), k in [0,8) step 2: 2*2*4 = 16 iterations.
// CHECK-LABEL: func.func @nest(
// CHECK-DAG: %[[C16:.+]] = arith.constant 16 : index
// CHECK: scf.parallel (%[[L:.+]]) = (%{{.+}}) to (%[[C16]]) step (%{{.+}}) {
// CHECK: %[[KR:.+]] = arith.remui %[[L]], %{{.+}} : index
// CHECK: %[[K:.+]] = arith.muli %[[KR]], %{{.+}} : index
// CHECK: %[[JD:.+]] = arith.divui %[[L]], %{{.+}} : index
// CHECK: %[[JR:.+]] = arith.remui %[[JD]], %{{.+}} : index
// CHECK: %[[J:.+]] = arith.addi %[[JR]], %{{.+}} : index
// CHECK: %[[I:.+]] = arith.divui %[[L]], %{{.+}} : index
// CHECK: memref.store %{{.+}}, %{{.+}}[%[[I]], %[[J]], %[[K]]]
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
func.func @nest(%m: memref<2x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i, %j, %k) = (%c0, %c1, %c0) to (%c2, %c3, %c8) step (%c1, %c1, %c2) {
    memref.store %f, %m[%i, %j, %k] : memref<2x3x4xf32>
    scf.reduce
  }
  return
}

// A host loop (a full reduction) runs in one work-item.
// CHECK-LABEL: func.func @host_loop(
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%[[ONE:.+]]) step
// CHECK-NEXT: scf.for
// CHECK: scf.reduce
func.func @host_loop(%m: memref<4xf32>, %out: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %a = memref.load %m[%i] : memref<4xf32>
    %s = memref.load %out[] : memref<f32>
    %t = arith.addf %a, %s : f32
    memref.store %t, %out[] : memref<f32>
  }
  return
}

// Scalar memory code (a linalg op on 0-d memrefs) whose values stay inside.
// CHECK-LABEL: func.func @scalar_run(
// CHECK: scf.parallel
// CHECK-NEXT: memref.load
// CHECK-NEXT: arith.divf
// CHECK-NEXT: memref.store
// CHECK-NEXT: scf.reduce
func.func @scalar_run(%in: memref<f32>, %out: memref<f32>) {
  %c = arith.constant 6.0 : f32
  %a = memref.load %in[] : memref<f32>
  %d = arith.divf %a, %c : f32
  memref.store %d, %out[] : memref<f32>
  return
}

// Left alone: a value of the run used after it, a loop with results, a
// parallel loop with a reduction, dynamic bounds, an already flat loop.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: arith.constant
// CHECK-NEXT: memref.load
// CHECK-NEXT: scf.for
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) init
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%arg2, %{{.+}})
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step (%{{.+}}) {
// CHECK: return %{{.+}}, %{{.+}}, %{{.+}} : f32, f32, f32
func.func @left_alone(%m: memref<4x4xf32>, %s: memref<f32>, %n: index) -> (f32, f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %a = memref.load %s[] : memref<f32>
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %a) -> f32 {
    %v = memref.load %m[%i, %i] : memref<4x4xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  %p = scf.parallel (%i) = (%c0) to (%c4) step (%c1) init (%a) -> f32 {
    %v = memref.load %m[%i, %c0] : memref<4x4xf32>
    scf.reduce(%v : f32) {
    ^bb0(%x: f32, %y: f32):
      %z = arith.addf %x, %y : f32
      scf.reduce.return %z : f32
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %c4) step (%c1, %c1) {
    memref.store %a, %m[%i, %j] : memref<4x4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    memref.store %a, %m[%i, %i] : memref<4x4xf32>
    scf.reduce
  }
  return %a, %r, %p : f32, f32, f32
}
