// --nn-rdp-plan: execution-order planning over RDP partitions (digest B5,
// C3.5, C3.7). The arena plan is in nn-rdp-plan-memory.mlir.
// RUN: strata-opt %s --nn-rdp-plan | FileCheck %s


// Two branches, each a wide tensor reduced to a narrow one. Program order
// holds both wide tensors at once (256*N + 256*N + 4*N); finishing one
// branch first holds one (256*N + 4*N + 4*N): smaller for every N >= 1.
// CHECK-LABEL: func.func @branches
// CHECK-SAME: rdp.partitions = ["4 ops: planned peak 264*N (program order 516*N)"]
// CHECK: %[[A1:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: "nn.reduce_sum"(%[[A1]])
// CHECK-NEXT: %[[B1:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: "nn.reduce_sum"(%[[B1]])
func.func @branches(%x: tensor<?x64xf32> {onnx.dim_params = ["N", ""]}) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %a1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %b1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %a2 = "nn.reduce_sum"(%a1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %b2 = "nn.reduce_sum"(%b1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %a2, %b2 : tensor<?x1xf32>, tensor<?x1xf32>
}

// C3.5: a shape read from data is nac, so the Reshape and the Relu of its
// result are partition points: the ops before them and after them are
// planned separately and nothing moves across them. Constants hold no
// intermediate memory; the Relu before the point stays live into it.
// CHECK-LABEL: func.func @partition_point
// CHECK-SAME: rdp.partitions = ["2 ops: program order, peak 144 (no order's is provably lower; planned 144)", "partition point: nn.reshape (size nac)", "partition point: nn.relu (size nac)", "2 ops: program order, peak 256 (no order's is provably lower; planned 256)"]
// CHECK: "nn.relu"{{.*}}rdp.partition = 0
// CHECK: "nn.reshape"{{.*}}rdp.partition = 1
// CHECK: "nn.relu"{{.*}}rdp.partition = 2
// CHECK: "nn.sigmoid"{{.*}}rdp.partition = 3
func.func @partition_point(%x: tensor<4x8xf32>, %shape: tensor<2xi64>) -> (tensor<?x?xf32>, tensor<4x1xf32>) {
  %r = "nn.relu"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %c = "nn.constant"() {value = dense<1.0> : tensor<4x8xf32>} : () -> tensor<4x8xf32>
  %s = "nn.reduce_sum"(%r) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  %y = "nn.reshape"(%r, %shape) : (tensor<4x8xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %z = "nn.relu"(%y) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %a = "nn.sigmoid"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %b = "nn.add"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %z, %s : tensor<?x?xf32>, tensor<4x1xf32>
}

// With two symbols the step totals may not compare for all sizes: finishing
// branch a first peaks at max(260*N + 256*M, 4*N + 260*M), neither of which
// bounds the other, and no order has a single provable peak. The partition
// keeps program order and says so.
// CHECK-LABEL: func.func @incomparable
// CHECK-SAME: rdp.partitions = ["4 ops: program order (no order's peak is comparable for all sizes)"]
// CHECK: %[[A:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: %[[B:.*]] = "nn.relu"(%arg1)
// CHECK-NEXT: "nn.reduce_sum"(%[[A]])
func.func @incomparable(%x: tensor<?x64xf32> {onnx.dim_params = ["N", ""]}, %y: tensor<?x64xf32> {onnx.dim_params = ["M", ""]}) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %a1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %b1 = "nn.relu"(%y) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %a2 = "nn.reduce_sum"(%a1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %b2 = "nn.reduce_sum"(%b1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %a2, %b2 : tensor<?x1xf32>, tensor<?x1xf32>
}

// A partition of more than 16 ops is not searched: it keeps program order.
// CHECK-LABEL: func.func @long_chain
// CHECK-SAME: rdp.partitions = ["17 ops: program order (too many to search) peak 32 (program order 32)"]
func.func @long_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %v0 = "nn.relu"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %v1 = "nn.relu"(%v0) : (tensor<4xf32>) -> tensor<4xf32>
  %v2 = "nn.relu"(%v1) : (tensor<4xf32>) -> tensor<4xf32>
  %v3 = "nn.relu"(%v2) : (tensor<4xf32>) -> tensor<4xf32>
  %v4 = "nn.relu"(%v3) : (tensor<4xf32>) -> tensor<4xf32>
  %v5 = "nn.relu"(%v4) : (tensor<4xf32>) -> tensor<4xf32>
  %v6 = "nn.relu"(%v5) : (tensor<4xf32>) -> tensor<4xf32>
  %v7 = "nn.relu"(%v6) : (tensor<4xf32>) -> tensor<4xf32>
  %v8 = "nn.relu"(%v7) : (tensor<4xf32>) -> tensor<4xf32>
  %v9 = "nn.relu"(%v8) : (tensor<4xf32>) -> tensor<4xf32>
  %v10 = "nn.relu"(%v9) : (tensor<4xf32>) -> tensor<4xf32>
  %v11 = "nn.relu"(%v10) : (tensor<4xf32>) -> tensor<4xf32>
  %v12 = "nn.relu"(%v11) : (tensor<4xf32>) -> tensor<4xf32>
  %v13 = "nn.relu"(%v12) : (tensor<4xf32>) -> tensor<4xf32>
  %v14 = "nn.relu"(%v13) : (tensor<4xf32>) -> tensor<4xf32>
  %v15 = "nn.relu"(%v14) : (tensor<4xf32>) -> tensor<4xf32>
  %v16 = "nn.relu"(%v15) : (tensor<4xf32>) -> tensor<4xf32>
  return %v16 : tensor<4xf32>
}

// Ops with side effects (a call; an scf.if whose branch calls) are
// partition points: nothing moves across them, so the wide branches on
// either side of the call keep their order; the ones after it are planned
// (here the call reads %a1, which must come before it).
// CHECK-LABEL: func.func @effects
// CHECK-SAME: rdp.partitions = ["1 ops: program order, peak 256*N (no order's is provably lower; planned 256*N)", "partition point: func.call (side effects)", "partition point: scf.if (side effects)", "4 ops: planned peak 264*N (program order 516*N)"]
// CHECK: %[[A1:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: call @sink(%[[A1]])
// CHECK-NEXT: scf.if
// CHECK: %[[C1:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: "nn.reduce_sum"(%[[C1]])
// CHECK-NEXT: %[[D1:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: "nn.reduce_sum"(%[[D1]])
func.func private @sink(tensor<?x64xf32>)
func.func @effects(%x: tensor<?x64xf32> {onnx.dim_params = ["N", ""]}, %c: i1) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %a1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  func.call @sink(%a1) : (tensor<?x64xf32>) -> ()
  scf.if %c {
    func.call @sink(%x) : (tensor<?x64xf32>) -> ()
  }
  %c1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %d1 = "nn.relu"(%x) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %c2 = "nn.reduce_sum"(%c1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %d2 = "nn.reduce_sum"(%d1) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %c2, %d2 : tensor<?x1xf32>, tensor<?x1xf32>
}
