// Blocks that element-wise fusion leaves as several loop nests: reductions
// and their element-wise users, values with several users. Run through
// each fusion mode (and with every profile cell fused) against the
// interpreter by tiles.test.

// Softmax as exported op by op: {ReduceMax, Sub} and {Exp, ReduceSum, Div}.
func.func @softmax_rows(%x: tensor<6x40xf32>) -> tensor<6x40xf32> {
  %m = "nn.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<6x40xf32>) -> tensor<6x1xf32>
  %s = "nn.sub"(%x, %m) : (tensor<6x40xf32>, tensor<6x1xf32>) -> tensor<6x40xf32>
  %e = "nn.exp"(%s) : (tensor<6x40xf32>) -> tensor<6x40xf32>
  %t = "nn.reduce_sum"(%e) {axes = array<i64: 1>} : (tensor<6x40xf32>) -> tensor<6x1xf32>
  %r = "nn.div"(%e, %t) : (tensor<6x40xf32>, tensor<6x1xf32>) -> tensor<6x40xf32>
  return %r : tensor<6x40xf32>
}

// RMS norm over the last axis with a per-feature scale (an outside input
// that is not cut).
func.func @rms_norm(%x: tensor<2x5x24xf32>, %g: tensor<24xf32>) -> tensor<2x5x24xf32> {
  %sq = "nn.mul"(%x, %x) : (tensor<2x5x24xf32>, tensor<2x5x24xf32>) -> tensor<2x5x24xf32>
  %m = "nn.reduce_mean"(%sq) {axes = array<i64: -1>} : (tensor<2x5x24xf32>) -> tensor<2x5x1xf32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.add"(%m, %eps) : (tensor<2x5x1xf32>, tensor<f32>) -> tensor<2x5x1xf32>
  %q = "nn.sqrt"(%a) : (tensor<2x5x1xf32>) -> tensor<2x5x1xf32>
  %n = "nn.div"(%x, %q) : (tensor<2x5x24xf32>, tensor<2x5x1xf32>) -> tensor<2x5x24xf32>
  %r = "nn.mul"(%n, %g) : (tensor<2x5x24xf32>, tensor<24xf32>) -> tensor<2x5x24xf32>
  return %r : tensor<2x5x24xf32>
}

// Instance-norm statistics over H and W of NCHW: tiles are planes.
func.func @plane_norm(%x: tensor<2x3x7x9xf32>) -> tensor<2x3x7x9xf32> {
  %m = "nn.reduce_mean"(%x) {axes = array<i64: 2, 3>} : (tensor<2x3x7x9xf32>) -> tensor<2x3x1x1xf32>
  %d = "nn.sub"(%x, %m) : (tensor<2x3x7x9xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x7x9xf32>
  %sq = "nn.mul"(%d, %d) : (tensor<2x3x7x9xf32>, tensor<2x3x7x9xf32>) -> tensor<2x3x7x9xf32>
  %v = "nn.reduce_sum"(%sq) {axes = array<i64: 2, 3>} : (tensor<2x3x7x9xf32>) -> tensor<2x3x1x1xf32>
  %r = "nn.div"(%d, %v) : (tensor<2x3x7x9xf32>, tensor<2x3x1x1xf32>) -> tensor<2x3x7x9xf32>
  return %r : tensor<2x3x7x9xf32>
}

// A reduction over the channel axis (keepdims = 0) read back by a
// broadcast: cut along N and H, rows of W whole.
func.func @channel_max(%x: tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32> {
  %m = "nn.reduce_max"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<2x4x3x5xf32>) -> tensor<2x3x5xf32>
  %u = "nn.unsqueeze"(%m) {axes = array<i64: 1>} : (tensor<2x3x5xf32>) -> tensor<2x1x3x5xf32>
  %r = "nn.sub"(%x, %u) : (tensor<2x4x3x5xf32>, tensor<2x1x3x5xf32>) -> tensor<2x4x3x5xf32>
  return %r : tensor<2x4x3x5xf32>
}

// A reduction over rows (axis 0) read back by every row: nothing but the
// reduced and the innermost axis to cut, so the block keeps its nests.
func.func @column_sum(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %s = "nn.reduce_sum"(%x) {axes = array<i64: 0>} : (tensor<8x12xf32>) -> tensor<1x12xf32>
  %r = "nn.div"(%x, %s) : (tensor<8x12xf32>, tensor<1x12xf32>) -> tensor<8x12xf32>
  return %r : tensor<8x12xf32>
}

// An intermediate with two users inside the block and both the reduction
// and the normalized tensor as results of the function.
func.func @two_results(%x: tensor<4x16xf32>) -> (tensor<4x16xf32>, tensor<4x1xf32>) {
  %e = "nn.exp"(%x) : (tensor<4x16xf32>) -> tensor<4x16xf32>
  %t = "nn.reduce_sum"(%e) {axes = array<i64: 1>} : (tensor<4x16xf32>) -> tensor<4x1xf32>
  %l = "nn.log"(%t) : (tensor<4x1xf32>) -> tensor<4x1xf32>
  %r = "nn.sub"(%x, %l) : (tensor<4x16xf32>, tensor<4x1xf32>) -> tensor<4x16xf32>
  return %r, %l : tensor<4x16xf32>, tensor<4x1xf32>
}

// Integer rows: the sum of each row subtracted from it.
func.func @int_rows(%x: tensor<3x10xi32>) -> tensor<3x10xi32> {
  %s = "nn.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<3x10xi32>) -> tensor<3x1xi32>
  %r = "nn.sub"(%x, %s) : (tensor<3x10xi32>, tensor<3x1xi32>) -> tensor<3x10xi32>
  return %r : tensor<3x10xi32>
}

// Exponentials too large for a stack tile (1x64x1x512, 128 KiB).
func.func @big_tile(%x: tensor<1x64x4x512xf32>) -> tensor<1x64x4x512xf32> {
  %e = "nn.exp"(%x) : (tensor<1x64x4x512xf32>) -> tensor<1x64x4x512xf32>
  %m = "nn.reduce_max"(%e) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<1x64x4x512xf32>) -> tensor<1x4x512xf32>
  %u = "nn.unsqueeze"(%m) {axes = array<i64: 1>} : (tensor<1x4x512xf32>) -> tensor<1x1x4x512xf32>
  %r = "nn.sub"(%e, %u) : (tensor<1x64x4x512xf32>, tensor<1x1x4x512xf32>) -> tensor<1x64x4x512xf32>
  return %r : tensor<1x64x4x512xf32>
}

// A strided Slice read by a reduction and an element-wise op: index
// remapping (fused-blocks-remap) in both readers.
func.func @slice_center(%x: tensor<6x20xf32>) -> tensor<3x8xf32> {
  %starts = "nn.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = "nn.constant"() {value = dense<[6, 18]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axes = "nn.constant"() {value = dense<[0, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = "nn.constant"() {value = dense<[2, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %s = "nn.slice"(%x, %starts, %ends, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<6x20xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x8xf32>
  %m = "nn.reduce_mean"(%s) {axes = array<i64: 1>} : (tensor<3x8xf32>) -> tensor<3x1xf32>
  %r = "nn.sub"(%s, %m) : (tensor<3x8xf32>, tensor<3x1xf32>) -> tensor<3x8xf32>
  return %r : tensor<3x8xf32>
}
