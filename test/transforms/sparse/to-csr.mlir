// sparse-to-csr: nn.conv (any kernel size) and sparse.pattern_conv with
// constant f32 weights become sparse.csr_conv: rows are output channels,
// columns (c*kh + r)*kw + q, the window written out (auto_pad resolved).
// The weights' constant goes when nothing else uses it.
// RUN: strata-opt %s --sparse-to-csr | FileCheck %s
// RUN: strata-opt %s --sparse-to-csr -o %t.csr.mlir
// RUN: strata-run %s --entry f --interpret --quiet --output %t.a.npy
// RUN: strata-run %t.csr.mlir --entry f --interpret --quiet --output %t.b.npy
// RUN: %python %root/test/targets/llvm/Inputs/npy_close.py %t.a.npy %t.b.npy | FileCheck %s --check-prefix=CLOSE
// CLOSE: close

// CHECK-LABEL: func.func @f
// CHECK-NOT: nn.constant
// CHECK: %[[B:.*]] = arith.constant dense<[5.000000e-01, -1.000000e+00]>
// CHECK-NEXT: %[[Y0:.*]] = "sparse.csr_conv"(%arg0, %[[B]]) {col_index = array<i64: 1, 2, 3>, dilations = array<i64: 1, 1>, group = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 0, 0>, row_ptr = array<i64: 0, 2, 3>, strides = array<i64: 2, 2>, values = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00]> : tensor<3xf32>} : (tensor<2x1x5x5xf32>, tensor<2xf32>) -> tensor<2x2x3x3xf32>
// The pattern conv: 3x3 kernels, 2 groups of 1 channel each.
// CHECK-NEXT: "sparse.csr_conv"(%[[Y0]]) {col_index = array<i64: 1, 4, 3, 4, 5>, dilations = array<i64: 1, 1>, group = 2 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, row_ptr = array<i64: 0, 2, 5>, strides = array<i64: 1, 1>, values = dense<[7.000000e+00, 8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01]> : tensor<5xf32>}
func.func @f(%x: tensor<2x1x5x5xf32>) -> tensor<2x2x3x3xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.0, 1.0], [2.0, 0.0]]], [[[0.0, 0.0], [0.0, 3.0]]]]> : tensor<2x1x2x2xf32>} : () -> tensor<2x1x2x2xf32>
  %b = "arith.constant"() {value = dense<[0.5, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %y = "nn.conv"(%x, %w, %b) {auto_pad = "SAME_LOWER", strides = array<i64: 2, 2>} : (tensor<2x1x5x5xf32>, tensor<2x1x2x2xf32>, tensor<2xf32>) -> tensor<2x2x3x3xf32>
  %p = "nn.constant"() {value = dense<[[[[0.0, 7.0, 0.0], [0.0, 8.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [9.0, 10.0, 11.0], [0.0, 0.0, 0.0]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %z = "sparse.pattern_conv"(%y, %p) {patterns = array<i64: 0x3a>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2} : (tensor<2x2x3x3xf32>, tensor<2x1x3x3xf32>) -> tensor<2x2x3x3xf32>
  return %z : tensor<2x2x3x3xf32>
}

// Not f32, or weights that are no constant: left alone.
// CHECK-LABEL: func.func @others
// CHECK-NEXT: "nn.constant"
// CHECK-NEXT: "nn.conv"
// CHECK-NEXT: "nn.conv"
func.func @others(%x: tensor<1x1x3x3xf64>, %w: tensor<1x1x3x3xf32>, %xf: tensor<1x1x3x3xf32>) -> (tensor<1x1x1x1xf64>, tensor<1x1x1x1xf32>) {
  %k = "nn.constant"() {value = dense<1.0> : tensor<1x1x3x3xf64>} : () -> tensor<1x1x3x3xf64>
  %0 = "nn.conv"(%x, %k) : (tensor<1x1x3x3xf64>, tensor<1x1x3x3xf64>) -> tensor<1x1x1x1xf64>
  %1 = "nn.conv"(%xf, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %0, %1 : tensor<1x1x1x1xf64>, tensor<1x1x1x1xf32>
}

// A conv with no filters stays as it is (a sparse op holds at least one):
// sparse-to-csr and sparse-detect leave it, the IR stays valid.
// CHECK-LABEL: func.func @no_filters
// CHECK: "nn.conv"
// CHECK-NOT: sparse.
// RUN: strata-opt %s --sparse-detect --sparse-fkw --sparse-to-csr | FileCheck %s --check-prefix=EMPTY
// EMPTY-LABEL: func.func @no_filters
// EMPTY: "nn.conv"
func.func @no_filters(%x: tensor<1x2x4x4xf32>) -> tensor<1x0x4x4xf32> {
  %w = arith.constant dense<0.0> : tensor<0x2x3x3xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>, tensor<0x2x3x3xf32>) -> tensor<1x0x4x4xf32>
  return %y : tensor<1x0x4x4xf32>
}
