func.func @f(%x: tensor<2x3xf32>) -> tensor<3x3xf32> {
  %y = "nn.relu"(%x) : (tensor<2x3xf32>) -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}
