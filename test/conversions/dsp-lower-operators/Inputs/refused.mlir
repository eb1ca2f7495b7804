// What dsp-lower-operators does not lower yet is refused at the op (lower.mlir runs this).
func.func @refused(%a: tensor<64x64xui8>, %b: tensor<64x64xi8>, %x: tensor<64x64xi32>) -> (tensor<64x64xi32>, tensor<64x64xi32>) {
  // CHECK: refused.mlir:[[@LINE+1]]:8: error: 'dsp.matmul' op dsp-lower-operators: only the vrmpy plan (or none) of a MatMul is lowered yet
  %c = "dsp.matmul"(%a, %b) {inst = "vmpa", layout = "col2"} : (tensor<64x64xui8>, tensor<64x64xi8>) -> tensor<64x64xi32>
  // CHECK: refused.mlir:[[@LINE+1]]:8: error: 'dsp.transpose' op dsp-lower-operators: this operator has no lowering to the instruction ops yet
  %r = "dsp.transpose"(%x) : (tensor<64x64xi32>) -> tensor<64x64xi32>
  return %c, %r : tensor<64x64xi32>, tensor<64x64xi32>
}
