func.func @main(%x: tensor<2x3x10x8xf32>) -> tensor<1x3x2x2xf32> {
  %r = "nn.constant"() {value = dense<[[0.0, 0.0, 4.0, 4.0]]> : tensor<1x4xf32>} : () -> tensor<1x4xf32>
  %b = "nn.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %y = "nn.roi_align"(%x, %r, %b) {output_height = 2 : i64, output_width = 2 : i64} : (tensor<2x3x10x8xf32>, tensor<1x4xf32>, tensor<1xi64>) -> tensor<1x3x2x2xf32>
  return %y : tensor<1x3x2x2xf32>
}
