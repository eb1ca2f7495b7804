// dense_resource constants are checked against their blobs when text is
// parsed: MLIR reads their elements without checking them against the
// blob, so a short or missing blob (or a type far larger than its blob)
// would be read past its end by every reader of constants. Found by
// fuzzing the sparse dialect.
// RUN: strata-opt %s --split-input-file --verify-diagnostics
// RUN: strata-run %S/Inputs/dense-resource-ok.mlir --interpret | FileCheck %s
// CHECK: [1, 2]

func.func @short() -> tensor<9xf32> {
  // expected-error@+1 {{'arith.constant' op dense_resource 'blob1' holds 4 bytes, but its type tensor<9xf32> needs 36}}
  %w = arith.constant dense_resource<blob1> : tensor<9xf32>
  return %w : tensor<9xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F"
    }
  }
#-}

// -----

// (The key is used above in this context: the blob is registered as
// blob1_1, which the message names.)
func.func @huge() -> tensor<100000x100000x3x3xf32> {
  // expected-error@+1 {{holds 4 bytes, but its type tensor<100000x100000x3x3xf32> needs 360000000000}}
  %w = "nn.constant"() {value = dense_resource<blob1> : tensor<100000x100000x3x3xf32>} : () -> tensor<100000x100000x3x3xf32>
  return %w : tensor<100000x100000x3x3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      blob1: "0x040000000000803F"
    }
  }
#-}

// -----

func.func @missing() -> tensor<2xf32> {
  // expected-error@+1 {{dense_resource 'nowhere' has no blob in the input's resources}}
  %w = arith.constant dense_resource<nowhere> : tensor<2xf32>
  return %w : tensor<2xf32>
}

// -----

// A blob named builtin is a blob, not the dialect's entry: the short one is
// still found and refused.
func.func @named_builtin() -> tensor<3xf32> {
  // expected-error@+1 {{dense_resource 'builtin' holds 8 bytes, but its type tensor<3xf32> needs 12}}
  %w = arith.constant dense_resource<builtin> : tensor<3xf32>
  return %w : tensor<3xf32>
}
{-#
  dialect_resources: {
    builtin: {
      builtin: "0x040000000000803F00000040"
    }
  }
#-}
