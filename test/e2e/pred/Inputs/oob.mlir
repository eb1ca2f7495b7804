// T9: m[idx] only when 0 <= idx < 8; idx 2^40 would fault if speculated
// unclamped. The loaded value has two uses so that LLVM's CodeGenPrepare
// cannot sink the load back under a branch (as it does for a load used
// only by a select), which would hide a missing clamp.
// CASES: [[f32((8,)), np.array(i, np.int64)] for i in (0, 7, -5, 8, 1 << 40)]
// OUTPUTS: 1
func.func @main(%m: tensor<8xf32>, %ti: tensor<i64>) -> tensor<f32> {
  %i = tensor.extract %ti[] : tensor<i64>
  %c0 = arith.constant 0 : i64
  %c8 = arith.constant 8 : i64
  %ge = arith.cmpi sge, %i, %c0 : i64
  %lt = arith.cmpi slt, %i, %c8 : i64
  %in = arith.andi %ge, %lt : i1
  %d = arith.constant -1.0 : f32
  %r = scf.if %in -> f32 {
    %idx = arith.index_cast %i : i64 to index
    %v = tensor.extract %m[%idx] : tensor<8xf32>
    %sq = arith.mulf %v, %v : f32
    %w = arith.addf %sq, %v : f32
    scf.yield %w : f32
  } else {
    scf.yield %d : f32
  }
  %t = tensor.from_elements %r : tensor<f32>
  return %t : tensor<f32>
}
