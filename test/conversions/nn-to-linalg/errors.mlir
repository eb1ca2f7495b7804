// The lowering refuses what it cannot do, with a located error.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --nn-to-linalg

// An op without a dynamic-shape rule (lower_dims.c) is refused at the op.
func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{nn-to-linalg: 'nn.concat' has dynamic dimensions: no dynamic-shape rule for this op yet}}
  %b = "nn.concat"(%a, %a) {axis = 0 : i64} : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
