// The set from the module attribute (0x03a, 0x0b2): 1..9 retains 81 in
// 0x03a and 129 in 0x0b2, so it keeps bits 1,4,5,7.
module attributes {sparse.patterns = array<i64: 0x3a, 0xb2>} {
  func.func @f(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
    %w = "nn.constant"() {value = dense<[[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]]]> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
    %y = "nn.conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
    return %y : tensor<1x1x1x1xf32>
  }
}
