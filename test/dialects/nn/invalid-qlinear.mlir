// MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv,
// DynamicQuantizeLinear: operand types and quantization parameter shapes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @float_operand(%a: tensor<2x3xf32>, %b: tensor<3x4xi8>) {
  // expected-error@+1 {{'nn.matmul_integer' op operand 'a' has element type f32; allowed}}
  %r = "nn.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x3xf32>, tensor<3x4xi8>) -> tensor<2x4xi32>
  return
}

// -----

func.func @zero_point_type(%a: tensor<2x3xui8>, %b: tensor<3x4xi8>, %z: tensor<i8>) {
  // expected-error@+1 {{'nn.matmul_integer' op operand 'a_zero_point' has element type i8, expected ui8 like operand 'a'}}
  %r = "nn.matmul_integer"(%a, %b, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<2x3xui8>, tensor<3x4xi8>, tensor<i8>) -> tensor<2x4xi32>
  return
}

// -----

func.func @per_row_length(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>, %z: tensor<3xi8>) {
  // expected-error@+1 {{'nn.matmul_integer' op operand 'a_zero_point' of type tensor<3xi8> does not fit operand 'a' of type tensor<2x3xi8>: its length differs from the dim it spreads along}}
  %r = "nn.matmul_integer"(%a, %b, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<2x3xi8>, tensor<3x4xi8>, tensor<3xi8>) -> tensor<2x4xi32>
  return
}

// -----

func.func @per_row_not_along_k(%a: tensor<5x2x3xi8>, %b: tensor<3x4xi8>, %z: tensor<5x2x3xi8>) {
  // expected-error@+1 {{'nn.matmul_integer' op operand 'a_zero_point' of type tensor<5x2x3xi8> does not fit operand 'a' of type tensor<5x2x3xi8>: its extent along the summed dim (K) must be 1}}
  %r = "nn.matmul_integer"(%a, %b, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<5x2x3xi8>, tensor<3x4xi8>, tensor<5x2x3xi8>) -> tensor<5x2x4xi32>
  return
}

// -----

func.func @result_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error@+1 {{'nn.matmul_integer' op result type tensor<2x4xf32> does not match the inferred type tensor<2x4xi32>}}
  %r = "nn.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xf32>
  return
}

// -----

func.func @conv_x_zero_point_per_channel(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xi8>, %z: tensor<2xui8>) {
  // expected-error@+1 {{'nn.conv_integer' op operand 'x_zero_point' of type tensor<2xui8> does not fit operand 'x' of type tensor<1x2x5x5xui8>: it must hold one value (a scalar or [1]): only per-tensor parameters are defined}}
  %r = "nn.conv_integer"(%x, %w, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x2x5x5xui8>, tensor<3x2x3x3xi8>, tensor<2xui8>) -> tensor<1x3x3x3xi32>
  return
}

// -----

func.func @conv_w_zero_point_length(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xi8>, %z: tensor<2xi8>) {
  // expected-error@+1 {{'nn.conv_integer' op operand 'w_zero_point' of type tensor<2xi8> does not fit operand 'w' of type tensor<3x2x3x3xi8>: its length differs from the dim it spreads along}}
  %r = "nn.conv_integer"(%x, %w, %z) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<1x2x5x5xui8>, tensor<3x2x3x3xi8>, tensor<2xi8>) -> tensor<1x3x3x3xi32>
  return
}

// -----

func.func @conv_group(%x: tensor<1x3x5x5xui8>, %w: tensor<4x1x3x3xi8>) {
  // expected-error@+1 {{'nn.conv_integer' op operand 'w' of type tensor<4x1x3x3xi8> does not fit operand 'x' of type tensor<1x3x5x5xui8> with group=2: input channels are not divisible by group}}
  %r = "nn.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, group = 2 : i64} : (tensor<1x3x5x5xui8>, tensor<4x1x3x3xi8>) -> tensor<1x4x3x3xi32>
  return
}

// -----

func.func @qlinear_scale_type(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>, %s: tensor<f16>, %f: tensor<f32>, %z: tensor<ui8>) {
  // expected-error@+1 {{'nn.qlinear_matmul' op operand 'a_scale' has element type f16; allowed: f32}}
  %r = "nn.qlinear_matmul"(%a, %s, %z, %b, %f, %z, %f, %z) : (tensor<2x3xui8>, tensor<f16>, tensor<ui8>, tensor<3x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return
}

// -----

func.func @qlinear_result_type(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>, %f: tensor<f32>, %z: tensor<ui8>, %yz: tensor<i8>) {
  // expected-error@+1 {{'nn.qlinear_matmul' op result type tensor<2x4xui8> does not match the inferred type tensor<2x4xi8>}}
  %r = "nn.qlinear_matmul"(%a, %f, %z, %b, %f, %z, %f, %yz) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<i8>) -> tensor<2x4xui8>
  return
}

// -----

func.func @qlinear_b_scale_columns(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>, %f: tensor<f32>, %bs: tensor<3xf32>, %z: tensor<ui8>) {
  // expected-error@+1 {{'nn.qlinear_matmul' op operand 'b_scale' of type tensor<3xf32> does not fit operand 'b' of type tensor<3x4xui8>: its length differs from the dim it spreads along}}
  %r = "nn.qlinear_matmul"(%a, %f, %z, %b, %bs, %z, %f, %z) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xui8>, tensor<3xf32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x4xui8>
  return
}

// -----

func.func @qlinear_conv_bias(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xi8>, %f: tensor<f32>, %zu: tensor<ui8>, %zi: tensor<i8>, %b: tensor<2xi32>) {
  // expected-error@+1 {{'nn.qlinear_conv' op operand 'b' of type tensor<2xi32> must be 1-D with one value per output channel of operand 'y' of type tensor<1x3x3x3xui8>}}
  %r = "nn.qlinear_conv"(%x, %f, %zu, %w, %f, %zi, %f, %zu, %b) : (tensor<1x2x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<1x3x3x3xui8>
  return
}

// -----

func.func @qlinear_conv_bias_type(%x: tensor<1x2x5x5xui8>, %w: tensor<3x2x3x3xi8>, %f: tensor<f32>, %zu: tensor<ui8>, %zi: tensor<i8>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'nn.qlinear_conv' op operand 'b' has element type f32; allowed: i32}}
  %r = "nn.qlinear_conv"(%x, %f, %zu, %w, %f, %zi, %f, %zu, %b) : (tensor<1x2x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<3x2x3x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>, tensor<3xf32>) -> tensor<1x3x3x3xui8>
  return
}

// -----

func.func @dynamic_quantize_type(%x: tensor<4xf64>) {
  // expected-error@+1 {{'nn.dynamic_quantize_linear' op operand 'x' has element type f64; allowed: f32}}
  %y, %s, %z = "nn.dynamic_quantize_linear"(%x) : (tensor<4xf64>) -> (tensor<4xui8>, tensor<f64>, tensor<ui8>)
  return
}

// -----

func.func @qlinear_matmul_bias(%a: tensor<2x3xui8>, %b: tensor<3x4xui8>, %f: tensor<f32>, %z: tensor<ui8>, %bias: tensor<2xi32>) {
  // expected-error@+1 {{'nn.qlinear_matmul' op operand 'bias' of type tensor<2xi32> must be 1-D with one value per output column of operand 'y' of type tensor<2x4xui8>}}
  %r = "nn.qlinear_matmul"(%a, %f, %z, %b, %f, %z, %f, %z, %bias) : (tensor<2x3xui8>, tensor<f32>, tensor<ui8>, tensor<3x4xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<2xi32>) -> tensor<2x4xui8>
  return
}
