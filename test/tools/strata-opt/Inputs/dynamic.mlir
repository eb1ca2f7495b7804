// Dynamic shapes are verified; determinants of dynamic extents are not
// lowered yet (nn-to-linalg has no dynamic-shape rule for them).
func.func @f(%a: tensor<?x2x2xf32>) -> tensor<?xf32> {
  %b = "nn.det"(%a) : (tensor<?x2x2xf32>) -> tensor<?xf32>
  return %b : tensor<?xf32>
}
