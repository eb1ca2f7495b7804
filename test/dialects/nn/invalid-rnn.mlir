// RNN, GRU, LSTM: attributes and operand shapes.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @direction(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op attribute 'direction' is "sideways"; expected one of forward|reverse|bidirectional}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, direction = "sideways"} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @layout(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op attribute 'layout' is 2; expected 0 or 1}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, layout = 2 : i64} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @activation_name(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op activation #0 "Swish" is not one of Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign, Softplus}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, activations = ["Swish"]} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @activation_count(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op attribute 'activations' must list 1 names (1 per direction)}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, activations = ["Tanh", "Tanh"]} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @alpha_kind(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op attribute 'activation_alpha' must be a list of at most 6 floats}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, activation_alpha = [1]} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @clip(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op attribute 'clip' must be a non-negative float}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, clip = -1.0 : f32} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @hidden_size(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op operand 'w' of type tensor<1x3x5xf32>, expected tensor<1x4x5xf32> ('?' = any size)}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, hidden_size = 4 : i64} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----
func.func @x_int(%x: tensor<4x2x5xi32>, %w: tensor<1x3x5xi32>, %r: tensor<1x3x3xi32>) {
  // expected-error@+1 {{'nn.rnn' op operand 'x' has element type i32; allowed: f32, f64, f16}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x2x5xi32>, tensor<1x3x5xi32>, tensor<1x3x3xi32>) -> (tensor<4x1x2x3xi32>, tensor<1x2x3xi32>)
  return
}

// -----

func.func @gru_gates(%x: tensor<4x2x5xf32>, %w: tensor<1x6x5xf32>, %r: tensor<1x9x3xf32>) {
  // expected-error@+1 {{'nn.gru' op operand 'w' of type tensor<1x6x5xf32>, expected tensor<1x9x5xf32> ('?' = any size)}}
  %y:2 = "nn.gru"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x2x5xf32>, tensor<1x6x5xf32>, tensor<1x9x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @bidirectional_w(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op operand 'w' of type tensor<1x3x5xf32>, expected tensor<2x3x5xf32> ('?' = any size)}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>, direction = "bidirectional", activations = ["Tanh", "Tanh"]} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x2x2x3xf32>, tensor<2x2x3xf32>)
  return
}

// -----

func.func @bias(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>, %b: tensor<1x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op operand 'b' of type tensor<1x3xf32>, expected tensor<1x6xf32> ('?' = any size)}}
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>, tensor<1x3xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @lens_type(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>, %l: tensor<2xf32>) {
  // expected-error@+1 {{'nn.rnn' op operand 'sequence_lens' has element type f32; allowed: i32, i64}}
  %y:2 = "nn.rnn"(%x, %w, %r, %l) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>, tensor<2xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @initial_h_layout1(%x: tensor<2x4x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>, %h: tensor<1x2x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op operand 'initial_h' of type tensor<1x2x3xf32>, expected tensor<2x1x3xf32> ('?' = any size)}}
  %y:2 = "nn.rnn"(%x, %w, %r, %h) {layout = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<2x4x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>, tensor<1x2x3xf32>) -> (tensor<2x4x1x3xf32>, tensor<2x1x3xf32>)
  return
}

// -----

func.func @peepholes(%x: tensor<4x2x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %p: tensor<1x12xf32>) {
  // expected-error@+1 {{'nn.lstm' op operand 'p' of type tensor<1x12xf32>, expected tensor<1x9xf32> ('?' = any size)}}
  %y:3 = "nn.lstm"(%x, %w, %r, %p) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>} : (tensor<4x2x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<1x12xf32>) -> (tensor<4x1x2x3xf32>, tensor<1x2x3xf32>, tensor<1x2x3xf32>)
  return
}

// -----

func.func @result(%x: tensor<4x2x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) {
  // expected-error@+1 {{'nn.rnn' op result #0 type tensor<4x2x3xf32> does not match the inferred type tensor<4x1x2x3xf32>}}
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x2x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x2x3xf32>, tensor<1x2x3xf32>)
  return
}
