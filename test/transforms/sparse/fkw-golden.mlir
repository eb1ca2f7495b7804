// FKW golden test (digest C.1.5), byte-exact. With p1 = 0x03a and p2 = 0x0b2
// (the first and second mask of the set) the original filters are
//   f0{ic1:p2, ic3:p1}, f1{ic0:p1, ic2:p2}, f2{ic0:p1, ic2:p2, ic3:p2},
//   f3{ic0:p1, ic2:p1};
// each weight is 100*filter + 10*channel + bit + 1, so its position in the
// weight array shows where it came from. FKR puts the three 2-kernel filters
// first (f0, then f1 = the most similar to f0, then f3) and f2 last; each
// filter's kernels are sorted by pattern, then channel.
// RUN: strata-opt %s --sparse-fkr --sparse-fkw | FileCheck %s
// The same through sparse-detect from the nn.conv: the same arrays.
// RUN: strata-opt %s --sparse-detect --sparse-fkr --sparse-fkw | FileCheck %s --check-prefixes=CHECK,DETECT
// And the numbers: the interpreter gives the same output before and after.
// RUN: strata-run %s --entry pattern --interpret --quiet --output %t.before.npy
// RUN: strata-opt %s --sparse-fkr --sparse-fkw -o %t.fkw.mlir
// RUN: strata-run %t.fkw.mlir --entry pattern --interpret --quiet --output %t.after.npy
// RUN: %python %root/test/targets/llvm/Inputs/npy_close.py %t.before.npy %t.after.npy | FileCheck %s --check-prefix=CLOSE
// CLOSE: close

// CHECK-LABEL: func.func @pattern
// CHECK-NOT: nn.constant
// CHECK: "sparse.fkw_conv"(%arg0) [[ATTRS:\{dilations = array<i64: 1, 1>, group = 1 : i64, groups = array<i64: 0, 3, 4>, index = array<i64: 3, 1, 0, 2, 0, 2, 0, 2, 3>, offset = array<i64: 0, 2, 4, 6, 9>, pads = array<i64: 1, 1, 1, 1>, patterns = array<i64: 58, 178>, reorder = array<i64: 0, 1, 3, 2>, stride = array<i64: 0, 1, 2, 0, 1, 2, 0, 2, 2, 0, 1, 3>, strides = array<i64: 1, 1>, weight = dense<\[3.200000e\+01, 3.400000e\+01, 3.500000e\+01, 3.600000e\+01, 1.200000e\+01, 1.500000e\+01, 1.600000e\+01, 1.800000e\+01, 1.020000e\+02, 1.040000e\+02, 1.050000e\+02, 1.060000e\+02, 1.220000e\+02, 1.250000e\+02, 1.260000e\+02, 1.280000e\+02, 3.020000e\+02, 3.040000e\+02, 3.050000e\+02, 3.060000e\+02, 3.220000e\+02, 3.240000e\+02, 3.250000e\+02, 3.260000e\+02, 2.020000e\+02, 2.040000e\+02, 2.050000e\+02, 2.060000e\+02, 2.220000e\+02, 2.250000e\+02, 2.260000e\+02, 2.280000e\+02, 2.320000e\+02, 2.350000e\+02, 2.360000e\+02, 2.380000e\+02\]> : tensor<36xf32>\}]] : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
func.func @pattern(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 12.0, 0.0], [0.0, 15.0, 16.0], [0.0, 18.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 32.0, 0.0], [34.0, 35.0, 36.0], [0.0, 0.0, 0.0]]], [[[0.0, 102.0, 0.0], [104.0, 105.0, 106.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 122.0, 0.0], [0.0, 125.0, 126.0], [0.0, 128.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 202.0, 0.0], [204.0, 205.0, 206.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 222.0, 0.0], [0.0, 225.0, 226.0], [0.0, 228.0, 0.0]], [[0.0, 232.0, 0.0], [0.0, 235.0, 236.0], [0.0, 238.0, 0.0]]], [[[0.0, 302.0, 0.0], [304.0, 305.0, 306.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 322.0, 0.0], [324.0, 325.0, 326.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 0x3a, 0xb2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}

// DETECT-LABEL: func.func @conv
// DETECT-NOT: nn.
// DETECT: "sparse.fkw_conv"(%arg0) [[ATTRS]] : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
func.func @conv(%x: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 12.0, 0.0], [0.0, 15.0, 16.0], [0.0, 18.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 32.0, 0.0], [34.0, 35.0, 36.0], [0.0, 0.0, 0.0]]], [[[0.0, 102.0, 0.0], [104.0, 105.0, 106.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 122.0, 0.0], [0.0, 125.0, 126.0], [0.0, 128.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 202.0, 0.0], [204.0, 205.0, 206.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 222.0, 0.0], [0.0, 225.0, 226.0], [0.0, 228.0, 0.0]], [[0.0, 232.0, 0.0], [0.0, 235.0, 236.0], [0.0, 238.0, 0.0]]], [[[0.0, 302.0, 0.0], [304.0, 305.0, 306.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 322.0, 0.0], [324.0, 325.0, 326.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<4x4x3x3xf32>} : () -> tensor<4x4x3x3xf32>
  %y = "nn.conv"(%x, %w) {auto_pad = "SAME_UPPER"} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %y : tensor<1x4x6x6xf32>
}
