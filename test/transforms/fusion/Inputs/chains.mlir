// The planning examples in one module, for the numerics test.
func.func @fig33(%x: tensor<1x8x4x4xf32>, %g: tensor<4x4xf32>, %a: tensor<1x8x4x4xf32>, %w: tensor<8x8x1x1xf32>, %m: tensor<1x8x4x4xf32>, %s: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %0 = "nn.matmul"(%x, %g) : (tensor<1x8x4x4xf32>, tensor<4x4xf32>) -> tensor<1x8x4x4xf32>
  %1 = "nn.add"(%0, %a) : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %2 = "nn.conv"(%1, %w) : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %3 = "nn.relu"(%2) : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %4 = "nn.mul"(%3, %m) : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %5 = "nn.sub"(%4, %s) : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %5 : tensor<1x8x4x4xf32>
}

func.func @fig34(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %irs1 = "nn.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %irs2 = "nn.mul"(%irs1, %c) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %irs3 = "nn.reciprocal"(%irs2) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %irs4 = "nn.add"(%irs1, %d) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %irs5 = "nn.reciprocal"(%irs4) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %out = "nn.add"(%irs3, %irs5) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

func.func @gemm_div_transpose(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<4x8xf32> {
  %c = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "nn.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = "nn.div"(%0, %c) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %2 = "nn.transpose"(%1) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

func.func @convtranspose_relu_concat(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>, %y: tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "nn.conv_transpose"(%x, %w) : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %1 = "nn.relu"(%0) : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %2 = "nn.concat"(%1, %y) {axis = 1 : si64} : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

func.func @matmul_reshape_transpose_add(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>, %r: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %shape = "nn.constant"() {value = dense<[16, 4, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "nn.matmul"(%x, %w) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %1 = "nn.reshape"(%0, %shape) : (tensor<16x32xf32>, tensor<3xi64>) -> tensor<16x4x8xf32>
  %2 = "nn.transpose"(%1) {perm = array<i64: 1, 0, 2>} : (tensor<16x4x8xf32>) -> tensor<4x16x8xf32>
  %3 = "nn.add"(%2, %r) : (tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %3 : tensor<4x16x8xf32>
}

func.func @sub_pow_reducemean_add_sqrt(%x: tensor<8x16xf32>, %m: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %0 = "nn.sub"(%x, %m) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = "nn.pow"(%0, %two) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %2 = "nn.reduce_mean"(%1) {axes = array<i64: 1>} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %3 = "nn.add"(%2, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %4 = "nn.sqrt"(%3) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  return %4 : tensor<8x1xf32>
}

func.func @no_cycle(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = "nn.softmax"(%r) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = "nn.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %t2 = "nn.softmax"(%t) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = "nn.add"(%s, %t2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}
