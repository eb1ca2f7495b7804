// A module attribute that is no pattern set (mask 0).
module attributes {sparse.patterns = array<i64: 0x3a, 0>} {
  func.func @f(%x: tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32> {
    %w = "nn.constant"() {value = dense<1.0> : tensor<1x1x3x3xf32>} : () -> tensor<1x1x3x3xf32>
    %y = "nn.conv"(%x, %w) : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x1x1xf32>
    return %y : tensor<1x1x1x1xf32>
  }
}
