// Kernel epilogues and prologues at dynamic dims (issue 19;
// test/conversions/nn-to-kernels/dynamic-epilogues.mlir checks what is
// absorbed): residual adds, gemm's C, transposed operands of batched
// matmuls and transposed results, each function compiled once and run at
// every shape set above it, against the interpreter on random inputs; in
// the default (fixed) fusion and in dnnfusion, whose blocks give the
// kernels the same ops.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t/fixed --rtol 1e-4 --atol 1e-5 | FileCheck %s
// RUN: %python %S/sweep_all.py %s %t/dnnfusion --fusion dnnfusion --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: 8 functions, 0 failed

// matmul + bias + a residual of the result's dynamic type + relu.
// shapes: 0=1x1x8 3=1x1x6 | 0=2x5x8 3=2x5x6 | 0=3x17x8 3=3x17x6 | 0=0x4x8 3=0x4x6
func.func @residual(%x: tensor<?x?x8xf32>, %w: tensor<8x6xf32>, %b: tensor<6xf32>, %r: tensor<?x?x6xf32>) -> tensor<?x?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  %a = "nn.add"(%m, %b) : (tensor<?x?x6xf32>, tensor<6xf32>) -> tensor<?x?x6xf32>
  %s = "nn.add"(%r, %a) : (tensor<?x?x6xf32>, tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %y = "nn.relu"(%s) : (tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %y : tensor<?x?x6xf32>
}
// A static addend fixes the dynamic extent; a dynamic one of static 1
// broadcasts along the columns.
// shapes: 0=4x8 3=4x1
func.func @static_addend(%x: tensor<?x8xf32>, %w: tensor<8x6xf32>, %r: tensor<4x6xf32>, %q: tensor<?x1xf32>) -> tensor<?x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %a = "nn.add"(%m, %r) : (tensor<?x6xf32>, tensor<4x6xf32>) -> tensor<?x6xf32>
  %s = "nn.add"(%a, %q) : (tensor<?x6xf32>, tensor<?x1xf32>) -> tensor<?x6xf32>
  return %s : tensor<?x6xf32>
}
// shapes: 2=4x6
func.func @dynamic_addend(%x: tensor<4x8xf32>, %w: tensor<8x6xf32>, %r: tensor<?x?xf32>) -> tensor<4x6xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<4x8xf32>, tensor<8x6xf32>) -> tensor<4x6xf32>
  %a = "nn.add"(%m, %r) : (tensor<4x6xf32>, tensor<?x?xf32>) -> tensor<4x6xf32>
  return %a : tensor<4x6xf32>
}
// shapes: 0=1x8 2=1x6 | 0=7x8 2=7x6 | 0=33x8 2=33x6
func.func @gemm_c(%x: tensor<?x8xf32>, %w: tensor<6x8xf32>, %c: tensor<?x6xf32>) -> tensor<?x6xf32> {
  %m = "nn.gemm"(%x, %w, %c) {transB = 1 : i64, alpha = 0.5 : f32, beta = 2.0 : f32} : (tensor<?x8xf32>, tensor<6x8xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return %m : tensor<?x6xf32>
}
// Self-attention as PyTorch exports it (sequence-first, two heads folded
// into the batch): the head split's transposes read in place by the two
// batched matmuls; the shape of a transposed input (also read in place by a
// matmul) sizing the heads' merge; the output projection with its bias and
// a residual of dynamic type.
// shapes: 0=1x1x16 | 0=5x2x16 | 0=9x3x16 | 0=16x1x16
func.func @attention(%x: tensor<?x?x16xf32>, %wq: tensor<16x16xf32>, %wk: tensor<16x16xf32>, %wv: tensor<16x16xf32>, %wo: tensor<16x16xf32>, %bo: tensor<16xf32>, %wg: tensor<16x16xf32>) -> tensor<?x?x16xf32> {
  %q = "nn.matmul"(%x, %wq) : (tensor<?x?x16xf32>, tensor<16x16xf32>) -> tensor<?x?x16xf32>
  %k = "nn.matmul"(%x, %wk) : (tensor<?x?x16xf32>, tensor<16x16xf32>) -> tensor<?x?x16xf32>
  %v = "nn.matmul"(%x, %wv) : (tensor<?x?x16xf32>, tensor<16x16xf32>) -> tensor<?x?x16xf32>
  %s = "nn.constant"() {value = dense<[0, -1, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %qh = "nn.reshape"(%q, %s) : (tensor<?x?x16xf32>, tensor<3xi64>) -> tensor<?x?x8xf32>
  %kh = "nn.reshape"(%k, %s) : (tensor<?x?x16xf32>, tensor<3xi64>) -> tensor<?x?x8xf32>
  %vh = "nn.reshape"(%v, %s) : (tensor<?x?x16xf32>, tensor<3xi64>) -> tensor<?x?x8xf32>
  %qt = "nn.transpose"(%qh) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %kt = "nn.transpose"(%kh) {perm = array<i64: 1, 2, 0>} : (tensor<?x?x8xf32>) -> tensor<?x8x?xf32>
  %vt = "nn.transpose"(%vh) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %sc = "nn.matmul"(%qt, %kt) : (tensor<?x?x8xf32>, tensor<?x8x?xf32>) -> tensor<?x?x?xf32>
  %p = "nn.softmax"(%sc) {axis = -1 : i64} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  %o = "nn.matmul"(%p, %vt) : (tensor<?x?x?xf32>, tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %ot = "nn.transpose"(%o) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %xt = "nn.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %shape = "nn.shape"(%xt) : (tensor<?x?x16xf32>) -> tensor<3xi64>
  %i10 = "nn.constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sb = "nn.gather"(%shape, %i10) {axis = 0 : i64} : (tensor<3xi64>, tensor<2xi64>) -> tensor<2xi64>
  %e = "nn.constant"() {value = dense<16> : tensor<1xi64>} : () -> tensor<1xi64>
  %sh = "nn.concat"(%sb, %e) {axis = 0 : i64} : (tensor<2xi64>, tensor<1xi64>) -> tensor<3xi64>
  %om = "nn.reshape"(%ot, %sh) : (tensor<?x?x8xf32>, tensor<3xi64>) -> tensor<?x?x16xf32>
  %y = "nn.matmul"(%om, %wo) : (tensor<?x?x16xf32>, tensor<16x16xf32>) -> tensor<?x?x16xf32>
  %yb = "nn.add"(%y, %bo) : (tensor<?x?x16xf32>, tensor<16xf32>) -> tensor<?x?x16xf32>
  %yr = "nn.add"(%yb, %x) : (tensor<?x?x16xf32>, tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %g = "nn.matmul"(%xt, %wg) : (tensor<?x?x16xf32>, tensor<16x16xf32>) -> tensor<?x?x16xf32>
  %yt = "nn.transpose"(%yr) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  %r = "nn.add"(%g, %yt) : (tensor<?x?x16xf32>, tensor<?x?x16xf32>) -> tensor<?x?x16xf32>
  return %r : tensor<?x?x16xf32>
}
// A conv's bias, a residual of dynamic type and relu.
// shapes: 0=1x4x3x3 3=1x4x3x3 | 0=2x4x7x5 3=2x4x7x5 | 0=3x4x1x9 3=3x4x1x9
func.func @conv_residual(%x: tensor<?x4x?x?xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>, %r: tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %c = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x4x?x?xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<?x4x?x?xf32>
  %a = "nn.add"(%c, %r) : (tensor<?x4x?x?xf32>, tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  %y = "nn.relu"(%a) : (tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32>
  return %y : tensor<?x4x?x?xf32>
}
// A strided conv (residual extents from the window arithmetic) then a
// residual through a 1x1 projection's conv: two fused calls.
// shapes: 0=1x4x5x5 | 0=2x4x8x6 | 0=1x4x1x2
func.func @conv_project(%x: tensor<?x4x?x?xf32>, %w: tensor<6x4x3x3xf32>, %p: tensor<6x4x1x1xf32>) -> tensor<?x6x?x?xf32> {
  %c = "nn.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<?x4x?x?xf32>, tensor<6x4x3x3xf32>) -> tensor<?x6x?x?xf32>
  %d = "nn.conv"(%x, %p) {strides = array<i64: 2, 2>} : (tensor<?x4x?x?xf32>, tensor<6x4x1x1xf32>) -> tensor<?x6x?x?xf32>
  %a = "nn.add"(%c, %d) : (tensor<?x6x?x?xf32>, tensor<?x6x?x?xf32>) -> tensor<?x6x?x?xf32>
  return %a : tensor<?x6x?x?xf32>
}
// A transpose of the last two dims after the matmul, then an addend of the
// transposed type.
// shapes: 0=1x1x8 2=1x6x1 | 0=3x5x8 2=3x6x5 | 0=2x11x8 2=2x6x11
func.func @transposed(%x: tensor<?x?x8xf32>, %w: tensor<8x6xf32>, %b: tensor<?x6x?xf32>) -> tensor<?x6x?xf32> {
  %m = "nn.matmul"(%x, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  %t = "nn.transpose"(%m) {perm = array<i64: 0, 2, 1>} : (tensor<?x?x6xf32>) -> tensor<?x6x?xf32>
  %a = "nn.add"(%t, %b) : (tensor<?x6x?xf32>, tensor<?x6x?xf32>) -> tensor<?x6x?xf32>
  return %a : tensor<?x6x?xf32>
}
