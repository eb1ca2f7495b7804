// QLinear MatMul and Conv layers for nn-to-dsp's numerics (numerics.test):
// every u8/s8 combination of activations and weights, zero points and
// scales per tensor, per row and per column/channel, biases, fused Relu,
// sizes not multiples of the 128-byte vector or of any panel height. Each
// function quantizes its random f32 inputs first (scale 0.008 over the
// inputs' [-1, 1): the full 8-bit range).
func.func @mm_u8_s8_per_column_bias(%x: tensor<5x37xf32>, %w: tensor<37x7xf32>) -> tensor<5x7xui8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<5x37xf32>, tensor<f32>, tensor<ui8>) -> tensor<5x37xui8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<37x7xf32>, tensor<f32>, tensor<i8>) -> tensor<37x7xi8>
  %as = "nn.constant"() {value = dense<[0.0066]> : tensor<1xf32>} : () -> tensor<1xf32>
  %az = "nn.constant"() {value = dense<[131]> : tensor<1xui8>} : () -> tensor<1xui8>
  %bs = "nn.constant"() {value = dense<[0.01, 0.002, 0.03, 0.004, 0.05, 0.007, 0.0011]> : tensor<7xf32>} : () -> tensor<7xf32>
  %bz = "nn.constant"() {value = dense<[-3, 0, 7, 127, -128, 1, 2]> : tensor<7xi8>} : () -> tensor<7xi8>
  %ys = "nn.constant"() {value = dense<[0.0507]> : tensor<1xf32>} : () -> tensor<1xf32>
  %yz = "nn.constant"() {value = dense<[118]> : tensor<1xui8>} : () -> tensor<1xui8>
  %bias = "nn.constant"() {value = dense<[-5000, 100, 20000, 0, 7, -70000, 3]> : tensor<7xi32>} : () -> tensor<7xi32>
  %r = "nn.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz, %bias) : (tensor<5x37xui8>, tensor<1xf32>, tensor<1xui8>, tensor<37x7xi8>, tensor<7xf32>, tensor<7xi8>, tensor<1xf32>, tensor<1xui8>, tensor<7xi32>) -> tensor<5x7xui8>
  return %r : tensor<5x7xui8>
}
func.func @mm_s8_s8_batched_per_row(%x: tensor<2x3x24xf32>, %w: tensor<24x5xf32>) -> tensor<2x3x5xi8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<2x3x24xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3x24xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<24x5xf32>, tensor<f32>, tensor<i8>) -> tensor<24x5xi8>
  %as = "nn.constant"() {value = dense<[[[0.01], [0.02], [0.005]], [[0.01], [0.03], [0.001]]]> : tensor<2x3x1xf32>} : () -> tensor<2x3x1xf32>
  %az = "nn.constant"() {value = dense<[[[1], [-1], [0]], [[5], [0], [-7]]]> : tensor<2x3x1xi8>} : () -> tensor<2x3x1xi8>
  %bs = "nn.constant"() {value = dense<[[0.01, 0.002, 0.03, 0.004, 0.05]]> : tensor<1x5xf32>} : () -> tensor<1x5xf32>
  %bz = "nn.constant"() {value = dense<[0, 3, -3, 0, 1]> : tensor<5xi8>} : () -> tensor<5xi8>
  %ys = "nn.constant"() {value = dense<[[[0.02], [0.01], [0.03]], [[0.04], [0.002], [0.02]]]> : tensor<2x3x1xf32>} : () -> tensor<2x3x1xf32>
  %yz = "nn.constant"() {value = dense<[[[-10], [0], [3]], [[100], [-128], [127]]]> : tensor<2x3x1xi8>} : () -> tensor<2x3x1xi8>
  %r = "nn.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x3x24xi8>, tensor<2x3x1xf32>, tensor<2x3x1xi8>, tensor<24x5xi8>, tensor<1x5xf32>, tensor<5xi8>, tensor<2x3x1xf32>, tensor<2x3x1xi8>) -> tensor<2x3x5xi8>
  return %r : tensor<2x3x5xi8>
}
func.func @mm_u8_u8_relu_large(%x: tensor<130x33xf32>, %w: tensor<33x129xf32>) -> tensor<130x129xui8> {
  %s = "nn.constant"() {value = dense<0.004> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<130x33xf32>, tensor<f32>, tensor<ui8>) -> tensor<130x33xui8>
  %b = "nn.quantize_linear"(%w, %s, %zu) : (tensor<33x129xf32>, tensor<f32>, tensor<ui8>) -> tensor<33x129xui8>
  %as = "nn.constant"() {value = dense<0.0066> : tensor<f32>} : () -> tensor<f32>
  %az = "nn.constant"() {value = dense<113> : tensor<ui8>} : () -> tensor<ui8>
  %bs = "nn.constant"() {value = dense<0.00705> : tensor<f32>} : () -> tensor<f32>
  %bz = "nn.constant"() {value = dense<140> : tensor<ui8>} : () -> tensor<ui8>
  %ys = "nn.constant"() {value = dense<0.0507> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<100> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<130x33xui8>, tensor<f32>, tensor<ui8>, tensor<33x129xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<130x129xui8>
  %m = "nn.max"(%r, %yz) : (tensor<130x129xui8>, tensor<ui8>) -> tensor<130x129xui8>
  return %m : tensor<130x129xui8>
}
func.func @mm_s8_u8_per_column_zp(%x: tensor<9x70xf32>, %w: tensor<70x3xf32>) -> tensor<9x3xui8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<9x70xf32>, tensor<f32>, tensor<i8>) -> tensor<9x70xi8>
  %b = "nn.quantize_linear"(%w, %s, %zu) : (tensor<70x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<70x3xui8>
  %as = "nn.constant"() {value = dense<[0.01, 0.02, 0.005, 0.01, 0.03, 0.001, 0.01, 0.01, 0.02]> : tensor<9xf32>} : () -> tensor<9xf32>
  %az = "nn.constant"() {value = dense<-7> : tensor<i8>} : () -> tensor<i8>
  %bs = "nn.constant"() {value = dense<[0.01, 0.002, 0.03]> : tensor<3xf32>} : () -> tensor<3xf32>
  %bz = "nn.constant"() {value = dense<[0, 128, 255]> : tensor<3xui8>} : () -> tensor<3xui8>
  %ys = "nn.constant"() {value = dense<0.2> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<60> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<9x70xi8>, tensor<9xf32>, tensor<i8>, tensor<70x3xui8>, tensor<3xf32>, tensor<3xui8>, tensor<f32>, tensor<ui8>) -> tensor<9x3xui8>
  return %r : tensor<9x3xui8>
}
func.func @conv_u8_s8_per_channel_bias_relu(%x: tensor<1x3x6x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xui8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<1x3x6x6xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x3x6x6xui8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<4x3x3x3xf32>, tensor<f32>, tensor<i8>) -> tensor<4x3x3x3xi8>
  %xs = "nn.constant"() {value = dense<0.0037> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<132> : tensor<ui8>} : () -> tensor<ui8>
  %ws = "nn.constant"() {value = dense<[0.0017, 0.002, 0.0005, 0.004]> : tensor<4xf32>} : () -> tensor<4xf32>
  %wz = "nn.constant"() {value = dense<[0, 3, -2, 0]> : tensor<4xi8>} : () -> tensor<4xi8>
  %ys = "nn.constant"() {value = dense<0.0016> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<123> : tensor<ui8>} : () -> tensor<ui8>
  %bias = "nn.constant"() {value = dense<[1000, -2000, 0, 123456]> : tensor<4xi32>} : () -> tensor<4xi32>
  %r = "nn.qlinear_conv"(%a, %xs, %xz, %b, %ws, %wz, %ys, %yz, %bias) {pads = [1, 1, 1, 1]} : (tensor<1x3x6x6xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x3xi8>, tensor<4xf32>, tensor<4xi8>, tensor<f32>, tensor<ui8>, tensor<4xi32>) -> tensor<1x4x6x6xui8>
  %m = "nn.max"(%r, %yz) : (tensor<1x4x6x6xui8>, tensor<ui8>) -> tensor<1x4x6x6xui8>
  return %m : tensor<1x4x6x6xui8>
}
func.func @conv_s8_u8_strides_dilations_pads(%x: tensor<2x5x9x11xf32>, %w: tensor<6x5x3x2xf32>) -> tensor<2x6x5x10xi8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<2x5x9x11xf32>, tensor<f32>, tensor<i8>) -> tensor<2x5x9x11xi8>
  %b = "nn.quantize_linear"(%w, %s, %zu) : (tensor<6x5x3x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<6x5x3x2xui8>
  %xs = "nn.constant"() {value = dense<[0.01]> : tensor<1xf32>} : () -> tensor<1xf32>
  %xz = "nn.constant"() {value = dense<[-4]> : tensor<1xi8>} : () -> tensor<1xi8>
  %ws = "nn.constant"() {value = dense<[0.02, 0.01, 0.005, 0.03, 0.002, 0.04]> : tensor<6xf32>} : () -> tensor<6xf32>
  %wz = "nn.constant"() {value = dense<[128, 0, 255, 3, 130, 127]> : tensor<6xui8>} : () -> tensor<6xui8>
  %ys = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<3> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%a, %xs, %xz, %b, %ws, %wz, %ys, %yz) {pads = [1, 0, 2, 1], strides = [2, 1], dilations = [1, 2]} : (tensor<2x5x9x11xi8>, tensor<1xf32>, tensor<1xi8>, tensor<6x5x3x2xui8>, tensor<6xf32>, tensor<6xui8>, tensor<f32>, tensor<i8>) -> tensor<2x6x5x10xi8>
  return %r : tensor<2x6x5x10xi8>
}
func.func @conv_u8_u8_same_upper(%x: tensor<1x4x7x5xf32>, %w: tensor<3x4x2x3xf32>) -> tensor<1x3x7x5xui8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zu = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %a = "nn.quantize_linear"(%x, %s, %zu) : (tensor<1x4x7x5xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x4x7x5xui8>
  %b = "nn.quantize_linear"(%w, %s, %zu) : (tensor<3x4x2x3xf32>, tensor<f32>, tensor<ui8>) -> tensor<3x4x2x3xui8>
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<200> : tensor<ui8>} : () -> tensor<ui8>
  %ws = "nn.constant"() {value = dense<0.02> : tensor<f32>} : () -> tensor<f32>
  %wz = "nn.constant"() {value = dense<120> : tensor<ui8>} : () -> tensor<ui8>
  %ys = "nn.constant"() {value = dense<0.3> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %r = "nn.qlinear_conv"(%a, %xs, %xz, %b, %ws, %wz, %ys, %yz) {auto_pad = "SAME_UPPER"} : (tensor<1x4x7x5xui8>, tensor<f32>, tensor<ui8>, tensor<3x4x2x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x7x5xui8>
  return %r : tensor<1x3x7x5xui8>
}
func.func @conv_s8_s8_1x1_wide(%x: tensor<1x130x3x3xf32>, %w: tensor<33x130x1x1xf32>) -> tensor<1x33x3x3xi8> {
  %s = "nn.constant"() {value = dense<0.008> : tensor<f32>} : () -> tensor<f32>
  %zi = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %a = "nn.quantize_linear"(%x, %s, %zi) : (tensor<1x130x3x3xf32>, tensor<f32>, tensor<i8>) -> tensor<1x130x3x3xi8>
  %b = "nn.quantize_linear"(%w, %s, %zi) : (tensor<33x130x1x1xf32>, tensor<f32>, tensor<i8>) -> tensor<33x130x1x1xi8>
  %xs = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<5> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<0.003> : tensor<f32>} : () -> tensor<f32>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ys = "nn.constant"() {value = dense<0.05> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-1> : tensor<i8>} : () -> tensor<i8>
  %r = "nn.qlinear_conv"(%a, %xs, %xz, %b, %ws, %wz, %ys, %yz) : (tensor<1x130x3x3xi8>, tensor<f32>, tensor<i8>, tensor<33x130x1x1xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<i8>) -> tensor<1x33x3x3xi8>
  return %r : tensor<1x33x3x3xi8>
}
