// T1 over nn ops: relu or neg of x, by a predicate.
// CASES: [[f32((4,)), p] for p in bools(()) for _ in range(2)]
// OUTPUTS: 1
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>) -> tensor<4xf32> {
  %p = tensor.extract %c[] : tensor<i1>
  %r = scf.if %p -> tensor<4xf32> {
    %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %b = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
