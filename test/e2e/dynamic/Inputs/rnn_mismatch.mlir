// rnn-errors.test: recurrent ops whose run-time dims or sequence_lens do not fit.
func.func @gru_lens(%x: tensor<?x?x5xf32>, %w: tensor<1x9x5xf32>, %r: tensor<1x9x3xf32>, %b: tensor<1x18xf32>, %l: tensor<?xi64>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r, %b, %l) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 0>} : (tensor<?x?x5xf32>, tensor<1x9x5xf32>, tensor<1x9x3xf32>, tensor<1x18xf32>, tensor<?xi64>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
func.func @lstm_states(%x: tensor<?x?x5xf32>, %w: tensor<1x12x5xf32>, %r: tensor<1x12x3xf32>, %h0: tensor<1x?x3xf32>, %c0: tensor<?x?x?xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:3 = "nn.lstm"(%x, %w, %r, %h0, %c0) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1, 1, 0>} : (tensor<?x?x5xf32>, tensor<1x12x5xf32>, tensor<1x12x3xf32>, tensor<1x?x3xf32>, tensor<?x?x?xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1, %y#2 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>, tensor<1x?x3xf32>
}
func.func @rnn_weights(%x: tensor<?x?x?xf32>, %w: tensor<?x?x?xf32>, %r: tensor<1x3x3xf32>, %b: tensor<?x?xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<1x3x3xf32>, tensor<?x?xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
func.func @rnn_input_size(%x: tensor<?x?x?xf32>, %w: tensor<1x3x5xf32>, %r: tensor<1x3x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>) {
  %y:2 = "nn.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?x?xf32>, tensor<1x3x5xf32>, tensor<1x3x3xf32>) -> (tensor<?x1x?x3xf32>, tensor<1x?x3xf32>)
  return %y#0, %y#1 : tensor<?x1x?x3xf32>, tensor<1x?x3xf32>
}
func.func @gru_hidden(%x: tensor<?x?x5xf32>, %w: tensor<1x?x5xf32>, %r: tensor<1x?x?xf32>) -> (tensor<?x1x?x?xf32>, tensor<1x?x?xf32>) {
  %y:2 = "nn.gru"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?x5xf32>, tensor<1x?x5xf32>, tensor<1x?x?xf32>) -> (tensor<?x1x?x?xf32>, tensor<1x?x?xf32>)
  return %y#0, %y#1 : tensor<?x1x?x?xf32>, tensor<1x?x?xf32>
}
