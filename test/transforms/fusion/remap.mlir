// fused-blocks-remap: inside a fused block, a Slice read only by generics
// becomes index remapping in its readers (DNNFusion's intra-block
// optimization): each reader takes the slice's source through its map
// composed with the slice, and no sliced tensor is left.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(nn-fuse{cpu-kernels profile=always},nn-to-kernels,func.func(nn-to-linalg),func.func(fused-blocks-remap),func.func(linalg-fuse-elementwise-ops))' | FileCheck %s

// Slice (rows 2..5, every other column from 1) -> Add -> Relu: one nest
// reading %arg0 at (i + 2, 2j + 1).
// CHECK-DAG: #[[SL:.*]] = affine_map<(d0, d1) -> (d0 + 2, d1 * 2 + 1)>
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @slice_add_relu
// CHECK-NOT: tensor.extract_slice
// CHECK: linalg.generic {indexing_maps = [#[[SL]], #[[ID]], #[[ID]]], {{.*}} ins(%arg0, %arg1 : tensor<8x16xf32>, tensor<4x8xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return
func.func @slice_add_relu(%x: tensor<8x16xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %starts = "nn.constant"() {value = dense<[2, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = "nn.constant"() {value = dense<[6, 16]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axes = "nn.constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = "nn.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "nn.slice"(%x, %starts, %ends, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<8x16xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x8xf32>
  %r = "nn.add"(%s, %y) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.relu"(%r) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %t : tensor<4x8xf32>
}

// -----

// A slice that leaves the block as a result is a tensor of its own: it
// stays (the readers inside still read it).
// CHECK-LABEL: func.func @slice_escapes
// CHECK: tensor.extract_slice %arg0[1] [4] [1]
// CHECK: return
func.func @slice_escapes(%x: tensor<6xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %starts = "nn.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %ends = "nn.constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "nn.slice"(%x, %starts, %ends) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<6xf32>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xf32>
  %e = "nn.exp"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  return %s, %e : tensor<4xf32>, tensor<4xf32>
}
