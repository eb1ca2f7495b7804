// --instrument, the declarative form: tool, op globs, point.
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=trace ops=nn.conv*,nn.matmul point=after" | FileCheck %s
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=trace point=both" | FileCheck %s --check-prefix=BOTH
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=profile" | FileCheck %s --check-prefix=PROFILE
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=profile" | grep -c 'point = "after", tool = "profile"' | FileCheck %s --check-prefix=PAFTER
// Tools that record nothing (no op matches) leave the IR
// byte-identical: not even op ids are written.
// RUN: strata-opt %S/Inputs/resnet-block.mlir -o %t.plain
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=trace,profile,prune ops=nn.softmax" -o %t.none
// RUN: diff %t.plain %t.none
// The noop tool sees every op at both points (or the one asked for) and
// records nothing: the IR is byte-identical (bench/instr_overhead.py times
// it as Amanda's no-op routines).
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=noop" -o %t.noop 2>&1 | FileCheck %s --check-prefix=NOOP
// RUN: diff %t.plain %t.noop
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=noop point=after" -o %t.noop-after 2>&1 | FileCheck %s --check-prefix=NOOPAFTER
// RUN: diff %t.plain %t.noop-after
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=noop,flops ops=nn.conv" -o %t.noop-conv 2>&1 | FileCheck %s --check-prefix=NOOPCONV
// RUN: diff %t.plain %t.noop-conv
// RUN: strata-opt %S/Inputs/resnet-block.mlir --pass-pipeline='builtin.module(instrument{tool=trace ops=nn.relu})' | FileCheck %s --check-prefix=RELU

// Probes after the convs and the matmul only, each on its op's result, with
// the op's location; insert-after rewires the later uses (the relu reads the
// probe, not the conv) and the probe itself reads the op's own result.
// CHECK-LABEL: func.func @g
// CHECK: %[[C1:.*]] = "nn.conv"(%arg0, %{{.*}}) {instr.op_id = 0 : i64}
// CHECK-NEXT: %[[P1:.*]] = "instr.probe"(%[[C1]]) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.conv", point = "after", tool = "trace"}
// CHECK-NEXT: %[[R:.*]] = "nn.relu"(%[[P1]]) {instr.op_id = 1 : i64}
// CHECK-NEXT: %[[C2:.*]] = "nn.conv"(%[[R]], %{{.*}}) {instr.op_id = 2 : i64}
// CHECK-NEXT: %[[P2:.*]] = "instr.probe"(%[[C2]]) {index = 0 : i64, op_id = 2 : i64, op_name = "nn.conv", point = "after", tool = "trace"}
// CHECK-NEXT: %[[A:.*]] = "nn.add"(%[[P2]], %[[R]]) {instr.op_id = 3 : i64}
// CHECK-NEXT: %[[M:.*]] = "nn.matmul"(%[[A]], %{{.*}}) {instr.op_id = 4 : i64}
// CHECK-NEXT: %[[P4:.*]] = "instr.probe"(%[[M]]) {index = 0 : i64, op_id = 4 : i64, op_name = "nn.matmul", point = "after", tool = "trace"}
// CHECK-NEXT: return %[[P4]]

// Coverage: every op, the residual add included, once per point: a probe
// before each f32 input (the constant weights included) and after each output.
// BOTH-COUNT-2: point = "before", tool = "trace"}
// BOTH-NEXT: "nn.conv"
// BOTH-NEXT: point = "after"
// BOTH-COUNT-1: point = "before"
// BOTH-NEXT: "nn.relu"
// BOTH-NEXT: point = "after"
// BOTH-COUNT-2: point = "before"
// BOTH-NEXT: "nn.conv"
// BOTH-NEXT: point = "after"
// BOTH-COUNT-2: point = "before"
// BOTH-NEXT: "nn.add"
// BOTH-NEXT: point = "after"
// BOTH-COUNT-2: point = "before"
// BOTH-NEXT: "nn.matmul"
// BOTH-NEXT: point = "after"
// BOTH-NOT: instr.probe

// The profile tool: one probe before (on input 0) and one after (on output
// 0) each op, nothing else.
// PROFILE-COUNT-5: "instr.probe"({{.*}}) {index = 0 : i64, op_id = {{[0-4]}} : i64, op_name = "nn.{{[a-z]+}}", point = "before", tool = "profile"}
// PROFILE-NOT: "instr.probe"({{.*}}point = "before"
// PROFILE: return

// PAFTER: 5

// RELU-COUNT-1: "instr.probe"
// RELU-NOT: "instr.probe"

// NOOP: instrument noop: 5 ops, 10 callbacks, no actions
// NOOPAFTER: instrument noop: 5 ops, 5 callbacks, no actions
// NOOPCONV-DAG: instrument noop: 2 ops, 4 callbacks, no actions
// NOOPCONV-DAG: instrument flops: total FLOPs
