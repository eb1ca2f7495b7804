// T8: a / b only when b != 0; b = 0 must not raise SIGFPE once predicated.
// CASES: [[np.array(a, np.int32), np.array(b, np.int32)] for a in (7, -9) for b in (0, 3, -2)]
// OUTPUTS: 1
func.func @main(%ta: tensor<i32>, %tb: tensor<i32>) -> tensor<i32> {
  %a = tensor.extract %ta[] : tensor<i32>
  %b = tensor.extract %tb[] : tensor<i32>
  %c0 = arith.constant 0 : i32
  %nz = arith.cmpi ne, %b, %c0 : i32
  %r = scf.if %nz -> i32 {
    %q = arith.divsi %a, %b : i32
    %m = arith.remsi %a, %b : i32
    %s = arith.addi %q, %m : i32
    scf.yield %s : i32
  } else {
    scf.yield %c0 : i32
  }
  %t = tensor.from_elements %r : tensor<i32>
  return %t : tensor<i32>
}
