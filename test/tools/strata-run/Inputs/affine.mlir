// relu(a @ b + 0.5): a small model for the strata-run interface tests.
func.func @affine(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %c = "nn.constant"() {value = dense<0.5> : tensor<5xf32>} : () -> tensor<5xf32>
  %m = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %s = "nn.add"(%m, %c) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  %r = "nn.relu"(%s) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
