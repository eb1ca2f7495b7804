// Amanda's test graph G (inference part): x -> conv(W1) -> relu -> conv(W2)
// -> add (skip from relu) -> matmul(W3). Weights are constants.
func.func @g(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x3xf32> {
  %w1 = "nn.constant"() {value = dense<[[[[0.5]], [[-0.25]]], [[[0.125]], [[1.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %w2 = "nn.constant"() {value = dense<[[[[1.0]], [[0.5]]], [[[-0.5]], [[0.75]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %w3 = "nn.constant"() {value = dense<[[0.1, 0.2, 0.3], [-0.4, 0.5, 0.6], [0.7, -0.8, 0.9], [1.0, 1.1, -1.2]]> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %c1 = "nn.conv"(%x, %w1) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %r = "nn.relu"(%c1) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c2 = "nn.conv"(%r, %w2) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  %a = "nn.add"(%c2, %r) : (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %m = "nn.matmul"(%a, %w3) : (tensor<1x2x4x4xf32>, tensor<4x3xf32>) -> tensor<1x2x4x3xf32>
  return %m : tensor<1x2x4x3xf32>
}
