// Dynamic shapes are verified; a concatenation of dynamic extents is not
// lowered yet (nn-to-linalg has no dynamic-shape rule for it).
func.func @f(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %b = "nn.concat"(%a, %a) {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
