// The lowering refuses what it cannot do, with a located error.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --nn-to-linalg

func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{nn-to-linalg: 'nn.relu' has dynamic dimensions; this lowering needs static shapes}}
  %b = "nn.relu"(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %b : tensor<?x4xf32>
}
