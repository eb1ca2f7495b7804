// sparse-detect: an nn.conv with constant f32 3x3 weights that follow a small
// pattern set becomes sparse.pattern_conv exactly: the same weights operand
// and bias, the window written out (auto_pad resolved into pads), group kept,
// and as `patterns` the supports of its nonzero kernels less those inside
// another present support (increasing mask order). Everything else stays
// nn.conv; with explain, a remark at each says why.
// RUN: strata-opt %s --sparse-detect=explain=1 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=WHY < %t.err
// RUN: strata-opt %s --sparse-detect=max-patterns=9 | FileCheck %s --check-prefix=NINE
// RUN: strata-opt %s --sparse-detect 2>&1 | FileCheck %s --check-prefix=QUIET
// RUN: not strata-opt %s --sparse-detect=max-patterns=0 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not strata-opt %s --sparse-detect=max-density=1.5 2>&1 | FileCheck %s --check-prefix=BADOPT

// QUIET-NOT: remark
// BADOPT: error: sparse-detect: max-patterns must be 1 to 64 and max-density in (0, 1]

// Supports 0x03a, 0x012 (inside both others), 0x0b2 and one zero kernel:
// patterns [0x03a, 0x0b2]; 3 kernels x 4 of 4 x 9 weights = 0.33 of dense.
// CHECK-LABEL: func.func @pattern
// CHECK: %[[W:.*]] = "nn.constant"
// CHECK: %[[B:.*]] = "nn.constant"
// CHECK-NOT: nn.conv
// CHECK: "sparse.pattern_conv"(%arg0, %[[W]], %[[B]]) {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 1, 0, 1, 0>, patterns = array<i64: 58, 178>, strides = array<i64: 1, 1>} : (tensor<2x2x5x5xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x5x3xf32>
func.func @pattern(%x: tensor<2x2x5x5xf32>) -> tensor<2x2x5x3xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.0, 1.0, 0.0], [2.0, 3.0, 4.0], [0.0, 0.0, 0.0]], [[0.0, -1.0, 0.0], [0.0, 5.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.5, 0.0], [0.0, 1.5, 2.5], [0.0, 3.5, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %b = "nn.constant"() {value = dense<[0.5, -0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: sparse.pattern_conv with 2 patterns [0x03a,0x0b2], 3 of 4 kernels nonzero
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 0, 1, 0>} : (tensor<2x2x5x5xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<2x2x5x3xf32>
  return %y : tensor<2x2x5x3xf32>
}

// auto_pad SAME_LOWER, stride 2 on 8x8: 1 pad at the begin, 0 at the end;
// dilations and group (depthwise, 2 groups) carry over.
// CHECK-LABEL: func.func @autopad
// CHECK: "sparse.pattern_conv"(%arg0, %{{.*}}) {dilations = array<i64: 1, 1>, group = 2 : i64, pads = array<i64: 1, 1, 0, 0>, patterns = array<i64: 178>, strides = array<i64: 2, 2>}
func.func @autopad(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x4x4xf32> {
  %w = "arith.constant"() {value = dense<[[[[0.0, 1.0, 0.0], [0.0, 1.0, 1.0], [0.0, 1.0, 0.0]]], [[[0.0, 2.0, 0.0], [0.0, 2.0, 2.0], [0.0, 2.0, 0.0]]]]> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: sparse.pattern_conv with 1 patterns [0x0b2], 2 of 2 kernels nonzero
  %y = "nn.conv"(%x, %w) {auto_pad = "SAME_LOWER", strides = array<i64: 2, 2>, group = 2} : (tensor<1x2x8x8xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// CHECK-LABEL: func.func @dilated
// CHECK: "sparse.pattern_conv"(%arg0, %{{.*}}) {dilations = array<i64: 2, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, patterns = array<i64: 58>, strides = array<i64: 1, 2>}
func.func @dilated(%x: tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]]> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: sparse.pattern_conv with 1 patterns [0x03a], 1 of 1 kernels nonzero
  %y = "nn.conv"(%x, %w) {dilations = array<i64: 2, 1>, strides = array<i64: 1, 2>, auto_pad = "VALID"} : (tensor<1x1x7x7xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  return %y : tensor<1x1x3x3xf32>
}

// Nine single-entry supports, none inside another: 9 patterns.
// CHECK-LABEL: func.func @many
// CHECK: "nn.conv"
// NINE-LABEL: func.func @many
// NINE: "sparse.pattern_conv"(%arg0, %{{.*}}) {dilations = array<i64: 1, 1>, group = 1 : i64, pads = array<i64: 0, 0, 0, 0>, patterns = array<i64: 1, 2, 4, 8, 16, 32, 64, 128, 256>
func.func @many(%x: tensor<1x9x3x3xf32>) -> tensor<1x1x1x1xf32> {
  %w = "nn.constant"() {value = dense<[[[[1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 1.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]]]]> : tensor<1x9x3x3xf32>} : () -> tensor<1x9x3x3xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: its nonzero kernels have 9 distinct supports (subsets merged), more than max-patterns=8
  %y = "nn.conv"(%x, %w) : (tensor<1x9x3x3xf32>, tensor<1x9x3x3xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}

// CHECK-LABEL: func.func @others
// CHECK-COUNT-6: "nn.conv"
// CHECK-NOT: sparse.
func.func @others(%x: tensor<1x1x5x5xf32>, %wa: tensor<1x1x3x3xf32>, %xd: tensor<1x1x?x?xf32>, %x64: tensor<1x1x5x5xf64>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>, tensor<1x1x1x1xf32>, tensor<1x1x3x3xf32>, tensor<1x1x?x?xf32>, tensor<1x1x3x3xf64>) {
  %dense = "nn.constant"() {value = dense<1.0> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  %k5 = "nn.constant"() {value = dense<1.0> : tensor<1x1x5x5xf32>} : () -> tensor<1x1x5x5xf32>
  %zero = "nn.constant"() {value = dense<0.0> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  %pat = "nn.constant"() {value = dense<[[[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]]> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
  %pat64 = "nn.constant"() {value = dense<[[[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]]]]> : tensor<1x1x3x3xf64>} : () -> tensor<1x1x3x3xf64>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: its 1 patterns keep 1.000 of the dense weights, more than max-density=0.5
  %0 = "nn.conv"(%x, %dense) : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: its weights are not a constant (nn.constant or arith.constant)
  %1 = "nn.conv"(%x, %wa) : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: its kernels are 5x5, not 3x3
  %2 = "nn.conv"(%x, %k5) : (tensor<1x1x5x5xf32>, tensor<1x1x5x5xf32>) -> tensor<1x1x1x1xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: all its weights are zero
  %3 = "nn.conv"(%x, %zero) : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: auto_pad=SAME_UPPER needs the input's spatial dims to write out the pads
  %4 = "nn.conv"(%xd, %pat) {auto_pad = "SAME_UPPER"} : (tensor<1x1x?x?xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x?x?xf32>
  // WHY: detect.mlir:[[@LINE+1]]:8: remark: sparse-detect: stays nn.conv: its input is not a 4-D f32 tensor (an NCHW 2-D convolution)
  %5 = "nn.conv"(%x64, %pat64) : (tensor<1x1x5x5xf64>, tensor<1x1x3x3xf64>) -> tensor<1x1x3x3xf64>
  return %0, %1, %2, %3, %4, %5 : tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>, tensor<1x1x1x1xf32>, tensor<1x1x3x3xf32>, tensor<1x1x?x?xf32>, tensor<1x1x3x3xf64>
}
