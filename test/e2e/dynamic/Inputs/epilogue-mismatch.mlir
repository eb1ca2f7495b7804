func.func @residual(%x: tensor<?x?x8xf32>, %w: tensor<8x6xf32>, %r: tensor<?x?x6xf32>) -> tensor<?x?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  %s = "nn.add"(%m, %r) : (tensor<?x?x6xf32>, tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %y = "nn.relu"(%s) : (tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %y : tensor<?x?x6xf32>
}
func.func @static_addend(%x: tensor<?x8xf32>, %w: tensor<8x6xf32>, %r: tensor<4x6xf32>) -> tensor<?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %a = "nn.add"(%m, %r) : (tensor<?x6xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
  return %a : tensor<?x6xf32>
}
func.func @gemm_c(%x: tensor<?x8xf32>, %w: tensor<6x8xf32>, %c: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %m = "nn.gemm"(%x, %w, %c) {transB = 1 : i64} : (tensor<?x8xf32>, tensor<6x8xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return %m : tensor<?x6xf32>
}
func.func @conv_residual(%x: tensor<?x4x?x?xf32>, %w: tensor<4x4x3x3xf32>, %r: tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %c = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x4x?x?xf32>, tensor<4x4x3x3xf32>) -> tensor<?x4x?x?xf32>
  %a = "nn.add"(%r, %c) : (tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  return %a : tensor<?x4x?x?xf32>
}
func.func @prologue(%q: tensor<?x?x16xf32>, %k: tensor<?x?x16xf32>) -> tensor<?x?x?xf32> {
  %qt = "nn.transpose"(%q) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %kt = "nn.transpose"(%k) {perm = array<i64: 1, 2, 0>} : (tensor<?x?x16xf32>) -> tensor<?x16x?xf32>
  %s = "nn.matmul"(%qt, %kt) : (tensor<?x?x16xf32>, tensor<?x16x?xf32>) -> tensor<?x?x?xf32>
  return %s : tensor<?x?x?xf32>
}
