// dsp-to-hexagon refuses the operator-level dsp ops, which are no single
// HVX instruction, at the op.
// RUN: not strata-opt %s --dsp-to-hexagon 2>&1 | FileCheck %s
// CHECK: invalid.mlir:[[@LINE+2]]:8: error: 'dsp.matmul' op dsp-to-hexagon: no HVX instruction of its own (lower it to dsp instruction ops first)
func.func @f(%a: tensor<8x8xui8>, %w: tensor<8x8xi8>) -> tensor<8x8xi32> {
  %c = "dsp.matmul"(%a, %w) : (tensor<8x8xui8>, tensor<8x8xi8>) -> tensor<8x8xi32>
  return %c : tensor<8x8xi32>
}
