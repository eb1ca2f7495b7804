// T2: a store under a predicate, on a buffer: memory must be identical.
// INTERPRET: no, the interpreter has no semantics for memref ops (memref.alloc)
// CASES: [[f32((4,)), p, np.array(i, np.int64), f32(())] for p in bools(()) for i in (0, 3)]
// OUTPUTS: 1
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>, %ti: tensor<i64>, %tv: tensor<f32>) -> tensor<4xf32> {
  %p = tensor.extract %c[] : tensor<i1>
  %i = tensor.extract %ti[] : tensor<i64>
  %idx = arith.index_cast %i : i64 to index
  %v = tensor.extract %tv[] : tensor<f32>
  %m = memref.alloc() : memref<4xf32>
  %xb = bufferization.to_buffer %x : tensor<4xf32> to memref<4xf32>
  memref.copy %xb, %m : memref<4xf32> to memref<4xf32>
  scf.if %p {
    memref.store %v, %m[%idx] : memref<4xf32>
  }
  %r = bufferization.to_tensor %m restrict : memref<4xf32> to tensor<4xf32>
  return %r : tensor<4xf32>
}
