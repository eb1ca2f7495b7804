// sparse-pattern-select (digest C.1.1): kernels with known top-4 magnitudes
// give the expected 56-bin natural-pattern histogram (all-zero kernels,
// non-3x3 and non-constant convolutions do not vote); the top `count` are
// the most frequent masks (ties: the lower mask), each with the centre and
// popcount 4, written as the module's sparse.patterns.
// RUN: strata-opt %s --sparse-pattern-select="count=3 print-histogram=1" 2>&1 | FileCheck %s
// RUN: strata-opt %s --sparse-pattern-select=count=2 | FileCheck %s --check-prefix=TOP2
// RUN: strata-opt %s --sparse-pattern-select | FileCheck %s --check-prefix=ALL
// RUN: strata-opt %s --sparse-pattern-select="size=5 print-histogram=1" 2>&1 | FileCheck %s --check-prefix=SIZE5
// RUN: not strata-opt %s --sparse-pattern-select=count=0 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: not strata-opt %s --sparse-pattern-select=size=10 2>&1 | FileCheck %s --check-prefix=COUNT
// RUN: strata-opt %S/Inputs/no-3x3.mlir --sparse-pattern-select 2>&1 | FileCheck %s --check-prefix=NONE

// Kernels (bit 3*row+col; the natural pattern keeps the centre, bit 4, and
// the 3 largest |w| of the others, ties to the lower bit):
//   @f A[0][0]: bits 1,3,5 largest -> 0x03a   A[0][1]: 1,3,5 (signs) -> 0x03a
//      A[1][0]: 0,1,2 -> 0x017               A[1][1]: 8,7,6 -> 0x1d0
//      B[0]: all equal -> lowest bits 0,1,2 -> 0x017
//      B[1]: 1,5,7 -> 0x0b2   B[2]: 1,3,5 -> 0x03a   B[3]: zero, skipped
// CHECK: select.mlir:[[@LINE+1]]:1: remark: sparse-pattern-select: natural patterns of 7 kernels in 2 convolutions, 56 bins: 0x017:2 0x01b:0 0x01d:0 0x01e:0 0x033:0 0x035:0 0x036:0 0x039:0 0x03a:3 0x03c:0 0x053:0 0x055:0 0x056:0 0x059:0 0x05a:0 0x05c:0 0x071:0 0x072:0 0x074:0 0x078:0 0x093:0 0x095:0 0x096:0 0x099:0 0x09a:0 0x09c:0 0x0b1:0 0x0b2:1 0x0b4:0 0x0b8:0 0x0d1:0 0x0d2:0 0x0d4:0 0x0d8:0 0x0f0:0 0x113:0 0x115:0 0x116:0 0x119:0 0x11a:0 0x11c:0 0x131:0 0x132:0 0x134:0 0x138:0 0x151:0 0x152:0 0x154:0 0x158:0 0x170:0 0x191:0 0x192:0 0x194:0 0x198:0 0x1b0:0 0x1d0:1{{$}}
module {
// CHECK: remark: sparse-pattern-select: top 3: [0x03a,0x017,0x0b2], the natural pattern of 6 of the 7 kernels
// CHECK: module attributes {sparse.patterns = array<i64: 58, 23, 178>}
// TOP2: module attributes {sparse.patterns = array<i64: 58, 23>}
// Only 4 masks got votes: count=8 selects those 4.
// ALL: module attributes {sparse.patterns = array<i64: 58, 23, 178, 464>}
// SIZE5: 70 bins:
// SIZE5: remark: sparse-pattern-select: top {{[0-9]+}}:
// COUNT: select.mlir:[[@LINE-8]]:1: error: sparse-pattern-select: count must be 1 to 64 and size 1 to 9
// NONE: remark: sparse-pattern-select: no nonzero 3x3 kernel of an f32 nn.conv with constant weights; sparse.patterns not set
// NONE-NOT: sparse.patterns
  func.func @f(%x: tensor<1x2x6x6xf32>, %y: tensor<1x1x6x6xf32>, %wd: tensor<2x2x3x3xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x4x4xf32>) {
    %a = "nn.constant"() {value = dense<[[[[0.25, 3.0, 0.25], [2.0, 0.5, 4.0], [0.25, 0.25, 0.25]], [[0.5, -5.0, 0.5], [4.0, 0.1, -3.0], [0.5, 0.5, 0.5]]], [[[9.0, -8.0, 7.0], [0.125, 1.0, 0.125], [0.125, 0.125, 0.125]], [[1.0, 1.0, 1.0], [1.0, -1.0, 1.0], [2.0, 2.5, -3.0]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
    %b = "arith.constant"() {value = dense<[[[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]], [[[-0.75, 6.0, -0.75], [-0.75, 2.0, 6.0], [-0.75, -6.0, -0.75]]], [[[0.0, 1.0, 0.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<4x1x3x3xf32>} : () -> tensor<4x1x3x3xf32>
    %p = "nn.constant"() {value = dense<2.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
    %0 = "nn.conv"(%x, %a) : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
    %1 = "nn.conv"(%y, %b) : (tensor<1x1x6x6xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x4x4xf32>
    %2 = "nn.conv"(%x, %p) : (tensor<1x2x6x6xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x6x6xf32>
    %3 = "nn.conv"(%x, %wd) : (tensor<1x2x6x6xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
    return %0, %1, %2, %3 : tensor<1x2x4x4xf32>, tensor<1x4x4x4xf32>, tensor<1x2x6x6xf32>, tensor<1x2x4x4xf32>
  }
}
