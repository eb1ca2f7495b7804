// Conv + bias + relu, max pool, a residual matmul and a softmax: runtime
// kernels, a fused epilogue, linalg loops and an arena in one function.
func.func @forward(%x: tensor<2x3x9x9xf32>, %v: tensor<2x5x16xf32>) -> (tensor<2x4x4x4xf32>, tensor<2x5x16xf32>) {
  %w = "nn.constant"() {value = dense<0.125> : tensor<4x3x3x3xf32>} : () -> tensor<4x3x3x3xf32>
  %b = "nn.constant"() {value = dense<[0.1, -0.2, 0.3, -0.4]> : tensor<4xf32>} : () -> tensor<4xf32>
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3x9x9xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<2x4x9x9xf32>
  %r = "nn.relu"(%y) : (tensor<2x4x9x9xf32>) -> tensor<2x4x9x9xf32>
  %p = "nn.max_pool"(%r) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<2x4x9x9xf32>) -> tensor<2x4x4x4xf32>
  %m = "nn.constant"() {value = dense<0.05> : tensor<16x16xf32>} : () -> tensor<16x16xf32>
  %q = "nn.matmul"(%v, %m) : (tensor<2x5x16xf32>, tensor<16x16xf32>) -> tensor<2x5x16xf32>
  %s = "nn.add"(%q, %v) : (tensor<2x5x16xf32>, tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  %t = "nn.softmax"(%s) {axis = -1 : i64} : (tensor<2x5x16xf32>) -> tensor<2x5x16xf32>
  return %p, %t : tensor<2x4x4x4xf32>, tensor<2x5x16xf32>
}
