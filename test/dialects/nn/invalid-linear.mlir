// MatMul, Gemm, Conv, ConvTranspose: operand shapes and window attributes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @matmul_k(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error@+1 {{'nn.matmul' op operand 'b' of type tensor<5x6xf32> is incompatible with operand 'a' of type tensor<3x4xf32>: contraction dimensions differ}}
  %0 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @matmul_batch(%a: tensor<2x3x4xf32>, %b: tensor<3x4x5xf32>) {
  // expected-error@+1 {{batch dimensions do not broadcast}}
  %0 = "nn.matmul"(%a, %b) : (tensor<2x3x4xf32>, tensor<3x4x5xf32>) -> tensor<2x3x5xf32>
  return
}

// -----

func.func @matmul_result(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) {
  // expected-error@+1 {{'nn.matmul' op result type tensor<3x4xf32> does not match the inferred type tensor<3x5xf32>}}
  %0 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @gemm_inner(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error@+1 {{'nn.gemm' op operand 'b' of type tensor<5x6xf32> is incompatible with operand 'a' of type tensor<3x4xf32> (transA=0, transB=0): inner dimensions 4 and 5 differ}}
  %0 = "nn.gemm"(%a, %b) : (tensor<3x4xf32>, tensor<5x6xf32>) -> tensor<3x6xf32>
  return
}

// -----

func.func @gemm_c(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %c: tensor<2x5xf32>) {
  // expected-error@+1 {{'nn.gemm' op operand 'c' of type tensor<2x5xf32> does not broadcast to the [M, N] = [3, 5] result}}
  %0 = "nn.gemm"(%a, %b, %c) : (tensor<3x4xf32>, tensor<4x5xf32>, tensor<2x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @gemm_rank(%a: tensor<3xf32>, %b: tensor<3x5xf32>) {
  // expected-error@+1 {{'nn.gemm' op operand 'a' must have rank 2, got rank 1}}
  %0 = "nn.gemm"(%a, %b) : (tensor<3xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return
}

// -----

func.func @conv_rank(%x: tensor<4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op operand 'x' of type tensor<4x9x9xf32> and operand 'w' of type tensor<6x4x3x3xf32> must both have rank 3 to 5 (N x C x spatial...) and equal ranks}}
  %0 = "nn.conv"(%x, %w) : (tensor<4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x9x9xf32>, %w: tensor<6x3x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op operand 'w' of type tensor<6x3x3x3xf32> does not fit operand 'x' of type tensor<1x4x9x9xf32> with group=1: filter dim 1 must equal input channels / group}}
  %0 = "nn.conv"(%x, %w) : (tensor<1x4x9x9xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_group(%x: tensor<1x4x9x9xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error@+1 {{input channels are not divisible by group}}
  %0 = "nn.conv"(%x, %w) {group = 3 : i64} : (tensor<1x4x9x9xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op result type tensor<1x6x9x9xf32> does not match the inferred type tensor<1x6x7x7xf32>}}
  %0 = "nn.conv"(%x, %w) : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x9x9xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op attribute 'strides' has value 0; it must be >= 1}}
  %0 = "nn.conv"(%x, %w) {strides = array<i64: 0, 1>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_pads(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op attribute 'pads' must have 4 values (one per spatial dim begin and end), got 2}}
  %0 = "nn.conv"(%x, %w) {pads = array<i64: 1, 1>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_too_small(%x: tensor<1x4x2x2xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op operand 'x' of type tensor<1x4x2x2xf32>: the dilated window is larger than the padded input}}
  %0 = "nn.conv"(%x, %w) : (tensor<1x4x2x2xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x1x1xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'nn.conv' op operand 'b' of type tensor<4xf32>, expected tensor<6xf32> (one value per output channel)}}
  %0 = "nn.conv"(%x, %w, %b) : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>, tensor<4xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_group_attr(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op attribute 'group' must be a positive integer}}
  %0 = "nn.conv"(%x, %w) {group = 0 : i64} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_auto_pad(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op attribute 'auto_pad' is "SAME"; expected one of NOTSET|SAME_UPPER|SAME_LOWER|VALID}}
  %0 = "nn.conv"(%x, %w) {auto_pad = "SAME"} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x9x9xf32>
  return
}

// -----

func.func @conv_pads_and_auto_pad(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op attributes 'pads' and 'auto_pad' = SAME_UPPER cannot be used together}}
  %0 = "nn.conv"(%x, %w) {auto_pad = "SAME_UPPER", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x9x9xf32>
  return
}

// -----

func.func @conv_kernel_shape(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op attribute 'kernel_shape' value 5 at 0 does not match the kernel (3)}}
  %0 = "nn.conv"(%x, %w) {kernel_shape = array<i64: 5, 3>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_transpose_output_padding(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'nn.conv_transpose' op attribute 'output_padding' value 2 must be smaller than stride or dilation}}
  %0 = "nn.conv_transpose"(%x, %w) {strides = array<i64: 2, 2>, output_padding = array<i64: 2, 2>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x13x13xf32>
  return
}

// -----

func.func @conv_transpose_channels(%x: tensor<1x4x5x5xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error@+1 {{filter dim 0 must equal input channels}}
  %0 = "nn.conv_transpose"(%x, %w) : (tensor<1x4x5x5xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// -----

// Window arithmetic is checked too.
func.func @conv_window_too_large(%x: tensor<1x1x5x5xf32>, %w: tensor<1x1x3x3xf32>) {
  // expected-error@+1 {{'nn.conv' op operand 'x' of type tensor<1x1x5x5xf32>: shape is too large (the window arithmetic overflows int64)}}
  %0 = "nn.conv"(%x, %w) {dilations = array<i64: 9223372036854775807, 1>} : (tensor<1x1x5x5xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x?x3xf32>
  return
}

// -----

func.func @conv_transpose_too_large(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'nn.conv_transpose' op shape is too large: 4611686018427387904 * 4 overflows int64}}
  %0 = "nn.conv_transpose"(%x, %w) {strides = array<i64: 4611686018427387904, 1>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x?x7xf32>
  return
}

// -----

func.func @conv_transpose_output_shape_negative(%x: tensor<1x4x5x5xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error@+1 {{'nn.conv_transpose' op attribute 'output_shape' value -3 must be positive}}
  %0 = "nn.conv_transpose"(%x, %w) {output_shape = array<i64: -3, 7>} : (tensor<1x4x5x5xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x?x7xf32>
  return
}
