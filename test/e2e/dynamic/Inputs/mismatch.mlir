// Shapes the compiled code cannot take at run time (errors.test).
func.func @add(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = "nn.add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
func.func @matmul(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @pool(%x: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>} : (tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32>
  return %r : tensor<1x1x?x?xf32>
}
func.func @reshape(%x: tensor<?xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = "nn.reshape"(%x, %s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @layer_norm(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = "nn.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "nn.layer_normalization"(%x, %s) {axis = -1 : i64} : (tensor<?x?xf32>, tensor<4xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @concat(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.concat"(%a, %b) {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @expand(%x: tensor<?x3xf32>, %s: tensor<2xi64>) -> tensor<?x3xf32> {
  %r = "nn.expand"(%x, %s) : (tensor<?x3xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @tile(%x: tensor<2x2xf32>, %k: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = "nn.tile"(%x, %k) : (tensor<2x2xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @range(%s: tensor<i64>, %l: tensor<i64>, %d: tensor<i64>) -> tensor<?xi64> {
  %r = "nn.range"(%s, %l, %d) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %r : tensor<?xi64>
}
func.func @filled(%s: tensor<2xi64>) -> tensor<?x?xf32> {
  %r = "nn.constant_of_shape"(%s) : (tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @pad(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %p = "nn.constant"() {value = dense<[0, 2, 0, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) {mode = "reflect"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @split(%x: tensor<?x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>) {
  %a, %b = "nn.split"(%x) {axis = 0 : i64, split = array<i64: 2, 2>} : (tensor<?x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  return %a, %b : tensor<2x?xf32>, tensor<2x?xf32>
}
func.func @open_result(%a: tensor<?x5xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.add"(%a, %b) : (tensor<?x5xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @squeeze_rt(%x: tensor<2x1xf32>, %axes: tensor<1xi64>) -> tensor<?xf32> {
  %r = "nn.squeeze"(%x, %axes) : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @unsqueeze_rt(%x: tensor<2x3xf32>, %axes: tensor<2xi64>) -> tensor<?x?x?x?xf32> {
  %r = "nn.unsqueeze"(%x, %axes) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @reduce_rt(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<?xf32> {
  %r = "nn.reduce_sum"(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
func.func @cum_sum_rt(%x: tensor<2x3xf32>, %axis: tensor<i64>) -> tensor<2x3xf32> {
  %r = "nn.cum_sum"(%x, %axis) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @split_rt(%x: tensor<5x2xf32>, %sizes: tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x2xf32>) {
  %a, %b = "nn.split"(%x, %sizes) {axis = 0 : i64} : (tensor<5x2xf32>, tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x2xf32>)
  return %a, %b : tensor<?x2xf32>, tensor<?x2xf32>
}
func.func @top_k_rt(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>) {
  %v, %i = "nn.top_k"(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %v, %i : tensor<2x?xf32>, tensor<2x?xi64>
}
func.func @resize_rt(%x: tensor<1x1x2x2xf32>, %sizes: tensor<4xi64>) -> tensor<?x?x?x?xf32> {
  %r = "nn.resize"(%x, %sizes) {operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x1x2x2xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @resize_scales_rt(%x: tensor<1x1x2x2xf32>, %scales: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  %r = "nn.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x2x2xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @slice_rt(%x: tensor<2x3xf32>, %axes: tensor<2xi64>, %steps: tensor<2xi64>) -> tensor<?x?xf32> {
  %s = "nn.constant"() {value = dense<0> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "nn.constant"() {value = dense<9> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.slice"(%x, %s, %e, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @space_to_depth(%x: tensor<?x2x?x?xf32>) -> tensor<?x8x?x?xf32> {
  %r = "nn.space_to_depth"(%x) {blocksize = 2 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x8x?x?xf32>
  return %r : tensor<?x8x?x?xf32>
}
func.func @gather_elements(%x: tensor<?x8xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = "nn.gather_elements"(%x, %i) {axis = 1 : i64} : (tensor<?x8xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
func.func @scatter_elements(%x: tensor<?x8xf32>, %i: tensor<?x?xi64>, %u: tensor<?x?xf32>) -> tensor<?x8xf32> {
  %r = "nn.scatter_elements"(%x, %i, %u) {axis = 1 : i64} : (tensor<?x8xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
func.func @channels(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = "nn.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
func.func @einsum(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "bij,bjk->bik"} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
func.func @trace(%a: tensor<?x?xf32>) -> tensor<f32> {
  %t = "nn.einsum"(%a) {equation = "ii->"} : (tensor<?x?xf32>) -> tensor<f32>
  return %t : tensor<f32>
}
