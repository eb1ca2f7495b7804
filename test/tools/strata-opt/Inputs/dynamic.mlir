// Dynamic shapes are verified but not lowered yet.
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %b = "nn.relu"(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
