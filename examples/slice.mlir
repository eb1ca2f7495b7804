// The bundled example model: a small conv net head in the `nn` dialect.
// conv2d (3->8 channels, 3x3, stride 2, pad 1, with bias) -> add (a per-channel
// offset broadcast over H and W) -> relu -> flatten-free matmul to 10 classes.
// Run it:  strata-run examples/slice.mlir
func.func @main(%image: tensor<1x3x16x16xf32>) -> tensor<1x8x8x10xf32> {
  %w = "nn.constant"() {value = dense<0.05> : tensor<8x3x3x3xf32>} : () -> tensor<8x3x3x3xf32>
  %b = "nn.constant"() {value = dense<[0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 0.7, -0.8]> : tensor<8xf32>} : () -> tensor<8xf32>
  %offset = "nn.constant"() {value = dense<[[[0.05]], [[-0.05]], [[0.1]], [[-0.1]], [[0.15]], [[-0.15]], [[0.2]], [[-0.2]]]> : tensor<8x1x1xf32>} : () -> tensor<8x1x1xf32>
  %fc = "nn.constant"() {value = dense<0.01> : tensor<8x10xf32>} : () -> tensor<8x10xf32>
  %y = "nn.conv"(%image, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x16x16xf32>, tensor<8x3x3x3xf32>, tensor<8xf32>) -> tensor<1x8x8x8xf32>
  %z = "nn.add"(%y, %offset) : (tensor<1x8x8x8xf32>, tensor<8x1x1xf32>) -> tensor<1x8x8x8xf32>
  %r = "nn.relu"(%z) : (tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  %out = "nn.matmul"(%r, %fc) : (tensor<1x8x8x8xf32>, tensor<8x10xf32>) -> tensor<1x8x8x10xf32>
  return %out : tensor<1x8x8x10xf32>
}
