// T12: acc += x_i if p_i, x_i NaN where p_i is false: no NaN may leak.
// CASES: [[p, np.where(p, f32((4,)), np.float32(np.nan)).astype(np.float32)] for p in bools((4,))]
// OUTPUTS: 1
func.func @main(%tp: tensor<4xi1>, %tx: tensor<4xf32>) -> tensor<f32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %zero = arith.constant 0.0 : f32
  %acc = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %zero) -> f32 {
    %p = tensor.extract %tp[%i] : tensor<4xi1>
    %x = tensor.extract %tx[%i] : tensor<4xf32>
    %n = scf.if %p -> f32 {
      %s = arith.addf %a, %x : f32
      scf.yield %s : f32
    } else {
      scf.yield %a : f32
    }
    scf.yield %n : f32
  }
  %t = tensor.from_elements %acc : tensor<f32>
  return %t : tensor<f32>
}
