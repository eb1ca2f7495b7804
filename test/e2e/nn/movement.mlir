// Data movement ops: JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @reshape_infer(%x: tensor<2x3x4xf32>) -> tensor<2x12xf32> {
  %s = "nn.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<2x12xf32>
  return %r : tensor<2x12xf32>
}
func.func @flatten(%x: tensor<2x3x4xf32>) -> tensor<6x4xf32> {
  %r = "nn.flatten"(%x) {axis = 2 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  return %r : tensor<6x4xf32>
}
func.func @squeeze_unsqueeze(%x: tensor<2x1x4xf32>) -> tensor<1x2x4x1xf32> {
  %s = "nn.squeeze"(%x) : (tensor<2x1x4xf32>) -> tensor<2x4xf32>
  %r = "nn.unsqueeze"(%s) {axes = array<i64: 0, -1>} : (tensor<2x4xf32>) -> tensor<1x2x4x1xf32>
  return %r : tensor<1x2x4x1xf32>
}
func.func @transpose_perm(%x: tensor<2x3x4xf32>) -> tensor<3x4x2xf32> {
  %r = "nn.transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  return %r : tensor<3x4x2xf32>
}
func.func @transpose_default(%x: tensor<2x3x4xf32>) -> tensor<4x3x2xf32> {
  %r = "nn.transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  return %r : tensor<4x3x2xf32>
}
func.func @concat_axis1(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>) -> tensor<2x8x4xf32> {
  %r = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x5x4xf32>) -> tensor<2x8x4xf32>
  return %r : tensor<2x8x4xf32>
}
func.func @concat_i64_neg(%a: tensor<3xi64>, %b: tensor<2xi64>) -> tensor<5xi64> {
  %r = "nn.concat"(%a, %b) {axis = -1 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<5xi64>
  return %r : tensor<5xi64>
}
func.func @split_even(%x: tensor<2x6xf32>) -> tensor<2x2xf32> {
  %a, %b, %c = "nn.split"(%x) {axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>)
  %r = "nn.sub"(%b, %c) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %r : tensor<2x2xf32>
}
func.func @slice_steps(%x: tensor<5x9xf32>) -> tensor<2x3xf32> {
  %s = "nn.constant"() {value = dense<[1, -2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "nn.constant"() {value = dense<[5, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %t = "nn.constant"() {value = dense<[2, -3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.slice"(%x, %s, %e, %a, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<5x9xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @slice_clamped(%x: tensor<5x9xf32>) -> tensor<5x9xf32> {
  %s = "nn.constant"() {value = dense<[-100]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "nn.constant"() {value = dense<[100]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "nn.slice"(%x, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<5x9xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<5x9xf32>
  return %r : tensor<5x9xf32>
}
func.func @gather_axis1(%x: tensor<2x3x4xf32>) -> tensor<2x2x2x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2], [-1, 1]]> : tensor<2x2xi64>} : () -> tensor<2x2xi64>
  %r = "nn.gather"(%x, %i) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x2xi64>) -> tensor<2x2x2x4xf32>
  return %r : tensor<2x2x2x4xf32>
}
func.func @gather_scalar_index(%x: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  %i = "nn.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
  %r = "nn.gather"(%x, %i) {axis = -1 : i64} : (tensor<2x3x4xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @gather_elements(%x: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, 2, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
  %r = "nn.gather_elements"(%x, %i) : (tensor<3x4xf32>, tensor<2x4xi64>) -> tensor<2x4xf32>
  return %r : tensor<2x4xf32>
}
func.func @scatter_none(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, -1, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
  %r = "nn.scatter_elements"(%x, %i, %u) {reduction = "none"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @scatter_add(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, -1, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
  %r = "nn.scatter_elements"(%x, %i, %u) {reduction = "add"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @scatter_mul(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, -1, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
  %r = "nn.scatter_elements"(%x, %i, %u) {reduction = "mul"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @scatter_max(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, -1, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
  %r = "nn.scatter_elements"(%x, %i, %u) {reduction = "max"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @scatter_min(%x: tensor<3x4xf32>, %u: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %i = "nn.constant"() {value = dense<[[0, 2, 1, 0], [2, -1, 0, 1]]> : tensor<2x4xi64>} : () -> tensor<2x4xi64>
  %r = "nn.scatter_elements"(%x, %i, %u) {reduction = "min"} : (tensor<3x4xf32>, tensor<2x4xi64>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
func.func @expand_both(%x: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %s = "nn.constant"() {value = dense<[2, 1, 4]> : tensor<3xi64>} : () -> tensor<3xi64>
  %r = "nn.expand"(%x, %s) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @tile(%x: tensor<2x3xf32>) -> tensor<4x9xf32> {
  %s = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.tile"(%x, %s) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<4x9xf32>
  return %r : tensor<4x9xf32>
}
func.func @pad_constant(%x: tensor<3x4xf32>) -> tensor<6x7xf32> {
  %p = "nn.constant"() {value = dense<[1, 2, 2, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) {mode = "constant"} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
func.func @pad_reflect(%x: tensor<3x4xf32>) -> tensor<6x7xf32> {
  %p = "nn.constant"() {value = dense<[1, 2, 2, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) {mode = "reflect"} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
func.func @pad_edge(%x: tensor<3x4xf32>) -> tensor<6x7xf32> {
  %p = "nn.constant"() {value = dense<[1, 2, 2, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) {mode = "edge"} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
func.func @pad_wrap(%x: tensor<3x4xf32>) -> tensor<6x7xf32> {
  %p = "nn.constant"() {value = dense<[1, 2, 2, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) {mode = "wrap"} : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
func.func @pad_value_crop(%x: tensor<3x4xf32>) -> tensor<4x5xf32> {
  %p = "nn.constant"() {value = dense<[1, -1, 0, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  %v = "nn.constant"() {value = dense<2.5> : tensor<f32>} : () -> tensor<f32>
  %r = "nn.pad"(%x, %p, %v) : (tensor<3x4xf32>, tensor<4xi64>, tensor<f32>) -> tensor<4x5xf32>
  return %r : tensor<4x5xf32>
}
func.func @resize_nearest_up(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x8x10xf32> {
  %sc = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "nn.resize"(%x, %sc) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x2x4x5xf32>, tensor<4xf32>) -> tensor<1x2x8x10xf32>
  return %r : tensor<1x2x8x10xf32>
}
func.func @resize_nearest_asym_floor(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x6x7xf32> {
  %sz = "nn.constant"() {value = dense<[1, 2, 6, 7]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %sz) {operandSegmentSizes = array<i32: 1, 0, 0, 1>, coordinate_transformation_mode = "asymmetric", nearest_mode = "floor"} : (tensor<1x2x4x5xf32>, tensor<4xi64>) -> tensor<1x2x6x7xf32>
  return %r : tensor<1x2x6x7xf32>
}
func.func @resize_linear_half_pixel(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x7x3xf32> {
  %sz = "nn.constant"() {value = dense<[1, 2, 7, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %sz) {operandSegmentSizes = array<i32: 1, 0, 0, 1>, mode = "linear"} : (tensor<1x2x4x5xf32>, tensor<4xi64>) -> tensor<1x2x7x3xf32>
  return %r : tensor<1x2x7x3xf32>
}
func.func @resize_linear_align(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x8x10xf32> {
  %sc = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "nn.resize"(%x, %sc) {operandSegmentSizes = array<i32: 1, 0, 1, 0>, mode = "linear", coordinate_transformation_mode = "align_corners"} : (tensor<1x2x4x5xf32>, tensor<4xf32>) -> tensor<1x2x8x10xf32>
  return %r : tensor<1x2x8x10xf32>
}
func.func @resize_linear_pytorch(%x: tensor<1x2x4x5xf32>) -> tensor<1x2x2x9xf32> {
  %sz = "nn.constant"() {value = dense<[1, 2, 2, 9]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %sz) {operandSegmentSizes = array<i32: 1, 0, 0, 1>, mode = "linear", coordinate_transformation_mode = "pytorch_half_pixel"} : (tensor<1x2x4x5xf32>, tensor<4xi64>) -> tensor<1x2x2x9xf32>
  return %r : tensor<1x2x2x9xf32>
}
func.func @depth_to_space_DCR(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %r = "nn.depth_to_space"(%x) {blocksize = 2 : i64, mode = "DCR"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %r : tensor<1x2x4x6xf32>
}
func.func @depth_to_space_CRD(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %r = "nn.depth_to_space"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %r : tensor<1x2x4x6xf32>
}
func.func @space_to_depth(%x: tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32> {
  %r = "nn.space_to_depth"(%x) {blocksize = 2 : i64} : (tensor<1x2x4x6xf32>) -> tensor<1x8x2x3xf32>
  return %r : tensor<1x8x2x3xf32>
}
func.func @transpose_i1(%x: tensor<2x3xi1>) -> tensor<3x2xi1> {
  %r = "nn.transpose"(%x) : (tensor<2x3xi1>) -> tensor<3x2xi1>
  return %r : tensor<3x2xi1>
}
