// Constants and shape computation.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @constant_type() {
  // expected-error@+1 {{'nn.constant' op result type tensor<3xf32> does not match the inferred type tensor<2xf32>}}
  %0 = "nn.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<3xf32>
  return
}

// -----

func.func @constant_missing() {
  // expected-error@+1 {{'nn.constant' op attribute "value" is expected but not provided}}
  %0 = "nn.constant"() : () -> tensor<3xf32>
  return
}

// -----

func.func @shape_type(%x: tensor<2x3xf32>) {
  // expected-error@+1 {{'nn.shape' op result type tensor<2xi32> does not match the inferred type tensor<2xi64>}}
  %0 = "nn.shape"(%x) : (tensor<2x3xf32>) -> tensor<2xi32>
  return
}

// -----

func.func @constant_of_shape_negative() {
  %s = "nn.constant"() {value = dense<[2, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{'nn.constant_of_shape' op shape value -1 at 1 is negative}}
  %0 = "nn.constant_of_shape"(%s) : (tensor<2xi64>) -> tensor<2x1xf32>
  return
}

// -----

func.func @range_zero_delta() {
  %a = "nn.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %b = "nn.constant"() {value = dense<5> : tensor<i64>} : () -> tensor<i64>
  // expected-error@+1 {{'nn.range' op operand 'delta' is zero}}
  %0 = "nn.range"(%a, %b, %a) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// -----

func.func @range_length() {
  %a = "nn.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %b = "nn.constant"() {value = dense<2.5> : tensor<f32>} : () -> tensor<f32>
  %d = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  // expected-error@+1 {{'nn.range' op result type tensor<4xf32> does not match the inferred type tensor<3xf32>}}
  %0 = "nn.range"(%a, %b, %d) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

// A float range can ask for more elements than int64 counts.
func.func @range_too_large() {
  %a = "nn.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %b = "nn.constant"() {value = dense<1.0e30> : tensor<f32>} : () -> tensor<f32>
  %d = "nn.constant"() {value = dense<1.0e-10> : tensor<f32>} : () -> tensor<f32>
  // expected-error@+1 {{'nn.range' op shape is too large: the range has 1e+40 elements}}
  %0 = "nn.range"(%a, %b, %d) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return
}
