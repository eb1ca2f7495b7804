// A constant_of_shape of 2^40 elements with a constant shape: far above the
// fold limit, so --nn-fold must leave it without allocating its 4 TiB.
func.func @huge() -> tensor<1048576x1048576xf32> {
  %s = "nn.constant"() {value = dense<1048576> : tensor<2xi64>} : () -> tensor<2xi64>
  %c = "nn.constant_of_shape"(%s) : (tensor<2xi64>) -> tensor<1048576x1048576xf32>
  return %c : tensor<1048576x1048576xf32>
}
