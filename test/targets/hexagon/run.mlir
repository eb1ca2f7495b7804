// strata-run --target hexagon: dsp functions over tensors compiled for
// Hexagon HVX, linked with a generated runner and run under qemu-hexagon.
// The digest's C1.1 values (random inputs: bitexact.test; the reference
// interpreter has no semantics for the vector transfers that move them in
// and out, so --compare cannot check these functions).
// REQUIRES: qemu-hexagon
// RUN: strata-run %s --target hexagon --entry c11 | FileCheck %s
// RUN: not strata-run %S/../../dialects/dsp/interp.mlir --target hexagon --entry vrmpy 2>&1 | FileCheck %s --check-prefix=VEC
// VEC: error: result #0 of 'vrmpy' has type vector<32xi32>, which is not a ranked tensor

// vrmpy(1,2,3,4..., Rt = 0x01010101) = 10 a word, Rt.ub = 0xFFFFFFFF: 2550,
// Rt.b = -1: -10; vdmpy(all 255, Rt.b = 0x7F7F7F7F) = 2*255*127 = 64770
// wraps in i16 to -766.
// CHECK: output #0: 32xi32  min 10  max 10
// CHECK: output #1: 32xi32  min 2550  max 2550
// CHECK: output #2: 32xi32  min -10  max -10
// CHECK: output #3: 64xi16  min -766  max -766
func.func @c11() -> (tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<64xi16>) {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<[1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4]> : vector<128xi8>
  %ff8 = arith.constant dense<-1> : vector<128xi8>
  %rt = arith.constant 16843009 : i32
  %ff = arith.constant -1 : i32
  %r7f = arith.constant 2139062143 : i32
  %d = "dsp.vrmpy"(%x, %rt) : (vector<128xi8>, i32) -> vector<32xi32>
  %u = "dsp.vrmpy"(%x, %ff) {unsigned_rt} : (vector<128xi8>, i32) -> vector<32xi32>
  %s = "dsp.vrmpy"(%x, %ff) : (vector<128xi8>, i32) -> vector<32xi32>
  %v = "dsp.vdmpy"(%ff8, %r7f) : (vector<128xi8>, i32) -> vector<64xi16>
  %tw = tensor.empty() : tensor<32xi32>
  %th = tensor.empty() : tensor<64xi16>
  %o0 = vector.transfer_write %d, %tw[%c0] {in_bounds = [true]} : vector<32xi32>, tensor<32xi32>
  %o1 = vector.transfer_write %u, %tw[%c0] {in_bounds = [true]} : vector<32xi32>, tensor<32xi32>
  %o2 = vector.transfer_write %s, %tw[%c0] {in_bounds = [true]} : vector<32xi32>, tensor<32xi32>
  %o3 = vector.transfer_write %v, %th[%c0] {in_bounds = [true]} : vector<64xi16>, tensor<64xi16>
  return %o0, %o1, %o2, %o3 : tensor<32xi32>, tensor<32xi32>, tensor<32xi32>, tensor<64xi16>
}

