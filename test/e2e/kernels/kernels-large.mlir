// GEMM blocking edges of the libstrata_rt kernels against the interpreter:
// K = 600 crosses KC = 512, N = 2090 crosses NC = 2048, M = 141 crosses MC
// and leaves MR/NR tails; the conv has K = 576. Sums of ~600 products of
// magnitude ~1 differ from the interpreter's summation order by ~1e-5, so
// the absolute tolerance is 1e-4 here (values reach ~35). The Winograd
// cases (3x3 stride 1, >= 64 channels) also run with it turned off; three
// threads give the pool regions with fewer chunks than workers. The
// swapped_* cases have few output columns and many rows and a long K: the
// GEMM computes them transposed (C^T = B^T A^T) on every ISA. The
// rows_split_* cases have more rows than columns: the threads split M.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 3 | FileCheck %s
// RUN: env STRATA_RT_WINOGRAD=0 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @conv_large(%x: tensor<1x64x20x37xf32>, %w: tensor<40x64x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x20x37xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x20x37xf32>, tensor<40x64x3x3xf32>, tensor<40xf32>) -> tensor<1x40x20x37xf32>
  return %y : tensor<1x40x20x37xf32>
}
func.func @matmul_blocking_edges(%a: tensor<141x600xf32>, %b: tensor<600x2090xf32>) -> tensor<141x2090xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<141x600xf32>, tensor<600x2090xf32>) -> tensor<141x2090xf32>
  return %y : tensor<141x2090xf32>
}
func.func @winograd_residual_relu(%x: tensor<1x128x13x11xf32>, %w: tensor<130x128x3x3xf32>, %b: tensor<130xf32>, %r: tensor<1x130x13x11xf32>) -> tensor<1x130x13x11xf32> {
  // 3x3, stride 1, >= 128 channels, >= 32 tiles: Winograd F(2x2, 3x3); odd output sizes.
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x128x13x11xf32>, tensor<130x128x3x3xf32>, tensor<130xf32>) -> tensor<1x130x13x11xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x130x13x11xf32>, tensor<1x130x13x11xf32>) -> tensor<1x130x13x11xf32>
  %z = "nn.relu"(%s) : (tensor<1x130x13x11xf32>) -> tensor<1x130x13x11xf32>
  return %z : tensor<1x130x13x11xf32>
}
func.func @winograd_constant_weights_batch(%x: tensor<2x128x17x16xf32>) -> tensor<2x128x15x16xf32> {
  %w = "nn.constant"() {value = dense<0.0078125> : tensor<128x128x3x3xf32>} : () -> tensor<128x128x3x3xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 0, 1, 0, 1>} : (tensor<2x128x17x16xf32>, tensor<128x128x3x3xf32>) -> tensor<2x128x15x16xf32>
  return %y : tensor<2x128x15x16xf32>
}
func.func @swapped_conv_bias_residual_relu(%x: tensor<1x64x9x7xf32>, %w: tensor<100x64x3x3xf32>, %b: tensor<100xf32>, %r: tensor<1x100x7x5xf32>) -> tensor<1x100x7x5xf32> {
  // M = 100 channels, N = 35 pixels, K = 576: transposed GEMM, generic epilogue.
  %y = "nn.conv"(%x, %w, %b) : (tensor<1x64x9x7xf32>, tensor<100x64x3x3xf32>, tensor<100xf32>) -> tensor<1x100x7x5xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x100x7x5xf32>, tensor<1x100x7x5xf32>) -> tensor<1x100x7x5xf32>
  %z = "nn.relu"(%s) : (tensor<1x100x7x5xf32>) -> tensor<1x100x7x5xf32>
  return %z : tensor<1x100x7x5xf32>
}
func.func @swapped_gemm_transA(%a: tensor<700x200xf32>, %b: tensor<700x9xf32>, %c: tensor<9xf32>) -> tensor<200x9xf32> {
  // M = 200, N = 9, K = 700, A read transposed: A^T's strides are A's.
  %y = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<700x200xf32>, tensor<700x9xf32>, tensor<9xf32>) -> tensor<200x9xf32>
  return %y : tensor<200x9xf32>
}
func.func @winograd_64_channels(%x: tensor<1x64x12x13xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x12x13xf32> {
  // The smallest channel count that takes Winograd (42 tiles, odd width).
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x12x13xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x12x13xf32>
  return %y : tensor<1x64x12x13xf32>
}
func.func @winograd_bands(%x: tensor<1x64x75x61xf32>, %w: tensor<64x64x3x3xf32>, %b: tensor<64xf32>, %r: tensor<1x64x75x61xf32>) -> tensor<1x64x75x61xf32> {
  // 38 x 31 tiles: the band budget (the layer's input and output, 585600
  // floats) holds 285 tiles, so the tiles go in bands of 256 (NR 32; 280
  // or 272 for NR 8 or 16) that start and end inside tile rows, the last
  // one with the odd output row; the cut last column falls in the middle
  // of bands; the epilogue (bias, residual, relu) runs per band.
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x75x61xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<1x64x75x61xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x64x75x61xf32>, tensor<1x64x75x61xf32>) -> tensor<1x64x75x61xf32>
  %z = "nn.relu"(%s) : (tensor<1x64x75x61xf32>) -> tensor<1x64x75x61xf32>
  return %z : tensor<1x64x75x61xf32>
}
func.func @winograd_strided_asymmetric(%big: tensor<1x64x16x26xf32>, %w: tensor<64x64x3x3xf32>) -> tensor<1x64x13x12xf32> {
  // A strided input (every other column of a slice: splitRow's non-unit
  // stride), asymmetric pads of 2 columns on the left and none on the right
  // or bottom (the patch rows' edge loops), an even width with an odd
  // height (whole tile rows written in place, the last through the buffer).
  %s = "nn.constant"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %e = "nn.constant"() {value = dense<[15, 25]> : tensor<2xi64>} : () -> tensor<2xi64>
  %a = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %st = "nn.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %x = "nn.slice"(%big, %s, %e, %a, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<1x64x16x26xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x64x14x12xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 2, 0, 0>} : (tensor<1x64x14x12xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x13x12xf32>
  return %y : tensor<1x64x13x12xf32>
}
func.func @pointwise_residual_across_rows(%x: tensor<1x96x10x7xf32>, %w: tensor<64x96x1x1xf32>, %b: tensor<64xf32>, %r: tensor<1x64x10x7xf32>) -> tensor<1x64x10x7xf32> {
  // N = 70 pixels in rows of 7: full 32-column tiles cross rows, and the
  // dense residual is added in the microkernel's registers.
  %y = "nn.conv"(%x, %w, %b) : (tensor<1x96x10x7xf32>, tensor<64x96x1x1xf32>, tensor<64xf32>) -> tensor<1x64x10x7xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x64x10x7xf32>, tensor<1x64x10x7xf32>) -> tensor<1x64x10x7xf32>
  %z = "nn.relu"(%s) : (tensor<1x64x10x7xf32>) -> tensor<1x64x10x7xf32>
  return %z : tensor<1x64x10x7xf32>
}
func.func @pointwise_plane_residual(%x: tensor<1x96x10x7xf32>, %w: tensor<64x96x1x1xf32>, %r: tensor<1x1x10x7xf32>, %q: tensor<1x64x10x1xf32>) -> tensor<1x64x10x7xf32> {
  // One plane broadcast over the channels (dense over (h, w), no channel
  // stride), then a column broadcast along w (not dense: outside the registers).
  %y = "nn.conv"(%x, %w) : (tensor<1x96x10x7xf32>, tensor<64x96x1x1xf32>) -> tensor<1x64x10x7xf32>
  %s = "nn.add"(%y, %r) : (tensor<1x64x10x7xf32>, tensor<1x1x10x7xf32>) -> tensor<1x64x10x7xf32>
  %t = "nn.add"(%s, %q) : (tensor<1x64x10x7xf32>, tensor<1x64x10x1xf32>) -> tensor<1x64x10x7xf32>
  return %t : tensor<1x64x10x7xf32>
}
func.func @rows_split_conv(%x: tensor<1x64x8x8xf32>, %w: tensor<136x64x3x3xf32>, %b: tensor<136xf32>) -> tensor<1x136x8x8xf32> {
  // M = 136 > N = 64, K = 576: the threads split M, each packing the
  // im2col B.
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x8x8xf32>, tensor<136x64x3x3xf32>, tensor<136xf32>) -> tensor<1x136x8x8xf32>
  %z = "nn.relu"(%y) : (tensor<1x136x8x8xf32>) -> tensor<1x136x8x8xf32>
  return %z : tensor<1x136x8x8xf32>
}
func.func @rows_split_swapped_conv(%x: tensor<1x128x9x9xf32>, %w: tensor<128x128x3x3xf32>, %b: tensor<128xf32>) -> tensor<1x128x7x7xf32> {
  // M = 128, N = 49, K = 1152: transposed GEMM split over M.
  %y = "nn.conv"(%x, %w, %b) : (tensor<1x128x9x9xf32>, tensor<128x128x3x3xf32>, tensor<128xf32>) -> tensor<1x128x7x7xf32>
  return %y : tensor<1x128x7x7xf32>
}
func.func @rows_split_swapped_pointwise(%x: tensor<1x1024x7x7xf32>, %w: tensor<160x1024x1x1xf32>) -> tensor<1x160x7x7xf32> {
  // A 1x1 convolution (B read in place) on a 7x7 map, K = 1024.
  %y = "nn.conv"(%x, %w) : (tensor<1x1024x7x7xf32>, tensor<160x1024x1x1xf32>) -> tensor<1x160x7x7xf32>
  return %y : tensor<1x160x7x7xf32>
}
