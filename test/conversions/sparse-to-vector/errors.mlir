// The lowerings' refusals: a located error, no output.
// RUN: not strata-opt %s --sparse-to-vector 2>&1 | FileCheck %s
// RUN: not strata-opt %s --sparse-to-scf 2>&1 | FileCheck %s
// RUN: not strata-opt %s --sparse-to-vector=vector-width=3 2>&1 | FileCheck %s --check-prefix=WIDTH

// CHECK: errors.mlir:[[@LINE+2]]:8: error: 'sparse.fkw_conv' op needs static shapes to be compiled
func.func @dynamic(%x: tensor<?x2x8x16xf32>) -> tensor<?x2x8x16xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 0, 1, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<9xf32>} : (tensor<?x2x8x16xf32>) -> tensor<?x2x8x16xf32>
  return %y : tensor<?x2x8x16xf32>
}
// WIDTH: error: sparse-to-vector: vector-width must be 0 (the host's) or a power of two up to 64, not 3

// A pattern convolution: the CPU pipelines convert one with constant
// weights (sparse-fkw) and refuse one without; the lowering alone asks for
// its FKW form.
// RUN: not strata-run %S/Inputs/pattern-conv-variable.mlir 2>&1 | FileCheck %s --check-prefix=VARIABLE
// VARIABLE: pattern-conv-variable.mlir:{{[0-9]+}}:8: error: 'sparse.pattern_conv' op has weights that are not a constant: it is compiled from its FKW form (sparse-fkw), which holds the weights in the code
// RUN: strata-run %S/Inputs/pattern-conv.mlir --compare --quiet | FileCheck %s --check-prefix=CONSTANT
// RUN: strata-run %S/Inputs/pattern-conv.mlir --compare --quiet --upstream-lowering | FileCheck %s --check-prefix=CONSTANT
// CONSTANT: compare output #0: {{.*}}: OK
// RUN: not strata-opt %S/Inputs/pattern-conv.mlir --sparse-to-vector -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALONE
// ALONE: error: 'sparse.pattern_conv' op
