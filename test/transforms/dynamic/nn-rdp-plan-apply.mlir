// nn-rdp-plan{attrs=false}, as the CPU pipelines run it: the ops move to
// the planned order where its peak is provably lower, no attribute is
// written. Constants are no nodes of the order problem (they hold no
// bytes and read nothing): they stay first. An scf.if whose branches only
// compute values (nn-multiversion's) is a node like any op.
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-rdp-plan{attrs=false}))' | FileCheck %s
// CHECK-NOT: rdp.

// CHECK-LABEL: func.func @versions
// CHECK: %[[W:.*]] = "nn.constant"
// CHECK-NEXT: %[[V:.*]] = "nn.constant"
// CHECK-NEXT: %[[A:.*]] = scf.if
// CHECK: "nn.reduce_sum"(%[[A]])
// CHECK-NEXT: %[[B:.*]] = "nn.matmul"(%arg0, %[[V]])
// CHECK-NEXT: "nn.reduce_sum"(%[[B]])
func.func @versions(%x: tensor<?x8xf32> {onnx.dim_params = ["N", ""]}, %few: i1) -> (tensor<?x1xf32>, tensor<?x1xf32>) {
  %w = "nn.constant"() {value = dense<0.5> : tensor<8x64xf32>} : () -> tensor<8x64xf32>
  %a = scf.if %few -> (tensor<?x64xf32>) {
    %m = "nn.matmul"(%x, %w) {strata.few_rows = 4 : i64} : (tensor<?x8xf32>, tensor<8x64xf32>) -> tensor<?x64xf32>
    scf.yield %m : tensor<?x64xf32>
  } else {
    %m = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x64xf32>) -> tensor<?x64xf32>
    scf.yield %m : tensor<?x64xf32>
  }
  %v = "nn.constant"() {value = dense<0.25> : tensor<8x64xf32>} : () -> tensor<8x64xf32>
  %b = "nn.matmul"(%x, %v) : (tensor<?x8xf32>, tensor<8x64xf32>) -> tensor<?x64xf32>
  %a2 = "nn.reduce_sum"(%a) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  %b2 = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<?x64xf32>) -> tensor<?x1xf32>
  return %a2, %b2 : tensor<?x1xf32>, tensor<?x1xf32>
}

// Equal peaks either way: program order stays, although another order is
// as good.
// CHECK-LABEL: func.func @tie
// CHECK: %[[A:.*]] = "nn.relu"(%arg0)
// CHECK-NEXT: %[[B:.*]] = "nn.relu"(%arg1)
// CHECK-NEXT: "nn.add"(%[[A]], %[[B]])
func.func @tie(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %a = "nn.relu"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %b = "nn.relu"(%y) : (tensor<16xf32>) -> tensor<16xf32>
  %s = "nn.add"(%a, %b) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}
