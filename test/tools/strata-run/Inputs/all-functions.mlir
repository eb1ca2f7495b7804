// For all-functions.test: @refused is one the CPU target refuses (run-time
// axes, more of them than dims); @main calls the private @twice, which is
// not run on its own.
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = func.call @twice(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func private @twice(%x: tensor<4xf32>) -> tensor<4xf32> {
  %y = "nn.add"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %y : tensor<4xf32>
}
func.func @refused(%x: tensor<2x3xf32>, %a: tensor<3xi64>) -> tensor<?x?xf32> {
  %r = "nn.reduce_sum"(%x, %a) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @mul(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %r = "nn.mul"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
