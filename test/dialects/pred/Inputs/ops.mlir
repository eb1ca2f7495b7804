func.func @guard(%p: i1, %x: tensor<4xf32>, %old: tensor<4xf32>) -> tensor<4xf32> {
  %r = "pred.guard"(%p, %old) ({
    %y = arith.negf %x : tensor<4xf32>
    "gpu.yield"(%y) : (tensor<4xf32>) -> ()
  }) : (i1, tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
