// Chunks are processed independently; locations keep the file's line numbers;
// output chunks are separated by '// -----'.
// RUN: strata-opt --split-input-file %s | FileCheck %s
// RUN: not strata-opt --split-input-file %S/Inputs/split-bad.mlir 2>&1 | FileCheck %s --check-prefix=BAD

// CHECK-LABEL: func.func @first
// CHECK: // -----
// CHECK-LABEL: func.func @second
func.func @first() {
  return
}

// -----

func.func @second() {
  return
}

// BAD: split-bad.mlir:9:8: error: 'nn.relu' op result type
// BAD-NOT: error
