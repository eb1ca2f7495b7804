// Shape computations nn-fold reduces to constants, then a lowering through
// strata-cpu-pipeline: reshape by a computed shape, broadcasting, a gather.
func.func @f(%x: tensor<2x3x4xf32>, %y: tensor<4xf32>) -> tensor<6x4xf32> {
  %s = "nn.shape"(%x) : (tensor<2x3x4xf32>) -> tensor<3xi64>
  %i = "nn.constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %g = "nn.gather"(%s, %i) {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %p = "nn.reduce_prod"(%g) {keepdims = true} : (tensor<2xi64>) -> tensor<1xi64>
  %m = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %t = "nn.concat"(%p, %m) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "nn.reshape"(%x, %t) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<6x4xf32>
  %a = "nn.add"(%r, %y) : (tensor<6x4xf32>, tensor<4xf32>) -> tensor<6x4xf32>
  %z = "nn.relu"(%a) : (tensor<6x4xf32>) -> tensor<6x4xf32>
  return %z : tensor<6x4xf32>
}
