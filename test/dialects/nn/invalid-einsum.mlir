// Einsum: equation syntax, subscripts against operand ranks and sizes,
// the result term, operand types.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @no_equation(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op attribute "equation" is expected but not provided}}
  %0 = "nn.einsum"(%a) : (tensor<3x4xf32>) -> tensor<4x3xf32>
  return
}

// -----

func.func @bad_char(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "i2->i" the term of operand #0: unexpected character '2' (subscripts are letters)}}
  %0 = "nn.einsum"(%a) {equation = "i2->i"} : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @two_dots(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "..i" the term of operand #0: '.' must be part of one '...'}}
  %0 = "nn.einsum"(%a) {equation = "..i"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @rank(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ijk" the term of operand #0 has 3 subscripts but the operand has rank 2}}
  %0 = "nn.einsum"(%a) {equation = "ijk"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @terms(%a: tensor<3x4xf32>, %b: tensor<4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ij->i" has 1 term(s) for 2 operand(s)}}
  %0 = "nn.einsum"(%a, %b) {equation = "ij->i"} : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @extra_terms(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ij,j" has more terms than the 1 operand(s)}}
  %0 = "nn.einsum"(%a) {equation = "ij,j"} : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @diag_sizes(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ii->i" operand #0 repeats subscript 'i' for dims 0 and 1 of sizes 3 and 4 (a diagonal needs equal sizes)}}
  %0 = "nn.einsum"(%a) {equation = "ii->i"} : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @sizes(%a: tensor<3x4xf32>, %b: tensor<5x2xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ij,jk" subscript 'j' has sizes 4 and 5 (they must be equal or 1)}}
  %0 = "nn.einsum"(%a, %b) {equation = "ij,jk"} : (tensor<3x4xf32>, tensor<5x2xf32>) -> tensor<3x2xf32>
  return
}

// -----

func.func @result_twice(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ij->ii" result subscript 'i' appears twice}}
  %0 = "nn.einsum"(%a) {equation = "ij->ii"} : (tensor<3x4xf32>) -> tensor<3x3xf32>
  return
}

// -----

func.func @result_unknown(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "ij->k" result subscript 'k' appears in no operand's term}}
  %0 = "nn.einsum"(%a) {equation = "ij->k"} : (tensor<3x4xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @ellipsis_dropped(%a: tensor<2x3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op equation "...ij->ij" operands have 1 dims under '...' but the result term has no '...'}}
  %0 = "nn.einsum"(%a) {equation = "...ij->ij"} : (tensor<2x3x4xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @mixed_types(%a: tensor<3x4xf32>, %b: tensor<4xf64>) {
  // expected-error@+1 {{'nn.einsum' op operand 'b'}}
  %0 = "nn.einsum"(%a, %b) {equation = "ij,j->i"} : (tensor<3x4xf32>, tensor<4xf64>) -> tensor<3xf32>
  return
}

// -----

func.func @bool(%a: tensor<3xi1>) {
  // expected-error@+1 {{'nn.einsum' op operand 'a'}}
  %0 = "nn.einsum"(%a) {equation = "i"} : (tensor<3xi1>) -> tensor<3xi1>
  return
}

// -----

func.func @result_type(%a: tensor<3x4xf32>) {
  // expected-error@+1 {{'nn.einsum' op result type tensor<3x4xf32> does not match the inferred type tensor<4x3xf32>}}
  %0 = "nn.einsum"(%a) {equation = "ba"} : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return
}
