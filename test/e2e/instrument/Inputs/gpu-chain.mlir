// An element-wise chain that the GPU targets fuse into one kernel (fixed
// and dnnfusion modes), then a softmax: the profile trace names the fused
// kernel after all three ops of the chain.
func.func @chain(%x: tensor<2x64xf32>, %y: tensor<2x64xf32>) -> tensor<2x64xf32> {
  %a = "nn.relu"(%x) : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %b = "nn.sigmoid"(%a) : (tensor<2x64xf32>) -> tensor<2x64xf32>
  %c = "nn.add"(%b, %y) : (tensor<2x64xf32>, tensor<2x64xf32>) -> tensor<2x64xf32>
  %s = "nn.softmax"(%c) {axis = 1 : i64} : (tensor<2x64xf32>) -> tensor<2x64xf32>
  return %s : tensor<2x64xf32>
}
