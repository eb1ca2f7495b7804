// RNN, GRU and LSTM with a dynamic sequence length and/or batch (issue 19):
// the steps are one scf.for over the run-time length
// (conversions/nn-to-linalg/lower_rnn.c), states sized by the run-time
// batch. Every function compiles once and runs at every shape set listed
// above it, against the interpreter on seeded random inputs. sequence_lens
// comes from a random integer input as min(|l|, T), so it stays in [0, T].
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// shapes: 0=4x3x5 | 0=1x1x5 | 0=9x2x5 | 0=0x3x5 | 0=3x0x5
func.func @rnn_forward(%x: tensor<?x?x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>, %b: tensor<1x6xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<?x?x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>, tensor<1x6xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
// shapes: 0=4x3x5 3=1x3x3 | 0=6x1x5 3=1x1x3 | 0=2x5x5 3=1x5x3
func.func @rnn_reverse_relu_h0(%x: tensor<?x?x5xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>, %h0: tensor<1x?x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %h0) {direction = "reverse", activations = ["Relu"], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<?x?x5xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>, tensor<1x?x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
// Bidirectional with sequence_lens and initial_h, activations with alpha and beta.
// shapes: 0=4x3x5 4=2x3x3 5=3 | 0=7x2x5 4=2x2x3 5=2 | 0=1x1x5 4=2x1x3 5=1
func.func @rnn_bidirectional_lens(%x: tensor<?x?x5xf32>, %w: tensor<2x3x5xf32>, %r: tensor<2x3x3xf32>, %b: tensor<2x6xf32>, %h0: tensor<2x?x3xf32>, %l: tensor<?xi64>) -> (tensor<?x2x?x3xf32>, tensor<2x?x3xf32>) {
  %s = "nn.shape"(%x) {end = 1 : i64} : (tensor<?x?x5xf32>) -> tensor<1xi64>
  %a = "nn.abs"(%l) : (tensor<?xi64>) -> tensor<?xi64>
  %lens = "nn.min"(%a, %s) : (tensor<?xi64>, tensor<1xi64>) -> tensor<?xi64>
  %y:2 = "nn.rnn"(%x, %w, %r, %b, %lens, %h0) {direction = "bidirectional", activations = ["Affine", "ScaledTanh"], activation_alpha = array<f32: 0.5, 0.7>, activation_beta = array<f32: 0.1, 1.3>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>} : (tensor<?x?x5xf32>, tensor<2x3x5xf32>, tensor<2x3x3xf32>, tensor<2x6xf32>, tensor<?xi64>, tensor<2x?x3xf32>) -> (tensor<?x2x?x3xf32>, tensor<2x?x3xf32>)
  return %y#0, %y#1 : tensor<?x2x?x3xf32>, tensor<2x?x3xf32>
}
// Only the sequence is dynamic; f64, clip, HardSigmoid/Elu.
// shapes: 0=4x3x5 | 0=11x3x5
func.func @rnn_seq_only_clip_f64(%x: tensor<?x3x5xf64>, %w: tensor<2x3x5xf64>, %r: tensor<2x3x3xf64>, %b: tensor<2x6xf64>) -> (tensor<?x2x3x3xf64>, tensor<2x3x3xf64>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {direction = "bidirectional", clip = 0.5 : f32, activations = ["HardSigmoid", "Elu"], activation_alpha = array<f32: 0.3, 0.9>, activation_beta = array<f32: 0.4>, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<?x3x5xf64>, tensor<2x3x5xf64>, tensor<2x3x3xf64>, tensor<2x6xf64>) -> (tensor<?x2x3x3xf64>, tensor<2x3x3xf64>)
  return %y#0, %y#1 : tensor<?x2x3x3xf64>, tensor<2x3x3xf64>
}
// shapes: 0=4x3x5 | 0=1x2x5 | 0=8x1x5
func.func @gru_forward(%x: tensor<?x?x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<?x?x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
// shapes: 0=4x3x5 4=1x3x3 | 0=2x6x5 4=1x6x3
func.func @gru_linear_before_reset_h0(%x: tensor<?x?x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>, %h0: tensor<1x?x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r, %b, %h0) {linear_before_reset = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>} : (tensor<?x?x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<1x?x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
// Bidirectional, layout 1 ([batch, seq, input]), sequence_lens, initial_h.
// shapes: 0=3x4x5 4=3x2x3 5=3 | 0=1x6x5 4=1x2x3 5=1 | 0=5x2x5 4=5x2x3 5=5
func.func @gru_bidirectional_lens_layout1(%x: tensor<?x?x5xf32>, %w: tensor<2x9x5xf32>, %r: tensor<2x9x3xf32>, %b: tensor<2x18xf32>, %h0: tensor<?x2x3xf32>, %l: tensor<?xi64>) -> (tensor<?x?x2x3xf32>, tensor<?x2x3xf32>) {
  %s = "nn.shape"(%x) {start = 1 : i64, end = 2 : i64} : (tensor<?x?x5xf32>) -> tensor<1xi64>
  %a = "nn.abs"(%l) : (tensor<?xi64>) -> tensor<?xi64>
  %lens = "nn.min"(%a, %s) : (tensor<?xi64>, tensor<1xi64>) -> tensor<?xi64>
  %y:2 = "nn.gru"(%x, %w, %r, %b, %lens, %h0) {direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1>, layout = 1 : i64} : (tensor<?x?x5xf32>, tensor<2x9x5xf32>, tensor<2x9x3xf32>, tensor<2x18xf32>, tensor<?xi64>, tensor<?x2x3xf32>) -> (tensor<?x?x2x3xf32>, tensor<?x2x3xf32>)
  return %y#0, %y#1 : tensor<?x?x2x3xf32>, tensor<?x2x3xf32>
}
// Reverse, linear_before_reset, sequence_lens, no initial state.
// shapes: 0=4x3x5 4=3 | 0=6x4x5 4=4
func.func @gru_lbr_reverse_lens(%x: tensor<?x?x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>, %l: tensor<?xi64>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %s = "nn.shape"(%x) {end = 1 : i64} : (tensor<?x?x5xf32>) -> tensor<1xi64>
  %a = "nn.abs"(%l) : (tensor<?xi64>) -> tensor<?xi64>
  %lens = "nn.min"(%a, %s) : (tensor<?xi64>, tensor<1xi64>) -> tensor<?xi64>
  %y:2 = "nn.gru"(%x, %w, %r, %b, %lens) {direction = "reverse", linear_before_reset = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>} : (tensor<?x?x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<?xi64>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
// Reverse without biases; HardSigmoid/Softsign, clip; weights of dynamic
// type (input size dynamic too): their dims are checked at run time.
// shapes: 0=4x3x5 1=1x9x5 | 0=2x2x7 1=1x9x7
func.func @gru_reverse_dynamic_weights(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>, %r: tensor<1x9x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r) {direction = "reverse", activations = ["HardSigmoid", "Softsign"], clip = 1.5 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<1x9x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
// shapes: 0=4x3x5 | 0=1x2x5 | 0=7x1x5 | 0=0x2x5
func.func @lstm_forward(%x: tensor<?x?x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %b: tensor<1x24xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0, 0, 0>} : (tensor<?x?x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<1x24xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>
}
// Bidirectional with everything: sequence_lens, initial_h, initial_c, peepholes.
// shapes: 0=4x3x5 4=2x3x3 5=2x3x3 7=3 | 0=6x2x5 4=2x2x3 5=2x2x3 7=2 | 0=1x4x5 4=2x4x3 5=2x4x3 7=4
func.func @lstm_bidirectional_lens(%x: tensor<?x?x5xf32>, %w: tensor<2x12x5xf32>, %r: tensor<2x12x3xf32>, %b: tensor<2x24xf32>, %h0: tensor<2x?x3xf32>, %c0: tensor<2x?x3xf32>, %p: tensor<2x9xf32>, %l: tensor<?xi64>) -> (tensor<?x2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>) {
  %s = "nn.shape"(%x) {end = 1 : i64} : (tensor<?x?x5xf32>) -> tensor<1xi64>
  %a = "nn.abs"(%l) : (tensor<?xi64>) -> tensor<?xi64>
  %lens = "nn.min"(%a, %s) : (tensor<?xi64>, tensor<1xi64>) -> tensor<?xi64>
  %y:3 = "nn.lstm"(%x, %w, %r, %b, %lens, %h0, %c0, %p) {direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1>} : (tensor<?x?x5xf32>, tensor<2x12x5xf32>, tensor<2x12x3xf32>, tensor<2x24xf32>, tensor<?xi64>, tensor<2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x9xf32>) -> (tensor<?x2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<?x2x?x3xf32>, tensor<2x?x3xf32>, tensor<2x?x3xf32>
}
// Reverse, layout 1, initial_c only, input_forget and clip; Relu/Softsign.
// shapes: 0=3x4x5 3=3x1x3 | 0=1x9x5 3=1x1x3 | 0=6x2x5 3=6x1x3
func.func @lstm_reverse_layout1_forget(%x: tensor<?x?x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %c0: tensor<?x1x3xf32>) -> (tensor<?x?x1x3xf32>, tensor<?x1x3xf32>, tensor<?x1x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %c0) {direction = "reverse", input_forget = 1 : i64, clip = 0.8 : f32, activations = ["sigmoid", "Relu", "SOFTSIGN"], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0>, layout = 1 : i64} : (tensor<?x?x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<?x1x3xf32>) -> (tensor<?x?x1x3xf32>, tensor<?x1x3xf32>, tensor<?x1x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<?x?x1x3xf32>, tensor<?x1x3xf32>, tensor<?x1x3xf32>
}
// Only the batch is dynamic (hidden_size given, results with static dims).
// shapes: 0=4x3x5 | 0=4x1x5 | 0=4x10x5
func.func @lstm_batch_only(%x: tensor<4x?x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>) -> (tensor<4x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r) {hidden_size = 3 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>} : (tensor<4x?x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>) -> (tensor<4x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<4x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>
}
// A static sequence longer than the unrolled lowering takes (4096 steps)
// runs as the loop.
// shapes: 0=4100x2x2
func.func @rnn_long_static(%x: tensor<4100x2x2xf32>, %w: tensor<1x2x2xf32>, %r: tensor<1x2x2xf32>) -> (tensor<4100x1x2x2xf32>, tensor<1x2x2xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<4100x2x2xf32>, tensor<1x2x2xf32>, tensor<1x2x2xf32>) -> (tensor<4100x1x2x2xf32>, tensor<1x2x2xf32>)
  return %y#0, %y#1 : tensor<4100x1x2x2xf32>, tensor<1x2x2xf32>
}
