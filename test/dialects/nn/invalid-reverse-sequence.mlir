// ReverseSequence: axes, operand ranks and lengths.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @axes(%x: tensor<4x3xf32>, %l: tensor<3xi64>) {
  // expected-error@+1 {{'nn.reverse_sequence' op batch_axis 0 and time_axis 0 must be 0 and 1 or 1 and 0}}
  %0 = "nn.reverse_sequence"(%x, %l) {batch_axis = 0 : i64} : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @rank(%x: tensor<4xf32>, %l: tensor<3xi64>) {
  // expected-error@+1 {{'nn.reverse_sequence' op operand 'x' must have rank >= 2 (time and batch), got rank 1}}
  %0 = "nn.reverse_sequence"(%x, %l) : (tensor<4xf32>, tensor<3xi64>) -> tensor<4xf32>
  return
}

// -----

func.func @lens(%x: tensor<4x3xf32>, %l: tensor<4xi64>) {
  // expected-error@+1 {{'nn.reverse_sequence' op operand 'sequence_lens' of type tensor<4xi64> must be 1-D with one length per batch entry (3)}}
  %0 = "nn.reverse_sequence"(%x, %l) : (tensor<4x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return
}

// -----

func.func @lens_type(%x: tensor<4x3xf32>, %l: tensor<3xf32>) {
  // expected-error@+1 {{'nn.reverse_sequence' op operand 'sequence_lens' has element type f32; allowed: i32, i64}}
  %0 = "nn.reverse_sequence"(%x, %l) : (tensor<4x3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  return
}
