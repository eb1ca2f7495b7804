// An nn.add whose operands cannot broadcast.
func.func @f(%a: tensor<2x4xf32>, %b: tensor<3x5xf32>) -> tensor<2x4xf32> {
  %c = "nn.add"(%a, %b) : (tensor<2x4xf32>, tensor<3x5xf32>) -> tensor<2x4xf32>
  return %c : tensor<2x4xf32>
}
