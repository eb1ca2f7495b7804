// strata-cpu-pipeline-predicated: a function with scf.if and a bounded
// scf.while over nn ops compiles to the LLVM dialect; after its
// predication stage no data-dependent scf.if or scf.while is left.
// RUN: strata-opt %s --strata-cpu-pipeline-predicated | FileCheck %s --check-prefix=LLVM
// RUN: strata-opt %s --pred-if-to-guard --pred-loop-to-guard --pred-lower | FileCheck %s
// RUN: strata-run %s --predicate masked --seed 3 --quiet | grep -v compiled > %t.masked
// RUN: strata-run %s --predicate skip --seed 3 --quiet | grep -v compiled > %t.skip
// RUN: strata-run %s --seed 3 --quiet | grep -v compiled > %t.orig
// RUN: diff %t.orig %t.masked
// RUN: diff %t.orig %t.skip
// RUN: FileCheck %s --check-prefix=RES < %t.masked
// RUN: not strata-run %s --predicate sometimes 2>&1 | FileCheck %s --check-prefix=BAD

// LLVM: llvm.func @main
// CHECK-LABEL: func.func @main
// CHECK-NOT: scf.if
// CHECK-NOT: scf.while
// CHECK: scf.for
// CHECK-NOT: scf.if
// CHECK-NOT: scf.while
// CHECK: return
// RES: output #1: f32
// BAD: error: bad --predicate 'sometimes' (masked or skip)
func.func @main(%x: tensor<2x4xf32>, %c: tensor<i1>) -> (tensor<2x4xf32>, tensor<f32>) {
  %p = tensor.extract %c[] : tensor<i1>
  %r = scf.if %p -> tensor<2x4xf32> {
    %a = "nn.relu"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    scf.yield %a : tensor<2x4xf32>
  } else {
    %b = "nn.tanh"(%x) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    scf.yield %b : tensor<2x4xf32>
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %zero = arith.constant 0.0 : f32
  // The CPU pipeline bufferizes loops that carry scalars (a carried tensor
  // is refused by one-shot-bufferize, predicated or not).
  %w:2 = scf.while (%i = %c0, %acc = %zero) : (index, f32) -> (index, f32) {
    %lt = arith.cmpi slt, %i, %c3 : index
    scf.condition(%lt) %i, %acc : index, f32
  } do {
  ^bb0(%i: index, %acc: f32):
    %s = "nn.sigmoid"(%r) : (tensor<2x4xf32>) -> tensor<2x4xf32>
    %e = tensor.extract %s[%c1, %i] : tensor<2x4xf32>
    %a2 = arith.addf %acc, %e : f32
    %i2 = arith.addi %i, %c1 : index
    scf.yield %i2, %a2 : index, f32
  }
  %t = tensor.from_elements %w#1 : tensor<f32>
  return %r, %t : tensor<2x4xf32>, tensor<f32>
}
