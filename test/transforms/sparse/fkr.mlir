// sparse-fkr (digest C.1.4): filters grouped by length (shorter groups
// first), inside a group a chain from its lowest filter to the most similar
// next; sparse-fkw then sorts each filter's kernels by pattern id (then
// channel) and stores filter s as output channel reorder[s]. The ids
// (p0 = 0x03a, p1 = 0x0b2, p2 = 0x1b0) per filter and input channel:
//   f0 {c0:p1, c1:p0, c3:p1}  length 3, sorted ids [0,1,1]
//   f1 {c2:p2}                length 1
//   f2 {c0:p2, c1:p1, c2:p1}  length 3, [1,1,2]: 1 position equal to f0's
//   f3 {c1:p2, c3:p1}         length 2
//   f4 {c0:p0, c2:p1, c3:p0}  length 3, [0,0,1]: 2 positions equal to f0's
// so the order is f1 | f3 | f0, f4, f2: [1, 3, 0, 4, 2], a 5-cycle (no
// involution: its inverse is [2, 0, 4, 1, 3]), which the interpreter's
// output checks in the stored -> original direction. Weight values are
// 100*filter + 10*channel + bit + 1.
// RUN: strata-opt %s --sparse-fkr | FileCheck %s --check-prefix=FKR
// RUN: strata-opt %s --sparse-fkr --sparse-fkw -o %t.fkw.mlir
// RUN: FileCheck %s --check-prefix=FKW < %t.fkw.mlir
// RUN: strata-opt %s --sparse-fkw -o %t.nofkr.mlir
// RUN: FileCheck %s --check-prefix=NOFKR < %t.nofkr.mlir
// RUN: strata-run %s --entry f --interpret --quiet --output %t.a.npy
// RUN: strata-run %t.fkw.mlir --entry f --interpret --quiet --output %t.b.npy
// RUN: strata-run %t.nofkr.mlir --entry f --interpret --quiet --output %t.c.npy
// RUN: %python %root/test/targets/llvm/Inputs/npy_close.py %t.a.npy %t.b.npy %t.a.npy %t.c.npy | FileCheck %s --check-prefix=CLOSE
// CLOSE: close
// CLOSE-NEXT: close

// FKR-LABEL: func.func @f
// FKR: "sparse.pattern_conv"(%arg0, %{{.*}}, %{{.*}}) {dilations = array<i64: 1, 1>, filter_groups = array<i64: 0, 1, 2, 5>, filter_order = array<i64: 1, 3, 0, 4, 2>, group = 1 : i64,
// FKW-LABEL: func.func @f
// FKW: "sparse.fkw_conv"(%arg0, %{{.*}}) {dilations = array<i64: 1, 1>, group = 1 : i64, groups = array<i64: 0, 1, 2, 5>, index = array<i64: 2, 3, 1, 1, 0, 3, 0, 3, 2, 1, 2, 0>, offset = array<i64: 0, 1, 3, 6, 9, 12>, pads = array<i64: 1, 1, 1, 1>, patterns = array<i64: 58, 178, 432>, reorder = array<i64: 1, 3, 0, 4, 2>, stride = array<i64: 0, 0, 0, 1, 0, 0, 1, 2, 0, 1, 3, 3, 0, 2, 3, 3, 0, 0, 2, 3>, strides = array<i64: 1, 1>, weight = dense<[1.250000e+02, 1.260000e+02, 1.280000e+02, 1.290000e+02, 3.320000e+02, 3.350000e+02, 3.360000e+02, 3.380000e+02, 3.150000e+02, 3.160000e+02, 3.180000e+02, 3.190000e+02, 1.200000e+01, 1.400000e+01, 1.500000e+01, 1.600000e+01, 2.000000e+00, 5.000000e+00, 6.000000e+00, 8.000000e+00, 3.200000e+01, 3.500000e+01, 3.600000e+01, 3.800000e+01, 4.020000e+02, 4.040000e+02, 4.050000e+02, 4.060000e+02, 4.320000e+02, 4.340000e+02, 4.350000e+02, 4.360000e+02, 4.220000e+02, 4.250000e+02, 4.260000e+02, 4.280000e+02, 2.120000e+02, 2.150000e+02, 2.160000e+02, 2.180000e+02, 2.220000e+02, 2.250000e+02, 2.260000e+02, 2.280000e+02, 2.050000e+02, 2.060000e+02, 2.080000e+02, 2.090000e+02]> : tensor<48xf32>}
// Without sparse-fkr the original order and one group.
// NOFKR: groups = array<i64: 0, 5>, index = array<i64: 1, 0, 3, 2, 1, 2, 0, 3, 1, 0, 3, 2>, offset = array<i64: 0, 3, 4, 7, 9, 12>, {{.*}} reorder = array<i64: 0, 1, 2, 3, 4>
func.func @f(%x: tensor<2x4x5x5xf32>) -> tensor<2x5x5x5xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.0, 2.0, 0.0], [0.0, 5.0, 6.0], [0.0, 8.0, 0.0]], [[0.0, 12.0, 0.0], [14.0, 15.0, 16.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 32.0, 0.0], [0.0, 35.0, 36.0], [0.0, 38.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 125.0, 126.0], [0.0, 128.0, 129.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 205.0, 206.0], [0.0, 208.0, 209.0]], [[0.0, 212.0, 0.0], [0.0, 215.0, 216.0], [0.0, 218.0, 0.0]], [[0.0, 222.0, 0.0], [0.0, 225.0, 226.0], [0.0, 228.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 315.0, 316.0], [0.0, 318.0, 319.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 332.0, 0.0], [0.0, 335.0, 336.0], [0.0, 338.0, 0.0]]], [[[0.0, 402.0, 0.0], [404.0, 405.0, 406.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 422.0, 0.0], [0.0, 425.0, 426.0], [0.0, 428.0, 0.0]], [[0.0, 432.0, 0.0], [434.0, 435.0, 436.0], [0.0, 0.0, 0.0]]]]> : tensor<5x4x3x3xf32>} : () -> tensor<5x4x3x3xf32>
  %b = "nn.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf32>} : () -> tensor<5xf32>
  %y = "sparse.pattern_conv"(%x, %w, %b) {patterns = array<i64: 0x3a, 0xb2, 0x1b0>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1} : (tensor<2x4x5x5xf32>, tensor<5x4x3x3xf32>, tensor<5xf32>) -> tensor<2x5x5x5xf32>
  return %y : tensor<2x5x5x5xf32>
}

