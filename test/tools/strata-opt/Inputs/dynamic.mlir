// Dynamic shapes are verified; a depth_to_space of dynamic extents is not
// lowered yet (nn-to-linalg has no dynamic-shape rule for it).
func.func @f(%a: tensor<?x4x1x1xf32>) -> tensor<?x1x2x2xf32> {
  %b = "nn.depth_to_space"(%a) {blocksize = 2 : i64} : (tensor<?x4x1x1xf32>) -> tensor<?x1x2x2xf32>
  return %b : tensor<?x1x2x2xf32>
}
