// Ops of other dialects between nn ops (a loop over nn ops, a scalar
// extract) are opaque to the planner: never fused, but the paths through
// them count, so no block holds both a producer of a loop and a consumer of
// the loop's result (that block would have to run before and after the
// loop). The nn ops inside the loop are left to the lowering.
// RUN: strata-opt %s --split-input-file --nn-fuse=profile=always | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-fuse="profile=always report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @around_loop
// CHECK: "nn.tanh"
// CHECK: } {strata.fused = {id = {{[0-9]+}} : i64, mapping = "One-to-One", ops = ["nn.tanh"]}}
// CHECK: scf.for
// CHECK: "nn.mul"
// CHECK-NOT: strata.fused
// CHECK: scf.yield
// CHECK: "nn.add"
// CHECK: } {strata.fused = {id = {{[0-9]+}} : i64, mapping = "One-to-One", ops = ["nn.add"]}}
// REPORT-LABEL: nn-fuse-report @around_loop
// REPORT: decisions: {{.*}} 1 would form a cycle
func.func @around_loop(%a: tensor<8xf32>, %w: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %init = "nn.tanh"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %init) -> (tensor<8xf32>) {
    %m = "nn.mul"(%acc, %w) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    scf.yield %m : tensor<8xf32>
  }
  %s = "nn.add"(%r, %init) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// A value used only inside the loop's body is still an edge: the add reads
// the loop's result, the loop reads the exp's result in its body.
// CHECK-LABEL: func.func @used_in_body
// CHECK: ops = ["nn.exp"]
// CHECK: scf.for
// CHECK: ops = ["nn.add"]
func.func @used_in_body(%a: tensor<8xf32>) -> tensor<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %e = "nn.exp"(%a) : (tensor<8xf32>) -> tensor<8xf32>
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %a) -> (tensor<8xf32>) {
    %m = "nn.mul"(%acc, %e) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    scf.yield %m : tensor<8xf32>
  }
  %s = "nn.add"(%r, %e) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}
