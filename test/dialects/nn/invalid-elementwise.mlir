// Elementwise ops: broadcasting, element types, attributes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @add_no_broadcast(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.add' op operand 'b' of type tensor<3x4xf32> does not broadcast with operand 'a' of type tensor<2x4xf32>: they differ at output dimension 0 and neither is 1}}
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
  // expected-error@+1 {{'nn.add' op operand 'b' has element type f64, expected f32 like operand 'a'}}
  %0 = "nn.add"(%a, %b) : (tensor<2xf32>, tensor<2xf64>) -> tensor<2xf32>
  return
}

// -----

func.func @exp_int(%a: tensor<2xi32>) {
  // expected-error@+1 {{'nn.exp' op operand 'x' has element type i32; allowed: f32, f64, f16}}
  %0 = "nn.exp"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return
}

// -----

func.func @relu_bool(%a: tensor<2xi1>) {
  // expected-error@+1 {{'nn.relu' op operand 'x' has element type i1; allowed: f32, f64, f16, i8, i32, i64}}
  %0 = "nn.relu"(%a) : (tensor<2xi1>) -> tensor<2xi1>
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

func.func @relu_two_operands(%a: tensor<2xf32>) {
  // expected-error@+1 {{op expects exactly 1 operands, but got 2}}
  %0 = "nn.relu"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @compare_result(%a: tensor<2xf32>, %b: tensor<2xf32>) {
  // expected-error@+1 {{'nn.less' op result type tensor<2xf32> does not match the inferred type tensor<2xi1>}}
  %0 = "nn.less"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @where_condition(%c: tensor<2xf32>, %a: tensor<2xf32>) {
  // expected-error@+1 {{'nn.where' op operand 'condition' has element type f32; allowed: i1}}
  %0 = "nn.where"(%c, %a, %a) : (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @prelu_direction(%x: tensor<3xf32>, %s: tensor<2x3xf32>) {
  // expected-error@+1 {{'nn.prelu' op operand 'slope' of type tensor<2x3xf32> does not broadcast to operand 'x' of type tensor<3xf32>}}
  %0 = "nn.prelu"(%x, %s) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @gelu_mode(%x: tensor<3xf32>) {
  // expected-error@+1 {{'nn.gelu' op attribute 'approximate' is "erf"; expected one of none|tanh}}
  %0 = "nn.gelu"(%x) {approximate = "erf"} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @mod_float(%x: tensor<3xf32>) {
  // expected-error@+1 {{'nn.mod' op attribute 'fmod' must be 1 for floating-point operands}}
  %0 = "nn.mod"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @bit_shift_direction(%x: tensor<3xui8>) {
  // expected-error@+1 {{'nn.bit_shift' op attribute 'direction' (LEFT or RIGHT) is required}}
  %0 = "nn.bit_shift"(%x, %x) : (tensor<3xui8>, tensor<3xui8>) -> tensor<3xui8>
  return
}

// -----

func.func @clip_attr(%x: tensor<3xf32>) {
  // expected-error@+1 {{'nn.clip' op attribute 'min' must be a number}}
  %0 = "nn.clip"(%x) {min = "zero"} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @max_mismatch(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'nn.max' op operand 'b' of type tensor<3xf32> does not broadcast with operand 'a' of type tensor<2xf32>: they differ at output dimension 0 and neither is 1}}
  %0 = "nn.max"(%a, %b) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
  return
}
