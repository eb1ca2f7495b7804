// --strata-buffer-arena: static top-level allocs become views into one
// arena sized by live ranges; aliases (views, unranked casts) extend a
// buffer's life; allocs in loops or with dynamic sizes stay (the top-level
// deallocs of dynamic ones move up to their last use).
// RUN: strata-opt %s --split-input-file --strata-buffer-arena | FileCheck %s

// %a (64 B) dies before %b is allocated: both at offset 0, arena 64 B.
// %c overlaps %b's life (read by the copy into %out): it goes after it.
// CHECK-DAG: func.func private @strata_rt_frame_push(i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @strata_rt_frame_pop(memref<?xi8>) attributes {llvm.emit_c_interface}
// CHECK-DAG: func.func private @strata_rt_frame_slot(memref<?xi8>, i64, i64) -> memref<?xi8> attributes {llvm.emit_c_interface}
// Each buffer is its own slot of the arena (an opaque call: distinct
// objects to LLVM's vectorizer), viewed from its start.
// CHECK-LABEL: func.func @chain
// CHECK: %[[SIZE:.*]] = arith.constant 128 : i64
// CHECK: %[[ARENA:.*]] = call @strata_rt_frame_push(%[[SIZE]])
// CHECK: %[[S0:.*]] = call @strata_rt_frame_slot(%[[ARENA]], %c0_i64{{.*}}, %c64_i64{{.*}})
// CHECK: memref.view %[[S0]][%c0{{.*}}][] : memref<?xi8> to memref<16xf32>
// CHECK: %[[S1:.*]] = call @strata_rt_frame_slot(%[[ARENA]], %c0_i64{{.*}}, %c64_i64{{.*}})
// CHECK: memref.view %[[S1]][%c0{{.*}}][] : memref<?xi8> to memref<16xf32>
// CHECK: %[[S2:.*]] = call @strata_rt_frame_slot(%[[ARENA]], %c64_i64{{.*}}, %c64_i64{{.*}})
// CHECK: memref.view %[[S2]][%c0{{.*}}][] : memref<?xi8> to memref<4x4xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.dealloc
// CHECK: call @strata_rt_frame_pop(%[[ARENA]])
// CHECK-NEXT: return
func.func @chain(%in: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %in, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<16xf32>
  %c = memref.alloc() : memref<4x4xf32>
  %cs = memref.collapse_shape %c [[0, 1]] : memref<4x4xf32> into memref<16xf32>
  memref.copy %in, %cs : memref<16xf32> to memref<16xf32>
  memref.copy %cs, %b : memref<16xf32> to memref<16xf32>
  memref.copy %b, %out : memref<16xf32> to memref<16xf32>
  memref.dealloc %a : memref<16xf32>
  memref.dealloc %b : memref<16xf32>
  memref.dealloc %c : memref<4x4xf32>
  return
}

// -----
// %a's only later use is through a cast to memref<*xf32> passed to a call:
// %b must not share its bytes.
// CHECK-LABEL: func.func @unranked_alias
// CHECK: arith.constant 128 : i64
// CHECK: call @strata_rt_frame_slot(%{{.*}}, %c0_i64{{.*}}, %c64_i64{{.*}})
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8> to memref<8xf32>
// CHECK: call @strata_rt_frame_slot(%{{.*}}, %c64_i64{{.*}}, %c64_i64{{.*}})
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<?xi8> to memref<8xf32>
func.func private @use(memref<*xf32>, memref<8xf32>)
func.func @unranked_alias(%in: memref<8xf32>) {
  %a = memref.alloc() : memref<8xf32>
  memref.copy %in, %a : memref<8xf32> to memref<8xf32>
  %u = memref.cast %a : memref<8xf32> to memref<*xf32>
  %b = memref.alloc() : memref<8xf32>
  memref.copy %in, %b : memref<8xf32> to memref<8xf32>
  call @use(%u, %b) : (memref<*xf32>, memref<8xf32>) -> ()
  memref.dealloc %a : memref<8xf32>
  memref.dealloc %b : memref<8xf32>
  return
}

// -----
// Dynamic sizes and allocs inside loops are left alone; nothing to plan.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: strata_rt_frame_push
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: scf.for
// CHECK: memref.alloc() : memref<4xf32>
func.func @left_alone(%n: index) {
  %d = memref.alloc(%n) : memref<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  memref.dealloc %d : memref<?xf32>
  return
}

// -----

// Heap buffers (dynamic sizes) stay allocs, and each top-level dealloc
// moves up to right after the last use of the buffer or of a view of it:
// %a dies at the copy into %b, %b (through its view %bv) at the copy into
// %out, before %c is even allocated; %c stays freed where it was.
// CHECK-LABEL: func.func @heap
// CHECK: %[[A:.*]] = memref.alloc(%[[N:.*]]) : memref<?xf32>
// CHECK-NEXT: memref.copy %arg0, %[[A]]
// CHECK-NEXT: %[[B:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: memref.copy %[[A]], %[[B]]
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: %[[BV:.*]] = memref.cast %[[B]]
// CHECK-NEXT: memref.copy %[[BV]], %arg1
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: %[[C:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT: memref.copy %arg0, %[[C]]
// CHECK-NEXT: memref.copy %[[C]], %arg1
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK-NEXT: return
func.func @heap(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %in, %a : memref<?xf32> to memref<?xf32>
  %b = memref.alloc(%n) : memref<?xf32>
  memref.copy %a, %b : memref<?xf32> to memref<?xf32>
  %bv = memref.cast %b : memref<?xf32> to memref<?xf32>
  memref.copy %bv, %out : memref<?xf32> to memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  memref.copy %in, %c : memref<?xf32> to memref<?xf32>
  memref.copy %c, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return
}

// -----

// A heap buffer with a use the pass cannot bound (in another block of a
// multi-block region it does not plan) keeps its dealloc: here the whole
// function has two blocks, so nothing moves.
// CHECK-LABEL: func.func @heap_blocks
// CHECK: ^bb1:
// CHECK-NEXT: memref.copy %arg0, %arg1
// CHECK-NEXT: memref.copy %{{.*}}, %arg1
// CHECK-NEXT: memref.copy %arg0, %arg1
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
func.func @heap_blocks(%in: memref<?xf32>, %out: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %n = memref.dim %in, %c0 : memref<?xf32>
  %a = memref.alloc(%n) : memref<?xf32>
  memref.copy %in, %a : memref<?xf32> to memref<?xf32>
  cf.br ^bb1
^bb1:
  memref.copy %in, %out : memref<?xf32> to memref<?xf32>
  memref.copy %a, %out : memref<?xf32> to memref<?xf32>
  memref.copy %in, %out : memref<?xf32> to memref<?xf32>
  memref.dealloc %a : memref<?xf32>
  return
}
