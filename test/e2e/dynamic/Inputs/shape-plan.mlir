// shape-plans.test: buffers of dynamic size whose sizes follow from the
// batch (matmuls, element-wise ops, a reshape whose target is computed from
// the run-time shape) share one arena per batch size; NonZero's result is
// counted from the data and stays on the heap.
func.func @main(%x: tensor<?x8xf32>, %w: tensor<8x8xf32>) -> (tensor<?x8xf32>, tensor<?x?xf32>, tensor<2x?xi64>) {
  %a = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %b = "nn.relu"(%a) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %t = "nn.tanh"(%b) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %m = "nn.matmul"(%t, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %e = "nn.add"(%m, %a) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %s = "nn.shape"(%b) : (tensor<?x8xf32>) -> tensor<2xi64>
  %i = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "nn.gather"(%s, %i) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c2 = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %n2 = "nn.mul"(%n, %c2) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c4 = "nn.constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %target = "nn.concat"(%n2, %c4) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "nn.reshape"(%m, %target) : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %q = "nn.sigmoid"(%r) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %nz = "nn.non_zero"(%b) : (tensor<?x8xf32>) -> tensor<2x?xi64>
  return %e, %q, %nz : tensor<?x8xf32>, tensor<?x?xf32>, tensor<2x?xi64>
}
