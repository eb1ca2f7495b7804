// Parse and print: generic nn ops survive a round trip, from a file and stdin.
// RUN: strata-opt %s | FileCheck %s
// RUN: strata-opt < %s | FileCheck %s
// RUN: strata-opt - < %s | strata-opt | FileCheck %s
// RUN: strata-opt --mlir-print-op-generic %s | FileCheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @two
// CHECK: "nn.relu"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
// GENERIC: "func.func"()
func.func @two(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %y = "nn.relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %y : tensor<2x3xf32>
}
// Several top-level ops without a module: wrapped in one, as mlir-opt does.
// CHECK-LABEL: func.func @second
func.func @second() {
  return
}
