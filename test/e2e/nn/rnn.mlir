// RNN, GRU, LSTM: directions, activations with alpha/beta, clip,
// linear_before_reset, input_forget, sequence_lens (constant: the random
// inputs would be out of range), initial_h/initial_c, peepholes, layout 0/1,
// all results: JIT (the loop over the steps; the vulkan/opencl tests run
// the unrolled lowering) against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-3 --atol 1e-3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @rnn_forward(%x: tensor<4x3x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>, %b: tensor<1x6xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>, tensor<1x6xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @rnn_reverse_relu(%x: tensor<4x3x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r) {direction = "reverse", activations = ["Relu"], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x3x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @rnn_bidirectional_lens(%x: tensor<4x3x5xf32>, %w: tensor<2x3x5xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>, %h0: tensor<2x3x3xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>) {
  %l = "nn.constant"() {value = dense<[4, 2, 0]> : tensor<3xi32>} : () -> tensor<3xi32>
  %y:2 = "nn.rnn"(%x, %w, %r, %b, %l, %h0) {direction = "bidirectional", activations = ["Tanh", "LeakyRelu"], activation_alpha = array<f32: 0.2>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>} : (tensor<4x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>, tensor<3xi32>, tensor<2x3x3xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>)
  return %y#0, %y#1 : tensor<4x2x3x3xf32>, tensor<2x3x3xf32>
}
func.func @rnn_affine_scaled_tanh(%x: tensor<4x3x5xf32>, %w: tensor<2x3x5xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {direction = "bidirectional", activations = ["Affine", "ScaledTanh"], activation_alpha = array<f32: 0.5, 0.7>, activation_beta = array<f32: 0.1, 1.3>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>)
  return %y#0, %y#1 : tensor<4x2x3x3xf32>, tensor<2x3x3xf32>
}
func.func @rnn_hard_sigmoid_elu(%x: tensor<4x3x5xf32>, %w: tensor<2x3x5xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {direction = "bidirectional", activations = ["HardSigmoid", "Elu"], activation_alpha = array<f32: 0.3, 0.9>, activation_beta = array<f32: 0.4>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>)
  return %y#0, %y#1 : tensor<4x2x3x3xf32>, tensor<2x3x3xf32>
}
func.func @rnn_softsign_softplus_thr(%x: tensor<3x4x5xf32>, %w: tensor<2x3x5xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>) -> (tensor<3x4x2x3xf32>, tensor<3x2x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {direction = "bidirectional", activations = ["Softsign", "Softplus"], operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>, layout = 1 : i64} : (tensor<3x4x5xf32>, tensor<2x3x5xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>) -> (tensor<3x4x2x3xf32>, tensor<3x2x3xf32>)
  return %y#0, %y#1 : tensor<3x4x2x3xf32>, tensor<3x2x3xf32>
}
func.func @rnn_thresholded_sigmoid(%x: tensor<4x3x5xf32>, %w: tensor<2x3x5xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {direction = "bidirectional", activations = ["ThresholdedRelu", "Sigmoid"], activation_alpha = array<f32: 0.2>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf32>, tensor<2x3x5xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>)
  return %y#0, %y#1 : tensor<4x2x3x3xf32>, tensor<2x3x3xf32>
}
func.func @rnn_clip_f64(%x: tensor<4x3x5xf64>, %w: tensor<1x3x5xf64>, %r: tensor<1x3x3xf64>, %b: tensor<1x6xf64>) -> (tensor<4x1x3x3xf64>, tensor<1x3x3xf64>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {clip = 0.5 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf64>, tensor<1x3x5xf64>, tensor<1x3x3xf64>, tensor<1x6xf64>) -> (tensor<4x1x3x3xf64>, tensor<1x3x3xf64>)
  return %y#0, %y#1 : tensor<4x1x3x3xf64>, tensor<1x3x3xf64>
}
func.func @gru_forward(%x: tensor<4x3x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @gru_linear_before_reset(%x: tensor<4x3x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>, %h0: tensor<1x3x3xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r, %b, %h0) {linear_before_reset = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>} : (tensor<4x3x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<1x3x3xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @gru_bidirectional_lens_layout1(%x: tensor<3x4x5xf32>, %w: tensor<2x9x5xf32>, %r: tensor<2x9x3xf32>, %b: tensor<2x18xf32>, %h0: tensor<3x2x3xf32>) -> (tensor<3x4x2x3xf32>, tensor<3x2x3xf32>) {
  %l = "nn.constant"() {value = dense<[1, 4, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %y:2 = "nn.gru"(%x, %w, %r, %b, %l, %h0) {direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, layout = 1 : i64} : (tensor<3x4x5xf32>, tensor<2x9x5xf32>, tensor<2x9x3xf32>, tensor<2x18xf32>, tensor<3xi32>, tensor<3x2x3xf32>) -> (tensor<3x4x2x3xf32>, tensor<3x2x3xf32>)
  return %y#0, %y#1 : tensor<3x4x2x3xf32>, tensor<3x2x3xf32>
}
func.func @gru_reverse_nobias_acts(%x: tensor<4x3x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r) {direction = "reverse", activations = ["HardSigmoid", "Softsign"], clip = 1.5 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4x3x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @gru_lbr_reverse_lens(%x: tensor<4x3x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>) {
  %l = "nn.constant"() {value = dense<[2, 0, 4]> : tensor<3xi32>} : () -> tensor<3xi32>
  %y:2 = "nn.gru"(%x, %w, %r, %b, %l) {direction = "reverse", linear_before_reset = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>} : (tensor<4x3x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<3xi32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @lstm_forward(%x: tensor<4x3x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %b: tensor<1x24xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>} : (tensor<4x3x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @lstm_peepholes_init(%x: tensor<4x3x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %b: tensor<1x24xf32>, %h0: tensor<1x3x3xf32>, %c0: tensor<1x3x3xf32>, %p: tensor<1x9xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %b, %h0, %c0, %p) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 1, 1>} : (tensor<4x3x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x9xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @lstm_bidirectional_lens(%x: tensor<4x3x5xf32>, %w: tensor<2x12x5xf32>, %r: tensor<2x12x3xf32>, %b: tensor<2x24xf32>, %h0: tensor<2x3x3xf32>, %c0: tensor<2x3x3xf32>, %p: tensor<2x9xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>) {
  %l = "nn.constant"() {value = dense<[3, 4, 1]> : tensor<3xi32>} : () -> tensor<3xi32>
  %y:3 = "nn.lstm"(%x, %w, %r, %b, %l, %h0, %c0, %p) {direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1>} : (tensor<4x3x5xf32>, tensor<2x12x5xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<3xi32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x9xf32>) -> (tensor<4x2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<4x2x3x3xf32>, tensor<2x3x3xf32>, tensor<2x3x3xf32>
}
func.func @lstm_input_forget_clip(%x: tensor<4x3x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %b: tensor<1x24xf32>, %p: tensor<1x9xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %b, %p) {input_forget = 1 : i64, clip = 0.8 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 1>} : (tensor<4x3x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>, tensor<1x9xf32>) -> (tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<4x1x3x3xf32>, tensor<1x3x3xf32>, tensor<1x3x3xf32>
}
func.func @lstm_reverse_layout1_acts(%x: tensor<3x4x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %c0: tensor<3x1x3xf32>) -> (tensor<3x4x1x3xf32>, tensor<3x1x3xf32>, tensor<3x1x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %c0) {direction = "reverse", activations = ["sigmoid", "Relu", "SOFTSIGN"], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0>, layout = 1 : i64} : (tensor<3x4x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<3x1x3xf32>) -> (tensor<3x4x1x3xf32>, tensor<3x1x3xf32>, tensor<3x1x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<3x4x1x3xf32>, tensor<3x1x3xf32>, tensor<3x1x3xf32>
}
func.func @lstm_hidden_size_f64(%x: tensor<4x3x5xf64>, %w: tensor<1x12x5xf64>, %r: tensor<1x12x3xf64>, %b: tensor<1x24xf64>, %h0: tensor<1x3x3xf64>) -> (tensor<4x1x3x3xf64>, tensor<1x3x3xf64>, tensor<1x3x3xf64>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %b, %h0) {hidden_size = 3 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1, 0, 0>} : (tensor<4x3x5xf64>, tensor<1x12x5xf64>, tensor<1x12x3xf64>, tensor<1x24xf64>, tensor<1x3x3xf64>) -> (tensor<4x1x3x3xf64>, tensor<1x3x3xf64>, tensor<1x3x3xf64>)
  return %y#0, %y#1, %y#2 : tensor<4x1x3x3xf64>, tensor<1x3x3xf64>, tensor<1x3x3xf64>
}
func.func @gru_f16(%x: tensor<4x3x5xf16>, %w: tensor<1x9x5xf16>, %r: tensor<1x9x3xf16>, %b: tensor<1x18xf16>) -> (tensor<4x1x3x3xf16>, tensor<1x3x3xf16>) {
  %y:2 = "nn.gru"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<4x3x5xf16>, tensor<1x9x5xf16>, tensor<1x9x3xf16>, tensor<1x18xf16>) -> (tensor<4x1x3x3xf16>, tensor<1x3x3xf16>)
  return %y#0, %y#1 : tensor<4x1x3x3xf16>, tensor<1x3x3xf16>
}
