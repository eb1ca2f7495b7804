// sparse-connectivity-prune (digest C.1.3): per nn.conv with constant f32
// weights, exactly ceil(M*C/rate) kernels (any kernel size), the largest by L2
// norm (ties: the lower (m, c)), keep their weights and the rest become 0;
// the first convolution of each function (in program order, whatever its
// weights) is exempt. Each change is a remark at the conv.
// RUN: strata-opt %s --sparse-connectivity-prune 2>%t.err | FileCheck %s
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: strata-opt %s --sparse-connectivity-prune=rate=1 2>&1 | FileCheck %s --check-prefix=RATE1
// RUN: not strata-opt %s --sparse-connectivity-prune=rate=0.5 2>&1 | FileCheck %s --check-prefix=BADRATE

// RATE1-NOT: set to zero
// BADRATE: error: sparse-connectivity-prune: rate must be at least 1 (1/rate of the kernels are kept), got 0.5

// CHECK-LABEL: func.func @f
func.func @f(%x: tensor<1x4x3x3xf32>) -> (tensor<1x4x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x2x1x1xf32>) {
  %w0 = "nn.constant"() {value = dense<1.0> : tensor<4x4x1x1xf32>} : () -> tensor<4x4x1x1xf32>
  // 12 kernels, ceil(12/3.6) = 4 kept: |6|, |-5|, |4| and, of the three of
  // norm 3, the lowest (m, c) = (1, 0).
  %w1 = "nn.constant"() {value = dense<[[[[1.0]], [[-5.0]], [[2.0]], [[0.0]]], [[[3.0]], [[3.0]], [[-0.5]], [[4.0]]], [[[-3.0]], [[0.25]], [[6.0]], [[1.0]]]]> : tensor<3x4x1x1xf32>} : () -> tensor<3x4x1x1xf32>
  // 3x3 kernels, 2 groups: ceil(4/3.6) = 2 kept, of norms 4 and 3 (filter
  // 0); filter 1's kernel of norm 0.5 goes.
  %w2 = "nn.constant"() {value = dense<[[[[1.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 1.0]], [[0.0, 0.0, 0.0], [0.0, 4.0, 0.0], [0.0, 0.0, 0.0]]], [[[0.0, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]]]> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  // CHECK: dense<1.000000e+00> : tensor<4x4x1x1xf32>
  // CHECK: dense<{{\[}}{{\[}}{{\[}}[0.000000e+00]], {{\[}}[-5.000000e+00]], {{\[}}[0.000000e+00]], {{\[}}[0.000000e+00]]], {{\[}}{{\[}}[3.000000e+00]], {{\[}}[0.000000e+00]], {{\[}}[0.000000e+00]], {{\[}}[4.000000e+00]]], {{\[}}{{\[}}[0.000000e+00]], {{\[}}[0.000000e+00]], {{\[}}[6.000000e+00]], {{\[}}[0.000000e+00]]]]> : tensor<3x4x1x1xf32>
  // CHECK: dense<{{\[}}{{\[}}{{\[}}[1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00], [1.000000e+00, 1.000000e+00, 1.000000e+00]], {{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 4.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]], {{\[}}{{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]], {{\[}}[0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00], [0.000000e+00, 0.000000e+00, 0.000000e+00]]]]> : tensor<2x2x3x3xf32>
  // REMARK-DAG: connectivity-prune.mlir:[[@LINE+1]]:8: remark: sparse-connectivity-prune: exempt, the first convolution of @f
  %0 = "nn.conv"(%x, %w0) : (tensor<1x4x3x3xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x3x3xf32>
  // REMARK-DAG: connectivity-prune.mlir:[[@LINE+1]]:8: remark: sparse-connectivity-prune: kept 4 of 12 kernels (rate 3.6), 7 nonzero kernels set to zero
  %1 = "nn.conv"(%0, %w1) : (tensor<1x4x3x3xf32>, tensor<3x4x1x1xf32>) -> tensor<1x3x3x3xf32>
  // REMARK-DAG: connectivity-prune.mlir:[[@LINE+1]]:8: remark: sparse-connectivity-prune: kept 2 of 4 kernels (rate 3.6), 1 nonzero kernels set to zero
  %2 = "nn.conv"(%x, %w2) {group = 2} : (tensor<1x4x3x3xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x1x1xf32>
  return %0, %1, %2 : tensor<1x4x3x3xf32>, tensor<1x3x3x3xf32>, tensor<1x2x1x1xf32>
}

// Each function's first convolution is exempt, even with non-constant
// weights. 36 kernels at rate 3.6 keep exactly 10 (36/3.6 is not above 10
// even though 3.6 is not exact in binary): 27..36.
// CHECK-LABEL: func.func @g
// CHECK: dense<{{\[}}{{\[}}{{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]]], {{\[}}{{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]]], {{\[}}{{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]]], {{\[}}{{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]]], {{\[}}{{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}0.000000e+00]], {{\[}}{{\[}}2.700000e+01]], {{\[}}{{\[}}2.800000e+01]], {{\[}}{{\[}}2.900000e+01]], {{\[}}{{\[}}3.000000e+01]]], {{\[}}{{\[}}{{\[}}3.100000e+01]], {{\[}}{{\[}}3.200000e+01]], {{\[}}{{\[}}3.300000e+01]], {{\[}}{{\[}}3.400000e+01]], {{\[}}{{\[}}3.500000e+01]], {{\[}}{{\[}}3.600000e+01]]]]> : tensor<6x6x1x1xf32>
func.func @g(%x: tensor<1x6x2x2xf32>, %w0: tensor<6x6x1x1xf32>) -> tensor<1x6x2x2xf32> {
  %w1 = "nn.constant"() {value = dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]], [[5.0]], [[6.0]]], [[[7.0]], [[8.0]], [[9.0]], [[10.0]], [[11.0]], [[12.0]]], [[[13.0]], [[14.0]], [[15.0]], [[16.0]], [[17.0]], [[18.0]]], [[[19.0]], [[20.0]], [[21.0]], [[22.0]], [[23.0]], [[24.0]]], [[[25.0]], [[26.0]], [[27.0]], [[28.0]], [[29.0]], [[30.0]]], [[[31.0]], [[32.0]], [[33.0]], [[34.0]], [[35.0]], [[36.0]]]]> : tensor<6x6x1x1xf32>} : () -> tensor<6x6x1x1xf32>
  // REMARK-DAG: connectivity-prune.mlir:[[@LINE+1]]:8: remark: sparse-connectivity-prune: exempt, the first convolution of @g
  %0 = "nn.conv"(%x, %w0) : (tensor<1x6x2x2xf32>, tensor<6x6x1x1xf32>) -> tensor<1x6x2x2xf32>
  // REMARK-DAG: connectivity-prune.mlir:[[@LINE+1]]:8: remark: sparse-connectivity-prune: kept 10 of 36 kernels (rate 3.6), 26 nonzero kernels set to zero
  %1 = "nn.conv"(%0, %w1) : (tensor<1x6x2x2xf32>, tensor<6x6x1x1xf32>) -> tensor<1x6x2x2xf32>
  return %1 : tensor<1x6x2x2xf32>
}
