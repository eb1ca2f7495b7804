// Functions whose results are views (a reshape, a flatten of a softmax run
// by the runtime, a squeeze), which buffer-results-to-out-params copies into
// the out-parameters; pred-placeholder-alias computes them in place.
func.func @reshaped(%x: tensor<2x6xf32>) -> tensor<3x4xf32> {
  %a = "nn.relu"(%x) : (tensor<2x6xf32>) -> tensor<2x6xf32>
  %s = "nn.constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reshape"(%a, %s) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @two_outputs(%x: tensor<2x3x4xf32>, %w: tensor<12x5xf32>) -> (tensor<2x12xf32>, tensor<2x5xf32>) {
  %s = "nn.softmax"(%x) {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %f = "nn.flatten"(%s) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x12xf32>
  %m = "nn.matmul"(%f, %w) : (tensor<2x12xf32>, tensor<12x5xf32>) -> tensor<2x5xf32>
  return %f, %m : tensor<2x12xf32>, tensor<2x5xf32>
}
func.func @squeezed(%x: tensor<1x8x1xf32>) -> tensor<8xf32> {
  %e = "nn.exp"(%x) : (tensor<1x8x1xf32>) -> tensor<1x8x1xf32>
  %q = "nn.squeeze"(%e) {axes = array<i64: 0, 2>} : (tensor<1x8x1xf32>) -> tensor<8xf32>
  return %q : tensor<8xf32>
}
