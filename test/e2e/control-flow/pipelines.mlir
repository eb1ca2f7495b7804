// The CPU pipelines with nn ops inside loops and branches: runtime kernels
// (matmul, conv) and fused epilogues in a loop body, a loop whose initial
// value is a buffer the arena places, a loop that runs zero times, an
// scf.if passing a function argument through, returned twice (distinct
// results). Every fusion mode and the upstream baseline match the
// interpreter.
// RUN: strata-run %s --compare --quiet --entry init_alloc | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry init_alloc --fusion none | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry init_alloc --upstream-lowering | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry zero_trip | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: strata-run %s --compare --quiet --entry zero_trip --upstream-lowering | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: strata-run %s --compare --quiet --entry pass_through --input %S/Inputs/twos4.npy --input %S/Inputs/true.npy | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: strata-run %s --compare --quiet --entry pass_through --input %S/Inputs/twos4.npy --input %S/Inputs/false.npy | FileCheck %s --check-prefixes=CHECK,TWO
// RUN: strata-run %s --compare --quiet --entry conv_loop | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry conv_loop --fusion none | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry conv_loop --fusion dnnfusion --fuse-profile always | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry conv_loop --upstream-lowering | FileCheck %s
// CHECK: compare output #0: {{.*}}: OK
// TWO: compare output #1: {{.*}}: OK

func.func @init_alloc(%a: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %init = "nn.matmul"(%a, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<8x8xf32>) {
    %m = "nn.matmul"(%acc, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %t = "nn.tanh"(%m) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %t : tensor<8x8xf32>
  }
  %after = "nn.add"(%r, %init) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %after : tensor<8x8xf32>
}
func.func @zero_trip(%a: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %init = "nn.matmul"(%a, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %r = scf.for %i = %c0 to %c0 step %c1 iter_args(%acc = %init) -> (tensor<8x8xf32>) {
    %t = "nn.tanh"(%acc) : (tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %t : tensor<8x8xf32>
  }
  return %r, %init : tensor<8x8xf32>, tensor<8x8xf32>
}
func.func @pass_through(%a: tensor<4xf32>, %c: tensor<i1>) -> (tensor<4xf32>, tensor<4xf32>) {
  %p = tensor.extract %c[] : tensor<i1>
  %r = scf.if %p -> tensor<4xf32> {
    scf.yield %a : tensor<4xf32>
  } else {
    %n = "nn.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  }
  return %r, %r : tensor<4xf32>, tensor<4xf32>
}
func.func @conv_loop(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %x) -> (tensor<1x4x8x8xf32>) {
    %y = "nn.conv"(%acc, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x8x8xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x8x8xf32>
    %z = "nn.relu"(%y) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %s = "nn.add"(%z, %acc) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    scf.yield %s : tensor<1x4x8x8xf32>
  }
  return %r : tensor<1x4x8x8xf32>
}
// RUN: strata-run %s --entry pass_through --input %S/Inputs/twos4.npy --input %S/Inputs/true.npy | FileCheck %s --check-prefix=THEN
// THEN: output #1: 4xf32 {{.*}}
// THEN-NEXT: [2, 2, 2, 2]
// RUN: strata-run %s --entry pass_through --input %S/Inputs/twos4.npy --input %S/Inputs/false.npy | FileCheck %s --check-prefix=ELSE
// ELSE: output #1: 4xf32 {{.*}}
// ELSE-NEXT: [-2, -2, -2, -2]
