// The ops the runtime kernels take, compiled with dynamic dims through the
// loop lowerings instead (--upstream-lowering: nn-to-linalg alone), against
// the interpreter at every shape set.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t --upstream-lowering --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// shapes: 0=2x3x5 | 0=1x1x17
func.func @softmax(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.log_softmax"(%x) {axis = 1 : i64} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=2x3x8 | 0=1x9x8
func.func @layer_norm(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %s = "nn.constant"() {value = dense<[1.0, 0.5, 2.0, 1.0, 1.5, 1.0, 0.25, 1.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %b = "nn.constant"() {value = dense<0.5> : tensor<8xf32>} : () -> tensor<8xf32>
  %r = "nn.layer_normalization"(%x, %s, %b) {axis = -1 : i64} : (tensor<?x?x?xf32>, tensor<8xf32>, tensor<8xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=2x3x4 1=2x4x5 | 0=1x7x3 1=1x3x2
func.func @matmul(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=4x3 | 0=1x3
func.func @gemm(%a: tensor<?x3xf32>) -> tensor<?x2xf32> {
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 2.0], [1.0, 0.25, -0.5]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %c = "nn.constant"() {value = dense<[0.1, -0.2]> : tensor<2xf32>} : () -> tensor<2xf32>
  %g = "nn.gemm"(%a, %w, %c) {transB = 1 : i64, alpha = 0.5 : f32} : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  return %g : tensor<?x2xf32>
}
// shapes: 0=1x3x4x4 | 0=2x3x7x1
func.func @global_max(%x: tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32> {
  %r = "nn.global_max_pool"(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  return %r : tensor<?x3x1x1xf32>
}
