// GEMM-like ops at odd sizes for gpu-tile-workgroup (32x32 output tiles,
// K tiles of 8, 64 work-items with 4x4 register tiles): remainders in every
// dimension, strides, dilations, asymmetric padding, batch and broadcast
// batch dims, transposed operands, a producer fused into the matmul, and
// the cases it leaves on the plain path (groups, matrix-vector, K = 1);
// vector<4xf32> operand loads where K or N and the strides are multiples of 4.
// Compared against the interpreter by test/e2e/{opencl,vulkan}/workgroup-tiles.test.
func.func @conv_pad_stride_dil(%x: tensor<2x5x13x11xf32>, %w: tensor<7x5x3x2xf32>, %b: tensor<7xf32>) -> tensor<2x7x6x5xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 2, 1, 0>, strides = array<i64: 2, 2>, dilations = array<i64: 2, 3>} : (tensor<2x5x13x11xf32>, tensor<7x5x3x2xf32>, tensor<7xf32>) -> tensor<2x7x6x5xf32>
  return %y : tensor<2x7x6x5xf32>
}
func.func @conv_group(%x: tensor<1x6x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64} : (tensor<1x6x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32>
  return %y : tensor<1x4x7x7xf32>
}
func.func @conv1d(%x: tensor<3x4x50xf32>, %w: tensor<33x4x5xf32>) -> tensor<3x33x46xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<3x4x50xf32>, tensor<33x4x5xf32>) -> tensor<3x33x46xf32>
  return %y : tensor<3x33x46xf32>
}
func.func @bmm(%a: tensor<3x33x17xf32>, %b: tensor<3x17x65xf32>) -> tensor<3x33x65xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<3x33x17xf32>, tensor<3x17x65xf32>) -> tensor<3x33x65xf32>
  return %r : tensor<3x33x65xf32>
}
func.func @bmm_bcast(%a: tensor<2x1x9x31xf32>, %b: tensor<3x31x5xf32>) -> tensor<2x3x9x5xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<2x1x9x31xf32>, tensor<3x31x5xf32>) -> tensor<2x3x9x5xf32>
  return %r : tensor<2x3x9x5xf32>
}
func.func @gemm_t(%a: tensor<23x41xf32>, %b: tensor<35x23xf32>, %c: tensor<35xf32>) -> tensor<41x35xf32> {
  %r = "nn.gemm"(%a, %b, %c) {transA = 1 : i64, transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<23x41xf32>, tensor<35x23xf32>, tensor<35xf32>) -> tensor<41x35xf32>
  return %r : tensor<41x35xf32>
}
func.func @matmul_exact(%a: tensor<64x16xf32>, %b: tensor<16x32xf32>) -> tensor<64x32xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<64x16xf32>, tensor<16x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
func.func @matmul_small_k(%a: tensor<5x3xf32>, %b: tensor<3x7xf32>) -> tensor<5x7xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<5x3xf32>, tensor<3x7xf32>) -> tensor<5x7xf32>
  return %r : tensor<5x7xf32>
}
func.func @matmul_k1(%a: tensor<9x1xf32>, %b: tensor<1x10xf32>) -> tensor<9x10xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<9x1xf32>, tensor<1x10xf32>) -> tensor<9x10xf32>
  return %r : tensor<9x10xf32>
}
func.func @matvec(%a: tensor<40x70xf32>, %b: tensor<70xf32>) -> tensor<40xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<40x70xf32>, tensor<70xf32>) -> tensor<40xf32>
  return %r : tensor<40xf32>
}
func.func @relu_matmul(%a: tensor<33x29xf32>, %b: tensor<29x34xf32>) -> tensor<33x34xf32> {
  %p = "nn.relu"(%a) : (tensor<33x29xf32>) -> tensor<33x29xf32>
  %r = "nn.matmul"(%p, %b) : (tensor<33x29xf32>, tensor<29x34xf32>) -> tensor<33x34xf32>
  return %r : tensor<33x34xf32>
}
func.func @conv_resnet_like(%x: tensor<1x16x15x15xf32>, %w: tensor<24x16x3x3xf32>, %b: tensor<24xf32>) -> tensor<1x24x8x8xf32> {
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x16x15x15xf32>, tensor<24x16x3x3xf32>, tensor<24xf32>) -> tensor<1x24x8x8xf32>
  %r = "nn.relu"(%y) : (tensor<1x24x8x8xf32>) -> tensor<1x24x8x8xf32>
  return %r : tensor<1x24x8x8xf32>
}
func.func @conv3d(%x: tensor<1x3x6x7x5xf32>, %w: tensor<5x3x2x3x2xf32>) -> tensor<1x5x5x5x4xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<1x3x6x7x5xf32>, tensor<5x3x2x3x2xf32>) -> tensor<1x5x5x5x4xf32>
  return %y : tensor<1x5x5x5x4xf32>
}
func.func @matmul_vec_edges(%a: tensor<45x20xf32>, %b: tensor<20x36xf32>) -> tensor<45x36xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<45x20xf32>, tensor<20x36xf32>) -> tensor<45x36xf32>
  return %r : tensor<45x36xf32>
}
func.func @bmm_vec(%a: tensor<2x3x33x12xf32>, %b: tensor<2x3x12x40xf32>) -> tensor<2x3x33x40xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<2x3x33x12xf32>, tensor<2x3x12x40xf32>) -> tensor<2x3x33x40xf32>
  return %r : tensor<2x3x33x40xf32>
}
