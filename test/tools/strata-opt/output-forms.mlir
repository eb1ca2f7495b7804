// Bytecode output round-trips; -o writes the file; timing and unregistered ops.
// RUN: rm -f %t.mlirbc %t.mlir
// RUN: strata-opt %s --emit-bytecode -o %t.mlirbc
// RUN: strata-opt %t.mlirbc | FileCheck %s
// RUN: strata-opt %s -o %t.mlir && FileCheck %s < %t.mlir
// RUN: strata-opt %s --nn-fold --mlir-timing -o /dev/null 2>&1 | FileCheck %s --check-prefix=TIMING
// RUN: not strata-opt %S/Inputs/unregistered.mlir 2>&1 | FileCheck %s --check-prefix=UNREG
// RUN: strata-opt --allow-unregistered-dialect %S/Inputs/unregistered.mlir --mlir-print-op-generic | FileCheck %s --check-prefix=ALLOW

// CHECK: "nn.relu"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
// TIMING: Execution time report
// TIMING: nn-fold
// UNREG: unregistered.mlir:2:17: error: operation being parsed with an unregistered dialect
// ALLOW: "foo.bar"
func.func @f(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "nn.relu"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
