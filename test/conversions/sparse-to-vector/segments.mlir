// sparse-to-vector, digest C.1.6: one kernel loop per (FKR group, pattern
// present in it), bounds loaded from `stride`, and no branch on the pattern
// inside: group 0 (stored filters 0, 1) uses patterns 0 and 1, group 1
// (filters 2, 3) patterns 1 and 2, so four loops. segments=false (PatDNN's
// "no-opt") is one loop per group with an scf.index_switch on the pattern.
// RUN: strata-opt %s --sparse-to-vector=vector-width=16 | %python %S/Inputs/loop_stats.py | FileCheck %s
// RUN: strata-opt %s "--sparse-to-vector=vector-width=16 segments=false" | %python %S/Inputs/loop_stats.py | FileCheck %s --check-prefix=NOOPT
// RUN: strata-opt %s --sparse-to-vector=vector-width=16 | FileCheck %s --check-prefix=IR
// The same in the scalar lowering.
// RUN: strata-opt %s --sparse-to-scf | %python %S/Inputs/loop_stats.py | FileCheck %s
// And the numbers: compiled against the interpreter, both lowerings.
// RUN: strata-run %s --compare --quiet --threads 2 | FileCheck %s --check-prefix=NUM
// RUN: strata-run %s --compare --quiet --upstream-lowering | FileCheck %s --check-prefix=NUM

// CHECK-COUNT-4: bounds=stride {{.*}} ifs=0 switches=0
// CHECK-NEXT: 4 kernel loops

// NOOPT-COUNT-2: bounds=other {{.*}} switches=1
// NOOPT-NEXT: 2 kernel loops

// The arrays are constant globals; the op becomes the chunk function's
// dispatch on the runtime's thread pool.
// IR-DAG: memref.global "private" constant @__strata_sparse_fkw0_stride : memref<16xi32> = dense<[0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 1, 2, 0, 0, 1, 2]>
// IR-DAG: memref.global "private" constant @__strata_sparse_fkw0_reorder : memref<4xi32> = dense<[2, 0, 3, 1]>
// IR-DAG: func.func private @strata_rt_parallel_chunks((memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index) -> (), memref<*xf32>, memref<*xf32>, memref<*xf32>, i64, i64) attributes {llvm.emit_c_interface}
// IR-LABEL: func.func @segments
// IR: %[[FN:.*]] = constant @__strata_sparse_fkw0 : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index) -> ()
// Items: 1 image x 5 row tiles of 2 rows. The 20 columns leave 12 lanes
// free in the second 16-lane vector, so the default is the sums layout,
// whose 3 sets of sums fit 24 accumulators at 4 rows x 2 vectors; of the
// rows that fit, 2 divides the 10 output rows (4 would compute rows 6-7
// twice).
// IR: %[[N:.*]] = arith.constant 5 : i64
// IR: call @strata_rt_parallel_chunks(%[[FN]], {{.*}}, %[[N]], {{.*}})
// IR-NOT: sparse.fkw_conv
// IR: func.func private @__strata_sparse_fkw0(

// NUM: compare output #0: {{.*}}: OK
func.func @segments(%x: tensor<1x3x10x20xf32>, %b: tensor<4xf32>) -> tensor<1x4x10x20xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 0x03a, 0x0b2, 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 4, 6, 8>, reorder = array<i64: 2, 0, 3, 1>, index = array<i64: 0, 2, 1, 0, 1, 2, 0, 1>,
      stride = array<i64: 0, 1, 2, 2, 0, 1, 2, 2, 0, 0, 1, 2, 0, 0, 1, 2>, groups = array<i64: 0, 2, 4>,
      weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0, 13.0, 14.0, 15.0, 16.0, 17.0, 18.0, 19.0, 20.0, 21.0, 22.0, 23.0, 24.0, 25.0, 26.0, 27.0, 28.0, 29.0, 30.0]> : tensor<30xf32>}
      : (tensor<1x3x10x20xf32>, tensor<4xf32>) -> tensor<1x4x10x20xf32>
  return %y : tensor<1x4x10x20xf32>
}
