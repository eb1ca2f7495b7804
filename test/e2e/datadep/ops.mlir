// Ops whose result shape depends on data (issue 19): NonZero, Compress,
// Unique and NonMaxSuppression compiled once for the CPU (count, allocate,
// fill) and run at every shape set listed above each function against the
// interpreter on seeded random inputs (integers in [-8, 8), floats in
// [-1, 1), bools 0/1: repeated values and zeros occur). The numpy
// references are in numpy_refs.py.
// RUN: rm -rf %t && %python %S/../dynamic/sweep_all.py %s %t | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// shapes: 0=3x4 | 0=1x1 | 0=0x5 | 0=7x9
func.func @non_zero_i32(%x: tensor<?x?xi32>) -> tensor<2x?xi64> {
  %r = "nn.non_zero"(%x) : (tensor<?x?xi32>) -> tensor<2x?xi64>
  return %r : tensor<2x?xi64>
}
// Half the elements are zero after the relu.
// shapes: 0=2x3x4 | 0=1x1x1 | 0=4x1x6
func.func @non_zero_f32(%x: tensor<?x?x?xf32>) -> tensor<3x?xi64> {
  %z = "nn.relu"(%x) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %r = "nn.non_zero"(%z) : (tensor<?x?x?xf32>) -> tensor<3x?xi64>
  return %r : tensor<3x?xi64>
}
// shapes: 0=5 | 0=1 | 0=30
func.func @non_zero_bool(%x: tensor<?xi1>) -> tensor<1x?xi64> {
  %r = "nn.non_zero"(%x) : (tensor<?xi1>) -> tensor<1x?xi64>
  return %r : tensor<1x?xi64>
}
// shapes: 0=3x4 1=3 | 0=6x2 1=4 | 0=0x2 1=0 | 0=5x3 1=5
func.func @compress_axis0(%x: tensor<?x?xf32>, %c: tensor<?xi1>) -> tensor<?x?xf32> {
  %r = "nn.compress"(%x, %c) {axis = 0 : i64} : (tensor<?x?xf32>, tensor<?xi1>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 0=2x5x3 1=5 | 0=4x6x1 1=2
func.func @compress_axis_neg(%x: tensor<?x?x?xi64>, %c: tensor<?xi1>) -> tensor<?x?x?xi64> {
  %r = "nn.compress"(%x, %c) {axis = -2 : i64} : (tensor<?x?x?xi64>, tensor<?xi1>) -> tensor<?x?x?xi64>
  return %r : tensor<?x?x?xi64>
}
// No axis: elements of the flattened input; a shorter condition.
// shapes: 0=3x4 1=12 | 0=3x4 1=5 | 0=2x1 1=0
func.func @compress_flat(%x: tensor<?x?xui8>, %c: tensor<?xi1>) -> tensor<?xui8> {
  %r = "nn.compress"(%x, %c) : (tensor<?x?xui8>, tensor<?xi1>) -> tensor<?xui8>
  return %r : tensor<?xui8>
}
// shapes: 0=12 | 0=1 | 0=0 | 0=40
func.func @unique_sorted(%x: tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %y, %i, %v, %c = "nn.unique"(%x) : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %y, %i, %v, %c : tensor<?xi32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}
// shapes: 0=3x4 | 0=1x9 | 0=6x6
func.func @unique_unsorted_flat(%x: tensor<?x?xi8>) -> (tensor<?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %y, %i, %v, %c = "nn.unique"(%x) {sorted = 0 : i64} : (tensor<?x?xi8>) -> (tensor<?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %y, %i, %v, %c : tensor<?xi8>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}
// Rounded floats: many equal, -0 equal to 0.
// shapes: 0=4x5 | 0=1x1
func.func @unique_f32(%x: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %r = "nn.round"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %y, %i, %v, %c = "nn.unique"(%r) : (tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %y, %i, %v, %c : tensor<?xf32>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}
// Rows of bools: few distinct ones, sorted lexicographically.
// shapes: 0=8x2 | 0=1x3 | 0=20x3
func.func @unique_axis0(%x: tensor<?x?xi1>) -> (tensor<?x?xi1>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %y, %i, %v, %c = "nn.unique"(%x) {axis = 0 : i64} : (tensor<?x?xi1>) -> (tensor<?x?xi1>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %y, %i, %v, %c : tensor<?x?xi1>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}
// shapes: 0=2x9x1 | 0=3x4x2
func.func @unique_axis1_unsorted(%x: tensor<?x?x?xui8>) -> (tensor<?x?x?xui8>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %y, %i, %v, %c = "nn.unique"(%x) {axis = -2 : i64, sorted = 0 : i64} : (tensor<?x?x?xui8>) -> (tensor<?x?x?xui8>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>)
  return %y, %i, %v, %c : tensor<?x?x?xui8>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}
// Random boxes (corners anywhere in [-1, 1)) and scores; every threshold given.
// shapes: 0=1x6x4 1=1x1x6 | 0=2x10x4 1=2x3x10 | 0=1x0x4 1=1x2x0 | 0=3x25x4 1=3x2x25
func.func @nms_corners(%b: tensor<?x?x4xf32>, %s: tensor<?x?x?xf32>) -> tensor<?x3xi64> {
  %m = "nn.constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %i = "nn.constant"() {value = dense<0.1> : tensor<1xf32>} : () -> tensor<1xf32>
  %t = "nn.constant"() {value = dense<-0.5> : tensor<1xf32>} : () -> tensor<1xf32>
  %r = "nn.non_max_suppression"(%b, %s, %m, %i, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<?x?x4xf32>, tensor<?x?x?xf32>, tensor<1xi64>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
// Center boxes, no score threshold, iou_threshold 0 (any overlap suppresses).
// shapes: 0=1x8x4 1=1x2x8 | 0=2x16x4 1=2x1x16
func.func @nms_center(%b: tensor<?x?x?xf32>, %s: tensor<?x?x?xf32>) -> tensor<?x3xi64> {
  %m = "nn.constant"() {value = dense<100> : tensor<i64>} : () -> tensor<i64>
  %r = "nn.non_max_suppression"(%b, %s, %m) {center_point_box = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>, tensor<i64>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
// A run-time max_output_boxes_per_class (negative keeps none) and iou_threshold.
// shapes: 0=1x7x4 1=1x2x7 | 0=2x5x4 1=2x2x5
func.func @nms_runtime(%b: tensor<?x?x4xf64>, %s: tensor<?x?x?xf64>, %m: tensor<1xi64>, %t: tensor<1xf32>) -> tensor<?x3xi64> {
  %a = "nn.abs"(%t) : (tensor<1xf32>) -> tensor<1xf32>
  %r = "nn.non_max_suppression"(%b, %s, %m, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x4xf64>, tensor<?x?x?xf64>, tensor<1xi64>, tensor<1xf32>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
// Scores through a log: negative ones become NaN, which are never selected.
// shapes: 0=1x9x4 1=1x2x9 | 0=2x6x4 1=2x1x6
func.func @nms_nan_scores(%b: tensor<?x?x4xf32>, %s: tensor<?x?x?xf32>) -> tensor<?x3xi64> {
  %l = "nn.log"(%s) : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %m = "nn.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "nn.non_max_suppression"(%b, %l, %m) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<?x?x4xf32>, tensor<?x?x?xf32>, tensor<1xi64>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
