// Ops whose indices come from a tensor at run time: an index outside
// [-n, n) is an error from the JIT as from the interpreter, with the op's
// location; negative indices in range count from the end (ONNX).
func.func @gather(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  %y = "nn.gather"(%d, %i) {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

func.func @gather_i32_axis1(%d: tensor<4x3xf32>, %i: tensor<2x2xi32>) -> tensor<4x2x2xf32> {
  %y = "nn.gather"(%d, %i) {axis = 1 : i64} : (tensor<4x3xf32>, tensor<2x2xi32>) -> tensor<4x2x2xf32>
  return %y : tensor<4x2x2xf32>
}

func.func @gather_elements(%d: tensor<3x3xf32>, %i: tensor<2x3xi64>) -> tensor<2x3xf32> {
  %y = "nn.gather_elements"(%d, %i) {axis = 0 : i64} : (tensor<3x3xf32>, tensor<2x3xi64>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}

func.func @scatter_elements(%d: tensor<3x3xf32>, %i: tensor<1x3xi64>, %u: tensor<1x3xf32>) -> tensor<3x3xf32> {
  %y = "nn.scatter_elements"(%d, %i, %u) {axis = 1 : i64} : (tensor<3x3xf32>, tensor<1x3xi64>, tensor<1x3xf32>) -> tensor<3x3xf32>
  return %y : tensor<3x3xf32>
}
