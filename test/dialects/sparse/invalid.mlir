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
  // The loop orders are the lowering's to choose: the message is matched
  // up to where it lists them.
  // expected-error@+1 {{'sparse.fkw_conv' op needs attribute 'permute': "}}
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

// -----

// The window: every array length and value is checked before use, and the
// window arithmetic is checked for overflow.

func.func @kernel_shape_on_fkw(%x: tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op convolves 3x3 kernels: attribute 'kernel_shape' may only be [3, 3], not [5, 5]}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, kernel_shape = array<i64: 5, 5>, strides = array<i64: 1, 1>, pads = array<i64: 2, 2, 2, 2>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x8x8xf32>) -> tensor<1x2x8x8xf32>
  return %y : tensor<1x2x8x8xf32>
}

// -----

func.func @kernel_shape_on_pattern(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op convolves 3x3 kernels: attribute 'kernel_shape' may only be [3, 3], not [1, 1]}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, kernel_shape = array<i64: 1, 1>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  return %y : tensor<1x2x6x6xf32>
}

// -----

func.func @kernel_shape_length(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs attribute 'kernel_shape' with 2 integers}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @kernel_shape_zero(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op strides, dilations and kernel_shape must be positive}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 0, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 0, 0>, col_index = array<i64>, values = dense<[]> : tensor<0xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @group_zero(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op group must be positive, not 0}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 0 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// 2^64 + 1 would read as its low 64 bits: group 1.
func.func @group_wider_than_i64(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs attribute 'group': a positive integer of at most 64 bits}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 18446744073709551617 : i128, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @pad_wider_than_i64(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs attribute 'pads' with 4 integers}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = [1, 1], pads = [18446744073709551617 : i128, 1, 1, 1], dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @pads_overflow(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op the window arithmetic of input dim 2 overflows int64}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 9223372036854775807, 1>, pads = array<i64: 9223372036854775807, 1, 9223372036854775807, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x4xf32>
  return %y : tensor<1x2x1x4xf32>
}

// -----

func.func @dilation_overflow(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x1x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op the window arithmetic of input dim 2 overflows int64}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 4611686018427387904, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x1x4xf32>
  return %y : tensor<1x2x1x4xf32>
}

// -----

// 2^40 channels x 4096 x 4096 taps: the CSR column count overflows int64.
func.func @csr_columns_overflow(%x: tensor<1x1099511627776x4x4xf32>) -> tensor<1x1x1x1xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op a filter of 1099511627776 channels x 4096 x 4096 taps has more columns than int64 counts}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 4096, 4096>, strides = array<i64: 10000, 10000>, pads = array<i64: 4096, 4096, 4096, 4096>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 0>, col_index = array<i64>, values = dense<[]> : tensor<0xf32>} : (tensor<1x1099511627776x4x4xf32>) -> tensor<1x1x1x1xf32>
  return %y : tensor<1x1x1x1xf32>
}

// -----

func.func @dynamic_channels(%x: tensor<1x?x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs a static NCHW input whose channels divide by group}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x?x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// CSR: row_ptr is checked whole before any row is read.

// row_ptr[1] = 100000 used to walk col_index past its 2 entries.
func.func @row_ptr_not_monotone(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op row_ptr must be non-decreasing (row_ptr[1] > row_ptr[2])}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 100000, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @row_ptr_end(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op row_ptr must run from 0 to the 2 entries of col_index and values}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 3>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @csr_values_count(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op row_ptr must run from 0 to the 2 entries of col_index and values}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<1.0> : tensor<1000000000000xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @csr_unsorted(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op col_index[1] = 3: a row's columns increase within 0..17}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 2>, col_index = array<i64: 4, 3>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

func.func @csr_negative_column(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op col_index[0] = -9223372036854775808: a row's columns increase within 0..17}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1>, col_index = array<i64: -9223372036854775808>, values = dense<[1.0]> : tensor<1xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

// With group 2, a column counts channels within the group: 1 x 3 x 3 here.
func.func @csr_column_in_group(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op col_index[1] = 13: a row's columns increase within 0..8}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @csr_values_f64(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs attribute 'values': 1-D dense f32 elements}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf64>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @csr_col_index_kind(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs attribute 'col_index': an array<i64>}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i64: 0, 1, 2>, col_index = [4, 13], values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @csr_row_ptr_kind(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.csr_conv' op needs attribute 'row_ptr': an array<i64> of at least 2 entries}}
  %y = "sparse.csr_conv"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, row_ptr = array<i32: 0, 1, 2>, col_index = array<i64: 4, 13>, values = dense<[1.0, 2.0]> : tensor<2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// FKW: offset bounds index, stride is checked whole before it is summed,
// and the weights are counted before they are read.

func.func @offset_start(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op offset[0] must be 0}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 1, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @offset_decreasing(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op offset must be non-decreasing (offset[1] > offset[2])}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 9223372036854775807, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @offset_length(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op reorder has 2 entries and offset 2: offset needs one more}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @offset_kind(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op needs attribute 'offset': an array<i64>}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = [0, 1, 1], reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// stride[1] = 2^63 - 1 times 4 weights used to overflow before the next
// entry showed the segment out of order.
func.func @stride_huge(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op stride of filter 0 must be non-decreasing}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58, 178>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 9223372036854775807, 1, 0, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @stride_start(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op stride of filter 0 must run from 0 to its 1 kernels}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: -1, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @reorder_range(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op reorder must be a permutation of 0..1 (entry 0 is -9223372036854775808)}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: -9223372036854775808, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @channel_repeated(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op index[1] = 0: filter 0's kernels need distinct input channels in 0..1}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58, 178>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 2, 2>, reorder = array<i64: 1, 0>, index = array<i64: 0, 0>, stride = array<i64: 0, 1, 2, 0, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<8xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// A channel count of 2^40 in the type is no reason to allocate 2^40 marks.
func.func @channel_range_huge_c(%x: tensor<1x1099511627776x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op index[2] = 7: filter 1's kernels need distinct input channels in 0..1099511627775}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 3>, reorder = array<i64: 1, 0>, index = array<i64: 1099511627775, 7, 7>, stride = array<i64: 0, 1, 0, 2>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<12xf32>} : (tensor<1x1099511627776x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// With group 2, index counts channels within the group (2 of the 4 here).
func.func @channel_in_group(%x: tensor<1x4x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op index[0] = 2: filter 0's kernels need distinct input channels in 0..1}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 0, 1>, index = array<i64: 2>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x4x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @channels_not_divisible(%x: tensor<1x3x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op input channels (3) do not divide by group 2}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 0, 1>, index = array<i64: 0>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x3x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @filters_not_divisible(%x: tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op output channels (3) do not divide by group 2}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 2 : i64, offset = array<i64: 0, 1, 1, 1>, reorder = array<i64: 0, 1, 2>, index = array<i64: 0>, stride = array<i64: 0, 1, 0, 0, 0, 0>, groups = array<i64: 0, 3>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x3x4x4xf32>
  return %y : tensor<1x3x4x4xf32>
}

// -----

func.func @bias_length(%x: tensor<1x2x4x4xf32>, %b: tensor<3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op operand 'b' must be a tensor<2xf32> (one value per output channel)}}
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>, tensor<3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @bias_f16(%x: tensor<1x2x4x4xf32>, %b: tensor<2xf16>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op operand 'b' must be a tensor<2xf32> (one value per output channel)}}
  %y = "sparse.fkw_conv"(%x, %b) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>, tensor<2xf16>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// A splat states its length: it is compared with the patterns' count, not
// copied first.
func.func @weight_splat_huge(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op weight has 100000000000 values, but the kernels' patterns hold 4}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<100000000000xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @weight_f64(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op needs attribute 'weight': 1-D dense f32 elements}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf64>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @weight_2d(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op needs attribute 'weight': 1-D dense f32 elements}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<2x2xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @groups_huge(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op groups must be increasing group boundaries from 0 to 2}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 9223372036854775807, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @pattern_zero(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op attribute 'patterns': pattern 0 is 0: a mask is a nonzero 9-bit value (1 to 511)}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @pattern_negative(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op attribute 'patterns': pattern 1 is -9223372036854775808: a mask is a nonzero 9-bit value (1 to 511)}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58, -9223372036854775808>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 1, 0, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @too_many_patterns(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op attribute 'patterns': a pattern set has 1 to 64 masks, not 65}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @patterns_kind(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op needs attribute 'patterns': an array<i64> of 9-bit masks}}
  %y = "sparse.fkw_conv"(%x) {patterns = [58], strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @tile_length(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op tile is [output rows, output column vectors]}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>, tile = array<i64: 1, 1, 1, 1, 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @unroll_range(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.fkw_conv' op unroll must be 1 to 8 filters}}
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 1, 1>, reorder = array<i64: 1, 0>, index = array<i64: 1>, stride = array<i64: 0, 1, 0, 0>, groups = array<i64: 0, 2>, weight = dense<1.0> : tensor<4xf32>, unroll = array<i64: -9223372036854775808>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// sparse.pattern_conv: FKR's attributes and constant weights.

func.func @filter_order_kind(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op needs attribute 'filter_order': an array<i64>}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, filter_order = [1, 0], filter_groups = [0, 2]} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @filter_order_length(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op filter_order (a permutation of the 2 filters) and filter_groups come together}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, filter_order = array<i64: 1, 0, 2>, filter_groups = array<i64: 0, 2>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

func.func @filter_groups(%x: tensor<1x2x4x4xf32>, %w: tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op filter_groups must increase from 0 to 2}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64, filter_order = array<i64: 1, 0>, filter_groups = array<i64: 0, -1, 2>} : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// w's channels times group used to overflow int64.
func.func @w_channels_overflow(%x: tensor<1x0x4x4xf32>, %w: tensor<0x4611686018427387904x3x3xf32>) -> tensor<1x0x4x4xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op operand 'w' must be tensor<Mx(C/group)x3x3xf32> for 0 input channels and group 4, not tensor<0x4611686018427387904x3x3xf32>}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 4 : i64} : (tensor<1x0x4x4xf32>, tensor<0x4611686018427387904x3x3xf32>) -> tensor<1x0x4x4xf32>
  return %y : tensor<1x0x4x4xf32>
}

// -----

func.func @w_dynamic_filters(%x: tensor<1x2x4x4xf32>, %w: tensor<?x2x3x3xf32>) -> tensor<1x2x4x4xf32> {
  // expected-error@+1 {{'sparse.pattern_conv' op operand 'w' must be tensor<Mx(C/group)x3x3xf32> for 2 input channels and group 1, not tensor<?x2x3x3xf32>}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<?x2x3x3xf32>) -> tensor<1x2x4x4xf32>
  return %y : tensor<1x2x4x4xf32>
}

// -----

// The FKW and CSR forms hold at least one filter, so must the pattern form
// (sparse-fkw and sparse-to-csr made invalid IR of this one).
func.func @no_filters(%x: tensor<1x2x4x4xf32>) -> tensor<1x0x4x4xf32> {
  %w = arith.constant dense<0.0> : tensor<0x2x3x3xf32>
  // expected-error@+1 {{'sparse.pattern_conv' op operand 'w' must hold at least one filter (M >= 1)}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<0x2x3x3xf32>) -> tensor<1x0x4x4xf32>
  return %y : tensor<1x0x4x4xf32>
}

// -----

// A splat is one kernel repeated: checked once, never copied (this one
// states 9 * 10^10 values).
func.func @splat_off_pattern(%x: tensor<1x100000x4x4xf32>) -> tensor<1x100000x4x4xf32> {
  %w = arith.constant dense<1.0> : tensor<100000x100000x3x3xf32>
  // expected-error@+1 {{'sparse.pattern_conv' op the kernel of filter 0, input channel 0 [1,1,1,1,1,1,1,1,1] (support 0x1ff) fits no pattern of the set}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x100000x4x4xf32>, tensor<100000x100000x3x3xf32>) -> tensor<1x100000x4x4xf32>
  return %y : tensor<1x100000x4x4xf32>
}

// -----

// Weights the verifier cannot read are not accepted unchecked.
func.func @unreadable_weights(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant sparse<[[0, 0, 0, 1]], [1.0]> : tensor<1x1x3x3xf32>
  // expected-error@+1 {{'sparse.pattern_conv' op cannot read its 9 constant weights to check them against the pattern set (out of memory, or elements other than dense and dense_resource)}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

// Nine wide values used to overrun the message's buffer.
func.func @long_kernel_text(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<-1.23456789e+38> : tensor<1x1x3x3xf32>
  // expected-error@+1 {{'sparse.pattern_conv' op the kernel of filter 0, input channel 0 [-1.23457e+38,-1.23457e+38,-1.23457e+38,-1.23457e+38,-1.23457e+38,-1.23457e+38,-1.23457e+38,-1.23457e+38,-1.23457e+38] (support 0x1ff) fits no pattern of the set}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x1x4x4xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}

// -----

func.func @second_kernel_off_pattern(%x: tensor<1x2x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %w = arith.constant dense<[[[[0.0, 1.0, 0.0], [1.0, 1.0, 1.0], [0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]]]]> : tensor<1x2x3x3xf32>
  // expected-error@+1 {{'sparse.pattern_conv' op the kernel of filter 0, input channel 1 [0,0,0,0,0,0,0,0,2] (support 0x100) fits no pattern of the set}}
  %y = "sparse.pattern_conv"(%x, %w) {patterns = array<i64: 58>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64} : (tensor<1x2x4x4xf32>, tensor<1x2x3x3xf32>) -> tensor<1x1x4x4xf32>
  return %y : tensor<1x1x4x4xf32>
}
