// Pipelines mixing Strata and upstream passes, with nesting and options.
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-fold,canonicalize),nn-to-linalg)' | FileCheck %s --check-prefix=MIXED
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-fold{max-iterations=3 fold-limit=16},cse))' | FileCheck %s --check-prefix=OPTS
// Flags form: passes in flag order; upstream func-anchored passes nest implicitly.
// RUN: strata-opt %s --nn-fold=max-iterations=2 --canonicalize --affine-loop-invariant-code-motion --nn-to-linalg | FileCheck %s --check-prefix=MIXED
// A pipeline alias expands to its passes.
// RUN: strata-opt %s --pass-pipeline='builtin.module(strata-cpu-pipeline)' | FileCheck %s --check-prefix=LLVM
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-fold),strata-cpu-pipeline)' --mlir-print-ir-after-all -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER

// MIXED-LABEL: func.func @f
// MIXED-NOT: nn.
// MIXED: linalg.generic
// MIXED-NOT: nn.

// OPTS-LABEL: func.func @f
// OPTS-COUNT-1: "nn.relu"
// OPTS-NOT: "nn.relu"

// LLVM: llvm.func @f(
// LLVM: llvm.func @_mlir_ciface_f(

// AFTER: IR Dump After nn-fold
// AFTER: IR Dump After nn-to-linalg
// AFTER: IR Dump After ReconcileUnrealizedCastsPass

func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "nn.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %b : tensor<4xf32>
}
