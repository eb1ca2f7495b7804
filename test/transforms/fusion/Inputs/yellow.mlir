func.func @matmul_reshape(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>) -> tensor<16x4x8xf32> {
  %shape = "nn.constant"() {value = dense<[16, 4, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "nn.matmul"(%x, %w) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %1 = "nn.reshape"(%0, %shape) : (tensor<16x32xf32>, tensor<3xi64>) -> tensor<16x4x8xf32>
  return %1 : tensor<16x4x8xf32>
}
