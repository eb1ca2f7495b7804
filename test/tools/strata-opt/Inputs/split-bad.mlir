func.func @fine(%a: tensor<2xf32>) {
  %0 = "nn.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return
}

// -----

func.func @broken(%a: tensor<2xf32>) {
  %0 = "nn.relu"(%a) : (tensor<2xf32>) -> tensor<3xf32>
  return
}
