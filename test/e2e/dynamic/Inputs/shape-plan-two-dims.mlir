// shape-plans.test: buffers sized by two independent batch sizes (x and y),
// so the sizes of one class are not those of another scaled alike, and a
// slot one class shares between an x buffer and a y buffer would overlap
// at another. The structure the first class searched is re-evaluated at
// every other: valid whatever the sizes, so no class searches again.
func.func @main(%x: tensor<?x8xf32>, %y: tensor<?x8xf32>, %w: tensor<8x8xf32>) -> (tensor<?x8xf32>, tensor<?x8xf32>) {
  %a = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %b = "nn.matmul"(%y, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %a2 = "nn.matmul"(%a, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %a3 = "nn.tanh"(%a2) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %c = "nn.matmul"(%b, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %c2 = "nn.matmul"(%c, %w) : (tensor<?x8xf32>, tensor<8x8xf32>) -> tensor<?x8xf32>
  %d = "nn.add"(%c2, %b) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %e = "nn.tanh"(%d) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  return %e, %a3 : tensor<?x8xf32>, tensor<?x8xf32>
}
