func.func @mm(%a: tensor<256x256xf32>, %b: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %c = "nn.matmul"(%a, %b) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  %d = "nn.relu"(%c) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %e = "nn.add"(%d, %c) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %e : tensor<256x256xf32>
}
