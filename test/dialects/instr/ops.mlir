// instr.probe: a pass-through op that verifies, round-trips, and runs as the
// identity in the reference interpreter.
// RUN: strata-opt %s | strata-opt | FileCheck %s
// RUN: strata-run %s --interpret --entry probed > %t.out
// RUN: strata-run %s --interpret --entry plain >> %t.out
// RUN: FileCheck %s --check-prefix=INTERP < %t.out

// CHECK-LABEL: func.func @probed
// CHECK: %[[R:.*]] = "nn.relu"(%{{.*}}) {instr.op_id = 0 : i64}
// CHECK-NEXT: %[[P:.*]] = "instr.probe"(%[[R]]) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.relu", point = "after", tool = "trace"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: "nn.neg"(%[[P]])
// CHECK-NEXT: "instr.probe"(%{{.*}}) {index = 1 : i64, op_id = 1 : i64, op_name = "nn.add", point = "before", tool = "profile"} : (tensor<2x3xi32>) -> tensor<2x3xi32>
func.func @probed(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %r = "nn.relu"(%x) {instr.op_id = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %p = "instr.probe"(%r) {op_id = 0 : i64, point = "after", tool = "trace", op_name = "nn.relu", index = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = "nn.neg"(%p) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %q = "instr.probe"(%i) {op_id = 1 : i64, point = "before", tool = "profile", op_name = "nn.add", index = 1 : i64} : (tensor<2x3xi32>) -> tensor<2x3xi32>
  %a = "nn.add"(%i, %q) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %n, %a : tensor<2x3xf32>, tensor<2x3xi32>
}

// The same computation without probes: the same outputs (same seeds).
func.func @plain(%x: tensor<2x3xf32>, %i: tensor<2x3xi32>) -> (tensor<2x3xf32>, tensor<2x3xi32>) {
  %r = "nn.relu"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = "nn.neg"(%r) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %a = "nn.add"(%i, %i) : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  return %n, %a : tensor<2x3xf32>, tensor<2x3xi32>
}
// INTERP: interpreted 'probed'
// INTERP-NEXT: output #0: [[OUT0:.*]]
// INTERP-NEXT: [[VAL0:\[.*]]
// INTERP-NEXT: output #1: [[OUT1:.*]]
// INTERP-NEXT: [[VAL1:\[.*]]
// INTERP-NEXT: interpreted 'plain'
// INTERP-NEXT: output #0: [[OUT0]]
// INTERP-NEXT: [[VAL0]]
// INTERP-NEXT: output #1: [[OUT1]]
// INTERP-NEXT: [[VAL1]]
