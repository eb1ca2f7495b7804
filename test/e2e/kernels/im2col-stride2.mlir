// Stride-2 convolutions through the implicit-im2col GEMM against the
// interpreter: the panel's stride-2 runs go through the ISA's copyStride2
// (VW-wide blocks, the last one overlapping the block before, scalar runs
// shorter than VW), the runs inside the row without a division, the border
// runs (padding left and right) with it, and the run that ends at the
// image's last element (src[2n - 1] past it: copied as n - 1 and one).
// Output widths 19, 20, 32 and 9 give runs of 1 to 32 columns (panels
// crossing output rows); the MobileNet stems' shapes (3 channels, clip and
// hard-swish epilogues), a 16-channel layer to 72 outputs (the GEMM, not
// the direct kernel), and a stride-1 conv over a column-strided view
// (stride 2 in memory). On every ISA the host has, on one and two threads.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-5 --threads 2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// 37 -> 19 columns, pads 1: left border runs (tap column 0), inside runs,
// right border runs (tap column 2).
func.func @stem_w19_clip(%x: tensor<1x3x37x37xf32>, %w: tensor<32x3x3x3xf32>, %b: tensor<32xf32>) -> tensor<1x32x19x19xf32> {
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x37x37xf32>, tensor<32x3x3x3xf32>, tensor<32xf32>) -> tensor<1x32x19x19xf32>
  %z = "nn.clip"(%y) {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x32x19x19xf32>) -> tensor<1x32x19x19xf32>
  return %z : tensor<1x32x19x19xf32>
}
// No padding, 41 -> 20 columns: tap column 2 of the last output column reads
// the row's last element, so the image's last run stops at its end.
func.func @stem_w20_nopad(%x: tensor<1x3x21x41xf32>, %w: tensor<16x3x3x3xf32>) -> tensor<1x16x10x20xf32> {
  %y = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>} : (tensor<1x3x21x41xf32>, tensor<16x3x3x3xf32>) -> tensor<1x16x10x20xf32>
  return %y : tensor<1x16x10x20xf32>
}
// 64 -> 32 columns: runs of whole panels on AVX-512 (NR 32), two on AVX2.
func.func @stem_w32_hardswish(%x: tensor<2x3x64x64xf32>, %w: tensor<16x3x3x3xf32>, %b: tensor<16xf32>) -> tensor<2x16x32x32xf32> {
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3x64x64xf32>, tensor<16x3x3x3xf32>, tensor<16xf32>) -> tensor<2x16x32x32xf32>
  %z = "nn.hard_swish"(%y) : (tensor<2x16x32x32xf32>) -> tensor<2x16x32x32xf32>
  return %z : tensor<2x16x32x32xf32>
}
// 16 channels to 72 (more than the direct kernel takes): the GEMM; 18 -> 9
// columns, pads 1 on the right only, 5x5 window.
func.func @conv5_w9(%x: tensor<1x16x18x18xf32>, %w: tensor<72x16x5x5xf32>, %b: tensor<72xf32>) -> tensor<1x72x8x8xf32> {
  %y = "nn.conv"(%x, %w, %b) {strides = array<i64: 2, 2>, pads = array<i64: 0, 0, 1, 1>} : (tensor<1x16x18x18xf32>, tensor<72x16x5x5xf32>, tensor<72xf32>) -> tensor<1x72x8x8xf32>
  return %y : tensor<1x72x8x8xf32>
}
// Stride 1 over every second column of the input (a strided view, when the
// slice stays one): stride 2 in memory all the same.
func.func @strided_view(%big: tensor<1x4x12x50xf32>, %w: tensor<8x4x3x3xf32>) -> tensor<1x8x12x25xf32> {
  %s = "nn.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "nn.constant"() {value = dense<[50]> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "nn.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %st = "nn.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %x = "nn.slice"(%big, %s, %e, %a, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<1x4x12x50xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1x4x12x25xf32>
  %y = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x12x25xf32>, tensor<8x4x3x3xf32>) -> tensor<1x8x12x25xf32>
  return %y : tensor<1x8x12x25xf32>
}
