// No 3x3 kernel to vote for or to project: only a 1x1 convolution.
func.func @g(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %p = "nn.constant"() {value = dense<2.0> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %0 = "nn.conv"(%x, %p) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %0 : tensor<1x2x4x4xf32>
}
