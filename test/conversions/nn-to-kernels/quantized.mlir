// --nn-to-kernels, the quantized ops: MatMulInteger / QLinearMatMul (a of
// rank >= 2, a 2-D b) and ConvInteger / QLinearConv (2-D) of static shape
// become libstrata_rt integer GEMM calls; ui8 buffers cross as memref<*xi8>
// through an unrealized cast; the signedness, the optional operands, a
// constant weight and a fused Relu (nn.max(y, y_zero_point), its sole
// user) are in the flags word (kernels.h: STRATA_RT_Q_*). What the kernels
// do not take stays nn (for nn-to-linalg's loops).
// RUN: strata-opt %s --split-input-file --nn-to-kernels | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-to-kernels='epilogues=false' | FileCheck %s --check-prefix=NOFUSE

// CHECK-DAG: func.func private @strata_rt_qmatmul_i32(memref<*xi8>, memref<*xi8>, memref<*xi32>, memref<*xi8>, memref<*xi8>, i64) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @matmul_integer_u8_s8
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x5xi32>
// CHECK: %[[A:.*]] = bufferization.to_buffer %arg0 read_only
// CHECK: %[[AU:.*]] = memref.cast %[[A]] : memref<3x8xui8, {{.*}}> to memref<*xui8>
// CHECK: builtin.unrealized_conversion_cast %[[AU]] : memref<*xui8> to memref<*xi8>
// a u8 (1), b s8, y i32, a_zero_point present (8), b's absent (it aliases a)
// CHECK: %[[F:.*]] = arith.constant 9 : i64
// CHECK: call @strata_rt_qmatmul_i32({{.*}}, %[[F]])
// CHECK: bufferization.to_tensor %[[OUT]] restrict writable
// CHECK-NOT: nn.matmul_integer
func.func @matmul_integer_u8_s8(%a: tensor<3x8xui8>, %b: tensor<8x5xi8>, %za: tensor<ui8>) -> tensor<3x5xi32> {
  %r = "nn.matmul_integer"(%a, %b, %za) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<3x8xui8>, tensor<8x5xi8>, tensor<ui8>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}

// -----
// QLinearConv with a constant weight (256), a bias (32) and the Relu fused
// (64); x u8 (1), w s8, y u8 (4): 357. The nn.max is gone.
// CHECK-LABEL: func.func @qlinear_conv_relu
// CHECK: %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1x4x6x6xui8>
// CHECK: %[[F:.*]] = arith.constant 357 : i64
// CHECK: call @strata_rt_qconv2d_q8({{.*}}, %[[F]])
// CHECK-NOT: nn.max
// CHECK: return
// NOFUSE-LABEL: func.func @qlinear_conv_relu
// NOFUSE: arith.constant 293 : i64
// NOFUSE: call @strata_rt_qconv2d_q8
// NOFUSE: "nn.max"
func.func @qlinear_conv_relu(%x: tensor<1x3x6x6xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %ws: tensor<4xf32>, %wz: tensor<4xi8>, %ys: tensor<f32>, %yz: tensor<ui8>, %bias: tensor<4xi32>) -> tensor<1x4x6x6xui8> {
  %w = "nn.constant"() {value = dense<3> : tensor<4x3x3x3xi8>} : () -> tensor<4x3x3x3xi8>
  %r = "nn.qlinear_conv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %bias) {pads = [1, 1, 1, 1]} : (tensor<1x3x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x6xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x4x6x6xui8>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %m : tensor<1x4x6x6xui8>
}

// -----
// A Relu against another zero point is not the QLinear op's: it stays. The
// absent bias gets a one-element zero buffer (flags without 32).
// CHECK-LABEL: func.func @qlinear_matmul_other_max
// CHECK: arith.constant dense<0> : tensor<1xi32>
// CHECK: call @strata_rt_qmatmul_q8
// CHECK: "nn.max"
func.func @qlinear_matmul_other_max(%a: tensor<2x4x8xi8>, %s: tensor<f32>, %z: tensor<i8>, %b: tensor<8x3xi8>, %z2: tensor<i8>) -> tensor<2x4x3xi8> {
  %r = "nn.qlinear_matmul"(%a, %s, %z, %b, %s, %z, %s, %z) : (tensor<2x4x8xi8>, tensor<f32>, tensor<i8>, tensor<8x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x4x3xi8>
  %m = "nn.max"(%r, %z2) : (tensor<2x4x3xi8>, tensor<i8>) -> tensor<2x4x3xi8>
  return %m : tensor<2x4x3xi8>
}

// -----
// Not for the kernels: a 1-D conv, a batched b, a dynamic shape.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: call @strata_rt_q
// CHECK: "nn.conv_integer"
// CHECK: "nn.matmul_integer"
// CHECK: "nn.matmul_integer"
func.func @left_alone(%x: tensor<1x3x8xi8>, %w: tensor<4x3x3xi8>, %a: tensor<2x3x4xui8>, %b: tensor<2x4x5xi8>, %d: tensor<?x4xui8>, %e: tensor<4x5xi8>) -> (tensor<1x4x6xi32>, tensor<2x3x5xi32>, tensor<?x5xi32>) {
  %c = "nn.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x8xi8>, tensor<4x3x3xi8>) -> tensor<1x4x6xi32>
  %m = "nn.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x3x4xui8>, tensor<2x4x5xi8>) -> tensor<2x3x5xi32>
  %n = "nn.matmul_integer"(%d, %e) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x4xui8>, tensor<4x5xi8>) -> tensor<?x5xi32>
  return %c, %m, %n : tensor<1x4x6xi32>, tensor<2x3x5xi32>, tensor<?x5xi32>
}

// -----
// The Relu and then nn-qdq-to-qlinear's integer Clip fused: 357 as above,
// clamp (512), lo 10 << 16, hi 130 << 24. Both ops are gone.
// CHECK-LABEL: func.func @qlinear_conv_relu_clip
// CHECK: %[[F:.*]] = arith.constant 2181694309 : i64
// CHECK: call @strata_rt_qconv2d_q8({{.*}}, %[[F]])
// CHECK-NOT: nn.max
// CHECK-NOT: nn.clip
// CHECK: return
// NOFUSE-LABEL: func.func @qlinear_conv_relu_clip
// NOFUSE: arith.constant 293 : i64
// NOFUSE: "nn.max"
// NOFUSE: "nn.clip"
func.func @qlinear_conv_relu_clip(%x: tensor<1x3x6x6xui8>, %xs: tensor<f32>, %xz: tensor<ui8>, %ws: tensor<4xf32>, %wz: tensor<4xi8>, %ys: tensor<f32>, %yz: tensor<ui8>, %bias: tensor<4xi32>) -> tensor<1x4x6x6xui8> {
  %w = "nn.constant"() {value = dense<3> : tensor<4x3x3x3xi8>} : () -> tensor<4x3x3x3xi8>
  %r = "nn.qlinear_conv"(%x, %xs, %xz, %w, %ws, %wz, %ys, %yz, %bias) {pads = [1, 1, 1, 1]} : (tensor<1x3x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x6xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x4x6x6xui8>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  %c = "nn.clip"(%m) {min = 10.0 : f64, max = 130.0 : f64} : (tensor<1x4x6x6xui8>) -> tensor<1x4x6x6xui8>
  return %c : tensor<1x4x6x6xui8>
}

// -----
// An i8 clamp alone: 512, lo -15 as the byte 241 << 16, hi 55 << 24. A
// clip whose bound is not an integer (2.5) is not the kernel's: it stays.
// Bounds beyond the range saturate: ui8 [-5, 300] is [0, 255] (5 + 512 +
// 255 << 24).
// CHECK-LABEL: func.func @qlinear_matmul_clips
// CHECK: %[[F:.*]] = arith.constant 938541568 : i64
// CHECK: call @strata_rt_qmatmul_q8({{.*}}, %[[F]])
// CHECK: call @strata_rt_qmatmul_q8
// CHECK: "nn.clip"(%{{.*}}) {min = 2.500000e+00 : f64}
// CHECK: %[[G:.*]] = arith.constant 4278190597 : i64
// CHECK: call @strata_rt_qmatmul_q8({{.*}}, %[[G]])
func.func @qlinear_matmul_clips(%a: tensor<2x4x8xi8>, %s: tensor<f32>, %z: tensor<i8>, %b: tensor<8x3xi8>, %au: tensor<4x8xui8>, %zu: tensor<ui8>) -> (tensor<2x4x3xi8>, tensor<2x4x3xi8>, tensor<4x3xui8>) {
  %r = "nn.qlinear_matmul"(%a, %s, %z, %b, %s, %z, %s, %z) : (tensor<2x4x8xi8>, tensor<f32>, tensor<i8>, tensor<8x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x4x3xi8>
  %c = "nn.clip"(%r) {min = -15.0 : f64, max = 55.0 : f64} : (tensor<2x4x3xi8>) -> tensor<2x4x3xi8>
  %r2 = "nn.qlinear_matmul"(%a, %s, %z, %b, %s, %z, %s, %z) : (tensor<2x4x8xi8>, tensor<f32>, tensor<i8>, tensor<8x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<2x4x3xi8>
  %c2 = "nn.clip"(%r2) {min = 2.5 : f64} : (tensor<2x4x3xi8>) -> tensor<2x4x3xi8>
  %r3 = "nn.qlinear_matmul"(%au, %s, %zu, %b, %s, %z, %s, %zu) : (tensor<4x8xui8>, tensor<f32>, tensor<ui8>, tensor<8x3xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<4x3xui8>
  %c3 = "nn.clip"(%r3) {min = -5.0 : f64, max = 300.0 : f64} : (tensor<4x3xui8>) -> tensor<4x3xui8>
  return %c, %c2, %c3 : tensor<2x4x3xi8>, tensor<2x4x3xi8>, tensor<4x3xui8>
}
