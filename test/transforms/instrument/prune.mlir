// The `prune` tool (Amanda's Listing 1): before each conv/matmul/gemm whose
// weight input is a constant, a magnitude mask is multiplied in, zeroing the
// floor(sparsity * n) smallest weights. The stored constant is unchanged.
// RUN: strata-opt %s --instrument="tool=prune sparsity=0.5" | FileCheck %s
// Numerics: the pruned model equals the model with pruned weights written out,
// in the interpreter and in compiled code.
// RUN: strata-run %s --interpret --instrument "tool=prune sparsity=0.5" --entry g > %t.out
// RUN: strata-run %s --instrument "tool=prune sparsity=0.5" --entry g >> %t.out
// RUN: strata-run %s --interpret --entry g_pruned_by_hand >> %t.out
// RUN: FileCheck %s --check-prefix=SAME < %t.out
// sparsity=0 inserts a mask of ones: same results as no pruning.
// RUN: strata-run %s --compare --instrument "tool=prune sparsity=0" --entry g | FileCheck %s --check-prefix=CMP

// CHECK-LABEL: func.func @g
// CHECK: %[[W:.*]] = "nn.constant"() {value = dense<{{.*}}5.000000e-01{{.*}}-2.500000e-01{{.*}}1.250000e-01{{.*}}1.000000e+00{{.*}}>
// CHECK-NEXT: %[[MASK:.*]] = "nn.constant"() {value = dense<{{.*}}1.000000e+00{{.*}}0.000000e+00{{.*}}0.000000e+00{{.*}}1.000000e+00{{.*}}>
// CHECK-NEXT: %[[PRUNED:.*]] = "nn.mul"(%[[W]], %[[MASK]])
// CHECK-NEXT: "nn.conv"(%arg0, %[[PRUNED]]) {instr.op_id = 0 : i64}
// Weights that are function arguments are not pruned.
// CHECK-LABEL: func.func @g_pruned_by_hand
// CHECK-LABEL: func.func @dynamic_weight
// CHECK-NOT: nn.mul
// CHECK: return
func.func @g(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.5]], [[-0.25]]], [[[0.125]], [[1.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %c = "nn.conv"(%x, %w) : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %c : tensor<1x2x3x3xf32>
}
func.func @g_pruned_by_hand(%x: tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32> {
  %w = "nn.constant"() {value = dense<[[[[0.5]], [[0.0]]], [[[0.0]], [[1.0]]]]> : tensor<2x2x1x1xf32>} : () -> tensor<2x2x1x1xf32>
  %c = "nn.conv"(%x, %w) : (tensor<1x2x3x3xf32>, tensor<2x2x1x1xf32>) -> tensor<1x2x3x3xf32>
  return %c : tensor<1x2x3x3xf32>
}
func.func @dynamic_weight(%x: tensor<2x4xf32>, %w: tensor<4x4xf32>) -> tensor<2x4xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<2x4xf32>, tensor<4x4xf32>) -> tensor<2x4xf32>
  return %m : tensor<2x4xf32>
}

// SAME: interpreted 'g'
// SAME-NEXT: output #0: [[STATS:.*]]
// SAME-NEXT: [[VALUES:\[.*]]
// SAME: compiled 'g'
// SAME-NEXT: output #0: [[STATS]]
// SAME-NEXT: [[VALUES]]
// SAME: interpreted 'g_pruned_by_hand'
// SAME-NEXT: output #0: [[STATS]]
// SAME-NEXT: [[VALUES]]
// CMP: compare output #0: {{.*}}: OK
