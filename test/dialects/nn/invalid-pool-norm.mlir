// Pooling and normalization: windows, parameters.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %x4 = "nn.constant"() {value = dense<1.0> : tensor<1x3x8x8xf32>} : () -> tensor<1x3x8x8xf32>
  // expected-error@+1 {{'nn.max_pool' op attribute 'kernel_shape' is required}}
  %r = "nn.max_pool"(%x4) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @case1(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %x4 = "nn.constant"() {value = dense<1.0> : tensor<1x3x8x8xf32>} : () -> tensor<1x3x8x8xf32>
  // expected-error@+1 {{'nn.max_pool' op attribute 'kernel_shape' must have 2 values, got 1}}
  %r = "nn.max_pool"(%x4) {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @case2(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %x4 = "nn.constant"() {value = dense<1.0> : tensor<1x3x8x8xf32>} : () -> tensor<1x3x8x8xf32>
  // expected-error@+1 {{'nn.average_pool' op attribute 'dilations' must be 1 for average pooling}}
  %r = "nn.average_pool"(%x4) {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @case3(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %x4 = "nn.constant"() {value = dense<1.0> : tensor<1x3x8x8xf32>} : () -> tensor<1x3x8x8xf32>
  // expected-error@+1 {{'nn.max_pool' op result type tensor<1x3x8x8xf32> does not match the inferred type tensor<1x3x4x4xf32>}}
  %r = "nn.max_pool"(%x4) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @case4(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.global_average_pool' op operand 'x' of type tensor<3xf32> must have rank >= 3}}
  %r = "nn.global_average_pool"(%s) : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @case5(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %v = "nn.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error@+1 {{'nn.batch_normalization' op operand 'input_var' of type tensor<4xf32>, expected tensor<3xf32>}}
  %r = "nn.batch_normalization"(%x, %s, %s, %s, %v) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case6(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.batch_normalization' op training_mode = 1 is not supported (inference only)}}
  %r = "nn.batch_normalization"(%x, %s, %s, %s, %s) {training_mode = 1 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case7(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.layer_normalization' op operand 'scale' of type tensor<3xf32> does not broadcast to the normalized dims (from axis 2)}}
  %r = "nn.layer_normalization"(%x, %s) : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case8(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %s = "nn.constant"() {value = dense<1.0> : tensor<3xf32>} : () -> tensor<3xf32>
  // expected-error@+1 {{'nn.group_normalization' op attribute 'num_groups' = 2 must be positive and divide the 3 channels}}
  %r = "nn.group_normalization"(%x, %s, %s) {num_groups = 2 : i64} : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  return
}
