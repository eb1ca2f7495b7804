// The lowering refuses what it cannot do, with a located error.
// RUN: strata-opt %s --split-input-file --verify-diagnostics --nn-to-linalg

// An op without a dynamic-shape rule (lower_dims.c) is refused at the op.
func.func @dynamic(%a: tensor<?x2x2xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{nn-to-linalg: 'nn.det' has dynamic dimensions: no dynamic-shape rule for this op yet}}
  %b = "nn.det"(%a) : (tensor<?x2x2xf32>) -> tensor<?xf32>
  return %b : tensor<?xf32>
}

// -----

// DepthToSpace's and SpaceToDepth's rule needs static channels.
func.func @depth_to_space_channels(%a: tensor<?x?x1x1xf32>) -> tensor<?x?x2x2xf32> {
  // expected-error@+1 {{nn-to-linalg: 'nn.depth_to_space' has dynamic dimensions: its channel dim (1) must be static}}
  %b = "nn.depth_to_space"(%a) {blocksize = 2 : i64} : (tensor<?x?x1x1xf32>) -> tensor<?x?x2x2xf32>
  return %b : tensor<?x?x2x2xf32>
}

// -----

// A rule that reads a shape operand element by element needs its length.
func.func @tile_repeats_length(%x: tensor<2x2xf32>, %k: tensor<?xi64>) -> tensor<?x?xf32> {
  // expected-error@+1 {{nn-to-linalg: 'nn.tile' has dynamic dimensions: its shape operand (target shape, pads, repeats, k) needs a static length}}
  %r = "nn.tile"(%x, %k) : (tensor<2x2xf32>, tensor<?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Run-time axes: more of them than dims would repeat one.
func.func @runtime_axes_count(%x: tensor<2x3xf32>, %a: tensor<3xi64>) -> tensor<?x?xf32> {
  // expected-error@+2 {{nn-to-linalg: run-time axes need a static count of at most the rank (2)}}
  // expected-error@+1 {{nn-to-linalg: no lowering for 'nn.reduce_sum'}}
  %r = "nn.reduce_sum"(%x, %a) : (tensor<2x3xf32>, tensor<3xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

func.func @runtime_log_sum_exp(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<?x?xf32> {
  // expected-error@+2 {{nn-to-linalg: 'nn.reduce_log_sum_exp' with run-time axes is not compiled}}
  // expected-error@+1 {{nn-to-linalg: no lowering for 'nn.reduce_log_sum_exp'}}
  %r = "nn.reduce_log_sum_exp"(%x, %a) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Recurrent ops with dynamic dims loop over the run-time sequence, but their
// hidden size (the states' extent) must be static.
func.func @gru_dynamic_hidden(%x: tensor<?x?x5xf32>, %w: tensor<1x?x5xf32>, %r: tensor<1x?x?xf32>) -> tensor<1x?x?xf32> {
  // expected-error@+1 {{nn-to-linalg: 'nn.gru' has dynamic dimensions: its hidden size must be static (hidden_size, or a static dim of r or w)}}
  %y:2 = "nn.gru"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?x5xf32>, tensor<1x?x5xf32>, tensor<1x?x?xf32>) -> (tensor<?x1x?x?xf32>, tensor<1x?x?xf32>)
  return %y#1 : tensor<1x?x?xf32>
}
