func.func @ops(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) {
  %a = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  %b = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, -1.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %a, %b, %c : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>
}
