// Concats whose operands are computed in their slice of the result
// (strata-slice-alias) against the interpreter: outputs of convolutions
// (implicit-im2col GEMM, direct, Winograd, depthwise, fused epilogues),
// pooling, matmuls and generated loops; batch 2 (strided images); an operand
// also read before the Concat (a U-Net skip) and one read after it; the same
// operand twice; operands that are function arguments or constants (copies
// stay); non-channel axes (H: a convolution takes it; W: it does not, the
// copy stays; 0; negative); a Concat of a Concat; a softmax (dense-only
// output) at batch 1 and 2. Every fusion mode, one and two threads, and
// each convolution kernel forced where it applies.
// RUN: %python %S/../compare_all.py %s | FileCheck %s
// RUN: %python %S/../compare_all.py %s --fusion dnnfusion --fuse-profile always | FileCheck %s
// RUN: %python %S/../compare_all.py %s --fusion none | FileCheck %s
// RUN: %python %S/../compare_all.py %s --threads 2 | FileCheck %s
// RUN: env STRATA_RT_GROUPED=gemm STRATA_RT_WINOGRAD=0 %python %S/../compare_all.py %s | FileCheck %s
// RUN: env STRATA_RT_GROUPED=direct STRATA_RT_DEPTHWISE=plane %python %S/../compare_all.py %s --threads 2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// Two convolutions (3x3 with relu, 1x1 with sigmoid) and a generated loop.
func.func @convs_and_loop(%x: tensor<1x8x10x10xf32>, %w1: tensor<16x8x3x3xf32>, %w2: tensor<4x8x1x1xf32>) -> tensor<1x20x10x10xf32> {
  %a = "nn.conv"(%x, %w1) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x10x10xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x10x10xf32>
  %r = "nn.relu"(%a) : (tensor<1x16x10x10xf32>) -> tensor<1x16x10x10xf32>
  %b = "nn.conv"(%x, %w2) : (tensor<1x8x10x10xf32>, tensor<4x8x1x1xf32>) -> tensor<1x4x10x10xf32>
  %s = "nn.sigmoid"(%b) : (tensor<1x4x10x10xf32>) -> tensor<1x4x10x10xf32>
  %t = "nn.exp"(%s) : (tensor<1x4x10x10xf32>) -> tensor<1x4x10x10xf32>
  %c = "nn.concat"(%r, %t) {axis = 1 : i64} : (tensor<1x16x10x10xf32>, tensor<1x4x10x10xf32>) -> tensor<1x20x10x10xf32>
  %y = "nn.relu"(%c) : (tensor<1x20x10x10xf32>) -> tensor<1x20x10x10xf32>
  return %y : tensor<1x20x10x10xf32>
}
// An inception block at batch 2: 1x1, 3x3 (direct or GEMM), Winograd
// (64 to 64, 3x3, 12x12), max pool then 1x1, depthwise; each image's
// slice is strided by the concatenated channel count.
func.func @inception_batch2(%x: tensor<2x64x12x12xf32>, %w1: tensor<8x64x1x1xf32>, %w3: tensor<16x64x3x3xf32>, %w5: tensor<64x64x3x3xf32>, %b5: tensor<64xf32>, %wp: tensor<8x64x1x1xf32>, %wd: tensor<64x1x3x3xf32>) -> tensor<2x224x12x12xf32> {
  %a = "nn.conv"(%x, %w1) : (tensor<2x64x12x12xf32>, tensor<8x64x1x1xf32>) -> tensor<2x8x12x12xf32>
  %b = "nn.conv"(%x, %w3) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x64x12x12xf32>, tensor<16x64x3x3xf32>) -> tensor<2x16x12x12xf32>
  %c = "nn.conv"(%x, %w5, %b5) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x64x12x12xf32>, tensor<64x64x3x3xf32>, tensor<64xf32>) -> tensor<2x64x12x12xf32>
  %cr = "nn.relu"(%c) : (tensor<2x64x12x12xf32>) -> tensor<2x64x12x12xf32>
  %p = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x64x12x12xf32>) -> tensor<2x64x12x12xf32>
  %d = "nn.conv"(%p, %wp) : (tensor<2x64x12x12xf32>, tensor<8x64x1x1xf32>) -> tensor<2x8x12x12xf32>
  %e = "nn.conv"(%x, %wd) {group = 64 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<2x64x12x12xf32>, tensor<64x1x3x3xf32>) -> tensor<2x64x12x12xf32>
  %y1 = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<2x8x12x12xf32>, tensor<2x16x12x12xf32>) -> tensor<2x24x12x12xf32>
  %y2 = "nn.concat"(%y1, %cr) {axis = 1 : i64} : (tensor<2x24x12x12xf32>, tensor<2x64x12x12xf32>) -> tensor<2x88x12x12xf32>
  %y3 = "nn.concat"(%y2, %d) {axis = 1 : i64} : (tensor<2x88x12x12xf32>, tensor<2x8x12x12xf32>) -> tensor<2x96x12x12xf32>
  %y4 = "nn.concat"(%y3, %e) {axis = 1 : i64} : (tensor<2x96x12x12xf32>, tensor<2x64x12x12xf32>) -> tensor<2x160x12x12xf32>
  %y = "nn.concat"(%y4, %p) {axis = 1 : i64} : (tensor<2x160x12x12xf32>, tensor<2x64x12x12xf32>) -> tensor<2x224x12x12xf32>
  return %y : tensor<2x224x12x12xf32>
}
// A U-Net step: the encoder's output is pooled, convolved, upsampled
// (nearest Resize, a generated loop) and concatenated with itself.
func.func @unet_skip(%x: tensor<2x4x8x8xf32>, %we: tensor<8x4x3x3xf32>, %wd: tensor<8x8x3x3xf32>) -> tensor<2x16x8x8xf32> {
  %e = "nn.conv"(%x, %we) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x4x8x8xf32>, tensor<8x4x3x3xf32>) -> tensor<2x8x8x8xf32>
  %er = "nn.relu"(%e) : (tensor<2x8x8x8xf32>) -> tensor<2x8x8x8xf32>
  %p = "nn.max_pool"(%er) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x8x8x8xf32>) -> tensor<2x8x4x4xf32>
  %d = "nn.conv"(%p, %wd) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x8x4x4xf32>, tensor<8x8x3x3xf32>) -> tensor<2x8x4x4xf32>
  %g = "nn.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %u = "nn.resize"(%d, %g) {mode = "nearest", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<2x8x4x4xf32>, tensor<4xf32>) -> tensor<2x8x8x8xf32>
  %c = "nn.concat"(%er, %u) {axis = 1 : i64} : (tensor<2x8x8x8xf32>, tensor<2x8x8x8xf32>) -> tensor<2x16x8x8xf32>
  return %c : tensor<2x16x8x8xf32>
}
// An operand read again after the Concat (by an add, and another by a
// generated loop), and the same operand concatenated twice.
func.func @operand_used_after(%x: tensor<1x4x6x6xf32>, %w: tensor<6x4x3x3xf32>, %w2: tensor<6x14x1x1xf32>) -> (tensor<1x6x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>) {
  %a = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  %b = "nn.exp"(%x) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %c1 = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<1x6x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x10x6x6xf32>
  %c = "nn.concat"(%c1, %b) {axis = 1 : i64} : (tensor<1x10x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x14x6x6xf32>
  %bb = "nn.concat"(%b, %b) {axis = 1 : i64} : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x8x6x6xf32>
  %d = "nn.conv"(%c, %w2) : (tensor<1x14x6x6xf32>, tensor<6x14x1x1xf32>) -> tensor<1x6x6x6xf32>
  %z = "nn.add"(%d, %a) : (tensor<1x6x6x6xf32>, tensor<1x6x6x6xf32>) -> tensor<1x6x6x6xf32>
  %q = "nn.mul"(%b, %b) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %z, %q, %bb : tensor<1x6x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x8x6x6xf32>
}
// Operands that are a function argument and a constant: their copies stay.
func.func @argument_and_constant(%x: tensor<1x3x5x5xf32>, %w: tensor<2x3x3x3xf32>) -> tensor<1x7x5x5xf32> {
  %k = "nn.constant"() {value = dense<0.5> : tensor<1x2x5x5xf32>} : () -> tensor<1x2x5x5xf32>
  %a = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x5x5xf32>
  %c1 = "nn.concat"(%x, %a) {axis = 1 : i64} : (tensor<1x3x5x5xf32>, tensor<1x2x5x5xf32>) -> tensor<1x5x5x5xf32>
  %c = "nn.concat"(%c1, %k) {axis = 1 : i64} : (tensor<1x5x5x5xf32>, tensor<1x2x5x5xf32>) -> tensor<1x7x5x5xf32>
  return %c : tensor<1x7x5x5xf32>
}
// Along H (a convolution writes rows of its planes), along W (it cannot:
// its copy stays, the loop's goes), along the batch, and axis -3.
func.func @axis_h_batch2(%x: tensor<2x3x5x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x4x10x6xf32> {
  %a = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x3x5x6xf32>, tensor<4x3x3x3xf32>) -> tensor<2x4x5x6xf32>
  %b = "nn.tanh"(%a) : (tensor<2x4x5x6xf32>) -> tensor<2x4x5x6xf32>
  %c = "nn.concat"(%a, %b) {axis = 2 : i64} : (tensor<2x4x5x6xf32>, tensor<2x4x5x6xf32>) -> tensor<2x4x10x6xf32>
  return %c : tensor<2x4x10x6xf32>
}
func.func @axis_w(%x: tensor<1x3x5x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x12xf32> {
  %a = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  %b = "nn.neg"(%a) : (tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  %c = "nn.concat"(%a, %b) {axis = 3 : i64} : (tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>) -> tensor<1x4x5x12xf32>
  return %c : tensor<1x4x5x12xf32>
}
func.func @axis_batch_and_negative(%x: tensor<1x3x5x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<2x8x5x6xf32> {
  %a = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  %b = "nn.sigmoid"(%a) : (tensor<1x4x5x6xf32>) -> tensor<1x4x5x6xf32>
  %c = "nn.concat"(%a, %b) {axis = 0 : i64} : (tensor<1x4x5x6xf32>, tensor<1x4x5x6xf32>) -> tensor<2x4x5x6xf32>
  %d = "nn.relu"(%c) : (tensor<2x4x5x6xf32>) -> tensor<2x4x5x6xf32>
  %e = "nn.concat"(%c, %d) {axis = -3 : i64} : (tensor<2x4x5x6xf32>, tensor<2x4x5x6xf32>) -> tensor<2x8x5x6xf32>
  return %e : tensor<2x8x5x6xf32>
}
// A Concat of a Concat at batch 2: the inner operands end up in the outer
// buffer through two slices.
func.func @nested_batch2(%x: tensor<2x4x6x6xf32>, %w1: tensor<4x4x3x3xf32>, %w2: tensor<6x4x1x1xf32>, %w3: tensor<2x4x3x3xf32>) -> tensor<2x12x6x6xf32> {
  %a = "nn.conv"(%x, %w1) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<2x4x6x6xf32>
  %b = "nn.conv"(%x, %w2) : (tensor<2x4x6x6xf32>, tensor<6x4x1x1xf32>) -> tensor<2x6x6x6xf32>
  %i = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<2x4x6x6xf32>, tensor<2x6x6x6xf32>) -> tensor<2x10x6x6xf32>
  %c = "nn.conv"(%x, %w3) {pads = array<i64: 1, 1, 1, 1>} : (tensor<2x4x6x6xf32>, tensor<2x4x3x3xf32>) -> tensor<2x2x6x6xf32>
  %o = "nn.concat"(%c, %i) {axis = 1 : i64} : (tensor<2x2x6x6xf32>, tensor<2x10x6x6xf32>) -> tensor<2x12x6x6xf32>
  return %o : tensor<2x12x6x6xf32>
}
// Matmuls into a Concat along their columns (the row stride of each slice
// is the concatenated width) and a softmax (dense output only) at batch 1
// and 2.
func.func @matmuls_and_softmax(%a: tensor<5x7xf32>, %b1: tensor<7x3xf32>, %b2: tensor<7x4xf32>, %s: tensor<1x3x4xf32>, %t: tensor<2x3x4xf32>) -> (tensor<5x7xf32>, tensor<1x6x4xf32>, tensor<2x6x4xf32>) {
  %m1 = "nn.matmul"(%a, %b1) : (tensor<5x7xf32>, tensor<7x3xf32>) -> tensor<5x3xf32>
  %m2 = "nn.matmul"(%a, %b2) : (tensor<5x7xf32>, tensor<7x4xf32>) -> tensor<5x4xf32>
  %m = "nn.concat"(%m1, %m2) {axis = 1 : i64} : (tensor<5x3xf32>, tensor<5x4xf32>) -> tensor<5x7xf32>
  %s1 = "nn.softmax"(%s) : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %s2 = "nn.exp"(%s) : (tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %sc = "nn.concat"(%s1, %s2) {axis = 1 : i64} : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x6x4xf32>
  %t1 = "nn.softmax"(%t) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %t2 = "nn.exp"(%t) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %tc = "nn.concat"(%t1, %t2) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x6x4xf32>
  return %m, %sc, %tc : tensor<5x7xf32>, tensor<1x6x4xf32>, tensor<2x6x4xf32>
}
