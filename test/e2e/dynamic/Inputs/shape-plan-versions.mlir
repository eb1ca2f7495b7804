// Two weight GEMMs whose rows are the dynamic batch: nn-multiversion gives
// each an scf.if (few rows or the general GEMM), strata-hoist-branch-allocs
// allocates the first one's result before its scf.if, so the shape plan
// serves it and the exp's buffer sized from it. The second GEMM's result
// is the function's (handed to the caller): the one heap buffer per call.
func.func @two_layers(%x: tensor<?x6xf32>) -> tensor<?x3xf32> {
  %w = "nn.constant"() {value = dense<[[1.0, 0.0, -1.0, 0.5], [0.5, 0.5, 0.5, -0.5], [-0.25, 2.0, 0.0, 1.0], [1.0, 1.0, 1.0, 0.0], [0.0, -1.0, 0.5, 0.25], [2.0, 0.25, -0.5, 1.5]]> : tensor<6x4xf32>} : () -> tensor<6x4xf32>
  %b = "nn.constant"() {value = dense<[0.1, -0.2, 0.3, -0.4]> : tensor<4xf32>} : () -> tensor<4xf32>
  %v = "nn.constant"() {value = dense<[[0.5, -1.0, 0.25], [1.0, 0.5, -0.5], [-0.75, 0.25, 1.0], [0.125, 2.0, -0.25]]> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %h = "nn.matmul"(%x, %w) : (tensor<?x6xf32>, tensor<6x4xf32>) -> tensor<?x4xf32>
  %hb = "nn.add"(%h, %b) : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
  %e = "nn.tanh"(%hb) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %s = "nn.sin"(%e) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %y = "nn.matmul"(%s, %v) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  return %y : tensor<?x3xf32>
}
