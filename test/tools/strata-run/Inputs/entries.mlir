// Three functions: @dyn moves depth to space over a dynamic batch, which
// the CPU target refuses; @main calls the private @twice. See entry-only.test.
func.func @dyn(%x: tensor<?x4x1x1xf32>) -> tensor<?x1x2x2xf32> {
  %y = "nn.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<?x4x1x1xf32>) -> tensor<?x1x2x2xf32>
  return %y : tensor<?x1x2x2xf32>
}
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "nn.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
