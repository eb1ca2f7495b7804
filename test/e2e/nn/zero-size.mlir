// Empty tensors: ops whose results are empty lower to empty constants (no
// lowering meets a zero extent); JIT and interpreter agree; facts do not
// divide by zero.
// RUN: %python %S/../compare_all.py %s | FileCheck %s
// RUN: strata-opt %s --nn-annotate | FileCheck %s --check-prefix=FACTS
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed
// FACTS: "nn.conv"{{.*}}nn.flops = 0 : i64

func.func @conv_empty(%x: tensor<1x0x4x4xf32>, %w: tensor<0x0x3x3xf32>) -> tensor<1x0x2x2xf32> {
  %r = "nn.conv"(%x, %w) : (tensor<1x0x4x4xf32>, tensor<0x0x3x3xf32>) -> tensor<1x0x2x2xf32>
  return %r : tensor<1x0x2x2xf32>
}
func.func @grouped_no_filters(%x: tensor<1x4x4x4xf32>, %w: tensor<0x2x3x3xf32>) -> tensor<1x0x2x2xf32> {
  %r = "nn.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x4x4xf32>, tensor<0x2x3x3xf32>) -> tensor<1x0x2x2xf32>
  return %r : tensor<1x0x2x2xf32>
}
func.func @reduce_over_empty(%x: tensor<0x3xf32>) -> tensor<1x3xf32> {
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 0>} : (tensor<0x3xf32>) -> tensor<1x3xf32>
  return %r : tensor<1x3xf32>
}
func.func @pad_empty_constant(%x: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %p = "nn.constant"() {value = dense<[1, 0, 1, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) : (tensor<0x3xf32>, tensor<4xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
