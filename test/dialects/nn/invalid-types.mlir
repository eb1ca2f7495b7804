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

// Whatever MLIR's lexer skips may stand between the tokens: spaces, line
// ends, comments, NUL bytes (the RUN line above writes one; found by fuzzing).
// RUN: printf 'func.func @f() {\n  "nn.x"() {a = array<\0\0 index: 1>} : () -> ()\n  return\n}\n' > %t.nul.mlir
// RUN: not strata-opt %t.nul.mlir 2>&1 | FileCheck %s --check-prefix=NUL
// NUL: nul.mlir:2:{{[0-9]+}}: error: 'array<index': a dense array of index elements is not supported
func.func @index_array_spaced(%x: tensor<1x2x4x4xf32>) {
  // expected-error@+1 {{'array<index': a dense array of index elements is not supported}}
  %y = "nn.relu"(%x) {extra = array
      < // a comment
      index: 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

// ... but not the word in a string, a name or an attribute key.
func.func @index_words(%x: tensor<1x2x4x4xf32>) {
  %y = "nn.relu"(%x) {note = "array<index: 1>", index = array<i64: 1>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  return
}

// -----

// Brackets nested past 256 levels: MLIR's parser recurses per level and
// overflows its stack (found by fuzzing, at 6887 levels). Every bracket
// counts: the function body and the attribute dictionary are two of the 256.
// RUN: %python -c "print('func.func @f() {\n  \"nn.x\"() {a = ' + '[' * 257 + '1' + ']' * 257 + '} : () -> ()\n  return\n}')" > %t.deep.mlir
// RUN: not strata-opt %t.deep.mlir 2>&1 | FileCheck %s --check-prefix=DEEP
// DEEP: deep.mlir:2:271: error: '[' nests brackets deeper than 256 levels
// RUN: %python -c "print('func.func @f() {\n  \"test.x\"() {a = ' + '[' * 252 + '1' + ']' * 252 + '} : () -> ()\n  return\n}')" > %t.ok.mlir
// RUN: strata-opt %t.ok.mlir --allow-unregistered-dialect | FileCheck %s --check-prefix=SHALLOW
// SHALLOW: "test.x"() {a = {{\[+}}1{{\]+}}}
