// A function with something for every nn-fold rule.
func.func @main(%x: tensor<2x3x4xf32>, %y: tensor<4xf32>) -> (tensor<4x6xf32>, tensor<4x2x3xf32>) {
  %i = "nn.identity"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %d = "nn.dropout"(%i) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %a1 = "nn.add"(%d, %y) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %a2 = "nn.add"(%d, %y) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %m = "nn.mul"(%a1, %a2) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %shape = "nn.shape"(%m) {end = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<1xi64>
  %k = "nn.constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "nn.concat"(%shape, %k) : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %f = "nn.reshape"(%m, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  %s2 = "nn.constant"() {value = dense<[4, 6]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reshape"(%f, %s2) : (tensor<2x12xf32>, tensor<2xi64>) -> tensor<4x6xf32>
  %t1 = "nn.transpose"(%m) {perm = array<i64: 1, 0, 2>} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  %t2 = "nn.transpose"(%t1) {perm = array<i64: 2, 1, 0>} : (tensor<3x2x4xf32>) -> tensor<4x2x3xf32>
  %r1 = "nn.relu"(%t2) : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %r2 = "nn.relu"(%r1) : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %dead = "nn.exp"(%r2) : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %r, %r2 : tensor<4x6xf32>, tensor<4x2x3xf32>
}
