// Instrumentation probes in nn-fuse: the planner does not see them (the
// blocks are those of the function without probes, see probes-plan.test),
// and each probe joins the block of the op it observes.
// RUN: strata-opt %S/Inputs/chains.mlir --instrument="tool=trace point=both ops=nn.add,nn.conv,nn.matmul" --nn-fuse=profile=always | FileCheck %s --check-prefix=FIG33
// RUN: strata-opt %s --nn-fuse=profile=always | FileCheck %s

// Fig. 3.3 traced: the matmul is its own block, with the probes on its
// inputs (function arguments) and its output. The add's probe on input 0
// reads the matmul block's result: it goes into the add's block, which
// reads the same value from outside as without the probe. The conv's
// probes (on the add's probed result and on the weight argument, after its
// output) are in the same block; relu, mul and sub read the probed values.
// FIG33-LABEL: func.func @fig33
// FIG33: %[[MM:.*]] = scf.execute_region
// FIG33-NEXT: "instr.probe"(%arg0) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.matmul", point = "before"
// FIG33-NEXT: "instr.probe"(%arg1) {index = 1 : i64, op_id = 0 : i64, op_name = "nn.matmul", point = "before"
// FIG33-NEXT: %[[M:.*]] = "nn.matmul"
// FIG33-NEXT: %[[MP:.*]] = "instr.probe"(%[[M]]) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.matmul", point = "after"
// FIG33-NEXT: scf.yield %[[MP]]
// FIG33-NEXT: } {strata.fused = {id = 1 : i64, mapping = "Many-to-Many", ops = ["nn.matmul"]}}
// FIG33-NEXT: scf.execute_region
// FIG33-NEXT: %[[A0:.*]] = "instr.probe"(%[[MM]]) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.add", point = "before"
// FIG33-NEXT: %[[A1:.*]] = "instr.probe"(%arg2) {index = 1 : i64, op_id = 1 : i64, op_name = "nn.add", point = "before"
// FIG33-NEXT: %[[ADD:.*]] = "nn.add"(%[[A0]], %[[A1]])
// FIG33-NEXT: %[[AP:.*]] = "instr.probe"(%[[ADD]]) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.add", point = "after"
// FIG33-NEXT: %[[C0:.*]] = "instr.probe"(%[[AP]]) {index = 0 : i64, op_id = 2 : i64, op_name = "nn.conv", point = "before"
// FIG33-NEXT: %[[C1:.*]] = "instr.probe"(%arg3) {index = 1 : i64, op_id = 2 : i64, op_name = "nn.conv", point = "before"
// FIG33-NEXT: %[[CONV:.*]] = "nn.conv"(%[[C0]], %[[C1]])
// FIG33-NEXT: %[[CP:.*]] = "instr.probe"(%[[CONV]]) {index = 0 : i64, op_id = 2 : i64, op_name = "nn.conv", point = "after"
// FIG33-NEXT: "nn.relu"(%[[CP]])
// FIG33-NEXT: "nn.mul"
// FIG33-NEXT: %[[SUB:.*]] = "nn.sub"
// FIG33-NEXT: scf.yield %[[SUB]]
// FIG33-NEXT: } {strata.fused = {id = 0 : i64, mapping = "Many-to-Many", ops = ["nn.add", "nn.conv", "nn.relu", "nn.mul", "nn.sub"]}}
// FIG33-NOT: instr.probe
// FIG33: return

// A probe whose op is gone (a pass removed it after instrumentation) and
// whose value no planned op produces or reads -- here a function argument
// returned as is -- stays outside the blocks, in the function body.
// CHECK-LABEL: func.func @loose
// CHECK-NEXT: %[[P:.*]] = "instr.probe"(%arg0)
// CHECK-NEXT: %[[B:.*]] = scf.execute_region
// CHECK-NEXT: "nn.relu"(%arg0)
// CHECK-NEXT: "nn.neg"
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {strata.fused = {id = 0 : i64, mapping = "One-to-One", ops = ["nn.relu", "nn.neg"]}}
// CHECK-NEXT: return %[[P]], %[[B]]
func.func @loose(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %p = "instr.probe"(%x) {index = 0 : i64, op_id = 7 : i64, op_name = "nn.neg", point = "before", tool = "trace"} : (tensor<4xf32>) -> tensor<4xf32>
  %r = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %n = "nn.neg"(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %p, %n : tensor<4xf32>, tensor<4xf32>
}

// A before-probe no op reads any more goes to the block of the op that
// produces its value; the block yields it.
// CHECK-LABEL: func.func @op_gone
// CHECK-NEXT: %[[B:.*]]:2 = scf.execute_region
// CHECK-NEXT: %[[R:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: %[[P:.*]] = "instr.probe"(%[[R]])
// CHECK-NEXT: %[[N:.*]] = "nn.neg"(%[[R]])
// CHECK-NEXT: scf.yield %[[P]], %[[N]]
// CHECK-NEXT: } {strata.fused = {id = 0 : i64, mapping = "One-to-One", ops = ["nn.relu", "nn.neg"]}}
// CHECK-NEXT: return %[[B]]#0, %[[B]]#1
func.func @op_gone(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %p = "instr.probe"(%r) {index = 0 : i64, op_id = 7 : i64, op_name = "nn.neg", point = "before", tool = "trace"} : (tensor<4xf32>) -> tensor<4xf32>
  %n = "nn.neg"(%r) : (tensor<4xf32>) -> tensor<4xf32>
  return %p, %n : tensor<4xf32>, tensor<4xf32>
}

// Matmul and conv are apart (red). A chain whose before-probe (the conv's)
// precedes an after-probe (the matmul's): both go to the conv's block, as
// the after-probe cannot go back to the matmul's block without a cycle
// between the two. (The tools make after-probes first; this is by hand.)
// CHECK-LABEL: func.func @chain
// CHECK-NEXT: %[[MB:.*]] = scf.execute_region
// CHECK-NEXT: "nn.matmul"
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {strata.fused = {id = 0 : i64, mapping = "Many-to-Many", ops = ["nn.matmul"]}}
// CHECK-NEXT: scf.execute_region
// CHECK-NEXT: %[[B:.*]] = "instr.probe"(%[[MB]]) {{.*}}op_name = "nn.conv", point = "before"
// CHECK-NEXT: %[[A:.*]] = "instr.probe"(%[[B]]) {{.*}}op_name = "nn.matmul", point = "after"
// CHECK-NEXT: "nn.conv"(%[[A]], %arg2)
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {strata.fused = {id = 1 : i64, mapping = "Many-to-Many", ops = ["nn.conv"]}}
func.func @chain(%x: tensor<1x2x4x4xf32>, %g: tensor<4x4xf32>, %w: tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32> {
  %m = "nn.matmul"(%x, %g) : (tensor<1x2x4x4xf32>, tensor<4x4xf32>) -> tensor<1x2x4x4xf32>
  %b = "instr.probe"(%m) {index = 0 : i64, op_id = 1 : i64, op_name = "nn.conv", point = "before", tool = "trace"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %a = "instr.probe"(%b) {index = 0 : i64, op_id = 0 : i64, op_name = "nn.matmul", point = "after", tool = "trace"} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %c = "nn.conv"(%a, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x4x4xf32>
  return %c : tensor<1x2x4x4xf32>
}
