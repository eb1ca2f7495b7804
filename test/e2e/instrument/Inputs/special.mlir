// Values with NaN and Inf: sqrt of negatives, log of zeros (relu of negatives).
func.func @special(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s = "nn.sqrt"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = "nn.log"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %s, %l : tensor<4x8xf32>, tensor<4x8xf32>
}
