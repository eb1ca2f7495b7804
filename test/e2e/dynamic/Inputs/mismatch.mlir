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
