// A sparse.pattern_conv with constant weights.
func.func @constant(%x: tensor<1x2x5x7xf32>) -> tensor<1x2x5x7xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 0.0], [1.0, 2.0, 1.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]],
                              [[[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], [[0.0, -1.0, 0.0], [0.0, 3.0, 0.5], [0.0, 2.0, 0.0]]]]> : tensor<2x2x3x3xf32>
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 0x03a, 0x0b2>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x5x7xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x5x7xf32>
  return %y : tensor<1x2x5x7xf32>
}
