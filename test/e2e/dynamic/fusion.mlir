// Element-wise fusion with dynamic dims (test/transforms/fusion/dynamic.mlir
// checks the loop structure): every function compiles once per fusion mode
// and runs at every shape set above it, against the interpreter.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t/dnnfusion --fusion dnnfusion --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/fixed --fusion fixed --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/none --fusion none --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 3 functions, 0 failed

// SOD² Fig. 5.4: sigmoid of a keepdims mean, broadcast back over x.
// shapes: 0=1x1x1 | 0=2x3x5 | 0=4x8x8 | 0=3x1x17
func.func @se(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %a = "nn.reduce_mean"(%x) {axes = array<i64: 1, 2>} : (tensor<?x?x?xf32>) -> tensor<?x1x1xf32>
  %s = "nn.sigmoid"(%a) : (tensor<?x1x1xf32>) -> tensor<?x1x1xf32>
  %y = "nn.add"(%s, %x) : (tensor<?x1x1xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %y : tensor<?x?x?xf32>
}

// A squeeze-and-excitation gate: x * sigmoid(mean over H, W), NCHW.
// shapes: 0=1x4x3x3 | 0=2x4x7x5 | 0=3x4x1x1
func.func @gate(%x: tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 2, 3>} : (tensor<?x4x?x?xf32>) -> tensor<?x4x1x1xf32>
  %g = "nn.sigmoid"(%m) : (tensor<?x4x1x1xf32>) -> tensor<?x4x1x1xf32>
  %y = "nn.mul"(%x, %g) : (tensor<?x4x?x?xf32>, tensor<?x4x1x1xf32>) -> tensor<?x4x?x?xf32>
  return %y : tensor<?x4x?x?xf32>
}

// A chain over a matmul result with a broadcast bias and a row scale.
// shapes: 0=1x8 1=1x1 | 0=5x8 1=5x1 | 0=9x8 1=9x1
func.func @chain(%x: tensor<?x8xf32>, %r: tensor<?x1xf32>) -> tensor<?x6xf32> {
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 0.25, 2.0, 0.0, 1.5], [1.0, 0.5, -0.5, 0.25, 2.0, -1.0], [0.0, 1.0, 1.0, -2.0, 0.5, 0.5], [-1.0, 0.0, 0.75, 1.0, -0.25, 2.0], [0.5, 0.5, 0.5, 0.5, 0.5, 0.5], [2.0, -1.0, 0.0, 1.0, 1.0, 0.0], [0.25, 0.75, -1.0, 0.0, 1.5, -0.5], [1.0, -0.5, 2.0, 0.5, 0.0, 1.0]]> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %b = "nn.constant"() {value = dense<[0.1, -0.2, 0.3, -0.4, 0.5, -0.6]> : tensor<6xf32>} : () -> tensor<6xf32>
  %m = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %a = "nn.add"(%m, %b) : (tensor<?x6xf32>, tensor<6xf32>) -> tensor<?x6xf32>
  %t = "nn.tanh"(%a) : (tensor<?x6xf32>) -> tensor<?x6xf32>
  %y = "nn.mul"(%t, %r) : (tensor<?x6xf32>, tensor<?x1xf32>) -> tensor<?x6xf32>
  return %y : tensor<?x6xf32>
}
