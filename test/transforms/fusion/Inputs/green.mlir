func.func @relu_neg(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %0 = "nn.relu"(%x) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %1 = "nn.neg"(%0) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  return %1 : tensor<16x32xf32>
}
