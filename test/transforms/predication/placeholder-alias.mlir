// --pred-placeholder-alias: a buffer computed and then copied into a
// placeholder is computed in the placeholder; the copy, the alloc and its
// dealloc go away. Refused copies into a marked placeholder get a remark.
// RUN: strata-opt %s --split-input-file --pred-placeholder-alias 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err

#id = affine_map<(d0) -> (d0)>
// CHECK-LABEL: func.func @same_type
// CHECK-SAME: (%[[IN:.*]]: memref<16xf32>, %[[PH:.*]]: memref<16xf32> {pred.placeholder})
// CHECK-NEXT: linalg.generic {{.*}} ins(%[[IN]] : memref<16xf32>) outs(%[[PH]] : memref<16xf32>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.dealloc
// CHECK: return
func.func @same_type(%in: memref<16xf32>, %ph: memref<16xf32> {pred.placeholder}) {
  %t = memref.alloc() : memref<16xf32>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<16xf32>) outs(%t : memref<16xf32>) {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %a : f32
    linalg.yield %s : f32
  }
  memref.copy %t, %ph : memref<16xf32> to memref<16xf32>
  memref.dealloc %t : memref<16xf32>
  return
}

// -----
// The output of a C-interface function (CPU pipeline: the result of a
// reshape, which buffer-results-to-out-params copies out): the buffer is
// the out-parameter viewed in the buffer's shape; the reshape goes too.
// CHECK-LABEL: func.func @reshaped_output
// CHECK-SAME: (%[[IN:.*]]: memref<2x6xf32>, %[[OUT:.*]]: memref<3x4xf32>)
// CHECK-NEXT: %[[V:.*]] = memref.reinterpret_cast %[[OUT]] to offset: [0], sizes: [2, 6], strides: [6, 1] : memref<3x4xf32> to memref<2x6xf32>
// CHECK-NEXT: memref.copy %[[IN]], %[[V]]
// CHECK-NEXT: return
func.func @reshaped_output(%in: memref<2x6xf32>, %out: memref<3x4xf32>) attributes {llvm.emit_c_interface} {
  %t = memref.alloc() {alignment = 64 : i64} : memref<2x6xf32>
  memref.copy %in, %t : memref<2x6xf32> to memref<2x6xf32>
  %c = memref.collapse_shape %t [[0, 1]] : memref<2x6xf32> into memref<12xf32>
  %r = memref.expand_shape %c [[0, 1]] output_shape [3, 4] : memref<12xf32> into memref<3x4xf32>
  memref.copy %r, %out : memref<3x4xf32> to memref<3x4xf32>
  memref.dealloc %t : memref<2x6xf32>
  return
}

// -----
// A runtime kernel writes the buffer through an unranked cast: runtime
// calls keep no operand, so the placeholder takes its place.
// CHECK-LABEL: func.func @runtime_kernel
// CHECK-SAME: %[[PH:[^:]*]]: memref<4x8xf32> {pred.placeholder}
// CHECK: %[[X:.*]] = memref.cast %arg0
// CHECK-NEXT: %[[Y:.*]] = memref.cast %[[PH]] : memref<4x8xf32> to memref<*xf32>
// CHECK-NEXT: call @strata_rt_softmax_f32(%[[X]], %[[Y]]
// CHECK-NEXT: return
func.func private @strata_rt_softmax_f32(memref<*xf32>, memref<*xf32>, i64, i64)
func.func @runtime_kernel(%in: memref<4x8xf32>, %ph: memref<4x8xf32> {pred.placeholder}) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %t = memref.alloc() : memref<4x8xf32>
  %x = memref.cast %in : memref<4x8xf32> to memref<*xf32>
  %y = memref.cast %t : memref<4x8xf32> to memref<*xf32>
  call @strata_rt_softmax_f32(%x, %y, %c1, %c0) : (memref<*xf32>, memref<*xf32>, i64, i64) -> ()
  memref.copy %t, %ph : memref<4x8xf32> to memref<4x8xf32>
  return
}

// -----
// Alloc and copy in one loop body: each iteration writes the placeholder.
// CHECK-LABEL: func.func @in_loop
// CHECK: scf.for
// CHECK-NEXT: memref.store %{{.*}}, %arg0[%{{.*}}]
// CHECK-NEXT: }
func.func @in_loop(%ph: memref<4xf32> {pred.placeholder}, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    %t = memref.alloc() : memref<4xf32>
    memref.store %v, %t[%i] : memref<4xf32>
    memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
    memref.dealloc %t : memref<4xf32>
  }
  return
}

// -----
// Not a placeholder (no mark, no C interface): left alone, silently.
// CHECK-LABEL: func.func @not_placeholder
// CHECK: memref.alloc
// CHECK: memref.copy
func.func @not_placeholder(%in: memref<4xf32>, %out: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %in, %t : memref<4xf32> to memref<4xf32>
  memref.copy %t, %out : memref<4xf32> to memref<4xf32>
  return
}

// -----
// REMARK: placeholder-alias.mlir:[[@LINE+7]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the placeholder is accessed between the alloc and the copy
// CHECK-LABEL: func.func @placeholder_read_between
// CHECK: memref.alloc
// CHECK: memref.copy %{{.*}}, %arg0
func.func @placeholder_read_between(%ph: memref<4xf32> {pred.placeholder}, %in: memref<4xf32>) {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %ph, %t : memref<4xf32> to memref<4xf32>
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  return
}

// -----
// Written between, through a view of it.
// REMARK: placeholder-alias.mlir:[[@LINE+9]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the placeholder is accessed between the alloc and the copy
// CHECK-LABEL: func.func @placeholder_written_between
// CHECK: memref.alloc
// CHECK: memref.copy %{{.*}}, %arg0
func.func @placeholder_written_between(%ph: memref<2x2xf32> {pred.placeholder}, %v: f32) {
  %c0 = arith.constant 0 : index
  %flat = memref.collapse_shape %ph [[0, 1]] : memref<2x2xf32> into memref<4xf32>
  %t = memref.alloc() : memref<2x2xf32>
  memref.store %v, %flat[%c0] : memref<4xf32>
  memref.copy %t, %ph : memref<2x2xf32> to memref<2x2xf32>
  return
}

// -----
// REMARK: placeholder-alias.mlir:[[@LINE+8]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the buffer is used after the copy
// CHECK-LABEL: func.func @used_after_copy
// CHECK: memref.alloc
// CHECK: memref.copy %{{.*}}, %arg0
func.func @used_after_copy(%ph: memref<4xf32> {pred.placeholder}, %in: memref<4xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %t = memref.alloc() : memref<4xf32>
  memref.copy %in, %t : memref<4xf32> to memref<4xf32>
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  memref.store %v, %t[%c0] : memref<4xf32>
  return
}

// -----
// Part of a buffer (a subview): the sizes differ.
// REMARK: placeholder-alias.mlir:[[@LINE+6]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the source is not the whole of a buffer allocated in this function
// CHECK-LABEL: func.func @sizes_differ
// CHECK: memref.copy %{{.*}}, %arg0
func.func @sizes_differ(%ph: memref<4xf32> {pred.placeholder}) {
  %t = memref.alloc() : memref<8xf32>
  %s = memref.subview %t[0] [4] [1] : memref<8xf32> to memref<4xf32, strided<[1]>>
  memref.copy %s, %ph : memref<4xf32, strided<[1]>> to memref<4xf32>
  return
}

// -----
// A strided placeholder: the layouts differ.
// REMARK: placeholder-alias.mlir:[[@LINE+5]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the buffers are not statically shaped with identity layouts
// CHECK-LABEL: func.func @layouts_differ
// CHECK: memref.copy %{{.*}}, %arg0
func.func @layouts_differ(%ph: memref<4xf32, strided<[2]>> {pred.placeholder}) {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32, strided<[2]>>
  return
}

// -----
// Passed to a call that may keep it.
// REMARK: placeholder-alias.mlir:[[@LINE+7]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the buffer is passed to a call that may keep it
// CHECK-LABEL: func.func @escapes_to_call
// CHECK: memref.copy %{{.*}}, %arg0
func.func private @keep(memref<4xf32>)
func.func @escapes_to_call(%ph: memref<4xf32> {pred.placeholder}) {
  %t = memref.alloc() : memref<4xf32>
  call @keep(%t) : (memref<4xf32>) -> ()
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  return
}

// -----
// Returned.
// REMARK: placeholder-alias.mlir:[[@LINE+5]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the buffer is returned
// CHECK-LABEL: func.func @escapes_returned
// CHECK: memref.copy %{{.*}}, %arg0
func.func @escapes_returned(%ph: memref<4xf32> {pred.placeholder}) -> memref<4xf32> {
  %t = memref.alloc() : memref<4xf32>
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  return %t : memref<4xf32>
}

// -----
// The alloc outside the loop that copies: a copy per iteration of one
// buffer, in different blocks.
// REMARK: placeholder-alias.mlir:[[@LINE+9]]:5: remark: pred-placeholder-alias: copy into the placeholder kept: the alloc and the copy are in different blocks
// CHECK-LABEL: func.func @different_blocks
// CHECK: memref.copy %{{.*}}, %arg0
func.func @different_blocks(%ph: memref<4xf32> {pred.placeholder}) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %t = memref.alloc() : memref<4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  }
  return
}

// -----
// The placeholder's address is taken between: refused.
// REMARK: placeholder-alias.mlir:[[@LINE+6]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the placeholder is accessed between the alloc and the copy
// CHECK-LABEL: func.func @placeholder_address
// CHECK: memref.copy %{{.*}}, %arg0
func.func @placeholder_address(%ph: memref<4xf32> {pred.placeholder}) -> index {
  %t = memref.alloc() : memref<4xf32>
  %p = memref.extract_aligned_pointer_as_index %ph : memref<4xf32> -> index
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  return %p : index
}

// -----
// Freed through a view: erasing only the buffer's own deallocs would leave
// this one freeing the placeholder.
// REMARK: placeholder-alias.mlir:[[@LINE+6]]:3: remark: pred-placeholder-alias: copy into the placeholder kept: the buffer is freed through a view of it
// CHECK-LABEL: func.func @freed_through_view
// CHECK: memref.copy %{{.*}}, %arg0
func.func @freed_through_view(%ph: memref<4xf32> {pred.placeholder}) {
  %t = memref.alloc() : memref<4xf32>
  %v = memref.cast %t : memref<4xf32> to memref<?xf32>
  memref.copy %t, %ph : memref<4xf32> to memref<4xf32>
  memref.dealloc %v : memref<?xf32>
  return
}
