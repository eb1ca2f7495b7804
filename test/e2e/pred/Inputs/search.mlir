// T4: search for a key, `while (i < 8 and not found)`: every position and
// an absent key (8, 9).
// CASES: [[perm(8), np.array(k, np.float32)] for k in range(10)]
// OUTPUTS: 2
func.func @main(%a: tensor<8xf32>, %key: tensor<f32>) -> (tensor<i64>, tensor<i1>) {
  %k = tensor.extract %key[] : tensor<f32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %false = arith.constant false
  %true = arith.constant true
  %r:2 = scf.while (%i = %c0, %found = %false) : (index, i1) -> (index, i1) {
    %lt = arith.cmpi slt, %i, %c8 : index
    %nf = arith.xori %found, %true : i1
    %go = arith.andi %lt, %nf : i1
    scf.condition(%go) %i, %found : index, i1
  } do {
  ^bb0(%i: index, %found: i1):
    %v = tensor.extract %a[%i] : tensor<8xf32>
    %eq = arith.cmpf oeq, %v, %k : f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %eq : index, i1
  }
  %pos = arith.index_cast %r#0 : index to i64
  %t0 = tensor.from_elements %pos : tensor<i64>
  %t1 = tensor.from_elements %r#1 : tensor<i1>
  return %t0, %t1 : tensor<i64>, tensor<i1>
}
