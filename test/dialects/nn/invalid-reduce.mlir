// Reductions, ArgMax, Softmax, CumSum, TopK: axes and shapes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @case0(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.reduce_sum' op axis 3 is out of range for rank 3}}
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 3>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case1(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.reduce_sum' op 'axes' repeats axis 1}}
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 1, -2>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return
}

// -----

func.func @case2(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.reduce_max' op result type tensor<2x4xf32> does not match the inferred type tensor<2x1x4xf32>}}
  %r = "nn.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @case3(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.reduce_mean' op operand 'data' has element type i8; allowed: f32, f64, f16}}
  %r = "nn.reduce_mean"(%q) : (tensor<2x3xi8>) -> tensor<1x1xi8>
  return
}

// -----

func.func @case4(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.arg_max' op result type tensor<2x4xf32> does not match the inferred type tensor<2x4xi64>}}
  %r = "nn.arg_max"(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @case5(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.softmax' op axis -4 is out of range for rank 3}}
  %r = "nn.softmax"(%x) {axis = -4 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @case6(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %b = "nn.less"(%i, %i) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
  // expected-error@+1 {{'nn.cum_sum' op operand 'x' has element type i1; allowed}}
  %r = "nn.cum_sum"(%b) : (tensor<2xi1>) -> tensor<2xi1>
  return
}

// -----

func.func @case7(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  %k = "nn.constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error@+1 {{'nn.top_k' op k = 5 is outside [0, 4]}}
  %r:2 = "nn.top_k"(%x, %k) : (tensor<2x3x4xf32>, tensor<1xi64>) -> (tensor<2x3x5xf32>, tensor<2x3x5xi64>)
  return
}

// -----

func.func @case8(%x: tensor<2x3x4xf32>, %i: tensor<2xi64>, %q: tensor<2x3xi8>) {
  // expected-error@+1 {{'nn.top_k' op operand 'k' must be a 1-D i64 tensor with one element}}
  %r:2 = "nn.top_k"(%x, %i) : (tensor<2x3x4xf32>, tensor<2xi64>) -> (tensor<2x3x?xf32>, tensor<2x3x?xi64>)
  return
}

// -----

func.func @reduce_axes_length(%x: tensor<2x3xf32>, %a: tensor<?xi64>) {
  // expected-error@+1 {{'nn.reduce_sum' op operand 'axes' must be 1-D, of a static length at most the data's rank}}
  %r = "nn.reduce_sum"(%x, %a) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<?xi64>) -> tensor<?xf32>
  return
}

// -----

func.func @cum_sum_axis(%x: tensor<2x3xf32>, %a: tensor<2xi64>) {
  // expected-error@+1 {{'nn.cum_sum' op operand 'axis' must hold one integer (and replaces the attribute)}}
  %r = "nn.cum_sum"(%x, %a) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return
}
