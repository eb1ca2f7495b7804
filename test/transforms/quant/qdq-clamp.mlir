// --nn-qdq-to-qlinear's activations in the quantized domain: a Clip (ReLU6,
// a one-sided Clip, a Relu) before the QuantizeLinear of a Conv/MatMul
// becomes an integer nn.clip to [Q(min), Q(max)] after the QLinear op, and
// DequantizeLinear -> Clip|Relu -> QuantizeLinear becomes one where the
// float chain is a clamp at every 8-bit input. Where Q(min) or Q(max) is
// not exact (the interpreter's f64 division and the compiled f32 division
// round differently) or the chain requantizes, the float ops stay.
// RUN: strata-opt %s --split-input-file --nn-qdq-to-qlinear | FileCheck %s

// ReLU6 on a ui8 output with scale 0.05, zero point 10: Q(0) = 10,
// Q(6) = 130.
// CHECK-LABEL: func.func @conv_relu6
// CHECK: %[[Q:.*]] = "nn.qlinear_conv"
// CHECK: %[[C:.*]] = "nn.clip"(%[[Q]]) {max = 1.300000e+02 : f64, min = 1.000000e+01 : f64} : (tensor<1x2x4x4xui8>) -> tensor<1x2x4x4xui8>
// CHECK-NOT: nn.conv"
// CHECK-NOT: nn.quantize_linear
// CHECK: return %[[C]]
func.func @conv_relu6(%xq: tensor<1x3x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %wq = "nn.constant"() {value = dense<1> : tensor<2x3x3x3xi8>} : () -> tensor<2x3x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<2xi8>} : () -> tensor<2xi8>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
  %c = "nn.conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  %r = "nn.clip"(%c) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = "nn.quantize_linear"(%r, %ys, %yz) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// i8 output (scale 0.1, zero point -5), bounds between quantization levels
// and one beyond the range: Clip(-1.04, 5.97) -> [Q(-1.04), Q(5.97)] =
// [-15, 55]; Clip with only a min (the max clamps to nothing, 127); a
// Clip to [-100, 100], wider than the i8 range [-12.3, 13.2]: no clip at
// all; a Clip with min > max (everything is Q(max)).
// CHECK-LABEL: func.func @gemm_clips
// CHECK: %[[A:.*]] = "nn.qlinear_matmul"
// CHECK-NEXT: "nn.clip"(%[[A]]) {max = 5.500000e+01 : f64, min = -1.500000e+01 : f64}
// CHECK: %[[B:.*]] = "nn.qlinear_matmul"
// CHECK-NEXT: "nn.clip"(%[[B]]) {max = 1.270000e+02 : f64, min = 5.000000e+00 : f64}
// CHECK: %[[C:.*]] = "nn.qlinear_matmul"
// CHECK-NOT: nn.clip
// CHECK: %[[D:.*]] = "nn.qlinear_matmul"
// CHECK-NEXT: "nn.clip"(%[[D]]) {max = 5.000000e+00 : f64, min = 1.500000e+01 : f64}
// CHECK-NOT: nn.gemm
// CHECK-NOT: nn.quantize_linear
// CHECK: return {{.*}}, %[[C]],
func.func @gemm_clips(%xq: tensor<2x5xi8>) -> (tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>) {
  %xs = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %wq = "nn.constant"() {value = dense<3> : tensor<3x5xi8>} : () -> tensor<3x5xi8>
  %ws = "nn.constant"() {value = dense<[0.25, 0.125, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<3xi8>} : () -> tensor<3xi8>
  %ys = "nn.constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-5> : tensor<i8>} : () -> tensor<i8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<2x5xi8>, tensor<f32>, tensor<i8>) -> tensor<2x5xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) {axis = 0 : i64} : (tensor<3x5xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x5xf32>
  %g1 = "nn.gemm"(%x, %w) {transB = 1 : i64} : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  %c1 = "nn.clip"(%g1) {min = -1.04 : f64, max = 5.97 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y1 = "nn.quantize_linear"(%c1, %ys, %yz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %g2 = "nn.gemm"(%x, %w) {transB = 1 : i64} : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  %c2 = "nn.clip"(%g2) {min = 1.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y2 = "nn.quantize_linear"(%c2, %ys, %yz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %g3 = "nn.gemm"(%x, %w) {transB = 1 : i64} : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  %c3 = "nn.clip"(%g3) {min = -100.0 : f64, max = 100.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y3 = "nn.quantize_linear"(%c3, %ys, %yz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  %g4 = "nn.gemm"(%x, %w) {transB = 1 : i64} : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  %c4 = "nn.clip"(%g4) {min = 2.0 : f64, max = 1.0 : f64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %y4 = "nn.quantize_linear"(%c4, %ys, %yz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %y1, %y2, %y3, %y4 : tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>
}

// -----

// Not exact, left in float: Clip(0.35, 6) with y_scale 0.1: 0.35 in f32
// over 0.1 in f32 is 3.4999999 in f64 (rounds to 3) and 3.5 in f32 (rounds
// to 4), so Q(0.35) is not one number; the conv stays float.
// CHECK-LABEL: func.func @conv_clip_inexact
// CHECK-NOT: qlinear
// CHECK: "nn.conv"
// CHECK: "nn.clip"(%{{.*}}) {max = 6.000000e+00 : f64, min = 3.500000e-01 : f64} : (tensor<1x2x4x4xf32>)
// CHECK: "nn.quantize_linear"
func.func @conv_clip_inexact(%xq: tensor<1x3x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %wq = "nn.constant"() {value = dense<1> : tensor<2x3x3x3xi8>} : () -> tensor<2x3x3x3xi8>
  %ws = "nn.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ys = "nn.constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) : (tensor<2x3x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3x3x3xf32>
  %c = "nn.conv"(%x, %w) {pads = [1, 1, 1, 1]} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>) -> tensor<1x2x4x4xf32>
  %r = "nn.clip"(%c) {min = 0.35 : f64, max = 6.0 : f64} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = "nn.quantize_linear"(%r, %ys, %yz) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// DequantizeLinear -> Clip/Relu -> QuantizeLinear with the same scale and
// zero point: an integer clip of the quantized tensor (ReLU6 on ui8 with
// scale 0.05, zero point 10: [10, 130]); a Relu with zero point 0 on ui8
// is the identity (the QuantizeLinear's users read the input); on i8 with
// zero point -5 it is a clip to [-5, 127].
// CHECK-LABEL: func.func @dq_act_q
// CHECK-NOT: nn.dequantize_linear
// CHECK-NOT: nn.quantize_linear
// CHECK: %[[C:.*]] = "nn.clip"(%arg0) {max = 1.300000e+02 : f64, min = 1.000000e+01 : f64} : (tensor<8xui8>)
// CHECK: %[[R:.*]] = "nn.clip"(%arg2) {max = 1.270000e+02 : f64, min = -5.000000e+00 : f64} : (tensor<8xi8>)
// CHECK: return %[[C]], %arg1, %[[R]]
func.func @dq_act_q(%a: tensor<8xui8>, %b: tensor<8xui8>, %c: tensor<8xi8>) -> (tensor<8xui8>, tensor<8xui8>, tensor<8xi8>) {
  %s = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %z0 = "nn.constant"() {value = dense<0> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<-5> : tensor<i8>} : () -> tensor<i8>
  %af = "nn.dequantize_linear"(%a, %s, %z) : (tensor<8xui8>, tensor<f32>, tensor<ui8>) -> tensor<8xf32>
  %ac = "nn.clip"(%af) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<8xf32>) -> tensor<8xf32>
  %aq = "nn.quantize_linear"(%ac, %s, %z) : (tensor<8xf32>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  %bf = "nn.dequantize_linear"(%b, %s, %z0) : (tensor<8xui8>, tensor<f32>, tensor<ui8>) -> tensor<8xf32>
  %br = "nn.relu"(%bf) : (tensor<8xf32>) -> tensor<8xf32>
  %bq = "nn.quantize_linear"(%br, %s, %z0) : (tensor<8xf32>, tensor<f32>, tensor<ui8>) -> tensor<8xui8>
  %cf = "nn.dequantize_linear"(%c, %s, %zi) : (tensor<8xi8>, tensor<f32>, tensor<i8>) -> tensor<8xf32>
  %cr = "nn.relu"(%cf) : (tensor<8xf32>) -> tensor<8xf32>
  %cq = "nn.quantize_linear"(%cr, %s, %zi) : (tensor<8xf32>, tensor<f32>, tensor<i8>) -> tensor<8xi8>
  return %aq, %bq, %cq : tensor<8xui8>, tensor<8xui8>, tensor<8xi8>
}

// -----

// Left in float: the QuantizeLinear after the Clip has another scale (it
// requantizes: not a clamp of the input); the types differ (ui8 in, i8
// out); a per-axis DequantizeLinear.
// CHECK-LABEL: func.func @dq_act_q_negatives
// CHECK-NOT: "nn.clip"({{.*}}ui8>) ->
// CHECK-COUNT-3: "nn.quantize_linear"
func.func @dq_act_q_negatives(%a: tensor<2x8xui8>) -> (tensor<2x8xui8>, tensor<2x8xi8>, tensor<2x8xui8>) {
  %s = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %s2 = "nn.constant"() {value = dense<0.025> : tensor<f32>} : () -> tensor<f32>
  %sa = "nn.constant"() {value = dense<[0.05, 0.05]> : tensor<2xf32>} : () -> tensor<2xf32>
  %z = "nn.constant"() {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %za = "nn.constant"() {value = dense<10> : tensor<2xui8>} : () -> tensor<2xui8>
  %zi = "nn.constant"() {value = dense<10> : tensor<i8>} : () -> tensor<i8>
  %af = "nn.dequantize_linear"(%a, %s, %z) : (tensor<2x8xui8>, tensor<f32>, tensor<ui8>) -> tensor<2x8xf32>
  %ac = "nn.clip"(%af) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %q1 = "nn.quantize_linear"(%ac, %s2, %z) : (tensor<2x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x8xui8>
  %q2 = "nn.quantize_linear"(%ac, %s, %zi) : (tensor<2x8xf32>, tensor<f32>, tensor<i8>) -> tensor<2x8xi8>
  %pf = "nn.dequantize_linear"(%a, %sa, %za) {axis = 0 : i64} : (tensor<2x8xui8>, tensor<2xf32>, tensor<2xui8>) -> tensor<2x8xf32>
  %pc = "nn.clip"(%pf) {min = 0.0 : f64, max = 6.0 : f64} : (tensor<2x8xf32>) -> tensor<2x8xf32>
  %q3 = "nn.quantize_linear"(%pc, %s, %z) : (tensor<2x8xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x8xui8>
  return %q1, %q2, %q3 : tensor<2x8xui8>, tensor<2x8xi8>, tensor<2x8xui8>
}
