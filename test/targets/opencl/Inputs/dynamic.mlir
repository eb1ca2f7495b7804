func.func @dynamic(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = "nn.relu"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
