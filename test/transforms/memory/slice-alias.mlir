// --strata-slice-alias: a buffer computed and then copied into a slice of
// another (a Concat's operands after bufferization) is computed in the
// slice: the alloc and the copy go, the target's alloc and view move
// before the computation. Copies it cannot remove stay, with a remark
// saying why (option report).
// RUN: strata-opt %s --split-input-file --strata-slice-alias=report=true 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err


func.func private @strata_rt_conv2d_f32(memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i64, f32, f32)
// A convolution (a runtime kernel, through an unranked cast) and a loop
// into the two slices of a Concat along channels, at batch 2: each image's
// slice is strided by the whole channel count, which the convolution's
// output accepts (kernel_abi.def: MEMREF_F32_PLANES).
// CHECK-LABEL: func.func @conv_and_loop
// CHECK: %[[C:.*]] = memref.alloc() : memref<2x6x4x4xf32>
// CHECK-NEXT: %[[S0:.*]] = memref.subview %[[C]][0, 0, 0, 0] [2, 4, 4, 4] [1, 1, 1, 1] : memref<2x6x4x4xf32> to memref<2x4x4x4xf32, strided<[96, 16, 4, 1]>>
// CHECK-NEXT: %[[X:.*]] = memref.cast %arg0
// CHECK-NEXT: %[[W:.*]] = memref.cast %arg1
// CHECK-NEXT: %[[Y:.*]] = memref.cast %[[S0]] : memref<2x4x4x4xf32, strided<[96, 16, 4, 1]>> to memref<*xf32>
// CHECK-NEXT: call @strata_rt_conv2d_f32(%[[X]], %[[W]], %[[Y]],
// CHECK-NEXT: %[[S1:.*]] = memref.subview %[[C]][0, 4, 0, 0] [2, 2, 4, 4] [1, 1, 1, 1] : memref<2x6x4x4xf32> to memref<2x2x4x4xf32, strided<[96, 16, 4, 1], offset: 64>>
// CHECK-NEXT: linalg.generic {{.*}} ins(%arg2 : memref<2x2x4x4xf32>) outs(%[[S1]] : memref<2x2x4x4xf32, strided<[96, 16, 4, 1], offset: 64>>)
// CHECK-NOT: memref.copy
// CHECK: linalg.generic {{.*}} ins(%[[C]] : memref<2x6x4x4xf32>) outs(%arg3
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield
// CHECK-NEXT: }
// CHECK-NEXT: return
// REMARK: slice-alias.mlir:{{[0-9]+}}:3: remark: strata-slice-alias: copy of 512 bytes into the slice removed
// REMARK: slice-alias.mlir:{{[0-9]+}}:3: remark: strata-slice-alias: copy of 256 bytes into the slice removed
func.func @conv_and_loop(%x: memref<2x3x4x4xf32>, %w: memref<4x3x1x1xf32>, %b: memref<2x2x4x4xf32>, %out: memref<2x6x4x4xf32>) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %f0 = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<2x4x4x4xf32>
  %xc = memref.cast %x : memref<2x3x4x4xf32> to memref<*xf32>
  %wc = memref.cast %w : memref<4x3x1x1xf32> to memref<*xf32>
  %ac = memref.cast %a : memref<2x4x4x4xf32> to memref<*xf32>
  call @strata_rt_conv2d_f32(%xc, %wc, %ac, %ac, %ac, %ac, %c0, %c1, %c1, %c0, %c0, %c1, %c1, %c1, %c0, %c0, %f0, %f0, %c0, %f0, %f0) : (memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64, i64, i64, i64, i64, i64, i64, i64, i64, f32, f32, i64, f32, f32) -> ()
  %e = memref.alloc() : memref<2x2x4x4xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2x2x4x4xf32>) outs(%e : memref<2x2x4x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = arith.negf %i : f32
    linalg.yield %n : f32
  }
  %c = memref.alloc() : memref<2x6x4x4xf32>
  %s0 = memref.subview %c[0, 0, 0, 0] [2, 4, 4, 4] [1, 1, 1, 1] : memref<2x6x4x4xf32> to memref<2x4x4x4xf32, strided<[96, 16, 4, 1]>>
  memref.copy %a, %s0 : memref<2x4x4x4xf32> to memref<2x4x4x4xf32, strided<[96, 16, 4, 1]>>
  %s1 = memref.subview %c[0, 4, 0, 0] [2, 2, 4, 4] [1, 1, 1, 1] : memref<2x6x4x4xf32> to memref<2x2x4x4xf32, strided<[96, 16, 4, 1], offset: 64>>
  memref.copy %e, %s1 : memref<2x2x4x4xf32> to memref<2x2x4x4xf32, strided<[96, 16, 4, 1], offset: 64>>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%c : memref<2x6x4x4xf32>) outs(%out : memref<2x6x4x4xf32>) {
  ^bb0(%i: f32, %o: f32):
    linalg.yield %i : f32
  }
  return
}

// -----
// A Concat of a Concat: the inner operands first go into the inner
// buffer (round one), then the inner buffer into its slice of the outer
// one (round two, which retypes the inner buffer's subviews); the outer
// buffer is the function's out-parameter (a C-interface function).
// CHECK-LABEL: func.func @nested_into_output
// CHECK-SAME: %[[OUT:[^:]*]]: memref<1x7x2x2xf32>)
// CHECK-NEXT: %[[I:.*]] = memref.subview %[[OUT]][0, 0, 0, 0] [1, 5, 2, 2] [1, 1, 1, 1] : memref<1x7x2x2xf32> to memref<1x5x2x2xf32, strided<[28, 4, 2, 1]>>
// CHECK-NEXT: %[[A:.*]] = memref.subview %[[I]][0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 1, 1] : memref<1x5x2x2xf32, strided<[28, 4, 2, 1]>> to memref<1x3x2x2xf32, strided<[28, 4, 2, 1]>>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[A]] : memref<1x3x2x2xf32, strided<[28, 4, 2, 1]>>)
// CHECK: %[[B:.*]] = memref.subview %[[I]][0, 3, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1] : memref<1x5x2x2xf32, strided<[28, 4, 2, 1]>> to memref<1x2x2x2xf32, strided<[28, 4, 2, 1], offset: 12>>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[B]] : memref<1x2x2x2xf32, strided<[28, 4, 2, 1], offset: 12>>)
// CHECK: %[[C:.*]] = memref.subview %[[OUT]][0, 5, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1] : memref<1x7x2x2xf32> to memref<1x2x2x2xf32, strided<[28, 4, 2, 1], offset: 20>>
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[C]] : memref<1x2x2x2xf32, strided<[28, 4, 2, 1], offset: 20>>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc
// CHECK: return
func.func @nested_into_output(%x: memref<1x3x2x2xf32>, %y: memref<1x2x2x2xf32>, %out: memref<1x7x2x2xf32>) attributes {llvm.emit_c_interface} {
  %a = memref.alloc() : memref<1x3x2x2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%x : memref<1x3x2x2xf32>) outs(%a : memref<1x3x2x2xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = arith.negf %i : f32
    linalg.yield %n : f32
  }
  %b = memref.alloc() : memref<1x2x2x2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x2x2x2xf32>) outs(%b : memref<1x2x2x2xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = arith.negf %i : f32
    linalg.yield %n : f32
  }
  %inner = memref.alloc() : memref<1x5x2x2xf32>
  %s0 = memref.subview %inner[0, 0, 0, 0] [1, 3, 2, 2] [1, 1, 1, 1] : memref<1x5x2x2xf32> to memref<1x3x2x2xf32, strided<[20, 4, 2, 1]>>
  memref.copy %a, %s0 : memref<1x3x2x2xf32> to memref<1x3x2x2xf32, strided<[20, 4, 2, 1]>>
  %s1 = memref.subview %inner[0, 3, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1] : memref<1x5x2x2xf32> to memref<1x2x2x2xf32, strided<[20, 4, 2, 1], offset: 12>>
  memref.copy %b, %s1 : memref<1x2x2x2xf32> to memref<1x2x2x2xf32, strided<[20, 4, 2, 1], offset: 12>>
  %c = memref.alloc() : memref<1x2x2x2xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x2x2x2xf32>) outs(%c : memref<1x2x2x2xf32>) {
  ^bb0(%i: f32, %o: f32):
    %n = arith.mulf %i, %i : f32
    linalg.yield %n : f32
  }
  %t0 = memref.subview %out[0, 0, 0, 0] [1, 5, 2, 2] [1, 1, 1, 1] : memref<1x7x2x2xf32> to memref<1x5x2x2xf32, strided<[28, 4, 2, 1]>>
  memref.copy %inner, %t0 : memref<1x5x2x2xf32> to memref<1x5x2x2xf32, strided<[28, 4, 2, 1]>>
  %t1 = memref.subview %out[0, 5, 0, 0] [1, 2, 2, 2] [1, 1, 1, 1] : memref<1x7x2x2xf32> to memref<1x2x2x2xf32, strided<[28, 4, 2, 1], offset: 20>>
  memref.copy %c, %t1 : memref<1x2x2x2xf32> to memref<1x2x2x2xf32, strided<[28, 4, 2, 1], offset: 20>>
  return
}

// -----
// Copies that stay: a softmax's output (the kernel takes dense buffers
// only) into a slice strided by batch 2; a buffer read after its copy; a
// function argument; a buffer whose slice is read before the copy (the
// copies out of the function stay too: no slices).
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-7: memref.copy
// CHECK-NOT: memref.copy
// REMARK: remark: strata-slice-alias: copy into the slice kept: a kernel takes the buffer in a layout the slice does not have
// REMARK: remark: strata-slice-alias: copy into the slice kept: the buffer is used after the copy
// REMARK: remark: strata-slice-alias: copy into the slice kept: the source is not a buffer allocated here (an argument or a constant)
// REMARK: remark: strata-slice-alias: copy into the slice kept: the slice is accessed between the alloc and the copy
// REMARK: remark: strata-slice-alias: 0 copies (0 bytes) into slices removed
func.func private @strata_rt_softmax_f32(memref<*xf32>, memref<*xf32>, i64, i64)
func.func @kept(%x: memref<2x3x4xf32>, %out: memref<2x6x4xf32>, %r: memref<2x6x4xf32>) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %c0i = arith.constant 0 : index
  %c = memref.alloc() : memref<2x6x4xf32>
  %s = memref.alloc() : memref<2x3x4xf32>
  %xc = memref.cast %x : memref<2x3x4xf32> to memref<*xf32>
  %sc = memref.cast %s : memref<2x3x4xf32> to memref<*xf32>
  call @strata_rt_softmax_f32(%xc, %sc, %c1, %c0) : (memref<*xf32>, memref<*xf32>, i64, i64) -> ()
  %s0 = memref.subview %c[0, 0, 0] [2, 3, 4] [1, 1, 1] : memref<2x6x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1]>>
  memref.copy %s, %s0 : memref<2x3x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1]>>
  %u = memref.alloc() : memref<2x3x4xf32>
  memref.copy %x, %u : memref<2x3x4xf32> to memref<2x3x4xf32>
  %s1 = memref.subview %c[0, 3, 0] [2, 3, 4] [1, 1, 1] : memref<2x6x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1], offset: 12>>
  memref.copy %u, %s1 : memref<2x3x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1], offset: 12>>
  %v = memref.load %u[%c0i, %c0i, %c0i] : memref<2x3x4xf32>
  %d = memref.alloc() : memref<2x6x4xf32>
  %d0 = memref.subview %d[0, 0, 0] [2, 3, 4] [1, 1, 1] : memref<2x6x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1]>>
  memref.copy %x, %d0 : memref<2x3x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1]>>
  %w = memref.alloc() : memref<2x3x4xf32>
  memref.store %v, %w[%c0i, %c0i, %c0i] : memref<2x3x4xf32>
  %d1 = memref.subview %d[0, 3, 0] [2, 3, 4] [1, 1, 1] : memref<2x6x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1], offset: 12>>
  %peek = memref.load %d1[%c0i, %c0i, %c0i] : memref<2x3x4xf32, strided<[24, 4, 1], offset: 12>>
  memref.store %peek, %w[%c0i, %c0i, %c0i] : memref<2x3x4xf32>
  memref.copy %w, %d1 : memref<2x3x4xf32> to memref<2x3x4xf32, strided<[24, 4, 1], offset: 12>>
  memref.copy %c, %out : memref<2x6x4xf32> to memref<2x6x4xf32>
  memref.copy %d, %r : memref<2x6x4xf32> to memref<2x6x4xf32>
  return
}
