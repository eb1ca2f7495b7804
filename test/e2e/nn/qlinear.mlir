// The quantized ops (MatMulInteger, ConvInteger, QLinearMatMul, QLinearConv,
// DynamicQuantizeLinear): JIT against the interpreter, exactly. Each
// function quantizes its random f32 input over the full int8/uint8 range
// first, so products, sums and the requantization's saturation are exercised.
// RUN: %python %S/../compare_all.py %s --rtol 0 --atol 0 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @matmul_integer_u8_i8_per_column(%x: tensor<3x40xf32>, %w: tensor<40x5xf32>) -> tensor<3x5xi32> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<3x40xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x40xui8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<40x5xf32>, tensor<f32>, tensor<i8>) -> tensor<40x5xi8>
  %za = "nn.constant"() {value = dense<[131]> : tensor<1xui8>} : () -> tensor<1xui8>
  %zb = "nn.constant"() {value = dense<[-3, 0, 7, 127, -128]> : tensor<5xi8>} : () -> tensor<5xi8>
  %r = "nn.matmul_integer"(%a, %b, %za, %zb) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<3x40xui8>, tensor<40x5xi8>, tensor<1xui8>, tensor<5xi8>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}
func.func @matmul_integer_batched_per_row_no_b_zp(%x: tensor<2x3x16xf32>, %w: tensor<16x4xf32>) -> tensor<2x3x4xi32> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<2x3x16xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3x16xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<16x4xf32>, tensor<f32>, tensor<i8>) -> tensor<16x4xi8>
  %za = "nn.constant"() {value = dense<[[[1], [-2], [3]], [[0], [100], [-100]]]> : tensor<2x3x1xi8>} : () -> tensor<2x3x1xi8>
  %r = "nn.matmul_integer"(%a, %b, %za) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<2x3x16xi8>, tensor<16x4xi8>, tensor<2x3x1xi8>) -> tensor<2x3x4xi32>
  return %r : tensor<2x3x4xi32>
}
func.func @conv_integer_group_pads_strides(%x: tensor<1x4x7x6xf32>, %w: tensor<6x2x3x2xf32>) -> tensor<1x6x4x3xi32> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<1x4x7x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x7x6xui8>
  %b = "nn.quantize_linear"(%w, %s, %zu) : (tensor<6x2x3x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<6x2x3x2xui8>
  %za = "nn.constant"() {value = dense<120> : tensor<ui8>} : () -> tensor<ui8>
  %zb = "nn.constant"() {value = dense<[128, 0, 255, 3, 130, 127]> : tensor<6xui8>} : () -> tensor<6xui8>
  %r = "nn.conv_integer"(%a, %b, %za, %zb) {operandSegmentSizes = array<i32: 1, 1, 1, 1>, group = 2 : i64, pads = [1, 1, 1, 0], strides = [2, 2]} : (tensor<1x4x7x6xui8>, tensor<6x2x3x2xui8>, tensor<ui8>, tensor<6xui8>) -> tensor<1x6x4x3xi32>
  return %r : tensor<1x6x4x3xi32>
}
func.func @conv_integer_dilated_same_upper(%x: tensor<2x3x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<2x4x8xi32> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<2x3x8xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3x8xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<4x3x3xf32>, tensor<f32>, tensor<i8>) -> tensor<4x3x3xi8>
  %r = "nn.conv_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, auto_pad = "SAME_UPPER", dilations = [2]} : (tensor<2x3x8xi8>, tensor<4x3x3xi8>) -> tensor<2x4x8xi32>
  return %r : tensor<2x4x8xi32>
}
func.func @qlinear_matmul_u8(%x: tensor<4x32xf32>, %w: tensor<32x6xf32>) -> tensor<4x6xui8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<4x32xf32>, tensor<f32>, tensor<ui8>) -> tensor<4x32xui8>
  %b = "nn.quantize_linear"(%w, %s, %zu) : (tensor<32x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<32x6xui8>
  %as = "nn.constant"() {value = dense<[0.0066]> : tensor<1xf32>} : () -> tensor<1xf32>
  %az = "nn.constant"() {value = dense<[113]> : tensor<1xui8>} : () -> tensor<1xui8>
  %bs = "nn.constant"() {value = dense<[0.00705]> : tensor<1xf32>} : () -> tensor<1xf32>
  %bz = "nn.constant"() {value = dense<[114]> : tensor<1xui8>} : () -> tensor<1xui8>
  %ys = "nn.constant"() {value = dense<[0.0107]> : tensor<1xf32>} : () -> tensor<1xf32>
  %yz = "nn.constant"() {value = dense<[118]> : tensor<1xui8>} : () -> tensor<1xui8>
  %r = "nn.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<4x32xui8>, tensor<1xf32>, tensor<1xui8>, tensor<32x6xui8>, tensor<1xf32>, tensor<1xui8>, tensor<1xf32>, tensor<1xui8>) -> tensor<4x6xui8>
  return %r : tensor<4x6xui8>
}
func.func @qlinear_matmul_i8_per_row_per_column(%x: tensor<2x3x24xf32>, %w: tensor<24x5xf32>) -> tensor<2x3x5xi8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<2x3x24xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3x24xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<24x5xf32>, tensor<f32>, tensor<i8>) -> tensor<24x5xi8>
  %as = "nn.constant"() {value = dense<[[[0.01], [0.02], [0.005]], [[0.01], [0.03], [0.001]]]> : tensor<2x3x1xf32>} : () -> tensor<2x3x1xf32>
  %az = "nn.constant"() {value = dense<[[[1], [-1], [0]], [[5], [0], [-7]]]> : tensor<2x3x1xi8>} : () -> tensor<2x3x1xi8>
  %bs = "nn.constant"() {value = dense<[0.01, 0.002, 0.03, 0.004, 0.05]> : tensor<5xf32>} : () -> tensor<5xf32>
  %bz = "nn.constant"() {value = dense<[0, 3, -3, 0, 1]> : tensor<5xi8>} : () -> tensor<5xi8>
  %ys = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-10> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x3x24xi8>, tensor<2x3x1xf32>, tensor<2x3x1xi8>, tensor<24x5xi8>, tensor<5xf32>, tensor<5xi8>, tensor<f32>, tensor<i8>) -> tensor<2x3x5xi8>
  return %r : tensor<2x3x5xi8>
}
func.func @qlinear_conv_per_channel_bias(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xui8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<1x3x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x6x6xui8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<4x3x3x3xf32>, tensor<f32>, tensor<i8>) -> tensor<4x3x3x3xi8>
  %xs = "nn.constant"() {value = dense<0.0037> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<132> : tensor<ui8>} : () -> tensor<ui8>
  %ws = "nn.constant"() {value = dense<[0.0017, 0.002, 0.0005, 0.004]> : tensor<4xf32>} : () -> tensor<4xf32>
  %wz = "nn.constant"() {value = dense<[0, 0, 0, 0]> : tensor<4xi8>} : () -> tensor<4xi8>
  %ys = "nn.constant"() {value = dense<0.0016> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<123> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[1000, -2000, 0, 123456]> : tensor<4xi32>} : () -> tensor<4xi32>
  %r = "nn.qlinear_conv"(%a, %xs, %xz, %b, %ws, %wz, %ys, %yz, %bias) {pads = [1, 1, 1, 1]} : (tensor<1x3x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x6xui8>
  return %r : tensor<1x4x6x6xui8>
}
func.func @qlinear_conv_i8_depthwise(%x: tensor<2x4x5x5xf32>, %w: tensor<4x1x3x3xf32>) -> tensor<2x4x3x3xi8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<2x4x5x5xf32>, tensor<f32>, tensor<i8>) -> tensor<2x4x5x5xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<4x1x3x3xf32>, tensor<f32>, tensor<i8>) -> tensor<4x1x3x3xi8>
  %xs = "nn.constant"() {value = dense<[0.01]> : tensor<1xf32>} : () -> tensor<1xf32>
  %xz = "nn.constant"() {value = dense<[-4]> : tensor<1xi8>} : () -> tensor<1xi8>
  %ws = "nn.constant"() {value = dense<[0.02]> : tensor<1xf32>} : () -> tensor<1xf32>
  %wz = "nn.constant"() {value = dense<[2]> : tensor<1xi8>} : () -> tensor<1xi8>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%a, %xs, %xz, %b, %ws, %wz, %ys, %yz) {group = 4 : i64} : (tensor<2x4x5x5xi8>, tensor<1xf32>, tensor<1xi8>, tensor<4x1x3x3xi8>, tensor<1xf32>, tensor<1xi8>, tensor<f32>, tensor<i8>) -> tensor<2x4x3x3xi8>
  return %r : tensor<2x4x3x3xi8>
}
func.func @dynamic_quantize_linear(%x: tensor<3x7xf32>) -> (tensor<3x7xui8>, tensor<f32>, tensor<ui8>) {
  %y, %s, %z = "nn.dynamic_quantize_linear"(%x) : (tensor<3x7xf32>) -> (tensor<3x7xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<3x7xui8>, tensor<f32>, tensor<ui8>
}
func.func @dynamic_quantize_linear_positive(%x: tensor<10xf32>) -> (tensor<10xui8>, tensor<f32>, tensor<ui8>) {
  %a = "nn.abs"(%x) : (tensor<10xf32>) -> tensor<10xf32>
  %y, %s, %z = "nn.dynamic_quantize_linear"(%a) : (tensor<10xf32>) -> (tensor<10xui8>, tensor<f32>, tensor<ui8>)
  return %y, %s, %z : tensor<10xui8>, tensor<f32>, tensor<ui8>
}
func.func @qlinear_matmul_bias_per_column(%x: tensor<3x20xf32>, %w: tensor<20x4xf32>) -> tensor<3x4xi8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<3x20xf32>, tensor<f32>, tensor<i8>) -> tensor<3x20xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<20x4xf32>, tensor<f32>, tensor<i8>) -> tensor<20x4xi8>
  %as = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %bs = "nn.constant"() {value = dense<[0.01, 0.002, 0.03, 0.004]> : tensor<4xf32>} : () -> tensor<4xf32>
  %ys = "nn.constant"() {value = dense<0.03> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<5> : tensor<i8>} : () -> tensor<i8>
  %bias = "nn.constant"() {value = dense<[-5000, 100, 20000, 0]> : tensor<4xi32>} : () -> tensor<4xi32>
  %r = "nn.qlinear_matmul"(%a, %as, %zi, %b, %bs, %zi, %ys, %yz, %bias) : (tensor<3x20xi8>, tensor<f32>, tensor<i8>, tensor<20x4xi8>, tensor<4xf32>, tensor<i8>, tensor<f32>, tensor<i8>, tensor<4xi32>) -> tensor<3x4xi8>
  return %r : tensor<3x4xi8>
}
