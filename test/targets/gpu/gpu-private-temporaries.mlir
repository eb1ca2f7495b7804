// gpu-private-temporaries: a buffer only one scf.parallel touches, each
// iteration its own row (dimension 0 indexed by the same induction
// variable everywhere), becomes a private array of one row in the loop's
// body (@row_sums: a softmax's row statistics). A buffer another loop reads
// (@shared), one read at another iteration's row (@neighbour) or returned
// stays global.
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(gpu-private-temporaries))' | FileCheck %s

// CHECK-LABEL: func.func @row_sums(
// CHECK-NOT: memref.alloc()
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: %[[P:.*]] = memref.alloca() : memref<1x2xf32, #spirv.storage_class<Function>>
// CHECK: %[[Z:.*]] = arith.constant 0 : index
// CHECK: memref.store %{{.*}}, %[[P]][%[[Z]], %{{.*}}]
// CHECK: memref.load %[[P]][%[[Z]], %{{.*}}]
// CHECK-LABEL: func.func @shared(
// CHECK: memref.alloc()
// CHECK-NOT: memref.alloca
// CHECK-LABEL: func.func @neighbour(
// CHECK: memref.alloc()
// CHECK-NOT: memref.alloca
// CHECK: return
func.func @row_sums(%x: memref<4x8xf32>, %y: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<4x2xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %z = arith.constant 0.0 : f32
    memref.store %z, %t[%i, %c1] : memref<4x2xf32>
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %a = memref.load %t[%i, %c1] : memref<4x2xf32>
      %s = arith.addf %a, %v : f32
      memref.store %s, %t[%i, %c1] : memref<4x2xf32>
    }
    scf.for %j = %c0 to %c8 step %c1 {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %a = memref.load %t[%i, %c1] : memref<4x2xf32>
      %q = arith.divf %v, %a : f32
      memref.store %q, %y[%i, %j] : memref<4x8xf32>
    }
    scf.reduce
  }
  return
}
func.func @shared(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %t[%i] : memref<4xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %t[%i] : memref<4xf32>
    memref.store %v, %y[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
func.func @neighbour(%x: memref<4xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf32>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %v = memref.load %x[%i] : memref<4xf32>
    memref.store %v, %t[%i] : memref<4xf32>
    %w = memref.load %t[%c0] : memref<4xf32>
    memref.store %w, %y[%i] : memref<4xf32>
    scf.reduce
  }
  return
}
