// A sparse.pattern_conv whose weights are no constant is left alone by the
// passes that need its values (fkr, fkw, to-csr), and the report says it
// could not measure it.
// RUN: strata-opt %s --sparse-fkr --sparse-fkw --sparse-to-csr | FileCheck %s
// RUN: strata-opt %s --sparse-report | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @arg
// CHECK-NEXT: "sparse.pattern_conv"(%arg0, %arg1) {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, patterns = array<i64: 58>, strides = array<i64: 1, 1>}
// REPORT: sparse-report: 1 sparse convolutions
// REPORT-NEXT: nonconst.mlir:[[@LINE+2]]:8 sparse.pattern_conv (weights not constant or malformed: not measured)
func.func @arg(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 0x3a>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}
