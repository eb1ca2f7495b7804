// T7 in a break loop: `while (i < 6 and not done)` with an if nested two
// deep in the body (predicates: loop guard, outer if, inner if).
// CASES: [[f32((6,)) * 1.5] for _ in range(10)]
// OUTPUTS: 2
func.func @main(%tx: tensor<6xf32>) -> (tensor<f32>, tensor<i64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c6 = arith.constant 6 : index
  %false = arith.constant false
  %true = arith.constant true
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %stop = arith.constant -0.8 : f32
  %r:3 = scf.while (%i = %c0, %done = %false, %acc = %zero) : (index, i1, f32) -> (index, i1, f32) {
    %lt = arith.cmpi slt, %i, %c6 : index
    %nd = arith.xori %done, %true : i1
    %go = arith.andi %lt, %nd : i1
    scf.condition(%go) %i, %done, %acc : index, i1, f32
  } do {
  ^bb0(%i: index, %done: i1, %acc: f32):
    %x = tensor.extract %tx[%i] : tensor<6xf32>
    %pos = arith.cmpf ogt, %x, %zero : f32
    %a2 = scf.if %pos -> f32 {
      %big = arith.cmpf ogt, %x, %half : f32
      %a3 = scf.if %big -> f32 {
        %s = arith.addf %acc, %x : f32
        scf.yield %s : f32
      } else {
        %s = arith.subf %acc, %one : f32
        scf.yield %s : f32
      }
      scf.yield %a3 : f32
    } else {
      scf.yield %acc : f32
    }
    %d2 = arith.cmpf olt, %x, %stop : f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %d2, %a2 : index, i1, f32
  }
  %n = arith.index_cast %r#0 : index to i64
  %t0 = tensor.from_elements %r#2 : tensor<f32>
  %t1 = tensor.from_elements %n : tensor<i64>
  return %t0, %t1 : tensor<f32>, tensor<i64>
}
