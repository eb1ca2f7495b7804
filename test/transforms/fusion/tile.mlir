// Fused code generation of blocks that element-wise fusion leaves as
// several loop nests (fused-blocks-tile): the block becomes one scf.for
// nest over the dims all its ops run along; inside, each op computes one
// tile from tiles of its inputs, intermediates live in tile-sized stack
// buffers, and the result is written in place into its tile of the output.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(nn-fuse{cpu-kernels profile=always},nn-to-kernels,func.func(nn-to-linalg),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-tile))' | FileCheck %s

// {Exp, ReduceSum, Div} of a softmax: one loop over rows; Exp's row is
// computed once, kept in a 1x40 tile read by both the sum and the division;
// the sum is one element.
// CHECK-LABEL: func.func @exp_sum_div
// CHECK: scf.execute_region
// CHECK-NOT: linalg.generic
// CHECK: %[[OUT:.*]] = tensor.empty() : tensor<6x40xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.*]] = memref.alloca() {{.*}} : memref<1x40xf32>
// CHECK: %[[S:.*]] = memref.alloca() {{.*}} : memref<1xf32>
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %c6 step %{{.*}} iter_args(%[[ACC:.*]] = %[[OUT]])
// CHECK: %[[ROW:.*]] = tensor.extract_slice %arg0[%[[I]], 0] [1, 40] [1, 1]
// CHECK: %[[ET:.*]] = bufferization.to_tensor %[[E]] restrict writable
// CHECK: %[[EXP:.*]] = linalg.generic {{.*}} ins(%[[ROW]] : tensor<1x40xf32>) outs(%[[ET]] : tensor<1x40xf32>)
// CHECK: math.exp
// CHECK: %[[ST:.*]] = bufferization.to_tensor %[[S]] restrict writable
// CHECK: %[[ZERO:.*]] = linalg.generic {{.*}} outs(%[[ST]] : tensor<1xf32>)
// CHECK: %[[SUM:.*]] = linalg.generic {{.*}} ins(%[[EXP]] : tensor<1x40xf32>) outs(%[[ZERO]] : tensor<1xf32>)
// CHECK: arith.addf
// CHECK: %[[SUM2:.*]] = tensor.reshape %[[SUM]]
// CHECK: %[[DST:.*]] = tensor.extract_slice %[[ACC]][%[[I]], 0] [1, 40] [1, 1]
// CHECK: %[[DIV:.*]] = linalg.generic {{.*}} ins(%[[EXP]], %[[SUM2]] : tensor<1x40xf32>, tensor<1x1xf32>) outs(%[[DST]] : tensor<1x40xf32>)
// CHECK: arith.divf
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[DIV]] into %[[ACC]][%[[I]], 0] [1, 40] [1, 1]
// CHECK: scf.yield %[[INS]]
// CHECK-NOT: linalg.generic
// CHECK: } {strata.fused
func.func @exp_sum_div(%x: tensor<6x40xf32>) -> tensor<6x40xf32> {
  %e = "nn.exp"(%x) : (tensor<6x40xf32>) -> tensor<6x40xf32>
  %t = "nn.reduce_sum"(%e) {axes = array<i64: 1>} : (tensor<6x40xf32>) -> tensor<6x1xf32>
  %r = "nn.div"(%e, %t) : (tensor<6x40xf32>, tensor<6x1xf32>) -> tensor<6x40xf32>
  return %r : tensor<6x40xf32>
}

// -----

// RMS norm: two nested loops (batch, rows); the per-feature scale, an
// input without the cut dims, is read whole by every tile.
// CHECK-LABEL: func.func @rms_norm
// CHECK: scf.for %[[B:.*]] = {{.*}} to %c2
// CHECK: scf.for %[[R:.*]] = {{.*}} to %c5
// CHECK: tensor.extract_slice %arg0[%[[B]], %[[R]], 0] [1, 1, 24] [1, 1, 1]
// CHECK: linalg.generic {{.*}}"reduction"
// CHECK: linalg.generic {{.*}} ins({{.*}}, %arg1 : tensor<1x1x24xf32>, tensor<1x1x1xf32>, tensor<24xf32>) outs({{.*}} : tensor<1x1x24xf32>)
// CHECK: math.sqrt
// CHECK: tensor.insert_slice {{.*}}[%[[B]], %[[R]], 0] [1, 1, 24] [1, 1, 1]
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

// -----

// A max over channels (NCHW, keepdims = 0) subtracted from every channel:
// cut along N and H; the channel axis is reduced and W is the contiguous
// axis, so a tile is 1x4x1x5 and its reduction 1x1x5.
// CHECK-LABEL: func.func @channel_max
// CHECK: scf.for %[[N:.*]] = {{.*}} to %c2
// CHECK: scf.for %[[H:.*]] = {{.*}} to %c3
// CHECK: tensor.extract_slice %arg0[%[[N]], 0, %[[H]], 0] [1, 4, 1, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {{.*}} outs({{.*}} : tensor<1x1x5xf32>)
// CHECK: arith.maximumf
// CHECK: tensor.insert_slice {{.*}}[%[[N]], 0, %[[H]], 0] [1, 4, 1, 5] [1, 1, 1, 1]
func.func @channel_max(%x: tensor<2x4x3x5xf32>) -> tensor<2x4x3x5xf32> {
  %m = "nn.reduce_max"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<2x4x3x5xf32>) -> tensor<2x3x5xf32>
  %u = "nn.unsqueeze"(%m) {axes = array<i64: 1>} : (tensor<2x3x5xf32>) -> tensor<2x1x3x5xf32>
  %r = "nn.sub"(%x, %u) : (tensor<2x4x3x5xf32>, tensor<2x1x3x5xf32>) -> tensor<2x4x3x5xf32>
  return %r : tensor<2x4x3x5xf32>
}

// -----

// A sum over rows read back by every row: the only dims are the reduced
// one and the contiguous one, so there is nothing to cut and the block
// keeps its two nests.
// CHECK-LABEL: func.func @column_sum
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}}["reduction", "parallel"]
// CHECK: linalg.generic {{.*}}["parallel", "parallel"]
// CHECK-NOT: scf.for
// CHECK: return
func.func @column_sum(%x: tensor<8x12xf32>) -> tensor<8x12xf32> {
  %s = "nn.reduce_sum"(%x) {axes = array<i64: 0>} : (tensor<8x12xf32>) -> tensor<1x12xf32>
  %r = "nn.div"(%x, %s) : (tensor<8x12xf32>, tensor<1x12xf32>) -> tensor<8x12xf32>
  return %r : tensor<8x12xf32>
}

// -----

// A block the pass does not cut: a generic that reads linalg.index (here
// the gather a Pad lowers to) would see tile-relative indices, so the
// block keeps the nests element-wise fusion left.
// CHECK-LABEL: func.func @with_pad
// CHECK-NOT: scf.for
// CHECK: return
func.func @with_pad(%x: tensor<4x6xf32>) -> tensor<4x8xf32> {
  %s = "nn.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<4x6xf32>) -> tensor<4x1xf32>
  %d = "nn.div"(%x, %s) : (tensor<4x6xf32>, tensor<4x1xf32>) -> tensor<4x6xf32>
  %pads = "nn.constant"() {value = dense<[0, 1, 0, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %p = "nn.pad"(%d, %pads) : (tensor<4x6xf32>, tensor<4xi64>) -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

// Tiles that would take more than 64 KiB of stack are tensor.empty
// (bufferization allocates them once, outside the nest): the 1x64x1x512
// exponentials (128 KiB) are; the 1x1x512 maximum is on the stack.
// CHECK-LABEL: func.func @big_tile
// CHECK: memref.alloca() {{.*}} : memref<1x1x512xf32>
// CHECK-NOT: memref.alloca
// CHECK: scf.for
// CHECK: tensor.empty() : tensor<1x64x1x512xf32>
// CHECK: math.exp
// CHECK: return
func.func @big_tile(%x: tensor<1x64x4x512xf32>) -> tensor<1x64x4x512xf32> {
  %e = "nn.exp"(%x) : (tensor<1x64x4x512xf32>) -> tensor<1x64x4x512xf32>
  %m = "nn.reduce_max"(%e) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<1x64x4x512xf32>) -> tensor<1x4x512xf32>
  %u = "nn.unsqueeze"(%m) {axes = array<i64: 1>} : (tensor<1x4x512xf32>) -> tensor<1x1x4x512xf32>
  %r = "nn.sub"(%e, %u) : (tensor<1x64x4x512xf32>, tensor<1x1x4x512xf32>) -> tensor<1x64x4x512xf32>
  return %r : tensor<1x64x4x512xf32>
}
