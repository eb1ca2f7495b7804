// T7: three nested ifs over nn ops, every predicate pattern.
// CASES: [[f32((4,)), p, q, r] for p in bools(()) for q in bools(()) for r in bools(())]
// OUTPUTS: 1
func.func @main(%x: tensor<4xf32>, %tp: tensor<i1>, %tq: tensor<i1>, %tr: tensor<i1>) -> tensor<4xf32> {
  %p = tensor.extract %tp[] : tensor<i1>
  %q = tensor.extract %tq[] : tensor<i1>
  %r = tensor.extract %tr[] : tensor<i1>
  %a = scf.if %p -> tensor<4xf32> {
    %b = scf.if %q -> tensor<4xf32> {
      %c = scf.if %r -> tensor<4xf32> {
        %t = "nn.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
        scf.yield %t : tensor<4xf32>
      } else {
        %e = "nn.exp"(%x) : (tensor<4xf32>) -> tensor<4xf32>
        scf.yield %e : tensor<4xf32>
      }
      %m = "nn.mul"(%c, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      scf.yield %m : tensor<4xf32>
    } else {
      %n = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
      scf.yield %n : tensor<4xf32>
    }
    scf.yield %b : tensor<4xf32>
  } else {
    %s = "nn.sigmoid"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %a : tensor<4xf32>
}
