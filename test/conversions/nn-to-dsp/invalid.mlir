// nn-to-dsp refuses, at the op, what a dsp plan cannot express, and then
// rewrites nothing in the function (no output is written).
// RUN: not strata-opt %s --nn-to-dsp -o %t.out 2>&1 | FileCheck %s
// RUN: not test -e %t.out

func.func @refused(%x: tensor<1x4x5x5xui8>, %w: tensor<4x1x3x3xi8>, %x1: tensor<1x3x8xui8>, %w1: tensor<2x3x3xi8>,
                   %a: tensor<2x3x4xui8>, %b: tensor<2x4x5xi8>, %d: tensor<?x4xui8>, %e: tensor<4x5xi8>)
    -> (tensor<1x4x3x3xui8>, tensor<1x2x6xui8>, tensor<2x3x5xui8>, tensor<?x5xui8>, tensor<2x3x5xui8>, tensor<2x3x5xui8>) {
  %s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<7> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  // CHECK: invalid.mlir:[[@LINE+1]]:8: error: 'nn.qlinear_conv' op nn-to-dsp: cannot express this as a dsp plan: grouped (and depthwise) convolutions are not one GEMM
  %g = "nn.qlinear_conv"(%x, %s, %zu, %w, %s, %zi, %s, %zu) {group = 4 : i64} : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<4x1x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x4x3x3xui8>
  // CHECK: invalid.mlir:[[@LINE+1]]:9: error: 'nn.qlinear_conv' op nn-to-dsp: cannot express this as a dsp plan: only 2-D convolutions (N, C, H, W) have an im2col plan
  %c1 = "nn.qlinear_conv"(%x1, %s, %zu, %w1, %s, %zi, %s, %zu) : (tensor<1x3x8xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x6xui8>
  // CHECK: invalid.mlir:[[@LINE+1]]:9: error: 'nn.qlinear_matmul' op nn-to-dsp: cannot express this as a dsp plan: a must have rank >= 2 and b rank 2 (a batched b is not a GEMM)
  %bb = "nn.qlinear_matmul"(%a, %s, %zu, %b, %s, %zi, %s, %zu) : (tensor<2x3x4xui8>, tensor<f32>, tensor<ui8>, tensor<2x4x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x3x5xui8>
  // CHECK: invalid.mlir:[[@LINE+1]]:9: error: 'nn.qlinear_matmul' op nn-to-dsp: cannot express this as a dsp plan: its shapes are not static
  %dy = "nn.qlinear_matmul"(%d, %s, %zu, %e, %s, %zi, %s, %zu) : (tensor<?x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<?x5xui8>
  // A per-row scale of a batched a broadcast over the batch is not one value per row of the folded GEMM.
  %a3 = "nn.constant"() {value = dense<3> : tensor<2x3x4xui8>} : () -> tensor<2x3x4xui8>
  %sr = "nn.constant"() {value = dense<[[[0.1], [0.2], [0.3]]]> : tensor<1x3x1xf32>} : () -> tensor<1x3x1xf32>
  // CHECK: invalid.mlir:[[@LINE+1]]:9: error: 'nn.qlinear_matmul' op nn-to-dsp: cannot express this as a dsp plan: a scale or zero point is spread otherwise than per tensor, row or column
  %pr = "nn.qlinear_matmul"(%a3, %sr, %zu, %e, %s, %zi, %s, %zu) : (tensor<2x3x4xui8>, tensor<1x3x1xf32>, tensor<ui8>, tensor<4x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x3x5xui8>
  %ok = "nn.qlinear_matmul"(%a, %s, %zu, %e, %s, %zi, %s, %zu) : (tensor<2x3x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x5xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x3x5xui8>
  return %g, %c1, %bb, %dy, %pr, %ok : tensor<1x4x3x3xui8>, tensor<1x2x6xui8>, tensor<2x3x5xui8>, tensor<?x5xui8>, tensor<2x3x5xui8>, tensor<2x3x5xui8>
}
