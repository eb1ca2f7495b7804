// A transformer block's decomposed layer norm (PyTorch's opset-14 export:
// ReduceMean/Sub/Pow/ReduceMean/Add/Sqrt/Div/Mul/Add), then a projection
// and the residual add. Op ids: reduce_mean 0, sub 1, pow 2, reduce_mean 3,
// add 4, sqrt 5, div 6, mul 7, add 8, matmul 9, add 10.
func.func @block(%x: tensor<16x32xf32>, %g: tensor<32xf32>, %b: tensor<32xf32>, %w: tensor<32x32xf32>) -> tensor<16x32xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: -1>} : (tensor<16x32xf32>) -> tensor<16x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<16x32xf32>, tensor<16x1xf32>) -> tensor<16x32xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<16x32xf32>, tensor<f32>) -> tensor<16x32xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: -1>} : (tensor<16x32xf32>) -> tensor<16x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<16x1xf32>, tensor<f32>) -> tensor<16x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<16x1xf32>) -> tensor<16x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<16x32xf32>, tensor<16x1xf32>) -> tensor<16x32xf32>
  %y0 = "nn.mul"(%n, %g) : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %y = "nn.add"(%y0, %b) : (tensor<16x32xf32>, tensor<32xf32>) -> tensor<16x32xf32>
  %h = "nn.matmul"(%y, %w) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %r = "nn.add"(%h, %x) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  return %r : tensor<16x32xf32>
}
