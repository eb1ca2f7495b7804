// The reference interpreter on edge shapes: each sparse form writes the
// same bytes as nn.conv of its dense weights (the interpreter accumulates
// in double in the dense order, so the outputs are bitwise equal).
//  a: 1x1 output, batch 2, bias, FKW filters stored in another order
//  b: every kernel pruned (empty filters only), bias
//  c: depthwise (group = C = 3, two filters per channel, some empty) with
//     batch 2, stride 2, dilation 2 and asymmetric pads
//  d: a CSR 2x5 kernel
//  e: an input of zero rows, padded to two (CSR 1x1 kernel)
// RUN: rm -rf %t && mkdir -p %t
// RUN: strata-opt %s | strata-opt > /dev/null
// RUN: strata-run %s --interpret --entry a_dense --output %t/a_dense.npy
// RUN: strata-run %s --interpret --entry a_pattern --output %t/a_pattern.npy
// RUN: strata-run %s --interpret --entry a_fkw --output %t/a_fkw.npy
// RUN: strata-run %s --interpret --entry a_csr --output %t/a_csr.npy
// RUN: cmp %t/a_dense.npy %t/a_pattern.npy
// RUN: cmp %t/a_dense.npy %t/a_fkw.npy
// RUN: cmp %t/a_dense.npy %t/a_csr.npy
// RUN: strata-run %s --interpret --entry b_dense --output %t/b_dense.npy
// RUN: strata-run %s --interpret --entry b_pattern --output %t/b_pattern.npy
// RUN: strata-run %s --interpret --entry b_fkw --output %t/b_fkw.npy
// RUN: strata-run %s --interpret --entry b_csr --output %t/b_csr.npy
// RUN: cmp %t/b_dense.npy %t/b_pattern.npy
// RUN: cmp %t/b_dense.npy %t/b_fkw.npy
// RUN: cmp %t/b_dense.npy %t/b_csr.npy
// RUN: strata-run %s --interpret --entry c_dense --output %t/c_dense.npy
// RUN: strata-run %s --interpret --entry c_pattern --output %t/c_pattern.npy
// RUN: strata-run %s --interpret --entry c_fkw --output %t/c_fkw.npy
// RUN: strata-run %s --interpret --entry c_csr --output %t/c_csr.npy
// RUN: cmp %t/c_dense.npy %t/c_pattern.npy
// RUN: cmp %t/c_dense.npy %t/c_fkw.npy
// RUN: cmp %t/c_dense.npy %t/c_csr.npy
// RUN: strata-run %s --interpret --entry d_dense --output %t/d_dense.npy
// RUN: strata-run %s --interpret --entry d_csr --output %t/d_csr.npy
// RUN: cmp %t/d_dense.npy %t/d_csr.npy
// RUN: strata-run %s --interpret --entry e_dense --output %t/e_dense.npy
// RUN: strata-run %s --interpret --entry e_csr --output %t/e_csr.npy
// RUN: cmp %t/e_dense.npy %t/e_csr.npy
// RUN: strata-run %s --interpret --entry a_fkw | FileCheck %s --check-prefix=A
// RUN: strata-run %s --interpret --entry c_fkw | FileCheck %s --check-prefix=C

// The comparisons above are not vacuous (seeded random inputs).
// A: output #0: 2x2x1x1xf32 min -4.87521 max 11.1716
// C: output #0: 2x6x2x7xf32 min -5.96421 max 9.89989

// ---- a ----
func.func @a_dense(%x: tensor<2x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<2x2x1x1xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 5.0, 0.0], [0.0, 6.0, 7.0], [0.0, 8.0, 0.0]], [[0.0, -1.0, 0.0], [-2.0, -3.0, -4.0], [0.0, 0.0, 0.0]]]]> : tensor<2x2x3x3xf32>
  %y = "nn.conv"(%x, %w, %b) : (tensor<2x2x3x3xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x1x1xf32>
  return %y : tensor<2x2x1x1xf32>
}

func.func @a_pattern(%x: tensor<2x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<2x2x1x1xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 5.0, 0.0], [0.0, 6.0, 7.0], [0.0, 8.0, 0.0]], [[0.0, -1.0, 0.0], [-2.0, -3.0, -4.0], [0.0, 0.0, 0.0]]]]> : tensor<2x2x3x3xf32>
  %y = "sparse.pattern_conv"(%x, %w, %b) {patterns = array<i64: 58, 178>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<2x2x3x3xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x1x1xf32>
  return %y : tensor<2x2x1x1xf32>
}

func.func @a_fkw(%x: tensor<2x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<2x2x1x1xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 58, 178>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 1, 0, 0>, stride = array<i64: 0, 1, 2, 0, 1, 1>, groups = array<i64: 0, 1, 2>, weight = dense<[-1.0, -2.0, -3.0, -4.0, 5.0, 6.0, 7.0, 8.0, 1.0, 2.0, 3.0, 4.0]> : tensor<12xf32>} : (tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x1x1xf32>
  return %y : tensor<2x2x1x1xf32>
}

func.func @a_csr(%x: tensor<2x2x3x3xf32>, %b: tensor<2xf32>) -> tensor<2x2x1x1xf32> {
  %y = "sparse.csr_conv"(%x, %b) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 4, 12>, col_index = array<i64: 1, 3, 4, 5, 1, 4, 5, 7, 10, 12, 13, 14>, values = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, -1.0, -2.0, -3.0, -4.0]> : tensor<12xf32>} : (tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x1x1xf32>
  return %y : tensor<2x2x1x1xf32>
}

// ---- b ----
func.func @b_dense(%x: tensor<1x2x4x4xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<0.0> : tensor<2x2x3x3xf32>
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

func.func @b_pattern(%x: tensor<1x2x4x4xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %w = arith.constant dense<0.0> : tensor<2x2x3x3xf32>
  %y = "sparse.pattern_conv"(%x, %w, %b) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

func.func @b_fkw(%x: tensor<1x2x4x4xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 0, 0>, reorder = array<i64: 0, 1>, index = array<i64>, stride = array<i64: 0, 0, 0, 0>, groups = array<i64: 0, 2>, weight = dense<[]> : tensor<0xf32>} : (tensor<1x2x4x4xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

func.func @b_csr(%x: tensor<1x2x4x4xf32>, %b: tensor<2xf32>) -> tensor<1x2x4x4xf32> {
  %y = "sparse.csr_conv"(%x, %b) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 0, 0>, col_index = array<i64>, values = dense<[]> : tensor<0xf32>} : (tensor<1x2x4x4xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// ---- c ----
func.func @c_dense(%x: tensor<2x3x7x7xf32>) -> tensor<2x6x2x7xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 5.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.5, 0.0], [-1.0, 2.0, 0.25], [0.0, 3.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]]], [[[0.0, -2.0, 0.0], [0.0, 0.0, 1.0], [0.0, 2.0, 0.0]]]]> : tensor<6x1x3x3xf32>
  %y = "nn.conv"(%x, %w) {group = 3 : i64, strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 2>, dilations = array<i64: 2, 1>} : (tensor<2x3x7x7xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x2x7xf32>
  return %y : tensor<2x6x2x7xf32>
}

func.func @c_pattern(%x: tensor<2x3x7x7xf32>) -> tensor<2x6x2x7xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 5.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.5, 0.0], [-1.0, 2.0, 0.25], [0.0, 3.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 1.0, 0.0]]], [[[0.0, -2.0, 0.0], [0.0, 0.0, 1.0], [0.0, 2.0, 0.0]]]]> : tensor<6x1x3x3xf32>
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 186>, strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 2>, dilations = array<i64: 2, 1>, group = 3 : i64} : (tensor<2x3x7x7xf32>, tensor<6x1x3x3xf32>) -> tensor<2x6x2x7xf32>
  return %y : tensor<2x6x2x7xf32>
}

func.func @c_fkw(%x: tensor<2x3x7x7xf32>) -> tensor<2x6x2x7xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 186>, strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 2>, dilations = array<i64: 2, 1>, group = 3 : i64, offset = array<i64: 0, 1, 1, 2, 2, 3, 4>, reorder = array<i64: 0, 1, 2, 3, 4, 5>, index = array<i64: 0, 0, 0, 0>, stride = array<i64: 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1>, groups = array<i64: 0, 6>, weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 0.5, -1.0, 2.0, 0.25, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, 0.0, 0.0, 1.0, 2.0]> : tensor<20xf32>} : (tensor<2x3x7x7xf32>) -> tensor<2x6x2x7xf32>
  return %y : tensor<2x6x2x7xf32>
}

func.func @c_csr(%x: tensor<2x3x7x7xf32>) -> tensor<2x6x2x7xf32> {
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 1>, pads = array<i64: 1, 0, 0, 2>, dilations = array<i64: 2, 1>, group = 3 : i64, row_ptr = array<i64: 0, 5, 5, 10, 10, 15, 18>, col_index = array<i64: 1, 3, 4, 5, 7, 1, 3, 4, 5, 7, 1, 3, 4, 5, 7, 1, 5, 7>, values = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 0.5, -1.0, 2.0, 0.25, 3.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0, 1.0, 2.0]> : tensor<18xf32>} : (tensor<2x3x7x7xf32>) -> tensor<2x6x2x7xf32>
  return %y : tensor<2x6x2x7xf32>
}

// ---- d ----
func.func @d_dense(%x: tensor<1x2x4x6xf32>) -> tensor<1x1x3x2xf32> {
  %w = arith.constant dense<[[[[1.0, 0.0, 0.0, 0.0, 2.0], [0.0, 0.0, 3.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 4.0, 0.0, 0.0, -1.0]]]]> : tensor<1x2x2x5xf32>
  %y = "nn.conv"(%x, %w) : (tensor<1x2x4x6xf32>, tensor<1x2x2x5xf32>) -> tensor<1x1x3x2xf32>
  return %y : tensor<1x1x3x2xf32>
}

func.func @d_csr(%x: tensor<1x2x4x6xf32>) -> tensor<1x1x3x2xf32> {
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 2, 5>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 5>, col_index = array<i64: 0, 4, 7, 16, 19>, values = dense<[1.0, 2.0, 3.0, 4.0, -1.0]> : tensor<5xf32>} : (tensor<1x2x4x6xf32>) -> tensor<1x1x3x2xf32>
  return %y : tensor<1x1x3x2xf32>
}

// ---- e ----
func.func @e_dense(%x: tensor<1x1x0x4xf32>, %b: tensor<1xf32>) -> tensor<1x1x2x4xf32> {
  %w = arith.constant dense<2.0> : tensor<1x1x1x1xf32>
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 0, 1, 0>} : (tensor<1x1x0x4xf32>, tensor<1x1x1x1xf32>, tensor<1xf32>) -> tensor<1x1x2x4xf32>
  return %y : tensor<1x1x2x4xf32>
}

func.func @e_csr(%x: tensor<1x1x0x4xf32>, %b: tensor<1xf32>) -> tensor<1x1x2x4xf32> {
  %y = "sparse.csr_conv"(%x, %b) {kernel_shape = array<i64: 1, 1>, strides = array<i64: 1, 1>, pads = array<i64: 1, 0, 1, 0>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1>, col_index = array<i64: 0>, values = dense<[2.0]> : tensor<1xf32>} : (tensor<1x1x0x4xf32>, tensor<1xf32>) -> tensor<1x1x2x4xf32>
  return %y : tensor<1x1x2x4xf32>
}
