// --nn-to-kernels: a static f32 nn.resize of its last two dims becomes
// strata_rt_resize2d_f32 with one f64 table per resized dim (taps x out
// indices, then taps x out weights); what the kernel does not take (a crop,
// a resized leading dim, f16) stays nn for nn-to-linalg.
// RUN: strata-opt %s --split-input-file --nn-to-kernels | FileCheck %s

// CHECK-DAG: func.func private @strata_rt_resize2d_f32(memref<*xf32>, memref<*xf64>, memref<*xf64>, memref<*xf32>, i64, i64, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @bilinear
// H 2 -> 4, half_pixel (x = -0.25, 0.25, 0.75, 1.25): first taps (0, 0, 0, 1),
// second taps (0, 1, 1, 1) clamped, then their weights; W 2 -> 3 likewise.
// CHECK: arith.constant dense<[0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00, 2.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 7.500000e-01, 2.500000e-01, 7.500000e-01, 2.500000e-01]> : tensor<16xf64>
// CHECK: arith.constant dense<[0.000000e+00, 0.000000e+00, 1.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 0.16666666666666674, 5.000000e-01, 0.83333333333333326, 0.83333333333333326, 5.000000e-01, 0.16666666666666674]> : tensor<12xf64>
// CHECK: call @strata_rt_resize2d_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c2_i64{{[_0-9]*}}, %c2_i64{{[_0-9]*}}, %c0_i64{{[_0-9]*}})
// CHECK-NOT: nn.resize
func.func @bilinear(%x: tensor<1x3x2x2xf32>) -> tensor<1x3x4x3xf32> {
  %g = "nn.constant"() {value = dense<[1, 3, 4, 3]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", coordinate_transformation_mode = "half_pixel", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x2x2xf32>, tensor<4xi64>) -> tensor<1x3x4x3xf32>
  return %r : tensor<1x3x4x3xf32>
}

// -----

// A nearest resize: one tap per dim, the `nearest` flag; a kept H dim has
// one unweighted tap of its own index.
// CHECK-LABEL: func.func @nearest_w_only
// CHECK: arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00, 1.000000e+00, 1.000000e+00, 1.000000e+00]> : tensor<6xf64>
// CHECK: call @strata_rt_resize2d_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}}, %c1_i64{{[_0-9]*}})
func.func @nearest_w_only(%x: tensor<2x3x5xf32>) -> tensor<2x3x10xf32> {
  %g = "nn.constant"() {value = dense<[1.0, 1.0, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %r = "nn.resize"(%x, %g) {mode = "nearest", coordinate_transformation_mode = "asymmetric", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<2x3x5xf32>, tensor<3xf32>) -> tensor<2x3x10xf32>
  return %r : tensor<2x3x10xf32>
}

// -----

// Left to nn-to-linalg: tf_crop_and_resize (extrapolated elements), a
// resized channel dim, an f16 tensor.
// CHECK-LABEL: func.func @declined
// CHECK-NOT: call @strata_rt_resize2d_f32
// CHECK-COUNT-3: nn.resize
func.func @declined(%x: tensor<1x2x4x5xf32>, %h: tensor<1x2x4x5xf16>) -> (tensor<1x2x8x7xf32>, tensor<1x4x8x10xf32>, tensor<1x2x8x10xf16>) {
  %roi = "nn.constant"() {value = dense<[0.0, 0.0, 0.2, -0.3, 1.0, 1.0, 0.9, 1.4]> : tensor<8xf32>} : () -> tensor<8xf32>
  %s = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 1.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %a = "nn.resize"(%x, %roi, %s) {mode = "linear", coordinate_transformation_mode = "tf_crop_and_resize", operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x2x4x5xf32>, tensor<8xf32>, tensor<4xf32>) -> tensor<1x2x8x7xf32>
  %c = "nn.constant"() {value = dense<[1.0, 2.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %b = "nn.resize"(%x, %c) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x2x4x5xf32>, tensor<4xf32>) -> tensor<1x4x8x10xf32>
  %d = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %e = "nn.resize"(%h, %d) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x2x4x5xf16>, tensor<4xf32>) -> tensor<1x2x8x10xf16>
  return %a, %b, %e : tensor<1x2x8x7xf32>, tensor<1x4x8x10xf32>, tensor<1x2x8x10xf16>
}
