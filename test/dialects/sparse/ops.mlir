// The three sparse convolutions compute the convolution their weights
// describe: the FKW arrays of the digest's golden case (C.1.5: filters f0..f3
// stored in FKR order 0,1,3,2), the same weights dense with a pattern set,
// and in CSR, each against nn.conv of the dense weights, in the reference
// interpreter (stride 2 along rows, asymmetric pads, batch 2, a bias). The
// ops round-trip through the printer and parser.
// RUN: strata-opt %s | strata-opt | FileCheck %s --check-prefix=RT
// RUN: strata-run %s --interpret --entry dense > %t.out
// RUN: strata-run %s --interpret --entry pattern >> %t.out
// RUN: strata-run %s --interpret --entry fkw >> %t.out
// RUN: strata-run %s --interpret --entry csr >> %t.out
// RUN: FileCheck %s < %t.out

// RT: "sparse.pattern_conv"
// RT: "sparse.fkw_conv"
// RT-SAME: offset = array<i64: 0, 2, 4, 6, 9>
// RT-SAME: reorder = array<i64: 0, 1, 3, 2>
// RT: "sparse.csr_conv"

// CHECK: interpreted 'dense'
// CHECK-NEXT: output #0: [[OUT:.*]]
// CHECK-NEXT: [[VAL:\[.*]]
// CHECK-NEXT: interpreted 'pattern'
// CHECK-NEXT: output #0: [[OUT]]
// CHECK-NEXT: [[VAL]]
// CHECK-NEXT: interpreted 'fkw'
// CHECK-NEXT: output #0: [[OUT]]
// CHECK-NEXT: [[VAL]]
// CHECK-NEXT: interpreted 'csr'
// CHECK-NEXT: output #0: [[OUT]]
// CHECK-NEXT: [[VAL]]

func.func @dense(%x: tensor<2x4x6x5xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x5xf32> {
  %w = arith.constant dense<[[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 5.0, 0.0], [0.0, 6.0, 7.0], [0.0, 8.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]]], [[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 2.0, 0.0], [0.0, 2.0, 2.0], [0.0, 2.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 1.0, 0.0], [0.5, 0.25, 0.125], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 0.0]], [[0.0, 3.0, 0.0], [0.0, 3.0, 3.0], [0.0, 3.0, 0.0]]], [[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 5.0, 0.0], [6.0, 7.0, 8.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<4x4x3x3xf32>
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>} : (tensor<2x4x6x5xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x3x5xf32>
  return %y : tensor<2x4x3x5xf32>
}

func.func @pattern(%x: tensor<2x4x6x5xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x5xf32> {
  %w = arith.constant dense<[[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 5.0, 0.0], [0.0, 6.0, 7.0], [0.0, 8.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]]], [[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 2.0, 0.0], [0.0, 2.0, 2.0], [0.0, 2.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 1.0, 0.0], [0.5, 0.25, 0.125], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 0.0]], [[0.0, 3.0, 0.0], [0.0, 3.0, 3.0], [0.0, 3.0, 0.0]]], [[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 5.0, 0.0], [6.0, 7.0, 8.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<4x4x3x3xf32>
  %y = "sparse.pattern_conv"(%x, %w, %b) {patterns = array<i64: 58, 178>, strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<2x4x6x5xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<2x4x3x5xf32>
  return %y : tensor<2x4x3x5xf32>
}

func.func @fkw(%x: tensor<2x4x6x5xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x5xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 58, 178>, strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 2, 4, 6, 9>, reorder = array<i64: 0, 1, 3, 2>, index = array<i64: 3, 1, 0, 2, 0, 2, 0, 2, 3>, stride = array<i64: 0, 1, 2, 0, 1, 2, 0, 2, 2, 0, 1, 3>, groups = array<i64: 0, 3, 4>, weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 0.5, 0.25, 0.125, 1.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0]> : tensor<36xf32>} : (tensor<2x4x6x5xf32>, tensor<4xf32>) -> tensor<2x4x3x5xf32>
  return %y : tensor<2x4x3x5xf32>
}

func.func @csr(%x: tensor<2x4x6x5xf32>, %b: tensor<4xf32>) -> tensor<2x4x3x5xf32> {
  %y = "sparse.csr_conv"(%x, %b) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 1>, pads = array<i64: 1, 1, 0, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 8, 16, 28, 36>, col_index = array<i64: 10, 13, 14, 16, 28, 30, 31, 32, 1, 3, 4, 5, 19, 22, 23, 25, 1, 3, 4, 5, 19, 22, 23, 25, 28, 31, 32, 34, 1, 3, 4, 5, 19, 21, 22, 23>, values = dense<[5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0, 1.0, 1.0, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0, 1.0, 0.5, 0.25, 0.125, 1.0, 1.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]> : tensor<36xf32>} : (tensor<2x4x6x5xf32>, tensor<4xf32>) -> tensor<2x4x3x5xf32>
  return %y : tensor<2x4x3x5xf32>
}
