// gpu-fuse-blocks on bufferized loops: nests that pass a buffer at the same
// index fuse into one scf.parallel and the block dissolves (@same_index); a
// nest that reads what another work-item of the nest before it wrote (a
// neighbour, x[i + 1]) keeps its own loop, so its own kernel (@neighbour).
// The cases below: permuted nests and subviews.
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

// A nest whose dimensions run in the other order (a transpose of what the
// nest before it wrote) is permuted to line up: one loop over the first
// nest's dimensions, the second nest's store indexed through the
// permutation (@permuted; %a is an output, else the transpose would be
// recomputed from %x in its reader). If a work-item would read what another wrote
// (a[0, j]) the nest keeps its loop and its order (@permuted_neighbour).
// CHECK-LABEL: func.func @permuted(
// CHECK: scf.parallel (%[[I:.*]], %[[J:.*]]) = (%{{.*}}, %{{.*}}) to (%c4, %c8)
// CHECK: memref.store %{{.*}}, %[[A:.*]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK: memref.load %[[A]][%[[I]], %[[J]]] : memref<4x8xf32>
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[J]], %[[I]]] : memref<8x4xf32>
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func @permuted_neighbour(
// CHECK: scf.parallel {{.*}} to (%c4, %c8)
// CHECK: scf.parallel {{.*}} to (%c8, %c4)
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @permuted(%x: memref<4x8xf32>, %y: memref<8x4xf32>, %a: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.execute_region no_inline {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %e = math.exp %v : f32
      memref.store %e, %a[%i, %j] : memref<4x8xf32>
      scf.reduce
    }
    scf.parallel (%j, %i) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
      %v = memref.load %a[%i, %j] : memref<4x8xf32>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%j, %i] : memref<8x4xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}
func.func @permuted_neighbour(%x: memref<4x8xf32>, %y: memref<8x4xf32>, %a: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.execute_region no_inline {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %e = math.exp %v : f32
      memref.store %e, %a[%i, %j] : memref<4x8xf32>
      scf.reduce
    }
    scf.parallel (%j, %i) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
      %v = memref.load %a[%i, %j] : memref<4x8xf32>
      %u = memref.load %a[%c0, %j] : memref<4x8xf32>
      %w = arith.addf %v, %u : f32
      memref.store %w, %y[%j, %i] : memref<8x4xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}

// A nest reading a column block (a subview with offset 0 and stride 1 in
// the rows) of the rows the nest before it wrote shares the rows' loop
// (@column_block, how attention's query, key and value slices meet the
// bias add before them); a subview that shifts the rows reads what another
// work-item wrote, and keeps its own loop (@row_offset).
// CHECK-LABEL: func.func @column_block(
// CHECK: scf.parallel (%[[I:.*]]) =
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[A:.*]][%[[I]], %{{.*}}]
// CHECK: scf.for
// CHECK: memref.load %{{.*}}[%[[I]], %{{.*}}] : memref<4x4xf32, strided<[8, 1], offset: 4>>
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func @row_offset(
// CHECK-COUNT-2: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @column_block(%x: memref<4x8xf32>, %y: memref<4x4xf32>, %z: memref<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.execute_region no_inline {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %e = math.exp %v : f32
      memref.store %e, %z[%i, %j] : memref<4x8xf32>
      scf.reduce
    }
    %s = memref.subview %z[0, 4] [4, 4] [1, 1] : memref<4x8xf32> to memref<4x4xf32, strided<[8, 1], offset: 4>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
      %v = memref.load %s[%i, %j] : memref<4x4xf32, strided<[8, 1], offset: 4>>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i, %j] : memref<4x4xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}
func.func @row_offset(%x: memref<4x8xf32>, %y: memref<4x8xf32>, %z: memref<5x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  scf.execute_region no_inline {
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<4x8xf32>
      %e = math.exp %v : f32
      memref.store %e, %z[%i, %j] : memref<5x8xf32>
      scf.reduce
    }
    %s = memref.subview %z[1, 0] [4, 8] [1, 1] : memref<5x8xf32> to memref<4x8xf32, strided<[8, 1], offset: 8>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c8) step (%c1, %c1) {
      %v = memref.load %s[%i, %j] : memref<4x8xf32, strided<[8, 1], offset: 8>>
      %w = arith.addf %v, %v : f32
      memref.store %w, %y[%i, %j] : memref<4x8xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}

// A bias add whose buffer the block yields, read at other rows by a
// matmul-like nest (@yielded_producer, attention's scores): the add is
// recomputed in the reader's loads (through the subview: offset 4 in the
// rows) and still fills its buffer; the two nests then share no buffer
// and run as one loop over the larger count (32), the smaller (16) under a
// guard. A reader of a reduction's result at another row cannot recompute
// it and keeps its own loop (@dependent).
// CHECK-LABEL: func.func @yielded_producer(
// CHECK: %[[A:.*]] = memref.alloc() : memref<8x4xf32>
// CHECK: scf.parallel (%[[ID:.*]]) = (%{{.*}}) to (%c32{{.*}}) step
// CHECK: memref.store %{{.*}}, %[[A]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[ID]], %c16
// CHECK: scf.if %[[IN]] {
// CHECK: scf.for
// CHECK-NOT: memref.load %[[A]]
// CHECK: arith.addi %{{.*}}, %c4
// CHECK-NOT: memref.load %[[A]]
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
// CHECK: return %[[A]]
// CHECK-LABEL: func.func @dependent(
// CHECK-COUNT-2: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: return
func.func @yielded_producer(%x: memref<8x4xf32>, %b: memref<4xf32>, %y: memref<4x4xf32>) -> memref<8x4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 0.0 : f32
  %r = scf.execute_region -> memref<8x4xf32> no_inline {
    %a = memref.alloc() : memref<8x4xf32>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c8, %c4) step (%c1, %c1) {
      %v = memref.load %x[%i, %j] : memref<8x4xf32>
      %w = memref.load %b[%j] : memref<4xf32>
      %s = arith.addf %v, %w : f32
      memref.store %s, %a[%i, %j] : memref<8x4xf32>
      scf.reduce
    }
    %k = memref.subview %a[4, 0] [4, 4] [1, 1] : memref<8x4xf32> to memref<4x4xf32, strided<[4, 1], offset: 16>>
    scf.parallel (%i, %j) = (%c0, %c0) to (%c4, %c4) step (%c1, %c1) {
      memref.store %cst, %y[%i, %j] : memref<4x4xf32>
      scf.for %l = %c0 to %c4 step %c1 {
        %p = memref.load %k[%i, %l] : memref<4x4xf32, strided<[4, 1], offset: 16>>
        %q = memref.load %k[%j, %l] : memref<4x4xf32, strided<[4, 1], offset: 16>>
        %acc = memref.load %y[%i, %j] : memref<4x4xf32>
        %m = arith.mulf %p, %q : f32
        %n = arith.addf %acc, %m : f32
        memref.store %n, %y[%i, %j] : memref<4x4xf32>
      }
      scf.reduce
    }
    scf.yield %a : memref<8x4xf32>
  }
  return %r : memref<8x4xf32>
}
func.func @dependent(%x: memref<4x8xf32>, %y: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %cst = arith.constant 0.0 : f32
  scf.execute_region no_inline {
    %s = memref.alloc() : memref<4xf32>
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      memref.store %cst, %s[%i] : memref<4xf32>
      scf.for %l = %c0 to %c8 step %c1 {
        %v = memref.load %x[%i, %l] : memref<4x8xf32>
        %acc = memref.load %s[%i] : memref<4xf32>
        %n = arith.addf %acc, %v : f32
        memref.store %n, %s[%i] : memref<4xf32>
      }
      scf.reduce
    }
    scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
      %v = memref.load %s[%c0] : memref<4xf32>
      memref.store %v, %y[%i] : memref<4xf32>
      scf.reduce
    }
    scf.yield
  }
  return
}
