// The seeded random ops: valid forms, and what the verifier refuses (a
// missing seed or shape, a negative dim, a non-float dtype, a non-float
// probability, a result type other than the inferred one).
// RUN: strata-opt %s --split-input-file --verify-diagnostics | FileCheck %s

// CHECK-LABEL: func.func @accepted
func.func @accepted(%p: tensor<4x5xf16>) {
  // CHECK: nn.random_uniform
  %0 = "nn.random_uniform"() {shape = array<i64: 2, 3>, dtype = f64, low = -1.0 : f64, high = 1.0 : f64, seed = 5 : i64} : () -> tensor<2x3xf64>
  // CHECK: nn.random_normal
  %1 = "nn.random_normal"() {shape = array<i64>, seed = -7 : i64} : () -> tensor<f32>
  // CHECK: nn.bernoulli
  %2 = "nn.bernoulli"(%p) {dtype = i1, seed = 9 : i64} : (tensor<4x5xf16>) -> tensor<4x5xi1>
  %3 = "nn.bernoulli"(%p) {seed = 9 : i64} : (tensor<4x5xf16>) -> tensor<4x5xf16>
  return
}

// -----

func.func @no_seed() {
  // expected-error@+1 {{'nn.random_uniform' op attribute "seed" is expected but not provided}}
  %0 = "nn.random_uniform"() {shape = array<i64: 2>} : () -> tensor<2xf32>
  return
}

// -----

func.func @no_shape() {
  // expected-error@+1 {{'nn.random_normal' op attribute "shape" is expected but not provided}}
  %0 = "nn.random_normal"() {seed = 1 : i64} : () -> tensor<2xf32>
  return
}

// -----

func.func @negative_dim() {
  // expected-error@+1 {{'nn.random_uniform' op shape value -2 at 1 is negative}}
  %0 = "nn.random_uniform"() {shape = array<i64: 3, -2>, seed = 1 : i64} : () -> tensor<3x2xf32>
  return
}

// -----

func.func @int_dtype() {
  // expected-error@+1 {{'nn.random_uniform' op attribute 'dtype' must be f16, f32 or f64}}
  %0 = "nn.random_uniform"() {shape = array<i64: 2>, dtype = i32, seed = 1 : i64} : () -> tensor<2xi32>
  return
}

// -----

func.func @int_probability(%p: tensor<3xi32>) {
  // expected-error@+1 {{'nn.bernoulli' op operand 'input' has element type i32; allowed: f32, f64, f16}}
  %0 = "nn.bernoulli"(%p) {seed = 1 : i64} : (tensor<3xi32>) -> tensor<3xi32>
  return
}

// -----

func.func @wrong_result(%p: tensor<3xf32>) {
  // expected-error@+1 {{'nn.bernoulli' op result type tensor<3xf32> does not match the inferred type tensor<3xi8>}}
  %0 = "nn.bernoulli"(%p) {dtype = i8, seed = 1 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return
}
