// sparse-pattern-prune (digest C.1.2): each nonzero 3x3 kernel of an f32
// nn.conv with constant weights keeps the entries of the set member with the
// largest retained sum of squares (ties: the lower index), all others become
// 0; the op stays nn.conv and a remark at it says what changed. The set comes
// from the option (decimal or 0x hex) or the module's sparse.patterns.
// RUN: strata-opt %s --sparse-pattern-prune=patterns=58,0xb2,0x1B0 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: strata-opt %S/Inputs/prune-module-set.mlir --sparse-pattern-prune 2>&1 | FileCheck %s --check-prefix=MODSET
// RUN: strata-opt %s --sparse-pattern-select=count=2 --sparse-pattern-prune | FileCheck %s --check-prefix=SELECT
// RUN: not strata-opt %s --sparse-pattern-prune=patterns=0x3a,58 2>&1 | FileCheck %s --check-prefix=DUP
// RUN: not strata-opt %s --sparse-pattern-prune=patterns=0x3a,0x200 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not strata-opt %s --sparse-pattern-prune=patterns=0x3a,zz 2>&1 | FileCheck %s --check-prefix=NOTINT
// RUN: not strata-opt %s --sparse-pattern-prune=patterns=0x3a,,0xb2 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: not strata-opt %s --sparse-pattern-prune 2>&1 | FileCheck %s --check-prefix=NOSET
// RUN: not strata-opt %S/Inputs/prune-bad-module-set.mlir --sparse-pattern-prune 2>&1 | FileCheck %s --check-prefix=BADATTR
// RUN: strata-opt %S/Inputs/no-3x3.mlir --sparse-pattern-prune | FileCheck %s --check-prefix=NO3X3

// The option is recorded for the passes after it.
// CHECK: module attributes {sparse.patterns = array<i64: 58, 178, 432>}
// CHECK-LABEL: func.func @f
// CHECK-NEXT: %[[W:.*]] = "nn.constant"() {value = dense<{{\[}}{{\[}}{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e+00, 6.000000e+00], [0.000000e+00, 8.000000e+00, 9.000000e+00]], {{\[}}[0.000000e+00, 1.000000e+00, 0.000000e+00], [2.000000e+00, 1.000000e+00, 1.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]], {{\[}}{{\[}}[0.000000e+00, 3.000000e+00, 0.000000e+00], [0.000000e+00, -1.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]], {{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]]]>
// CHECK-NEXT: "nn.conv"(%arg0, %[[W]])
// CHECK-LABEL: func.func @shared
// CHECK-NEXT: %[[OLD:.*]] = "nn.constant"() {value = dense<{{\[}}{{\[}}{{\[}}[1.000000e+00, 2.000000e+00, 3.000000e+00],
// CHECK-NEXT: %[[NEW:.*]] = "nn.constant"() {value = dense<{{\[}}{{\[}}{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e+00, 6.000000e+00], [0.000000e+00, 8.000000e+00, 9.000000e+00]]]]>
// CHECK-NEXT: "nn.conv"(%arg0, %[[NEW]])
// CHECK-NEXT: "nn.add"(%arg0, %[[OLD]])
// CHECK-LABEL: func.func @arg
// CHECK-NEXT: "nn.conv"(%arg0, %arg1)
// CHECK-LABEL: func.func @big
// CHECK-NEXT: dense<1.000000e+00> : tensor<1x1x5x5xf32>
// REMARK-NOT: remark

// MODSET: remark: sparse-pattern-prune: projected 1 of 1 kernels onto the 2 patterns (5 weights set to zero)
// MODSET: dense<{{\[}}{{\[}}{{\[}}[0.000000e+00, 2.000000e+00, 0.000000e+00], [0.000000e+00, 5.000000e+00, 6.000000e+00], [0.000000e+00, 8.000000e+00, 0.000000e+00]]]]>
// SELECT: module attributes {sparse.patterns = array<i64: [[P0:[0-9]+]], [[P1:[0-9]+]]>}
// DUP: pattern-prune.mlir:1:1: error: sparse-pattern-prune: option patterns='0x3a,58': patterns 0 and 1 are both 0x03a
// RANGE: error: sparse-pattern-prune: option patterns='0x3a,0x200': pattern 1 is 512: a mask is a nonzero 9-bit value (1 to 511)
// NOTINT: error: sparse-pattern-prune: option patterns='0x3a,zz': 'zz' is not an integer (masks are decimal or 0x hex)
// EMPTY: error: sparse-pattern-prune: option patterns='0x3a,,0xb2': entry 1 is empty
// BADATTR: prune-bad-module-set.mlir:2:1: error: 'builtin.module' op attribute 'sparse.patterns': pattern 1 is 0: a mask is a nonzero 9-bit value (1 to 511)
// NO3X3-NOT: sparse.patterns
// NO3X3: "nn.conv"
// Four 3x3 kernels, w[m][c] (bit 3*row+col):
//   [0][0] = 1..9: retained sum of squares 81 (0x03a), 129 (0x0b2), 206
//            (0x1b0) -> keeps bits 4,5,7,8;
//   [0][1] ties 0x03a and 0x0b2 at 7 -> the lower index, 0x03a: bit 7 goes;
//   [1][0] already inside 0x0b2 and [1][1] zero: unchanged.
// @shared's constant also feeds an nn.add, which keeps the original values;
// @arg's weights are no constant and @big's are 5x5: both left alone.
func.func @f(%x: tensor<1x2x5x5xf32>) -> tensor<1x2x3x3xf32> {
  %w = "nn.constant"() {value = dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]], [[0.0, 1.0, 0.0], [2.0, 1.0, 1.0], [0.0, -2.0, 0.0]]], [[[0.0, 3.0, 0.0], [0.0, -1.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  // REMARK: pattern-prune.mlir:[[@LINE+2]]:8: remark: sparse-pattern-prune: projected 2 of 4 kernels onto the 3 patterns (6 weights set to zero)
  // NOSET: pattern-prune.mlir:[[@LINE+1]]:8: error: 'nn.conv' op sparse-pattern-prune: no pattern set
  %y = "nn.conv"(%x, %w) : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  return %y : tensor<1x2x3x3xf32>
}
func.func @shared(%x: tensor<1x1x3x3xf32>) -> (tensor<1x1x1x1xf32>, tensor<1x1x3x3xf32>) {
  %w = "nn.constant"() {value = dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  // REMARK: pattern-prune.mlir:[[@LINE+1]]:8: remark: sparse-pattern-prune: projected 1 of 1 kernels onto the 3 patterns (5 weights set to zero)
  %y = "nn.conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  %s = "nn.add"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %y, %s : tensor<1x1x1x1xf32>, tensor<1x1x3x3xf32>
}
func.func @arg(%x: tensor<1x1x3x3xf32>, %w: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}
func.func @big(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x1x1xf32> {
  %w = "nn.constant"() {value = dense<1.0> : tensor<1x1x5x5xf32>} : () -> tensor<1x1x5x5xf32>
  %y = "nn.conv"(%x, %w) : (tensor<1x1x5x5xf32>, tensor<1x1x5x5xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}
