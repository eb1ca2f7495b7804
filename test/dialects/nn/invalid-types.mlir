// Types Strata refuses wherever IR enters it, before MLIR prints anything:
// zero-width integers (MLIR's printer crashes on dense elements of them) and
// shapes whose element count overflows int64.
// RUN: strata-opt %s --split-input-file --verify-diagnostics

func.func @ui0_dense() {
  // expected-error@+1 {{integer type 'ui0' has zero width; Strata does not support it}}
  %z = "nn.constant"() {value = dense<0> : tensor<ui0>} : () -> tensor<ui8>
  return
}

// -----

// The element type after a dimension list, signless or signed.
func.func @i0_dims(%x: tensor<2x?xf32>) {
  // expected-error@+1 {{integer type 'si00' has zero width}}
  %z = "nn.constant"() {value = dense<0> : tensor<2x3xsi00>} : () -> tensor<2x3xi8>
  return
}

// -----

// Names that only look like i0 are not types: %i0, @i0, attribute names,
// strings and comments (i0).
func.func @i0(%i0: tensor<2xf32>) -> tensor<2xf32> attributes {i0 = "i0", ui0 = 1 : i64} {
  return %i0 : tensor<2xf32>
}

// -----

// expected-error@+1 {{block argument #0 has type tensor<4611686018427387904x4xf32>: the shape is too large (its element count overflows int64)}}
func.func @arg_too_large(%x: tensor<4611686018427387904x4xf32>) {
  return
}

// -----

func.func @result_too_large(%x: tensor<4294967296x1xf32>, %y: tensor<1x4294967296xf32>) {
  // expected-error@+1 {{result #0 has type tensor<4294967296x4294967296xf32>: the shape is too large (its element count overflows int64)}}
  %r = "nn.add"(%x, %y) : (tensor<4294967296x1xf32>, tensor<1x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return
}

// -----

// A dense array of index elements: MLIR 22's parser crashes on it (found by
// fuzzing); refused before it parses, wherever it stands.
func.func @index_array(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'array<index': a dense array of index elements is not supported (MLIR's parser cannot read it)}}
  %y = "nn.relu"(%x) {extra = array<index: 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

// ... but not the word in a string, a name or an attribute key.
func.func @index_words(%x: tensor<1x2x4x4xf32>) {
  %y = "nn.relu"(%x) {note = "array<index: 1>", index = array<i64: 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}
