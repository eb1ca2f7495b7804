// nn ops that fail on garbage operands: a gather whose index is out of
// range (a run-time index error) and an integer division whose divisor is
// zero, both only under a predicate that rules those out. Masked
// predication runs them unconditionally with the index forced to 0 and the
// divisor to 1 when the predicate is false.
// CASES: [[f32((6,)), np.array([i], np.int64), np.array([d], np.int32), np.array([7, -9], np.int32)] for i in (0, 5, -6, 6, -7, 1 << 40) for d in (0, 3, -2)]
// OUTPUTS: 2
func.func @main(%x: tensor<6xf32>, %ti: tensor<1xi64>, %td: tensor<1xi32>, %n: tensor<2xi32>)
    -> (tensor<1xf32>, tensor<2xi32>) {
  %c0 = arith.constant 0 : index
  %i = tensor.extract %ti[%c0] : tensor<1xi64>
  %d = tensor.extract %td[%c0] : tensor<1xi32>
  %lo = arith.constant -6 : i64
  %hi = arith.constant 6 : i64
  %z = arith.constant 0 : i32
  %ge = arith.cmpi sge, %i, %lo : i64
  %lt = arith.cmpi slt, %i, %hi : i64
  %nz = arith.cmpi ne, %d, %z : i32
  %in = arith.andi %ge, %lt : i1
  %ok = arith.andi %in, %nz : i1
  %r:2 = scf.if %ok -> (tensor<1xf32>, tensor<2xi32>) {
    %g = "nn.gather"(%x, %ti) {axis = 0 : i64} : (tensor<6xf32>, tensor<1xi64>) -> tensor<1xf32>
    %q = "nn.div"(%n, %td) : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
    scf.yield %g, %q : tensor<1xf32>, tensor<2xi32>
  } else {
    %a = arith.constant dense<-1.0> : tensor<1xf32>
    %b = arith.constant dense<0> : tensor<2xi32>
    scf.yield %a, %b : tensor<1xf32>, tensor<2xi32>
  }
  return %r#0, %r#1 : tensor<1xf32>, tensor<2xi32>
}
