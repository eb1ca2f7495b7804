// QuantizeLinear / DequantizeLinear: scales and zero points.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nn.quantize_linear' op operand 'y_scale' has 4 values; axis 1 has 3}}
  %r = "nn.quantize_linear"(%x, %s) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xui8>
  return
}

// -----

func.func @case1(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<0> : tensor<3xi8>} : () -> tensor<3xi8>
  // expected-error@+1 {{'nn.quantize_linear' op operand 'y_zero_point' of type tensor<3xi8> must have the shape of operand 'y_scale' of type tensor<f32>}}
  %r = "nn.quantize_linear"(%x, %s, %z) : (tensor<2x3x4xf32>, tensor<f32>, tensor<3xi8>) -> tensor<2x3x4xi8>
  return
}

// -----

func.func @case2(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  // expected-error@+1 {{'nn.quantize_linear' op result type tensor<2x3x4xi8> does not match the inferred type tensor<2x3x4xui8>}}
  %r = "nn.quantize_linear"(%x, %s) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xi8>
  return
}

// -----

func.func @case3(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  // expected-error@+1 {{'nn.dequantize_linear' op operand 'x' has element type f32; allowed}}
  %r = "nn.dequantize_linear"(%x, %s) : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case4(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  // expected-error@+1 {{'nn.dequantize_linear' op operand 'x_zero_point' has element type ui8, expected i8 like operand 'x'}}
  %r = "nn.dequantize_linear"(%q, %s, %z) : (tensor<2x3xi8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xf32>
  return
}
