func.func @f(%v: vector<128xi8>, %rt: i32, %a: tensor<64x32xui8>, %b: tensor<32x16xi8>) -> (vector<32xi32>, vector<64xi16>, tensor<64x16xi32>) {
  %d = "dsp.vrmpy"(%v, %rt) : (vector<128xi8>, i32) -> vector<32xi32>
  %lo, %hi = "dsp.vmpa"(%v, %v, %rt) : (vector<128xi8>, vector<128xi8>, i32) -> (vector<64xi16>, vector<64xi16>)
  %c = "dsp.matmul"(%a, %b) {inst = "vmpa", layout = "col2"} : (tensor<64x32xui8>, tensor<32x16xi8>) -> tensor<64x16xi32>
  %e = "dsp.convert_layout"(%c) {from = "col2", to = "col4"} : (tensor<64x16xi32>) -> tensor<64x16xi32>
  return %d, %lo, %e : vector<32xi32>, vector<64xi16>, tensor<64x16xi32>
}
