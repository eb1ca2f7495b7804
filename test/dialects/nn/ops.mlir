// Valid nn ops verify and print back unchanged.
// RUN: strata-opt %s | strata-opt | FileCheck %s

// CHECK-LABEL: @conv_variants
func.func @conv_variants(%x: tensor<1x4x9x9xf32>, %w: tensor<6x4x3x3xf32>, %wg: tensor<6x2x3x3xf32>,
                         %wd: tensor<4x1x3x3xf32>, %b: tensor<6xf32>) {
  // CHECK: "nn.conv"{{.*}} -> tensor<1x6x7x7xf32>
  %0 = "nn.conv"(%x, %w) : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x7xf32>
  // stride 2, pads 1: (9+2-3)/2+1 = 5
  // CHECK: "nn.conv"{{.*}} -> tensor<1x6x5x5xf32>
  %1 = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>, tensor<6xf32>) -> tensor<1x6x5x5xf32>
  // dilation 2: span 5 -> 5; asymmetric pads 0,1,2,0 -> H: 9+2-5+1 = 7, W: 9+1-5+1 = 6
  // CHECK: "nn.conv"{{.*}} -> tensor<1x6x7x6xf32>
  %2 = "nn.conv"(%x, %w) {dilations = array<i64: 2, 2>, pads = array<i64: 0, 1, 2, 0>} : (tensor<1x4x9x9xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x7x6xf32>
  // groups 2, and depthwise (group = channels)
  %3 = "nn.conv"(%x, %wg) {group = 2 : i64} : (tensor<1x4x9x9xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x7x7xf32>
  %4 = "nn.conv"(%x, %wd) {group = 4 : i64} : (tensor<1x4x9x9xf32>, tensor<4x1x3x3xf32>) -> tensor<1x4x7x7xf32>
  return
}

// CHECK-LABEL: @broadcasting
func.func @broadcasting(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>, %s: tensor<f32>, %d: tensor<?x4xf32>) {
  %0 = "nn.add"(%a, %b) : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %1 = "nn.add"(%a, %s) : (tensor<2x1x4xf32>, tensor<f32>) -> tensor<2x1x4xf32>
  // '?' propagates, and a '?' result is accepted where a size is known.
  %2 = "nn.add"(%d, %a) : (tensor<?x4xf32>, tensor<2x1x4xf32>) -> tensor<2x?x4xf32>
  %3 = "nn.relu"(%d) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return
}

// CHECK-LABEL: @matmuls
func.func @matmuls(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>, %ba: tensor<2x1x3x4xf32>, %bb: tensor<7x4x5xf32>,
                   %v: tensor<4xf32>) {
  %0 = "nn.matmul"(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %1 = "nn.matmul"(%ba, %bb) : (tensor<2x1x3x4xf32>, tensor<7x4x5xf32>) -> tensor<2x7x3x5xf32>
  %2 = "nn.matmul"(%v, %b) : (tensor<4xf32>, tensor<4x5xf32>) -> tensor<5xf32>
  %3 = "nn.matmul"(%a, %v) : (tensor<3x4xf32>, tensor<4xf32>) -> tensor<3xf32>
  %4 = "nn.matmul"(%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  %5 = "nn.constant"() {value = dense<1.5> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
  return
}

// A 0 that copies a dynamic dim is a '?', not a second -1; slices with
// INT64_MIN/MAX bounds and steps count without overflow.
// CHECK-LABEL: @shape_edges
func.func @shape_edges(%x: tensor<?x6xf32>, %y: tensor<5xf32>) {
  %s = "nn.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: "nn.reshape"{{.*}} -> tensor<?x?xf32>
  %0 = "nn.reshape"(%x, %s) : (tensor<?x6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %lo = "nn.constant"() {value = dense<-9223372036854775808> : tensor<1xi64>} : () -> tensor<1xi64>
  %hi = "nn.constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "nn.constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  %neg = "nn.constant"() {value = dense<-9223372036854775808> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: "nn.slice"{{.*}} -> tensor<1xf32>
  %1 = "nn.slice"(%y, %lo, %hi, %big) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  // CHECK: "nn.slice"{{.*}} -> tensor<1xf32>
  %2 = "nn.slice"(%y, %hi, %lo, %neg) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xf32>
  return
}
