// The sparse ops' verifiers name the attribute or array entry at fault.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @dup_pattern(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op attribute 'patterns': patterns 0 and 1 are both 0x03a}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58, 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @mask_too_wide(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{pattern 1 is 512: a mask is a nonzero 9-bit value (1 to 511)}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58, 512>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @kernel_off_pattern(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<[[[[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]]]> : tensor<1x1x3x3xf32>
  // expected-error@+1 {{the kernel of filter 0, input channel 0 [1,0,0,0,1,0,0,0,1] (support 0x111) fits no pattern of the set}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58, 178>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

func.func @not_3x3(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{operand 'w' must be tensor<Mx(C/group)x3x3xf32> for 2 input channels and group 1, not tensor<2x2x1x1xf32>}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @fkr_order(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{filter_order must be a permutation of 0..1}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, filter_order = array<i64: 1, 1>, filter_groups = array<i64: 0, 2>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @reorder_not_permutation(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{reorder must be a permutation of 0..1 (entry 1 is 0)}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 0, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @offset_vs_index(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{index has 2 entries but offset ends at 1}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1, 0>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @stride_length(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{stride has 3 entries, expected 4 (2 filters x (1 patterns + 1))}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @stride_end(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{stride of filter 1 must run from 0 to its 0 kernels}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 1>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @channel_range(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{index[0] = 2: filter 0's kernels need distinct input channels in 0..1}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 2>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @weight_count(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{weight has 3 values, but the kernels' patterns hold 4}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<3xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @groups_bounds(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{groups must be increasing group boundaries from 0 to 2}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 1, 1, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @tile_range(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{tile entries must be 1 to 16}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>, tile = array<i64: 0, 2>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @bad_permute(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op needs attribute 'permute': "co_oh_ow_ci" or "oh_co_ow_ci"}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>, permute = "ci_co"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @not_f32(%x: tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16> {
  // expected-error@+1 {{operand 'x' must be an NCHW tensor of f32, not tensor<1x2x4x4xf16>}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf16>) -> tensor<1x2x4x4xf16>
  return %y : tensor<1x2x4x4xf16>
}

// -----

func.func @window_too_big(%x: tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32> {
  // expected-error@+1 {{the 3-wide window does not fit input dim 2 of 2 (padded to 2)}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 1>, col_index = array<i64: 4>, values = dense<1.0> : tensor<1xf32>} : (tensor<1x2x2x2xf32>) -> tensor<1x2x1x1xf32>
  return %y : tensor<1x2x1x1xf32>
}

// -----

func.func @csr_column(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{col_index[1] = 18: a row's columns increase within 0..17}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 18>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @wrong_result(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op result type tensor<1x3x4x4xf32> does not match the inferred type tensor<1x2x4x4xf32>}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}
