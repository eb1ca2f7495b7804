// What the vulkan target cannot run exactly it refuses at the op, for
// strata-translate as for strata-run (no device needed here): index
// errors raised in a kernel (gather's bounds checks), f16 buffers, erf in
// f64 (its expansion is accurate to f32).
// RUN: not strata-translate %s --target vulkan -o %t.spv 2>&1 | FileCheck %s

// CHECK: refusals.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'func.call' op the vulkan target reports no index errors from a kernel yet
func.func @gather(%x: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %g = "nn.gather"(%x, %i) {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}
