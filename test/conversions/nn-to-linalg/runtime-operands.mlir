// Operands known only at run time: a CumSum axis selects one static
// lowering per axis (scf.index_switch) after a range check; run-time
// reduce axes become one scf.if per dim; squeeze extents are computed and
// checked; split sizes and k are checked against the extent. Every check
// reports through strata_rt_shape_error (kinds in lower_dims.c).
// RUN: strata-opt %s --split-input-file --nn-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @cum_sum
// CHECK: scf.if
// CHECK: func.call @strata_rt_shape_error(%c6_i64
// CHECK: scf.index_switch %{{.*}} -> tensor<2x3xf32>
// CHECK: case 0 {
// CHECK: iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: case 1 {
// CHECK: default {
func.func @cum_sum(%x: tensor<2x3xf32>, %a: tensor<i64>) -> tensor<2x3xf32> {
  %r = "nn.cum_sum"(%x, %a) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// CHECK-LABEL: func.func @reduce
// CHECK-COUNT-2: func.call @strata_rt_shape_error(%c7_i64
// CHECK: scf.if %{{.*}} -> (tensor<?x3xf32>)
// CHECK: linalg.generic
// CHECK: tensor.cast
// CHECK: scf.if %{{.*}} -> (tensor<?x?xf32>)
// CHECK: tensor.reshape
// CHECK: return %{{.*}} : tensor<?xf32>
func.func @reduce(%x: tensor<2x3xf32>, %a: tensor<1xi64>) -> tensor<?xf32> {
  %r = "nn.reduce_sum"(%x, %a) {keepdims = 0 : i64} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @squeeze
// CHECK: func.call @strata_rt_shape_error(%c6_i64
// CHECK: func.call @strata_rt_shape_error(%c0_i64
// CHECK: tensor.reshape %{{.*}} : (tensor<2x1xf32>, tensor<1xindex>) -> tensor<?xf32>
func.func @squeeze(%x: tensor<2x1xf32>, %a: tensor<1xi64>) -> tensor<?xf32> {
  %r = "nn.squeeze"(%x, %a) : (tensor<2x1xf32>, tensor<1xi64>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// CHECK-LABEL: func.func @split
// CHECK: func.call @strata_rt_shape_error(%c3_i64
// CHECK: func.call @strata_rt_shape_error(%c8_i64
// CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 0] [%{{.*}}, 2] [1, 1] : tensor<5x2xf32> to tensor<?x2xf32>
func.func @split(%x: tensor<5x2xf32>, %s: tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x2xf32>) {
  %a, %b = "nn.split"(%x, %s) : (tensor<5x2xf32>, tensor<2xi64>) -> (tensor<?x2xf32>, tensor<?x2xf32>)
  return %a, %b : tensor<?x2xf32>, tensor<?x2xf32>
}

// -----

// CHECK-LABEL: func.func @top_k
// CHECK: func.call @strata_rt_shape_error(%c9_i64
// CHECK: tensor.empty(%{{.*}}) : tensor<2x?xf32>
func.func @top_k(%x: tensor<2x3xf32>, %k: tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>) {
  %v, %i = "nn.top_k"(%x, %k) : (tensor<2x3xf32>, tensor<1xi64>) -> (tensor<2x?xf32>, tensor<2x?xi64>)
  return %v, %i : tensor<2x?xf32>, tensor<2x?xi64>
}
