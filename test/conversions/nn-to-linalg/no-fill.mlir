// Results whose every element the lowering writes start from tensor.empty,
// not from a zero fill (a wasted pass over memory at run time) or a zero
// constant (which bufferizes to a copy of a zero global), at static and at
// dynamic shapes. Results that accumulate (matmul) keep their zero init.
// RUN: strata-opt %s --split-input-file --nn-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @elementwise_dynamic
// CHECK: %[[E:.*]] = tensor.empty(%{{.*}}) : tensor<?x64xf32>
// CHECK-NOT: linalg.fill
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x64xf32>)
func.func @elementwise_dynamic(%a: tensor<?x64xf32>, %b: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = "nn.add"(%a, %b) : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// CHECK-LABEL: func.func @concat_static
// CHECK: %[[E:.*]] = tensor.empty() : tensor<8x96xf32>
// CHECK: %[[A:.*]] = tensor.insert_slice %arg0 into %[[E]][0, 0] [8, 64] [1, 1]
// CHECK: tensor.insert_slice %arg1 into %[[A]][0, 64] [8, 32] [1, 1]
// CHECK-NOT: arith.constant dense
func.func @concat_static(%a: tensor<8x64xf32>, %b: tensor<8x32xf32>) -> tensor<8x96xf32> {
  %0 = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<8x64xf32>, tensor<8x32xf32>) -> tensor<8x96xf32>
  return %0 : tensor<8x96xf32>
}

// -----

// CHECK-LABEL: func.func @concat_dynamic
// CHECK: tensor.empty(%{{.*}}) : tensor<?x?xf32>
// CHECK-NOT: linalg.fill
// CHECK: tensor.insert_slice
// CHECK: tensor.insert_slice
func.func @concat_dynamic(%a: tensor<?x64xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<?x64xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// CHECK-LABEL: func.func @softmax_dynamic
// CHECK-NOT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<?x10xf32>)
// CHECK: return
func.func @softmax_dynamic(%x: tensor<?x10xf32>) -> tensor<?x10xf32> {
  %0 = "nn.softmax"(%x) {axis = -1 : i64} : (tensor<?x10xf32>) -> tensor<?x10xf32>
  return %0 : tensor<?x10xf32>
}

// -----

// CHECK-LABEL: func.func @matmul_keeps_zero_init
// CHECK: linalg.fill
// CHECK: linalg.generic
func.func @matmul_keeps_zero_init(%a: tensor<?x8xf32>, %b: tensor<8x4xf32>) -> tensor<?x4xf32> {
  %0 = "nn.matmul"(%a, %b) : (tensor<?x8xf32>, tensor<8x4xf32>) -> tensor<?x4xf32>
  return %0 : tensor<?x4xf32>
}
