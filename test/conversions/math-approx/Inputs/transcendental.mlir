func.func @f(%x: tensor<4096xf32>) -> (tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>) {
  %e = "nn.exp"(%x) : (tensor<4096xf32>) -> tensor<4096xf32>
  %t = "nn.tanh"(%x) : (tensor<4096xf32>) -> tensor<4096xf32>
  %r = "nn.erf"(%x) : (tensor<4096xf32>) -> tensor<4096xf32>
  %s = "nn.sigmoid"(%x) : (tensor<4096xf32>) -> tensor<4096xf32>
  %g = "nn.gelu"(%x) : (tensor<4096xf32>) -> tensor<4096xf32>
  return %e, %t, %r, %s, %g : tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>, tensor<4096xf32>
}
