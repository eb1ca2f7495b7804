// T14: the predication passes run twice change nothing the second time,
// and no data-dependent scf.if or scf.while is left (masked mode).
// RUN: strata-opt %s --pred-if-to-guard --pred-loop-to-guard --pred-lower > %t.once.mlir
// RUN: strata-opt %t.once.mlir --pred-if-to-guard --pred-loop-to-guard --pred-lower > %t.twice.mlir
// RUN: diff -u %t.once.mlir %t.twice.mlir
// RUN: FileCheck %s < %t.once.mlir
// RUN: strata-opt %S/Inputs/break_if.mlir --pred-if-to-guard --pred-loop-to-guard --pred-lower > %t.loop1.mlir
// RUN: strata-opt %t.loop1.mlir --pred-if-to-guard --pred-loop-to-guard --pred-lower > %t.loop2.mlir
// RUN: diff -u %t.loop1.mlir %t.loop2.mlir
// RUN: FileCheck %s < %t.loop1.mlir

// CHECK-NOT: scf.if
// CHECK-NOT: scf.while
// CHECK-NOT: pred.guard
// CHECK: func.func @main
// CHECK: return
func.func @main(%x: tensor<4xf32>, %c: tensor<i1>, %n: tensor<i32>) -> (tensor<4xf32>, tensor<i32>) {
  %p = tensor.extract %c[] : tensor<i1>
  %r = scf.if %p -> tensor<4xf32> {
    %a = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %b = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %b : tensor<4xf32>
  }
  %k = tensor.extract %n[] : tensor<i32>
  %c0 = arith.constant 0 : i32
  %c0i = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %w:2 = scf.while (%i = %c0, %s = %c0i) : (i32, i32) -> (i32, i32) {
    %lt = arith.cmpi slt, %i, %c10 : i32
    %more = arith.cmpi slt, %s, %k : i32
    %go = arith.andi %lt, %more : i1
    scf.condition(%go) %i, %s : i32, i32
  } do {
  ^bb0(%i: i32, %s: i32):
    %i2 = arith.addi %i, %c1 : i32
    %s2 = arith.addi %s, %i2 : i32
    scf.yield %i2, %s2 : i32, i32
  }
  %t = tensor.from_elements %w#1 : tensor<i32>
  return %r, %t : tensor<4xf32>, tensor<i32>
}
