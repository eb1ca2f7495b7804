// The "run" bench/pred/plans times: GPT-2 small's MLP at sequence length
// 128 (768 -> 3072 -> 768, GELU), weights as inputs.
func.func @mlp(%x: tensor<128x768xf32>, %w1: tensor<768x3072xf32>, %w2: tensor<3072x768xf32>) -> tensor<128x768xf32> {
  %h = "nn.matmul"(%x, %w1) : (tensor<128x768xf32>, tensor<768x3072xf32>) -> tensor<128x3072xf32>
  %g = "nn.gelu"(%h) : (tensor<128x3072xf32>) -> tensor<128x3072xf32>
  %y = "nn.matmul"(%g, %w2) : (tensor<128x3072xf32>, tensor<3072x768xf32>) -> tensor<128x768xf32>
  return %y : tensor<128x768xf32>
}
