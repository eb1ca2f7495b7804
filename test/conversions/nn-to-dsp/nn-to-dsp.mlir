// nn-to-dsp: QLinearMatMul / QLinearConv as dsp plans (numerics.test runs
// them). An i8 activation and a ui8 weight are flipped to dsp.matmul's
// sides, batch dims fold into M, the zero-point sums are dsp.matmuls against
// ones, the Relu after the op is fused, and a conv goes through dsp.im2col
// and back to NCHW.
// RUN: strata-opt %s --nn-to-dsp | FileCheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x3x24xi8>, %[[B:.*]]: tensor<24x5xui8>
// CHECK: %[[FA:.*]] = "dsp.flip_sign"(%[[A]]) : (tensor<2x3x24xi8>) -> tensor<2x3x24xui8>
// CHECK: %[[RA:.*]] = "nn.reshape"(%[[FA]], %{{.*}}) : (tensor<2x3x24xui8>, tensor<2xi64>) -> tensor<6x24xui8>
// CHECK: %[[FB:.*]] = "dsp.flip_sign"(%[[B]]) : (tensor<24x5xui8>) -> tensor<24x5xi8>
// CHECK: %[[ACC:.*]] = "dsp.matmul"(%[[RA]], %[[FB]]) : (tensor<6x24xui8>, tensor<24x5xi8>) -> tensor<6x5xi32>
// CHECK: %[[ONES:.*]] = "nn.constant"() {value = dense<1> : tensor<24x1xi8>}
// CHECK: %[[RS:.*]] = "dsp.matmul"(%[[RA]], %[[ONES]]) : (tensor<6x24xui8>, tensor<24x1xi8>) -> tensor<6x1xi32>
// CHECK: %[[ONES2:.*]] = "nn.constant"() {value = dense<1> : tensor<1x24xui8>}
// CHECK: %[[CS:.*]] = "dsp.matmul"(%[[ONES2]], %[[FB]]) : (tensor<1x24xui8>, tensor<24x5xi8>) -> tensor<1x5xi32>
// CHECK: %[[Y:.*]] = "dsp.qrequant"(%[[ACC]], %[[RS]], %[[CS]], %{{.*}}) {k = 24 : i64, relu} : ({{.*}}, tensor<5xi32>) -> tensor<6x5xi8>
// CHECK: %[[R:.*]] = "nn.reshape"(%[[Y]], %{{.*}}) : (tensor<6x5xi8>, tensor<3xi64>) -> tensor<2x3x5xi8>
// CHECK-NOT: nn.max
// CHECK-NOT: nn.qlinear
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<2x3x24xi8>, %b: tensor<24x5xui8>) -> tensor<2x3x5xi8> {
  %s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %az = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %bz = "nn.constant"() {value = dense<[1, 2, 3, 4, 5]> : tensor<5xui8>} : () -> tensor<5xui8>
  %yz = "nn.constant"() {value = dense<4> : tensor<i8>} : () -> tensor<i8>
  %bias = "nn.constant"() {value = dense<[1, 2, 3, 4, 5]> : tensor<5xi32>} : () -> tensor<5xi32>
  %y = "nn.qlinear_matmul"(%a, %s, %az, %b, %s, %bz, %s, %yz, %bias) : (tensor<2x3x24xi8>, tensor<f32>, tensor<i8>, tensor<24x5xui8>, tensor<f32>, tensor<5xui8>, tensor<f32>, tensor<i8>, tensor<5xi32>) -> tensor<2x3x5xi8>
  %r = "nn.max"(%y, %yz) : (tensor<2x3x5xi8>, tensor<i8>) -> tensor<2x3x5xi8>
  return %r : tensor<2x3x5xi8>
}

// The conv's window (auto_pad resolved) is written on dsp.im2col, padded with
// x's zero point; w (OC x C x KH x KW) becomes (C*KH*KW) x OC.
// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x7x6xui8>, %[[W:.*]]: tensor<4x3x3x2xi8>
// CHECK: %[[COLS:.*]] = "dsp.im2col"(%[[X]], %[[XZ:.*]]) {dilations = array<i64: 1, 2>, kernel_shape = array<i64: 3, 2>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : (tensor<2x3x7x6xui8>, tensor<ui8>) -> tensor<48x18xui8>
// CHECK: %[[W2:.*]] = "nn.reshape"(%[[W]], %{{.*}}) : (tensor<4x3x3x2xi8>, tensor<2xi64>) -> tensor<4x18xi8>
// CHECK: %[[WT:.*]] = "nn.transpose"(%[[W2]]) {perm = array<i64: 1, 0>} : (tensor<4x18xi8>) -> tensor<18x4xi8>
// CHECK: %[[ACC:.*]] = "dsp.matmul"(%[[COLS]], %[[WT]]) : (tensor<48x18xui8>, tensor<18x4xi8>) -> tensor<48x4xi32>
// CHECK: "dsp.qrequant"(%[[ACC]], {{.*}}) {k = 18 : i64} : {{.*}} -> tensor<48x4xui8>
// CHECK: "nn.reshape"({{.*}}) -> tensor<2x24x4xui8>
// CHECK: "nn.transpose"({{.*}}) {perm = array<i64: 0, 2, 1>} : (tensor<2x24x4xui8>) -> tensor<2x4x24xui8>
// CHECK: "nn.reshape"({{.*}}) -> tensor<2x4x4x6xui8>
func.func @conv(%x: tensor<2x3x7x6xui8>, %w: tensor<4x3x3x2xi8>) -> tensor<2x4x4x6xui8> {
  %s = "nn.constant"() {value = dense<0.01> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<7> : tensor<ui8>} : () -> tensor<ui8>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %yz = "nn.constant"() {value = dense<4> : tensor<ui8>} : () -> tensor<ui8>
  %y = "nn.qlinear_conv"(%x, %s, %xz, %w, %s, %wz, %s, %yz) {auto_pad = "SAME_UPPER", strides = [2, 1], dilations = [1, 2]} : (tensor<2x3x7x6xui8>, tensor<f32>, tensor<ui8>, tensor<4x3x3x2xi8>, tensor<f32>, tensor<i8>, tensor<f32>, tensor<ui8>) -> tensor<2x4x4x6xui8>
  return %y : tensor<2x4x4x6xui8>
}

// MatMulInteger: the same MatMuls, then dsp.qsum (the corrected i32 sum, no
// requantization); an absent zero point is a zero of the operand's type.
// CHECK-LABEL: func.func @matmul_integer
// CHECK: %[[Z:.*]] = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
// CHECK: %[[ACC:.*]] = "dsp.matmul"(%arg0, %arg1) : (tensor<3x9xui8>, tensor<9x4xi8>) -> tensor<3x4xi32>
// CHECK: "dsp.qsum"(%[[ACC]], %{{.*}}, %{{.*}}, %{{.*}}, %[[Z]]) {k = 9 : i64} : (tensor<3x4xi32>, tensor<3x1xi32>, tensor<1x4xi32>, tensor<3xui8>, tensor<i8>) -> tensor<3x4xi32>
// CHECK-NOT: nn.matmul_integer
func.func @matmul_integer(%a: tensor<3x9xui8>, %b: tensor<9x4xi8>) -> tensor<3x4xi32> {
  %az = "nn.constant"() {value = dense<[1, 2, 200]> : tensor<3xui8>} : () -> tensor<3xui8>
  %y = "nn.matmul_integer"(%a, %b, %az) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<3x9xui8>, tensor<9x4xi8>, tensor<3xui8>) -> tensor<3x4xi32>
  return %y : tensor<3x4xi32>
}

// ConvInteger: im2col padded with the x zero point, then dsp.qsum.
// CHECK-LABEL: func.func @conv_integer
// CHECK: %[[F:.*]] = "dsp.flip_sign"(%arg0) : (tensor<1x2x5x5xi8>) -> tensor<1x2x5x5xui8>
// CHECK: "dsp.im2col"(%[[F]], %{{.*}}) {{.*}}pads = array<i64: 1, 1, 1, 1>{{.*}} -> tensor<25x18xui8>
// CHECK: "dsp.qsum"({{.*}}) {k = 18 : i64} : (tensor<25x3xi32>, tensor<25x1xi32>, tensor<1x3xi32>, tensor<i8>, tensor<3xi8>) -> tensor<25x3xi32>
// CHECK: "nn.transpose"
func.func @conv_integer(%x: tensor<1x2x5x5xi8>, %w: tensor<3x2x3x3xi8>) -> tensor<1x3x5x5xi32> {
  %xz = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %wz = "nn.constant"() {value = dense<[0, 1, -1]> : tensor<3xi8>} : () -> tensor<3xi8>
  %y = "nn.conv_integer"(%x, %w, %xz, %wz) {pads = [1, 1, 1, 1], operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x2x5x5xi8>, tensor<3x2x3x3xi8>, tensor<i8>, tensor<3xi8>) -> tensor<1x3x5x5xi32>
  return %y : tensor<1x3x5x5xi32>
}
