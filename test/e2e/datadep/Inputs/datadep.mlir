func.func @compress(%x: tensor<?x3xf32>, %c: tensor<?xi1>) -> tensor<?x3xf32> {
  %r = "nn.compress"(%x, %c) {axis = 0 : i64} : (tensor<?x3xf32>, tensor<?xi1>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
func.func @nms_iou(%b: tensor<1x4x4xf32>, %s: tensor<1x1x4xf32>, %i: tensor<1xf32>) -> tensor<?x3xi64> {
  %r = "nn.non_max_suppression"(%b, %s, %i) {operandSegmentSizes = array<i32: 1, 1, 0, 1, 0>} : (tensor<1x4x4xf32>, tensor<1x1x4xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
func.func @nms_boxes(%b: tensor<?x?x4xf32>, %s: tensor<?x?x?xf32>, %m: tensor<?xi64>) -> tensor<?x3xi64> {
  %r = "nn.non_max_suppression"(%b, %s, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<?x?x4xf32>, tensor<?x?x?xf32>, tensor<?xi64>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
func.func @unpool(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x3x3xf32> {
  %r = "nn.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x3x3xf32>
  return %r : tensor<1x1x3x3xf32>
}
