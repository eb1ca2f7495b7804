// sparse-report: one line per sparse convolution in program order, then the
// totals; the IR is unchanged. With file= the report goes there (created or
// truncated), else to stdout.
// RUN: strata-opt %s --sparse-report -o %t.ir.mlir | FileCheck %s
// RUN: FileCheck %s --check-prefix=IR < %t.ir.mlir
// RUN: echo stale > %t.report
// RUN: strata-opt %s --sparse-report=file=%t.report -o %t.ir2.mlir
// RUN: FileCheck %s --input-file=%t.report
// RUN: not strata-opt %s --sparse-report=file=%t.missing/dir/report 2>&1 | FileCheck %s --check-prefix=NOFILE
// The golden FKW convolution as pattern_conv, fkw_conv and csr_conv:
// RUN: strata-opt %S/Inputs/golden-conv.mlir --sparse-detect --sparse-report | FileCheck %s --check-prefix=GOLDEN
// RUN: strata-opt %S/Inputs/golden-conv.mlir --sparse-detect --sparse-fkr --sparse-fkw --sparse-report | FileCheck %s --check-prefix=GOLDEN
// RUN: strata-opt %S/Inputs/golden-conv.mlir --sparse-to-csr --sparse-report | FileCheck %s --check-prefix=GOLDEN

// CHECK-NOT: stale
// CHECK: sparse-report: 2 sparse convolutions
// One kernel of 2 (4 of 18 weights: 4.50x), pattern 0x03a; FKW's index
// (3 offsets, 2 reorder, 1 index, 4 stride entries = 40 bytes) is larger
// than CSR's (3 row pointers, 4 columns = 28 bytes) at this size.
// CHECK-NEXT: report.mlir:[[@LINE+11]]:8 sparse.fkw_conv [2,1,3,3] patterns=0x03a:1 kernels=1/2 flop-cut=4.50x tuning=tile:2x4,unroll:2,permute:oh_co_ow_ci index-bytes fkw=40 csr=28 saving=-42.9%
// A 2x2 CSR conv: no FKW form; 3 of 8 weights.
// CHECK-NEXT: report.mlir:[[@LINE+10]]:8 sparse.csr_conv [2,1,2,2] patterns=- kernels=2/2 flop-cut=2.67x tuning=- index-bytes fkw=- csr=24
// Totals: FLOPs weighted by output pixels (N*OH*OW = 2*4*4 = 32 for both
// ops): (18 + 8) / (4 + 3).
// CHECK-NEXT: total: kernels=3/4 flop-cut=3.71x index-bytes fkw=40 csr=28 saving=-42.9% (1 of 2 ops with an FKW form)
// IR: "sparse.fkw_conv"
// IR: "sparse.csr_conv"
// NOFILE: error: sparse-report: cannot write '{{.*}}missing/dir/report': No such file or directory

func.func @f(%x: tensor<2x1x4x4xf32>) -> (tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>) {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x3a>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1, offset = array<i64: 0, 1, 1>, reorder = array<i64: 0, 1>, index = array<i64: 0>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>, tile = array<i64: 2, 4>, unroll = array<i64: 2>, permute = "oh_co_ow_ci"} : (tensor<2x1x4x4xf32>) -> tensor<2x2x4x4xf32>
  %z = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 1, 1>, dilations = array<i64: 1, 1>, group = 1, row_ptr = array<i64: 0, 2, 3>, col_index = array<i64: 0, 3, 1>, values = dense<[1.0, 2.0, 3.0]> : tensor<3xf32>} : (tensor<2x1x4x4xf32>) -> tensor<2x2x4x4xf32>
  return %y, %z : tensor<2x2x4x4xf32>, tensor<2x2x4x4xf32>
}

// GOLDEN: sparse-report: 1 sparse convolutions
// GOLDEN-NEXT: golden-conv.mlir:{{[0-9]+}}:8 sparse.{{pattern|fkw|csr}}_conv [4,4,3,3] patterns=0x03a:5,0x0b2:4 kernels=9/16 flop-cut=4.00x tuning=- index-bytes fkw=120 csr=164 saving=26.8%
// GOLDEN-NEXT: total: kernels=9/16 flop-cut=4.00x index-bytes fkw=120 csr=164 saving=26.8% (1 of 1 ops with an FKW form)
