// gpu-fuse-blocks on bufferized loops: nests that pass a buffer at the same
// index fuse into one scf.parallel and the block dissolves (@same_index); a
// nest that reads what another work-item of the nest before it wrote (a
// neighbour, x[i + 1]) keeps its own loop, so its own kernel (@neighbour).
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(gpu-fuse-blocks))' | FileCheck %s

// CHECK-LABEL: func.func @same_index(
// CHECK-NOT: scf.execute_region
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: math.exp
// CHECK: memref.store %{{.*}}, %[[A:.*]][%[[I]]]
// CHECK: memref.load %[[A]][%[[I]]]
// CHECK: arith.addf
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func @neighbour(
// CHECK-COUNT-2: scf.parallel
// CHECK-NOT: scf.execute_region

func.func @same_index(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.execute_region no_inline {
    %a = memref.alloc() : memref<8xf32>
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %x[%i] : memref<8xf32>
      %e = math.exp %v : f32
      memref.store %e, %a[%i] : memref<8xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %a[%i] : memref<8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i] : memref<8xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}
func.func @neighbour(%x: memref<9xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  scf.execute_region no_inline {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %v = memref.load %y[%i] : memref<8xf32>
      memref.store %v, %x[%i] : memref<9xf32>
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      %j = arith.addi %i, %c1 : index
      %v = memref.load %x[%j] : memref<9xf32>
      memref.store %v, %y[%i] : memref<8xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}
