// The dsp ops' checks: IRDL the vector types, the C verifiers the rest,
// each with a located message.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @narrow_vector(%v: vector<64xi8>, %rt: i32) -> vector<32xi32> {
  // expected-error@+1 {{expected 'vector<128xi8>' but got 'vector<64xi8>'}}
  %d = "dsp.vrmpy"(%v, %rt) : (vector<64xi8>, i32) -> vector<32xi32>
  return %d : vector<32xi32>
}

// -----

func.func @vsat_mixed(%u: vector<64xi16>, %v: vector<32xi32>) -> vector<128xi8> {
  // expected-error@+1 {{'dsp.vsat' op narrows two operands of one type to the type half as wide: got (vector<64xi16>, vector<32xi32>) -> vector<128xi8>}}
  %d = "dsp.vsat"(%u, %v) : (vector<64xi16>, vector<32xi32>) -> vector<128xi8>
  return %d : vector<128xi8>
}

// -----

func.func @vsat_width(%u: vector<32xi32>, %v: vector<32xi32>) -> vector<128xi8> {
  // expected-error@+1 {{expected (vector<32xi32>, vector<32xi32>) -> vector<64xi16>}}
  %d = "dsp.vsat"(%u, %v) : (vector<32xi32>, vector<32xi32>) -> vector<128xi8>
  return %d : vector<128xi8>
}

// -----

func.func @shuffle_types(%u: vector<64xi16>, %v: vector<64xi16>) -> vector<32xi32> {
  // expected-error@+1 {{'dsp.vshuff' op takes and yields vectors of one type: result #1 is vector<32xi32>, not vector<64xi16>}}
  %a, %b = "dsp.vshuff"(%u, %v) : (vector<64xi16>, vector<64xi16>) -> (vector<64xi16>, vector<32xi32>)
  return %b : vector<32xi32>
}

// -----

func.func @matmul_k(%a: tensor<8x16xui8>, %b: tensor<12x4xi8>) -> tensor<8x4xi32> {
  // expected-error@+1 {{'dsp.matmul' op contracts a's 16 columns with b's 12 rows; they must be equal}}
  %c = "dsp.matmul"(%a, %b) : (tensor<8x16xui8>, tensor<12x4xi8>) -> tensor<8x4xi32>
  return %c : tensor<8x4xi32>
}

// -----

func.func @matmul_signed_activations(%a: tensor<8x16xi8>, %b: tensor<16x4xi8>) -> tensor<8x4xi32> {
  // expected-error@+1 {{'dsp.matmul' op operand 'a' must have ui8 elements, got i8}}
  %c = "dsp.matmul"(%a, %b) : (tensor<8x16xi8>, tensor<16x4xi8>) -> tensor<8x4xi32>
  return %c : tensor<8x4xi32>
}

// -----

func.func @matmul_rank(%a: tensor<8xui8>, %b: tensor<16x4xi8>) -> tensor<8x4xi32> {
  // expected-error@+1 {{'dsp.matmul' op operand 'a' must be a static 2-D tensor, got tensor<8xui8>}}
  %c = "dsp.matmul"(%a, %b) : (tensor<8xui8>, tensor<16x4xi8>) -> tensor<8x4xi32>
  return %c : tensor<8x4xi32>
}

// -----

func.func @matmul_inst_layout(%a: tensor<8x16xui8>, %b: tensor<16x4xi8>) -> tensor<8x4xi32> {
  // expected-error@+1 {{'dsp.matmul' op instruction 'vrmpy' works on the col4 layout, not 'col1'}}
  %c = "dsp.matmul"(%a, %b) {inst = "vrmpy", layout = "col1"} : (tensor<8x16xui8>, tensor<16x4xi8>) -> tensor<8x4xi32>
  return %c : tensor<8x4xi32>
}

// -----

func.func @convert_bad_layout(%x: tensor<8x4xi32>) -> tensor<8x4xi32> {
  // expected-error@+1 {{'dsp.convert_layout' op needs attribute 'from': "col1", "col2" or "col4"}}
  %y = "dsp.convert_layout"(%x) {from = "col3", to = "col4"} : (tensor<8x4xi32>) -> tensor<8x4xi32>
  return %y : tensor<8x4xi32>
}

// -----

func.func @requant_shift(%x: tensor<8x4xi32>) -> tensor<8x4xui8> {
  // expected-error@+1 {{'dsp.requant' op shift 40 is beyond the 31 bits an int32 can lose}}
  %y = "dsp.requant"(%x) {shift = 40} : (tensor<8x4xi32>) -> tensor<8x4xui8>
  return %y : tensor<8x4xui8>
}
