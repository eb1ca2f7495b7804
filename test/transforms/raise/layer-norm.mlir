// --nn-raise: decomposed layer normalization chains become
// nn.layer_normalization; chains it must not take stay as they are.
// RUN: strata-opt %s --split-input-file --nn-raise | FileCheck %s

// PyTorch's opset-14 export: Pow(d, 2), scale and bias.
// CHECK-LABEL: func.func @torch_export
// CHECK: %[[Y:.*]] = "nn.layer_normalization"(%arg0, %arg1, %arg2) {axis = 2 : i64, epsilon = 9.99999974E-6 : f32}
// CHECK-NOT: nn.reduce_mean
// CHECK-NOT: nn.sqrt
// CHECK: return %[[Y]]
func.func @torch_export(%x: tensor<2x4x8xf32>, %g: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<2x4x8xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: -1>} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x4x8xf32>, tensor<f32>) -> tensor<2x4x8xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: -1>} : (tensor<2x4x8xf32>) -> tensor<2x4x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x4x1xf32>, tensor<f32>) -> tensor<2x4x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x4x1xf32>) -> tensor<2x4x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x4x8xf32>, tensor<2x4x1xf32>) -> tensor<2x4x8xf32>
  %y0 = "nn.mul"(%n, %g) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  %y = "nn.add"(%y0, %b) : (tensor<2x4x8xf32>, tensor<8xf32>) -> tensor<2x4x8xf32>
  return %y : tensor<2x4x8xf32>
}

// -----
// Mul(d, d), eps on the left, two normalized dims, scale first in the Mul,
// no bias.
// CHECK-LABEL: func.func @square_two_axes
// CHECK: "nn.layer_normalization"(%arg0, %arg1) {axis = 1 : i64, epsilon = 1.000000e-03 : f32}
// CHECK-NOT: nn.div
func.func @square_two_axes(%x: tensor<3x4x5xf32>, %g: tensor<4x5xf32>) -> tensor<3x4x5xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1, 2>} : (tensor<3x4x5xf32>) -> tensor<3x1x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<3x4x5xf32>
  %p = "nn.mul"(%d, %d) : (tensor<3x4x5xf32>, tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: -2, -1>} : (tensor<3x4x5xf32>) -> tensor<3x1x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-3> : tensor<1xf32>} : () -> tensor<1xf32>
  %e = "nn.add"(%eps, %v) : (tensor<1xf32>, tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<3x1x1xf32>) -> tensor<3x1x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<3x4x5xf32>, tensor<3x1x1xf32>) -> tensor<3x4x5xf32>
  %y = "nn.mul"(%g, %n) : (tensor<4x5xf32>, tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  return %y : tensor<3x4x5xf32>
}

// -----
// No affine part: the scale is ones over the normalized dims.
// CHECK-LABEL: func.func @no_affine
// CHECK: %[[ONES:.*]] = "nn.constant"() {value = dense<1.000000e+00> : tensor<6xf32>}
// CHECK: "nn.layer_normalization"(%arg0, %[[ONES]]) {axis = 1 : i64
func.func @no_affine(%x: tensor<2x6xf32>) -> tensor<2x6xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  return %n : tensor<2x6xf32>
}

// -----
// Not taken: the centered value has a third user; the mean is not over
// trailing dims; the epsilon is not a constant; a Pow by 3.
// CHECK-LABEL: func.func @not_taken
// CHECK-NOT: nn.layer_normalization
// CHECK-COUNT-4: "nn.div"
func.func @not_taken(%x: tensor<2x6xf32>, %t: tensor<6x2xf32>, %epsv: tensor<f32>) -> (tensor<2x6xf32>, tensor<2x6xf32>, tensor<6x2xf32>, tensor<2x6xf32>, tensor<2x6xf32>) {
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %three = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %p = "nn.pow"(%d, %two) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %e = "nn.add"(%v, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  // Leading axis: a mean over dim 0 of [6, 2] is not a trailing reduction.
  %m2 = "nn.reduce_mean"(%t) {axes = array<i64: 0>} : (tensor<6x2xf32>) -> tensor<1x2xf32>
  %d2 = "nn.sub"(%t, %m2) : (tensor<6x2xf32>, tensor<1x2xf32>) -> tensor<6x2xf32>
  %p2 = "nn.pow"(%d2, %two) : (tensor<6x2xf32>, tensor<f32>) -> tensor<6x2xf32>
  %v2 = "nn.reduce_mean"(%p2) {axes = array<i64: 0>} : (tensor<6x2xf32>) -> tensor<1x2xf32>
  %e2 = "nn.add"(%v2, %eps) : (tensor<1x2xf32>, tensor<f32>) -> tensor<1x2xf32>
  %s2 = "nn.sqrt"(%e2) : (tensor<1x2xf32>) -> tensor<1x2xf32>
  %n2 = "nn.div"(%d2, %s2) : (tensor<6x2xf32>, tensor<1x2xf32>) -> tensor<6x2xf32>
  // Epsilon from an argument.
  %m3 = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d3 = "nn.sub"(%x, %m3) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %p3 = "nn.pow"(%d3, %two) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v3 = "nn.reduce_mean"(%p3) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %e3 = "nn.add"(%v3, %epsv) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s3 = "nn.sqrt"(%e3) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n3 = "nn.div"(%d3, %s3) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  // Pow by 3 is not a variance.
  %m4 = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d4 = "nn.sub"(%x, %m4) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %p4 = "nn.pow"(%d4, %three) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v4 = "nn.reduce_mean"(%p4) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %e4 = "nn.add"(%v4, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s4 = "nn.sqrt"(%e4) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n4 = "nn.div"(%d4, %s4) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  return %n, %d, %n2, %n3, %n4 : tensor<2x6xf32>, tensor<2x6xf32>, tensor<6x2xf32>, tensor<2x6xf32>, tensor<2x6xf32>
}

// -----
// A scale that broadcasts into the leading (not normalized) dims is not a
// layer-norm scale: the normalization is raised, the Mul stays.
// CHECK-LABEL: func.func @scale_over_rows
// CHECK: %[[N:.*]] = "nn.layer_normalization"(%arg0, %{{.*}}) {axis = 1 : i64
// CHECK: "nn.mul"(%[[N]], %arg1)
func.func @scale_over_rows(%x: tensor<2x6xf32>, %g: tensor<2x1xf32>) -> tensor<2x6xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %p = "nn.pow"(%d, %two) : (tensor<2x6xf32>, tensor<f32>) -> tensor<2x6xf32>
  %v = "nn.reduce_mean"(%p) {axes = array<i64: 1>} : (tensor<2x6xf32>) -> tensor<2x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %e = "nn.add"(%v, %eps) : (tensor<2x1xf32>, tensor<f32>) -> tensor<2x1xf32>
  %s = "nn.sqrt"(%e) : (tensor<2x1xf32>) -> tensor<2x1xf32>
  %n = "nn.div"(%d, %s) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  %y = "nn.mul"(%n, %g) : (tensor<2x6xf32>, tensor<2x1xf32>) -> tensor<2x6xf32>
  return %y : tensor<2x6xf32>
}
