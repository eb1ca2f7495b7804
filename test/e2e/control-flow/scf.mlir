// scf control flow over nn ops: the reference interpreter runs scf.if,
// scf.for and scf.while (with the scalar arith and tensor ops around them),
// and the CPU target's results match it.
// RUN: strata-run %s --compare --quiet --entry for_if | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry while_count | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry nested_for | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry while_data | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry if_extract | FileCheck %s
// CHECK: compare output #0: max abs error {{.*}}: OK
// Probes inside loops run once per iteration: the numerics debugger
// compares their last run (it reported spurious divergences before).
// RUN: strata-run %s --quiet --entry for_if --debug-numerics | FileCheck %s --check-prefix=DEBUG
// RUN: strata-run %s --quiet --entry while_data --debug-numerics | FileCheck %s --check-prefix=DEBUG
// DEBUG: debug-numerics: {{[0-9]+}} op outputs compared, all within tolerance
// RUN: strata-run %s --interpret --entry for_if --input %S/Inputs/ones4.npy --input %S/Inputs/twos4.npy | FileCheck %s --check-prefix=FORIF
// ones * 2 * 2 * 2 (i = 0, 1, 2), then + 2 + 2 (i = 3, 4): 12
// FORIF: 12, 12, 12, 12
// The interpreter also runs nn-fuse's blocks (scf.execute_region): the
// fused while_data (its top-level nn.mul in a block) gives the same values.
// RUN: strata-opt %s --nn-fuse=profile=always -o %t.fused.mlir
// RUN: FileCheck %s --check-prefix=BLOCK < %t.fused.mlir
// BLOCK-LABEL: func.func @while_data
// BLOCK: scf.execute_region
// RUN: strata-run %t.fused.mlir --interpret --entry while_data | FileCheck %s --check-prefix=FUSED
// RUN: strata-run %s --interpret --entry while_data | FileCheck %s --check-prefix=FUSED
// FUSED: [0.0734636, 0.00234421, 0.112132, 0.110865]

func.func @for_if(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %r = scf.for %i = %c0 to %c5 step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) {
    %lt = arith.cmpi slt, %i, %c3 : index
    %n = scf.if %lt -> tensor<4xf32> {
      %m = "nn.mul"(%acc, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      scf.yield %m : tensor<4xf32>
    } else {
      %s = "nn.add"(%acc, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      scf.yield %s : tensor<4xf32>
    }
    scf.yield %n : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

func.func @while_count(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i64
  %r:2 = scf.while (%i = %c0, %x = %a) : (i64, tensor<2x3xf32>) -> (i64, tensor<2x3xf32>) {
    %go = arith.cmpi slt, %i, %c4 : i64
    scf.condition(%go) %i, %x : i64, tensor<2x3xf32>
  } do {
  ^bb0(%j: i64, %y: tensor<2x3xf32>):
    %t = "nn.tanh"(%y) : (tensor<2x3xf32>) -> tensor<2x3xf32>
    %z = "nn.add"(%t, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
    %j1 = arith.addi %j, %c1 : i64
    scf.yield %j1, %z : i64, tensor<2x3xf32>
  }
  return %r#1 : tensor<2x3xf32>
}

// A for loop inside a for loop, an if inside the inner one.
func.func @nested_for(%a: tensor<4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<4xf32>) : i32 {
    %inner = scf.for %j = %c0 to %c2 step %c1 iter_args(%x = %acc) -> (tensor<4xf32>) : i32 {
      %eq = arith.cmpi eq, %i, %j : i32
      %n = scf.if %eq -> tensor<4xf32> {
        %m = "nn.sub"(%x, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        scf.yield %m : tensor<4xf32>
      } else {
        %s = "nn.mul"(%x, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
        scf.yield %s : tensor<4xf32>
      }
      scf.yield %n : tensor<4xf32>
    }
    scf.yield %inner : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// A data-dependent exit: halve until the sum is at most 0.5 (the condition
// reads a tensor computed by nn ops).
func.func @while_data(%a: tensor<4xf32>) -> tensor<4xf32> {
  %half = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %lim = arith.constant 0.5 : f32
  %sq = "nn.mul"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %r = scf.while (%x = %sq) : (tensor<4xf32>) -> tensor<4xf32> {
    %s = "nn.reduce_sum"(%x) {axes = array<i64: 0>, keepdims = 0 : i64} : (tensor<4xf32>) -> tensor<f32>
    %v = tensor.extract %s[] : tensor<f32>
    %go = arith.cmpf ogt, %v, %lim : f32
    scf.condition(%go) %x : tensor<4xf32>
  } do {
  ^bb0(%y: tensor<4xf32>):
    %z = "nn.mul"(%y, %half) : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
    scf.yield %z : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// The branch is picked from an element of an input.
func.func @if_extract(%a: tensor<2x4xf32>, %b: tensor<4xf32>) -> tensor<4xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %v = tensor.extract %a[%c1, %c2] : tensor<2x4xf32>
  %p = arith.cmpf olt, %v, %zero : f32
  %r = scf.if %p -> tensor<4xf32> {
    %m = "nn.relu"(%b) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %m : tensor<4xf32>
  } else {
    %s = "nn.neg"(%b) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Each iteration's matmul and transpose read the buffer the previous one
// wrote: the loop body's allocations must not alias the iter_arg (an odd
// trip count, so a missed transpose would show).
// RUN: strata-run %s --compare --quiet --entry matmul_loop | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry matmul_loop --fusion none | FileCheck %s
// RUN: strata-run %s --compare --quiet --entry matmul_loop --upstream-lowering | FileCheck %s
func.func @matmul_loop(%a: tensor<8x8xf32>, %w: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<8x8xf32>) {
    %m = "nn.matmul"(%acc, %w) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
    %t = "nn.transpose"(%m) {perm = array<i64: 1, 0>} : (tensor<8x8xf32>) -> tensor<8x8xf32>
    scf.yield %t : tensor<8x8xf32>
  }
  return %r : tensor<8x8xf32>
}
