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
// A Winograd convolution (64 channels, 3x3, stride 1) and a max pool, each
// with kernel scratch (V and M of a band of tiles; the pool's padded tile).
func.func @conv_pool(%x: tensor<1x64x?x?xf32>) -> tensor<1x64x?x?xf32> {
  %w = "nn.constant"() {value = dense<0.01> : tensor<64x64x3x3xf32>} : () -> tensor<64x64x3x3xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x?x?xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x?x?xf32>
  %z = "nn.max_pool"(%y) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x64x?x?xf32>) -> tensor<1x64x?x?xf32>
  return %z : tensor<1x64x?x?xf32>
}
