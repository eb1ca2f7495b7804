// The interpreter checks the run-time operands against the op: a '?' in a
// type lets tensors of other sizes through verification (a batch of 2
// used to be written into a result of 1, a short bias read past its end),
// and weights that are no constant are checked against the pattern set
// only now.
// RUN: rm -rf %t && mkdir -p %t
// RUN: %python -c "import numpy as np; np.save('%t/x2.npy', np.ones((2, 2, 3, 3), np.float32)); np.save('%t/b1.npy', np.ones((1,), np.float32))"
// RUN: not strata-run %s --interpret --entry batch --input %t/x2.npy 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not strata-run %s --interpret --entry bias --input %t/x2.npy --input %t/b1.npy 2>&1 | FileCheck %s --check-prefix=BIAS
// RUN: not strata-run %s --interpret --entry weights 2>&1 | FileCheck %s --check-prefix=WEIGHTS
// RUN: strata-run %s --interpret --entry dynamic --input %t/x2.npy | FileCheck %s --check-prefix=DYNAMIC

// BATCH: interp-errors.mlir:[[@LINE+2]]:8: error: 'sparse.csr_conv' op interpreter: the result must be 2x2x3x3 for this input
func.func @batch(%x: tensor<?x2x?x?xf32>) -> tensor<1x2x3x3xf32> {
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<?x2x?x?xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}

// BIAS: interp-errors.mlir:[[@LINE+2]]:8: error: 'sparse.fkw_conv' op operand 'b' must be a tensor<2xf32> (one value per output channel)
func.func @bias(%x: tensor<?x2x3x3xf32>, %b: tensor<?xf32>) -> tensor<?x2x3x3xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<?x2x3x3xf32>, tensor<?xf32>) -> tensor<?x2x3x3xf32>
  return %y : tensor<?x2x3x3xf32>
}

// WEIGHTS: interp-errors.mlir:[[@LINE+2]]:8: error: 'sparse.pattern_conv' op interpreter: the kernel of filter 0, input channel 0 (support 0x1ff) fits no pattern of the set
func.func @weights(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}

// A dynamic result is allocated by the kernel, to the shape the input gives.
// DYNAMIC: output #0: 2x2x3x3xf32 min 1 max 2
func.func @dynamic(%x: tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32> {
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  return %y : tensor<?x2x?x?xf32>
}
