// The resize kernel (strata_rt_resize2d_f32) against the interpreter, bit
// for bit (--rtol 0 --atol 0): rows wider than the AVX-512 rows' 8 columns
// with tails, the bilinear and nearest rows (their 16-column windows when
// upsampling, gathers when downsampling), the general rows (cubic, one
// dim kept), ranks 2, 3 and 5, threads, and the plain C rows
// (STRATA_RT_ISA=generic). A zero weight adds nothing: the infinities of
// @zero_weights_skip_inf reach only the outputs that weigh them.
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 0 --atol 0 --threads 3 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @bilinear_half_pixel_up(%x: tensor<1x3x13x10xf32>) -> tensor<1x3x29x37xf32> {
  %g = "nn.constant"() {value = dense<[1, 3, 29, 37]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", coordinate_transformation_mode = "half_pixel", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x13x10xf32>, tensor<4xi64>) -> tensor<1x3x29x37xf32>
  return %r : tensor<1x3x29x37xf32>
}
func.func @bilinear_align_corners_down(%x: tensor<2x2x40x51xf32>) -> tensor<2x2x17x19xf32> {
  %g = "nn.constant"() {value = dense<[2, 2, 17, 19]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", coordinate_transformation_mode = "align_corners", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<2x2x40x51xf32>, tensor<4xi64>) -> tensor<2x2x17x19xf32>
  return %r : tensor<2x2x17x19xf32>
}
func.func @bilinear_pytorch_scales(%x: tensor<1x4x7x9xf32>) -> tensor<1x4x21x36xf32> {
  %s = "nn.constant"() {value = dense<[1.0, 1.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "nn.resize"(%x, %s) {mode = "linear", coordinate_transformation_mode = "pytorch_half_pixel", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x4x7x9xf32>, tensor<4xf32>) -> tensor<1x4x21x36xf32>
  return %r : tensor<1x4x21x36xf32>
}
func.func @nearest_round_prefer_ceil(%x: tensor<2x3x9x11xf32>) -> tensor<2x3x20x33xf32> {
  %g = "nn.constant"() {value = dense<[2, 3, 20, 33]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "nearest", coordinate_transformation_mode = "asymmetric", nearest_mode = "round_prefer_ceil", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<2x3x9x11xf32>, tensor<4xi64>) -> tensor<2x3x20x33xf32>
  return %r : tensor<2x3x20x33xf32>
}
func.func @nearest_floor_x2(%x: tensor<1x8x16x16xf32>) -> tensor<1x8x32x32xf32> {
  %s = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "nn.resize"(%x, %s) {mode = "nearest", nearest_mode = "floor", coordinate_transformation_mode = "asymmetric", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x8x16x16xf32>, tensor<4xf32>) -> tensor<1x8x32x32xf32>
  return %r : tensor<1x8x32x32xf32>
}
func.func @nearest_down_gathered(%x: tensor<1x2x5x70xf32>) -> tensor<1x2x3x20xf32> {
  // 8 columns read 28 input columns: the gathers, not the 16-column window.
  %g = "nn.constant"() {value = dense<[1, 2, 3, 20]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "nearest", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x2x5x70xf32>, tensor<4xi64>) -> tensor<1x2x3x20xf32>
  return %r : tensor<1x2x3x20xf32>
}
func.func @cubic_exclude_outside(%x: tensor<1x2x7x9xf32>) -> tensor<1x2x15x20xf32> {
  %g = "nn.constant"() {value = dense<[1, 2, 15, 20]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "cubic", cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x2x7x9xf32>, tensor<4xi64>) -> tensor<1x2x15x20xf32>
  return %r : tensor<1x2x15x20xf32>
}
func.func @linear_w_only(%x: tensor<1x2x6x9xf32>) -> tensor<1x2x6x20xf32> {
  // H kept: one unweighted tap; W two weighted taps (the general rows).
  %g = "nn.constant"() {value = dense<[1, 2, 6, 20]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x2x6x9xf32>, tensor<4xi64>) -> tensor<1x2x6x20xf32>
  return %r : tensor<1x2x6x20xf32>
}
func.func @linear_kept_dims(%x: tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32> {
  // Linear with nothing resized: 0.0 + x, each element once.
  %g = "nn.constant"() {value = dense<[1, 2, 6, 9]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x2x6x9xf32>, tensor<4xi64>) -> tensor<1x2x6x9xf32>
  return %r : tensor<1x2x6x9xf32>
}
func.func @rank2(%x: tensor<11x13xf32>) -> tensor<25x30xf32> {
  %g = "nn.constant"() {value = dense<[25, 30]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<11x13xf32>, tensor<2xi64>) -> tensor<25x30xf32>
  return %r : tensor<25x30xf32>
}
func.func @rank5(%x: tensor<2x3x2x5x6xf32>) -> tensor<2x3x2x11x17xf32> {
  %g = "nn.constant"() {value = dense<[2, 3, 2, 11, 17]> : tensor<5xi64>} : () -> tensor<5xi64>
  %r = "nn.resize"(%x, %g) {mode = "linear", coordinate_transformation_mode = "asymmetric", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<2x3x2x5x6xf32>, tensor<5xi64>) -> tensor<2x3x2x11x17xf32>
  return %r : tensor<2x3x2x11x17xf32>
}
func.func @zero_weights_skip_inf(%x: tensor<1x1x3x4xf32>) -> tensor<1x1x5x13xf32> {
  // align_corners lands on input rows and columns exactly: their
  // neighbours' weights are 0, so an infinity there stays out of the
  // outputs on the grid lines (0 * inf would make them NaN).
  %i = "nn.constant"() {value = dense<[[[[1.0, 0x7F800000, 2.0, 3.0], [4.0, 5.0, 0xFF800000, 6.0], [7.0, 8.0, 9.0, 0x7F800000]]]]> : tensor<1x1x3x4xf32>} : () -> tensor<1x1x3x4xf32>
  %a = "nn.add"(%x, %i) : (tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32>) -> tensor<1x1x3x4xf32>
  %g = "nn.constant"() {value = dense<[1, 1, 5, 13]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.resize"(%a, %g) {mode = "linear", coordinate_transformation_mode = "align_corners", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x1x3x4xf32>, tensor<4xi64>) -> tensor<1x1x5x13xf32>
  return %r : tensor<1x1x5x13xf32>
}
