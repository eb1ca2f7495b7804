// The few-rows versions of weight GEMMs (nn-multiversion, in the default
// CPU pipeline; test/transforms/dynamic/nn-multiversion.mlir shows the IR):
// every function compiles once and runs at rows below, at and above the
// bound of 4 (and 0), against the interpreter; the same with the few-rows
// kernel turned off (STRATA_FEW_ROWS=0: the general GEMM in both versions).
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t/on --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_FEW_ROWS=0 %python %S/sweep_all.py %s %t/off --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 5 functions, 0 failed

// A linear layer over [B, S, D] (rows B*S) with its bias, a residual and
// a relu absorbed; N = 20 (a full 16-column strip and a tail), K = 9.
// shapes: 0=1x1x9 1=1x1x20 | 0=1x2x9 1=1x2x20 | 0=2x2x9 1=2x2x20 | 0=1x3x9 1=1x3x20 | 0=1x5x9 1=1x5x20 | 0=3x7x9 1=3x7x20 | 0=0x3x9 1=0x3x20
func.func @linear(%x: tensor<?x?x9xf32> {onnx.dim_params = ["B", "S", ""]},
                  %r: tensor<?x?x20xf32> {onnx.dim_params = ["B", "S", ""]}) -> tensor<?x?x20xf32> {
  %w = "nn.constant"() {value = dense<[[0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1, 1.2, 0.13, -0.14, 0.15, 0.16, -0.17, 0.18, 0.19, -0.2], [0.5, 0.25, -0.125, 0.3, 0.1, -0.7, 0.2, 0.9, -0.4, 0.6, 0.35, -0.15, 0.45, 0.55, -0.65, 0.75, 0.85, -0.95, 0.05, 0.5], [-0.3, 0.2, 0.1, -0.6, 0.4, 0.8, -0.2, 0.1, 0.3, -0.9, 0.7, 0.5, -0.5, 0.3, 0.2, -0.1, 0.6, 0.4, -0.8, 0.2], [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1, 1.2, 0.13, -0.14, 0.15, 0.16, -0.17, 0.18, 0.19, -0.2], [0.5, 0.25, -0.125, 0.3, 0.1, -0.7, 0.2, 0.9, -0.4, 0.6, 0.35, -0.15, 0.45, 0.55, -0.65, 0.75, 0.85, -0.95, 0.05, 0.5], [-0.3, 0.2, 0.1, -0.6, 0.4, 0.8, -0.2, 0.1, 0.3, -0.9, 0.7, 0.5, -0.5, 0.3, 0.2, -0.1, 0.6, 0.4, -0.8, 0.2], [0.1, -0.2, 0.3, 0.4, -0.5, 0.6, 0.7, -0.8, 0.9, 1.0, -1.1, 1.2, 0.13, -0.14, 0.15, 0.16, -0.17, 0.18, 0.19, -0.2], [0.5, 0.25, -0.125, 0.3, 0.1, -0.7, 0.2, 0.9, -0.4, 0.6, 0.35, -0.15, 0.45, 0.55, -0.65, 0.75, 0.85, -0.95, 0.05, 0.5], [-0.3, 0.2, 0.1, -0.6, 0.4, 0.8, -0.2, 0.1, 0.3, -0.9, 0.7, 0.5, -0.5, 0.3, 0.2, -0.1, 0.6, 0.4, -0.8, 0.2]]> : tensor<9x20xf32>} : () -> tensor<9x20xf32>
  %b = "nn.constant"() {value = dense<[0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1, -0.01, -0.02, -0.03, -0.04, -0.05, -0.06, -0.07, -0.08, -0.09, -0.1]> : tensor<20xf32>} : () -> tensor<20xf32>
  %y = "nn.matmul"(%x, %w) : (tensor<?x?x9xf32>, tensor<9x20xf32>) -> tensor<?x?x20xf32>
  %z = "nn.add"(%b, %y) : (tensor<20xf32>, tensor<?x?x20xf32>) -> tensor<?x?x20xf32>
  %s = "nn.add"(%z, %r) : (tensor<?x?x20xf32>, tensor<?x?x20xf32>) -> tensor<?x?x20xf32>
  %a = "nn.relu"(%s) : (tensor<?x?x20xf32>) -> tensor<?x?x20xf32>
  return %a : tensor<?x?x20xf32>
}

// A gemm with transposed weights (a torch Linear: the few-rows GEMM reads
// a row-major copy made once), alpha, beta and C.
// shapes: 0=1x3 | 0=2x3 | 0=4x3 | 0=6x3
func.func @gemm(%x: tensor<?x3xf32>) -> tensor<?x5xf32> {
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [-2.0, 0.5, 1.0], [0.1, 0.2, 0.3], [3.0, -0.5, 0.25]]> : tensor<5x3xf32>} : () -> tensor<5x3xf32>
  %c = "nn.constant"() {value = dense<[1.0, -1.0, 0.5, 0.0, 2.0]> : tensor<5xf32>} : () -> tensor<5xf32>
  %y = "nn.gemm"(%x, %w, %c) {alpha = 0.5 : f32, beta = 2.0 : f32, transB = 1 : i64} : (tensor<?x3xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<?x5xf32>
  return %y : tensor<?x5xf32>
}

// A matrix-vector product per row (N = 1) and a wide one (N = 40).
// shapes: 0=1x4 | 0=3x4 | 0=8x4 | 0=9x4
func.func @narrow(%x: tensor<?x4xf32>) -> (tensor<?x1xf32>, tensor<?x40xf32>) {
  %v = "nn.constant"() {value = dense<[[0.5], [-1.0], [2.0], [0.25]]> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %w = "nn.constant"() {value = dense<0.125> : tensor<4x40xf32>} : () -> tensor<4x40xf32>
  %y = "nn.matmul"(%x, %v) : (tensor<?x4xf32>, tensor<4x1xf32>) -> tensor<?x1xf32>
  %z = "nn.matmul"(%x, %w) : (tensor<?x4xf32>, tensor<4x40xf32>) -> tensor<?x40xf32>
  %s = "nn.sigmoid"(%z) : (tensor<?x40xf32>) -> tensor<?x40xf32>
  return %y, %s : tensor<?x1xf32>, tensor<?x40xf32>
}

// Batch dims folded into the rows: the guard tests their product.
// shapes: 0=2x2x6 | 0=1x4x6 | 0=3x5x6
func.func @batched(%x: tensor<?x?x6xf32>) -> tensor<?x?x3xf32> {
  %w = "nn.constant"() {value = dense<[[1.0, 0.0, -1.0], [0.5, 0.5, 0.5], [-0.25, 2.0, 0.0], [1.0, 1.0, 1.0], [0.0, -1.0, 0.5], [2.0, 0.25, -0.5]]> : tensor<6x3xf32>} : () -> tensor<6x3xf32>
  %y = "nn.matmul"(%x, %w) : (tensor<?x?x6xf32>, tensor<6x3xf32>) -> tensor<?x?x3xf32>
  return %y : tensor<?x?x3xf32>
}

// Read through a transpose ([S, B, D] to [B, S, D], as torch's attention
// projects its input), with a bias.
// shapes: 0=1x1x5 | 0=2x1x5 | 0=3x1x5 | 0=2x2x5 | 0=3x3x5
func.func @transposed(%x: tensor<?x?x5xf32>) -> tensor<?x?x4xf32> {
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 2.0, 0.1], [1.5, 0.25, -0.75, 0.2], [-2.0, 0.5, 1.0, 0.3], [0.1, 0.2, 0.3, 0.4], [3.0, -0.5, 0.25, -0.6]]> : tensor<5x4xf32>} : () -> tensor<5x4xf32>
  %b = "nn.constant"() {value = dense<[1.0, -1.0, 0.5, 0.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %t = "nn.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x5xf32>) -> tensor<?x?x5xf32>
  %y = "nn.matmul"(%t, %w) : (tensor<?x?x5xf32>, tensor<5x4xf32>) -> tensor<?x?x4xf32>
  %z = "nn.add"(%y, %b) : (tensor<?x?x4xf32>, tensor<4xf32>) -> tensor<?x?x4xf32>
  return %z : tensor<?x?x4xf32>
}
