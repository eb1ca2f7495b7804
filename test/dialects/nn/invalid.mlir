// Shape and attribute errors name the operand and the expected shape.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @add_no_broadcast(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.add' op operand #1 ('rhs') of type tensor<3x4xf32> does not broadcast with operand #0 ('lhs') of type tensor<2x4xf32>: they differ at output dimension 0 and neither is 1}}
  %0 = "nn.add"(%a, %b) : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @add_wrong_result(%a: tensor<2x1xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'nn.add' op result type tensor<2x1xf32> does not match the inferred type tensor<2x3xf32>}}
  %0 = "nn.add"(%a, %b) : (tensor<2x1xf32>, tensor<3xf32>) -> tensor<2x1xf32>
  return
}

// -----

func.func @add_mixed_types(%a: tensor<2xf32>, %b: tensor<2xf64>) {
  // expected-error@+1 {{'nn.add' op operand 'rhs' has element type f64, expected f32 like operand #0}}
  %0 = "nn.add"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  return
}

// -----

func.func @relu_int(%a: tensor<2xi32>) {
  // expected-error@+1 {{'nn.relu' op operand #0 ('input') has type tensor<2xi32>; element type must be f32, f16 or f64}}
  %0 = "nn.relu"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return
}

// -----

func.func @relu_shape(%a: tensor<2x3xf32>) {
  // expected-error@+1 {{'nn.relu' op result type tensor<3x2xf32> does not match the inferred type tensor<2x3xf32>}}
  %0 = "nn.relu"(%a) : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @relu_unranked(%a: tensor<*xf32>) {
  // expected-error@+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "nn.relu"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return
}

// -----

func.func @relu_not_tensor(%a: f32) {
  // IRDL checks the structure: operands must be tensors.
  // expected-error@+1 {{expected base type 'builtin.tensor' but got 'builtin.f32'}}
  %0 = "nn.relu"(%a) : (f32) -> f32
  return
}

// -----

func.func @relu_two_operands(%a: tensor<2xf32>) {
  // expected-error@+1 {{op expects exactly 1 operands, but got 2}}
  %0 = "nn.relu"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @matmul_k(%a: tensor<3x4xf32>, %b: tensor<5x6xf32>) {
  // expected-error@+1 {{'nn.matmul' op operand #1 ('rhs') of type tensor<5x6xf32> is incompatible with operand #0 ('lhs') of type tensor<3x4xf32>: contraction dimensions differ}}
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

func.func @conv_rank(%x: tensor<4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv2d' op operand #0 ('input') must have rank 4 (NCHW), got rank 3}}
  %0 = "nn.conv2d"(%x, %w) : (tensor<4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_channels(%x: tensor<1x4x9x9xf32>, %w: tensor<6x3x3x3xf32>) {
  // expected-error@+1 {{'nn.conv2d' op operand #1 ('filter') of type tensor<6x3x3x3xf32> does not fit operand #0 ('input') of type tensor<1x4x9x9xf32> with groups=1: filter dim 1 must equal input channels / groups}}
  %0 = "nn.conv2d"(%x, %w) : (tensor<1x4x9x9xf32>, tensor<6x3x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_groups(%x: tensor<1x4x9x9xf32>, %w: tensor<6x1x3x3xf32>) {
  // expected-error@+1 {{input channels are not divisible by groups}}
  %0 = "nn.conv2d"(%x, %w) {groups = 3 : i64} : (tensor<1x4x9x9xf32>, tensor<6x1x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_result(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv2d' op result type tensor<1x6x9x9xf32> does not match the inferred type tensor<1x6x7x7xf32>}}
  %0 = "nn.conv2d"(%x, %w) : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x9x9xf32>
  return
}

// -----

func.func @conv_strides(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv2d' op attribute 'strides' has value 0; it must be >= 1}}
  %0 = "nn.conv2d"(%x, %w) {strides = array<i64: 0, 1>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_pads(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv2d' op attribute 'pads' must be an array of 4 integers}}
  %0 = "nn.conv2d"(%x, %w) {pads = array<i64: 1, 1>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_too_small(%x: tensor<1x4x2x2xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{the dilated filter is larger than the padded input}}
  %0 = "nn.conv2d"(%x, %w) : (tensor<1x4x2x2xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x1x1xf32>
  return
}

// -----

func.func @conv_bias(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'nn.conv2d' op operand #2 ('bias') has type tensor<4xf32>, expected tensor<6xf32> (one value per output channel)}}
  %0 = "nn.conv2d"(%x, %w, %b) : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>, tensor<4xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @conv_groups_attr(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>) {
  // expected-error@+1 {{'nn.conv2d' op attribute 'groups' must be a positive integer}}
  %0 = "nn.conv2d"(%x, %w) {groups = 0 : i64} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  return
}

// -----

func.func @constant_type() {
  // expected-error@+1 {{'nn.constant' op attribute 'value' has type tensor<2xf32> but the result has type tensor<3xf32>}}
  %0 = "nn.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_missing() {
  // expected-error@+1 {{'nn.constant' op attribute "value" is expected but not provided}}
  %0 = "nn.constant"() : () -> tensor<3xf32>
  return
}
