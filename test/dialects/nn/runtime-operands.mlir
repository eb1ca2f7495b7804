// Axes, CumSum's axis and split sizes as operands (ONNX inputs known only
// at run time): shape inference leaves '?' where their values decide, a
// constant operand decides like the attribute. Valid ops print back.
// RUN: strata-opt %s | strata-opt | FileCheck %s

// CHECK-LABEL: @axes
func.func @axes(%x: tensor<2x1x3xf32>, %a: tensor<1xi64>, %b: tensor<2xi64>, %c: tensor<i64>, %s: tensor<2xi64>) {
  // CHECK: "nn.squeeze"(%{{.*}}, %{{.*}}) : (tensor<2x1x3xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %0 = "nn.squeeze"(%x, %a) : (tensor<2x1x3xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.unsqueeze"(%{{.*}}, %{{.*}}) : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<?x?x?x?x?xf32>
  %1 = "nn.unsqueeze"(%x, %b) : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<?x?x?x?x?xf32>
  // keepdims: a dim of extent 1 stays 1 whichever axes reduce
  // CHECK: "nn.reduce_sum"(%{{.*}}, %{{.*}}) : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<?x1x?xf32>
  %2 = "nn.reduce_sum"(%x, %b) : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<?x1x?xf32>
  // CHECK: "nn.reduce_max"(%{{.*}}, %{{.*}}) {keepdims = 0 : i64} : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<?xf32>
  %3 = "nn.reduce_max"(%x, %b) {keepdims = 0 : i64} : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<?xf32>
  // CHECK: "nn.cum_sum"(%{{.*}}, %{{.*}}) : (tensor<2x1x3xf32>, tensor<i64>) -> tensor<2x1x3xf32>
  %4 = "nn.cum_sum"(%x, %c) : (tensor<2x1x3xf32>, tensor<i64>) -> tensor<2x1x3xf32>
  // CHECK: "nn.split"(%{{.*}}, %{{.*}}) {axis = 2 : i64} : (tensor<2x1x3xf32>, tensor<2xi64>) -> (tensor<2x1x?xf32>, tensor<2x1x?xf32>)
  %5:2 = "nn.split"(%x, %s) {axis = 2 : i64} : (tensor<2x1x3xf32>, tensor<2xi64>) -> (tensor<2x1x?xf32>, tensor<2x1x?xf32>)
  // A constant operand decides as the attribute does.
  %k = "nn.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: "nn.reduce_mean"(%{{.*}}, %{{.*}}) : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %6 = "nn.reduce_mean"(%x, %k) : (tensor<2x1x3xf32>, tensor<2xi64>) -> tensor<2x1x1xf32>
  %ones = "nn.constant"() {value = dense<1> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: "nn.split"(%{{.*}}, %{{.*}}) : (tensor<2x1x3xf32>, tensor<2xi64>) -> (tensor<1x1x3xf32>, tensor<1x1x3xf32>)
  %7:2 = "nn.split"(%x, %ones) : (tensor<2x1x3xf32>, tensor<2xi64>) -> (tensor<1x1x3xf32>, tensor<1x1x3xf32>)
  return
}
