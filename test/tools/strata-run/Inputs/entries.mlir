// Three functions: @dyn takes determinants over a dynamic batch, which the
// CPU target refuses; @main calls the private @twice. See entry-only.test.
func.func @dyn(%x: tensor<?x2x2xf32>) -> tensor<?xf32> {
  %y = "nn.det"(%x) : (tensor<?x2x2xf32>) -> tensor<?xf32>
  return %y : tensor<?xf32>
}
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "nn.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
