// Expectations that do not match what the verifier says.
func.func @f(%a: tensor<2x4xf32>, %b: tensor<3x4xf32>) {
  // expected-error@+1 {{this text is not in the message}}
  %0 = "nn.add"(%a, %b) : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}
func.func @g() {
  // expected-error@+1 missing braces
  return
}
