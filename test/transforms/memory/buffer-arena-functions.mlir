// --strata-buffer-arena over a module of several functions: each planned
// function opens its own arena (the func.func pattern), its planned allocs
// become views of it and their deallocs go (the memref.alloc and
// memref.dealloc patterns); what was not planned keeps its allocs and
// deallocs, and the runtime functions are declared once.
// RUN: strata-opt %s --strata-buffer-arena | FileCheck %s

// CHECK-COUNT-1: func.func private @strata_rt_frame_push
// CHECK-NOT: func.func private @strata_rt_frame_push

// A buffer nothing reads, its dealloc right after it: a 64 B arena.
// CHECK-LABEL: func.func @unused
// CHECK-NEXT: %[[SIZE:.*]] = arith.constant 64 : i64
// CHECK-NEXT: %[[A:.*]] = call @strata_rt_frame_push(%[[SIZE]])
// CHECK: call @strata_rt_frame_slot(%[[A]],
// CHECK-NEXT: arith.constant 0 : index
// CHECK-NEXT: memref.view
// CHECK-NEXT: call @strata_rt_frame_pop(%[[A]])
// CHECK-NEXT: return
func.func @unused() {
  %a = memref.alloc() : memref<4xf32>
  memref.dealloc %a : memref<4xf32>
  return
}

// Nothing static to plan: no arena, the alloc and its dealloc stay.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: strata_rt_frame
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK-NEXT: memref.dealloc
// CHECK-NEXT: return
func.func @dynamic(%n: index) {
  %d = memref.alloc(%n) : memref<?xf32>
  memref.dealloc %d : memref<?xf32>
  return
}

// Its own arena: 320 B, a buffer of 64 floats (256 B) live with one of
// 16 (64 B).
// The dynamic alloc and its dealloc stay.
// CHECK-LABEL: func.func @second
// CHECK-NEXT: %[[SIZE2:.*]] = arith.constant 320 : i64
// CHECK-NEXT: %[[A2:.*]] = call @strata_rt_frame_push(%[[SIZE2]])
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: call @strata_rt_frame_slot(%[[A2]], %{{.*}}, %{{.*}}) :
// CHECK: memref.view {{.*}} to memref<64xf32>
// CHECK: call @strata_rt_frame_slot(%[[A2]], %{{.*}}, %{{.*}}) :
// CHECK: memref.view {{.*}} to memref<16xf32>
// CHECK: memref.dealloc %{{.*}} : memref<?xf32>
// CHECK-NOT: memref.dealloc
// CHECK: call @strata_rt_frame_pop(%[[A2]])
// CHECK-NEXT: return
func.func @second(%in: memref<16xf32>, %n: index) {
  %d = memref.alloc(%n) : memref<?xf32>
  %a = memref.alloc() : memref<64xf32>
  %b = memref.alloc() : memref<16xf32>
  %s = memref.subview %a[0] [16] [1] : memref<64xf32> to memref<16xf32, strided<[1]>>
  memref.copy %in, %s : memref<16xf32> to memref<16xf32, strided<[1]>>
  memref.copy %s, %b : memref<16xf32, strided<[1]>> to memref<16xf32>
  memref.dealloc %d : memref<?xf32>
  memref.dealloc %a : memref<64xf32>
  memref.dealloc %b : memref<16xf32>
  return
}
