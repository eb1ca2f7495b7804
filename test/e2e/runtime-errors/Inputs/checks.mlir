// Ops whose run-time operands nn-to-linalg checks inside loops and loop
// nests (strata_rt_shape_error), for device-checks.test.
func.func @reverse_sequence(%x: tensor<4x3xf32>, %l: tensor<3xi64>) -> tensor<4x3xf32> {
  %r = "nn.reverse_sequence"(%x, %l) : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
func.func @max_unpool(%y: tensor<1x2x2x2xf32>, %i: tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32> {
  %u = "nn.max_unpool"(%y, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x2x2x2xf32>, tensor<1x2x2x2xi64>) -> tensor<1x2x4x4xf32>
  return %u : tensor<1x2x4x4xf32>
}
