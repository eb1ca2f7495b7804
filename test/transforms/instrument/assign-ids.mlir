// --instr-assign-ids: every nn op but nn.constant gets a stable id once, in
// pre-order; ids that exist stay, new ones continue after the largest.
// RUN: strata-opt %s --split-input-file --instr-assign-ids | FileCheck %s
// Idempotent: a second run changes nothing.
// RUN: strata-opt %s --split-input-file --instr-assign-ids > %t.once
// RUN: strata-opt %t.once --split-input-file --instr-assign-ids > %t.twice
// RUN: diff %t.once %t.twice
// Fusion moves ops into scf.execute_region blocks and keeps their ids.
// RUN: strata-opt %s --split-input-file --instr-assign-ids --nn-fuse=profile=never | FileCheck %s --check-prefix=FUSED

// CHECK-LABEL: func.func @fresh
// CHECK: "nn.constant"() {value = dense<5.000000e-01> : tensor<4x4xf32>} : () -> tensor<4x4xf32>{{$}}
// CHECK: "nn.matmul"({{.*}}) {instr.op_id = 0 : i64}
// CHECK: "nn.relu"({{.*}}) {instr.op_id = 1 : i64}
// CHECK: "nn.add"({{.*}}) {instr.op_id = 2 : i64}
// CHECK: "nn.relu"({{.*}}) {instr.op_id = 3 : i64}
// FUSED-LABEL: func.func @fresh
// FUSED: scf.execute_region
// FUSED-DAG: "nn.matmul"({{.*}}) {instr.op_id = 0 : i64}
// FUSED-DAG: "nn.relu"({{.*}}) {instr.op_id = 1 : i64}
// FUSED-DAG: "nn.add"({{.*}}) {instr.op_id = 2 : i64}
// FUSED-DAG: "nn.relu"({{.*}}) {instr.op_id = 3 : i64}
// FUSED: strata.fused
func.func @fresh(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %w = "nn.constant"() {value = dense<0.5> : tensor<4x4xf32>} : () -> tensor<4x4xf32>
  %m = "nn.matmul"(%x, %w) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %r = "nn.relu"(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = "nn.add"(%r, %x) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = "nn.relu"(%a) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %s : tensor<4x4xf32>
}

// -----

// Existing ids stay (even out of order); new ones start after the largest.
// CHECK-LABEL: func.func @partial
// CHECK: "nn.relu"(%{{.*}}) {instr.op_id = 8 : i64}
// CHECK: "nn.neg"(%{{.*}}) {instr.op_id = 9 : i64}
// CHECK: "nn.relu"(%{{.*}}) {instr.op_id = 5 : i64}
// CHECK: "nn.neg"(%{{.*}}) {instr.op_id = 10 : i64}
func.func @partial(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.relu"(%x) {instr.op_id = 8 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %b = "nn.neg"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %c = "nn.relu"(%b) {instr.op_id = 5 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  %d = "nn.neg"(%c) : (tensor<4xf32>) -> tensor<4xf32>
  return %d : tensor<4xf32>
}

// -----

// Ids are per module and cover every function, in order.
// CHECK-LABEL: func.func @first
// CHECK: "nn.neg"(%{{.*}}) {instr.op_id = 0 : i64}
// CHECK-LABEL: func.func @second
// CHECK: "nn.neg"(%{{.*}}) {instr.op_id = 1 : i64}
func.func @first(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
func.func @second(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "nn.neg"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
