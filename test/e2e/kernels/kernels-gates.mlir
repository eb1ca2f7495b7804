// The activations in the kernels' epilogues at EfficientNet's shapes, against
// the interpreter: SiLU, sigmoid and hard-swish applied to whole 8x32 (or
// 6x16, 6x8) register tiles in the GEMM microkernel (actVectors), to the
// tails and the transposed product's rows (actRow, with a partial last
// vector), and to the channel-blocked depthwise kernel's tile rows (full
// 16-channel groups and a tail group, 3x3 and 5x5, stride 1 and 2); a
// scaled variant of each takes the gate past exp's range both ways
// (sigmoid(-big) exactly 0, silu(big) = big), the AVX-512 gate's own exp
// (vscalefps) included; depthwise rows of 2 to 14 pixels (8-pixel blocks
// and every remainder block).
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 --threads 2 | FileCheck %s
// RUN: env STRATA_RT_ISA=avx2 %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// RUN: env STRATA_RT_ISA=generic %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-4 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// 1x1 expand conv on a 14x14 map: N = 196, full tiles and a 4-column tail.
func.func @expand14_silu(%x: tensor<1x40x14x14xf32>, %w: tensor<120x40x1x1xf32>, %b: tensor<120xf32>) -> tensor<1x120x14x14xf32> {
  %y = "nn.conv"(%x, %w, %b) : (tensor<1x40x14x14xf32>, tensor<120x40x1x1xf32>, tensor<120xf32>) -> tensor<1x120x14x14xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x120x14x14xf32>, tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  return %z : tensor<1x120x14x14xf32>
}
func.func @expand14_scaled_silu(%x: tensor<1x40x14x14xf32>, %w: tensor<120x40x1x1xf32>, %b: tensor<120xf32>) -> tensor<1x120x14x14xf32> {
  %k = "nn.constant"() {value = dense<60.0> : tensor<f32>} : () -> tensor<f32>
  %xs = "nn.mul"(%x, %k) : (tensor<1x40x14x14xf32>, tensor<f32>) -> tensor<1x40x14x14xf32>
  %y = "nn.conv"(%xs, %w, %b) : (tensor<1x40x14x14xf32>, tensor<120x40x1x1xf32>, tensor<120xf32>) -> tensor<1x120x14x14xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x120x14x14xf32>, tensor<1x120x14x14xf32>) -> tensor<1x120x14x14xf32>
  return %z : tensor<1x120x14x14xf32>
}
// 1x1 conv on a 7x7 map with a long K: computed transposed (C^T = B^T
// A^T), the epilogue on C's 49-column rows.
func.func @project7_scaled_sigmoid(%x: tensor<1x600x7x7xf32>, %w: tensor<64x600x1x1xf32>, %b: tensor<64xf32>) -> tensor<1x64x7x7xf32> {
  %k = "nn.constant"() {value = dense<40.0> : tensor<f32>} : () -> tensor<f32>
  %xs = "nn.mul"(%x, %k) : (tensor<1x600x7x7xf32>, tensor<f32>) -> tensor<1x600x7x7xf32>
  %y = "nn.conv"(%xs, %w, %b) : (tensor<1x600x7x7xf32>, tensor<64x600x1x1xf32>, tensor<64xf32>) -> tensor<1x64x7x7xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x64x7x7xf32>) -> tensor<1x64x7x7xf32>
  return %s : tensor<1x64x7x7xf32>
}
func.func @matmul_tiles_scaled_silu(%a: tensor<17x40xf32>, %b: tensor<40x70xf32>) -> tensor<17x70xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<17x40xf32>, tensor<40x70xf32>) -> tensor<17x70xf32>
  %k = "nn.constant"() {value = dense<400.0> : tensor<f32>} : () -> tensor<f32>
  %big = "nn.mul"(%y, %k) : (tensor<17x70xf32>, tensor<f32>) -> tensor<17x70xf32>
  %s = "nn.sigmoid"(%big) : (tensor<17x70xf32>) -> tensor<17x70xf32>
  %z = "nn.mul"(%big, %s) : (tensor<17x70xf32>, tensor<17x70xf32>) -> tensor<17x70xf32>
  return %z : tensor<17x70xf32>
}
func.func @matmul_tiles_hardswish(%a: tensor<17x40xf32>, %b: tensor<40x70xf32>) -> tensor<17x70xf32> {
  %y = "nn.matmul"(%a, %b) : (tensor<17x40xf32>, tensor<40x70xf32>) -> tensor<17x70xf32>
  %z = "nn.hard_swish"(%y) : (tensor<17x70xf32>) -> tensor<17x70xf32>
  return %z : tensor<17x70xf32>
}
// Depthwise: 40 channels (two full 16-channel groups and a tail of 8).
func.func @dw5x5_s2_scaled_silu(%x: tensor<1x40x15x15xf32>, %w: tensor<40x1x5x5xf32>, %b: tensor<40xf32>) -> tensor<1x40x8x8xf32> {
  %k = "nn.constant"() {value = dense<30.0> : tensor<f32>} : () -> tensor<f32>
  %xs = "nn.mul"(%x, %k) : (tensor<1x40x15x15xf32>, tensor<f32>) -> tensor<1x40x15x15xf32>
  %y = "nn.conv"(%xs, %w, %b) {group = 40 : i64, strides = array<i64: 2, 2>, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x40x15x15xf32>, tensor<40x1x5x5xf32>, tensor<40xf32>) -> tensor<1x40x8x8xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x40x8x8xf32>) -> tensor<1x40x8x8xf32>
  %z = "nn.mul"(%s, %y) : (tensor<1x40x8x8xf32>, tensor<1x40x8x8xf32>) -> tensor<1x40x8x8xf32>
  return %z : tensor<1x40x8x8xf32>
}
func.func @dw3x3_silu(%x: tensor<1x40x14x14xf32>, %w: tensor<40x1x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x14x14xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 40 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x40x14x14xf32>, tensor<40x1x3x3xf32>, tensor<40xf32>) -> tensor<1x40x14x14xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x40x14x14xf32>) -> tensor<1x40x14x14xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x40x14x14xf32>, tensor<1x40x14x14xf32>) -> tensor<1x40x14x14xf32>
  return %z : tensor<1x40x14x14xf32>
}
func.func @dw3x3_s2_sigmoid(%x: tensor<1x40x13x13xf32>, %w: tensor<40x1x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x7x7xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 40 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x40x13x13xf32>, tensor<40x1x3x3xf32>, tensor<40xf32>) -> tensor<1x40x7x7xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x40x7x7xf32>) -> tensor<1x40x7x7xf32>
  return %s : tensor<1x40x7x7xf32>
}
func.func @dw5x5_hardswish(%x: tensor<1x40x14x14xf32>, %w: tensor<40x1x5x5xf32>, %b: tensor<40xf32>) -> tensor<1x40x14x14xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 40 : i64, pads = array<i64: 2, 2, 2, 2>} : (tensor<1x40x14x14xf32>, tensor<40x1x5x5xf32>, tensor<40xf32>) -> tensor<1x40x14x14xf32>
  %z = "nn.hard_swish"(%y) : (tensor<1x40x14x14xf32>) -> tensor<1x40x14x14xf32>
  return %z : tensor<1x40x14x14xf32>
}
// Row remainders of 3 (8 + 3) and 2 pixels after the 8-pixel blocks.
func.func @dw3x3_rows11_relu(%x: tensor<1x20x6x11xf32>, %w: tensor<20x1x3x3xf32>, %b: tensor<20xf32>) -> tensor<1x20x6x11xf32> {
  %y = "nn.conv"(%x, %w, %b) {group = 20 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x20x6x11xf32>, tensor<20x1x3x3xf32>, tensor<20xf32>) -> tensor<1x20x6x11xf32>
  %z = "nn.relu"(%y) : (tensor<1x20x6x11xf32>) -> tensor<1x20x6x11xf32>
  return %z : tensor<1x20x6x11xf32>
}
func.func @dw3x3_s2_rows2_silu(%x: tensor<1x20x5x4xf32>, %w: tensor<20x1x3x3xf32>) -> tensor<1x20x3x2xf32> {
  %y = "nn.conv"(%x, %w) {group = 20 : i64, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x20x5x4xf32>, tensor<20x1x3x3xf32>) -> tensor<1x20x3x2xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x20x3x2xf32>) -> tensor<1x20x3x2xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x20x3x2xf32>, tensor<1x20x3x2xf32>) -> tensor<1x20x3x2xf32>
  return %z : tensor<1x20x3x2xf32>
}
// A squeeze-and-excitation gate applied while the 1x1 conv packs its
// input (xscale): full NR-wide panels (the ISA's scaledPanel) and a tail.
func.func @se_project14(%x: tensor<1x96x14x14xf32>, %g: tensor<1x96x1x1xf32>, %w: tensor<40x96x1x1xf32>, %b: tensor<40xf32>) -> tensor<1x40x14x14xf32> {
  %s = "nn.mul"(%x, %g) : (tensor<1x96x14x14xf32>, tensor<1x96x1x1xf32>) -> tensor<1x96x14x14xf32>
  %y = "nn.conv"(%s, %w, %b) : (tensor<1x96x14x14xf32>, tensor<40x96x1x1xf32>, tensor<40xf32>) -> tensor<1x40x14x14xf32>
  return %y : tensor<1x40x14x14xf32>
}
// 1x1 expand conv on a 7x7 map, short K: not transposed, each 8-row tile's
// 17-column tail gathered into one run for the gate.
func.func @expand7_scaled_silu(%x: tensor<1x48x7x7xf32>, %w: tensor<200x48x1x1xf32>, %b: tensor<200xf32>) -> tensor<1x200x7x7xf32> {
  %k = "nn.constant"() {value = dense<60.0> : tensor<f32>} : () -> tensor<f32>
  %xs = "nn.mul"(%x, %k) : (tensor<1x48x7x7xf32>, tensor<f32>) -> tensor<1x48x7x7xf32>
  %y = "nn.conv"(%xs, %w, %b) : (tensor<1x48x7x7xf32>, tensor<200x48x1x1xf32>, tensor<200xf32>) -> tensor<1x200x7x7xf32>
  %s = "nn.sigmoid"(%y) : (tensor<1x200x7x7xf32>) -> tensor<1x200x7x7xf32>
  %z = "nn.mul"(%y, %s) : (tensor<1x200x7x7xf32>, tensor<1x200x7x7xf32>) -> tensor<1x200x7x7xf32>
  return %z : tensor<1x200x7x7xf32>
}
