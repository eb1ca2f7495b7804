// Functions for sweep-memory.test.
func.func @chain(%x: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %a = "nn.exp"(%x) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %b = "nn.tanh"(%a) : (tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = "nn.mul"(%a, %b) : (tensor<256x256xf32>, tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
func.func @small_matmul(%x: tensor<?x64xf32>, %w: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %a = "nn.matmul"(%x, %w) : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  return %a : tensor<?x64xf32>
}
