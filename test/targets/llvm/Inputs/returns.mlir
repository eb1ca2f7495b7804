// Functions returning an argument, one value twice, a constant: each result
// becomes its own buffer (strata-distinct-results), in every pipeline.
func.func @f(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %a : tensor<4xf32>, tensor<4xf32>
}
func.func @g(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
func.func @h(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %x, %x : tensor<4xf32>, tensor<4xf32>
}
func.func @k() -> tensor<2xf32> {
  %c = "nn.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  return %c : tensor<2xf32>
}
func.func @m(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a, %x, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
