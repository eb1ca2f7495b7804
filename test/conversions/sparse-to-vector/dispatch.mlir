// How sparse-to-vector and sparse-to-scf call the chunk functions they
// generate: on the runtime's thread pool (default), or one call over every
// item with a scratch at the op (parallel=false, and sparse-to-scf, which
// calls no runtime function); the CSR baseline the same way.
// RUN: strata-opt %s "--sparse-to-vector=vector-width=8 parallel=false" | FileCheck %s --check-prefix=SERIAL
// RUN: strata-opt %s --sparse-to-scf | FileCheck %s --check-prefix=SCF
// RUN: strata-opt %s --sparse-to-vector=vector-width=8 | FileCheck %s --check-prefix=CSR
// Every form computes the same (compiled against the interpreter).
// RUN: strata-opt %s "--sparse-to-vector=vector-width=8 parallel=false" -o %t.serial.mlir
// RUN: strata-run %s --entry csr --seed 3 --quiet --output %t.a.npy
// RUN: strata-run %s --entry csr --seed 3 --quiet --upstream-lowering --output %t.b.npy
// RUN: strata-run %s --entry csr --seed 3 --quiet --interpret --output %t.c.npy
// RUN: %python %root/test/targets/llvm/Inputs/npy_close.py %t.a.npy %t.c.npy | FileCheck %s --check-prefix=CLOSE
// RUN: %python %root/test/targets/llvm/Inputs/npy_close.py %t.b.npy %t.c.npy | FileCheck %s --check-prefix=CLOSE
// RUN: strata-run %s --entry fkw --seed 4 --quiet --interpret --output %t.d.npy
// RUN: strata-run %t.serial.mlir --entry fkw --seed 4 --quiet --output %t.e.npy
// RUN: %python %root/test/targets/llvm/Inputs/npy_close.py %t.e.npy %t.d.npy | FileCheck %s --check-prefix=CLOSE
// CLOSE: close

// SERIAL-NOT: strata_rt_parallel_chunks
// SERIAL-LABEL: func.func @fkw
// The scratch: 3 channels x 6 rows (a 4-row tile with pads) x 1 phase x 32
// floats (16 columns in 8-lane vectors, 2 more for the taps' offsets, a
// vector for the shifts, rounded up to vectors) = 576, and the carry of
// the default `sums` layout (the first of the row's two 8-lane vectors
// passes its sums on to the second): 2 filters x 4 rows x 8 lanes.
// SERIAL: memref.alloc() {alignment = 64 : i64} : memref<640xf32>
// 2 row tiles of 4 (8 output rows): items 0 to 2.
// SERIAL: %[[B:.*]] = arith.constant 0 : index
// SERIAL: %[[E:.*]] = arith.constant 2 : index
// SERIAL: call @__strata_sparse_fkw0({{.*}}, %[[B]], %[[E]]) : (memref<?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>, index, index) -> ()
// SERIAL: func.func private @__strata_sparse_fkw0(

// SCF-NOT: strata_rt_parallel_chunks
// SCF-LABEL: func.func @fkw
// SCF: call @__strata_sparse_fkw0(
// SCF-LABEL: func.func @csr
// SCF: call @__strata_sparse_csr0(
// SCF-NOT: vector.

// CSR-LABEL: func.func @csr
// CSR: %[[FN:.*]] = constant @__strata_sparse_csr0
// CSR: call @strata_rt_parallel_chunks(%[[FN]],
// CSR-LABEL: func.func private @__strata_sparse_csr0(
// CSR: memref.get_global @__strata_sparse_csr0_row_ptr
// CSR: scf.for {{.*}} iter_args
// CSR-NOT: sparse.csr_conv

func.func @fkw(%x: tensor<1x3x8x16xf32>) -> tensor<1x2x8x16xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 0, 2, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<9xf32>} : (tensor<1x3x8x16xf32>) -> tensor<1x2x8x16xf32>
  return %y : tensor<1x2x8x16xf32>
}

// A 2x3 kernel, stride 2 across, dilation 2 down, groups of 2 channels.
func.func @csr(%x: tensor<2x4x9x13xf32>, %b: tensor<2xf32>) -> tensor<2x2x7x6xf32> {
  %y = "sparse.csr_conv"(%x, %b) {kernel_shape = array<i64: 2, 3>, strides = array<i64: 1, 2>, pads = array<i64: 0, 1, 0, 0>, dilations = array<i64: 2, 1>, group = 2 : i64,
      row_ptr = array<i64: 0, 3, 5>, col_index = array<i64: 0, 4, 11, 2, 7>, values = dense<[0.5, -1.0, 2.0, 1.5, -0.25]> : tensor<5xf32>}
      : (tensor<2x4x9x13xf32>, tensor<2xf32>) -> tensor<2x2x7x6xf32>
  return %y : tensor<2x2x7x6xf32>
}
