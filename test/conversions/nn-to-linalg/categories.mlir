// Structure of the lowerings beyond elementwise/matmul/conv.
// RUN: strata-opt %s --split-input-file --nn-to-linalg | FileCheck %s

// Reductions: reduced dims become reduction iterators; keepdims is a reshape.
// CHECK-DAG: #[[IN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
// CHECK-DAG: #[[OUT:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-LABEL: func.func @reduce
// CHECK: linalg.generic {indexing_maps = [#[[IN]], #[[OUT]]], iterator_types = ["parallel", "reduction", "parallel"]}
// CHECK: arith.addf
// CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<2x4xf32>, tensor<3xi64>) -> tensor<2x1x4xf32>
func.func @reduce(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}

// -----

// Max pooling: -inf padding, and a window operand for the kernel loops.
// CHECK-LABEL: func.func @max_pool
// CHECK: arith.constant dense<0xFF800000> : tensor<1x1x6x6xf32>
// CHECK: tensor.insert_slice
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.maximumf
func.func @max_pool(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32>
  return %r : tensor<1x1x4x4xf32>
}

// -----

// Reshape-likes are tensor.reshape; transpose is a permuted input map;
// positive-step slices are tensor.extract_slice.
// CHECK-DAG: #[[PERM:.*]] = affine_map<(d0, d1) -> (d1, d0)>
// CHECK-LABEL: func.func @movement
// CHECK: tensor.reshape
// CHECK: linalg.generic {indexing_maps = [#[[PERM]]
// CHECK: tensor.extract_slice %{{.*}}[0, 1] [2, 3] [1, 2]
func.func @movement(%x: tensor<2x6xf32>) -> (tensor<3x4xf32>, tensor<6x2xf32>, tensor<2x3xf32>) {
  %s = "nn.constant"() {value = dense<[3, 4]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reshape"(%x, %s) : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %t = "nn.transpose"(%x) : (tensor<2x6xf32>) -> tensor<6x2xf32>
  %st = "nn.constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %en = "nn.constant"() {value = dense<[6, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ax = "nn.constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sp = "nn.constant"() {value = dense<[2, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sl = "nn.slice"(%x, %st, %en, %ax, %sp) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<2x6xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x3xf32>
  return %r, %t, %sl : tensor<3x4xf32>, tensor<6x2xf32>, tensor<2x3xf32>
}

// -----

// Gathers read with tensor.extract at a clamped index.
// CHECK-LABEL: func.func @gather
// CHECK: linalg.generic
// CHECK: arith.index_cast
// CHECK: arith.maxsi
// CHECK: arith.minsi
// CHECK: tensor.extract
func.func @gather(%x: tensor<5x3xf32>, %i: tensor<4xi64>) -> tensor<4x3xf32> {
  %r = "nn.gather"(%x, %i) : (tensor<5x3xf32>, tensor<4xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}

// -----

// Quantize: round half to even, clamp, convert; ui8 results through a cast
// from the signless i8 the body computes.
// CHECK-LABEL: func.func @quantize
// CHECK: math.roundeven
// CHECK: arith.fptoui
// CHECK: builtin.unrealized_conversion_cast %{{.*}} : i8 to ui8
func.func @quantize(%x: tensor<4xf32>, %s: tensor<f32>) -> tensor<4xui8> {
  %r = "nn.quantize_linear"(%x, %s) : (tensor<4xf32>, tensor<f32>) -> tensor<4xui8>
  return %r : tensor<4xui8>
}
