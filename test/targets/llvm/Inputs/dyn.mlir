// A function of dynamic shape for aot-dynamic.test: y = relu(x) * 2 over
// [N, 3], N chosen by the caller at each call.
func.func @twice_relu(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %r = "nn.relu"(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  %y = "nn.add"(%r, %r) : (tensor<?x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
