// --nn-qdq-to-qlinear: DequantizeLinear -> Conv/MatMul/Gemm[/Add][/Relu] ->
// QuantizeLinear becomes QLinearConv/QLinearMatMul on the int8 tensors.
// RUN: strata-opt %s --split-input-file --nn-qdq-to-qlinear | FileCheck %s

// A conv with per-channel weights, a float bias quantized with scale
// x_scale * w_scale (0.5 * [0.25, 0.125] -> [8, -16]), and a Relu (max with
// the output zero point). The conv's attributes stay.
// CHECK-LABEL: func.func @conv_relu
// CHECK: %[[B:.*]] = "nn.constant"() {value = dense<[8, -16]> : tensor<2xi32>}
// CHECK: %[[Q:.*]] = "nn.qlinear_conv"(%arg0, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[YZ:.*]], %[[B]]) {{.*}}pads = [1, 1, 1, 1]
// CHECK: %[[R:.*]] = "nn.max"(%[[Q]], %[[YZ]])
// CHECK-NOT: nn.conv
// CHECK: return %[[R]]
func.func @conv_relu(%xq: tensor<1x3x4x4xui8>) -> tensor<1x2x4x4xui8> {
  %xs = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %wq = "nn.constant"() {value = dense<1> : tensor<2x3x3x3xi8>} : () -> tensor<2x3x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.25, 0.125]> : tensor<2xf32>} : () -> tensor<2xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<2xi8>} : () -> tensor<2xi8>
  %b = "nn.constant"() {value = dense<[1.0, -1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ys = "nn.constant"() {value = dense<0.1> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<10> : tensor<ui8>} : () -> tensor<ui8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<1x3x4x4xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x4xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) {axis = 0 : i64} : (tensor<2x3x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x3x3x3xf32>
  %c = "nn.conv"(%x, %w, %b) {pads = [1, 1, 1, 1]} : (tensor<1x3x4x4xf32>, tensor<2x3x3x3xf32>, tensor<2xf32>) -> tensor<1x2x4x4xf32>
  %r = "nn.relu"(%c) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>
  %y = "nn.quantize_linear"(%r, %ys, %yz) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<ui8>) -> tensor<1x2x4x4xui8>
  return %y : tensor<1x2x4x4xui8>
}

// -----

// A Gemm with transB (PyTorch's Linear): the constant weights are
// transposed here (a new constant, so that the integer kernel caches its
// packed form), the i32 bias of a DequantizeLinear whose scale is
// x_scale * w_scale is used as it is.
// CHECK-LABEL: func.func @gemm
// CHECK: %[[BQ:.*]] = "nn.constant"() {value = dense<[7, 8, 9]> : tensor<3xi32>}
// CHECK: %[[T:.*]] = "nn.constant"() {value = dense<{{\[}}[1, 6, -11], [2, 7, 12], [3, 8, 13], [4, 9, 14], [5, 10, 127]]> : tensor<5x3xi8>}
// CHECK: "nn.qlinear_matmul"(%arg0, %{{.*}}, %{{.*}}, %[[T]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[BQ]])
// CHECK-NOT: nn.gemm
func.func @gemm(%xq: tensor<2x5xi8>) -> tensor<2x3xi8> {
  %xs = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %wq = "nn.constant"() {value = dense<[[1, 2, 3, 4, 5], [6, 7, 8, 9, 10], [-11, 12, 13, 14, 127]]> : tensor<3x5xi8>} : () -> tensor<3x5xi8>
  %ws = "nn.constant"() {value = dense<[0.25, 0.125, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<3xi8>} : () -> tensor<3xi8>
  %bq = "nn.constant"() {value = dense<[7, 8, 9]> : tensor<3xi32>} : () -> tensor<3xi32>
  %bs = "nn.constant"() {value = dense<[0.125, 0.0625, 0.25]> : tensor<3xf32>} : () -> tensor<3xf32>
  %bz = "nn.constant"() {value = dense<0> : tensor<3xi32>} : () -> tensor<3xi32>
  %ys = "nn.constant"() {value = dense<0.2> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<2x5xi8>, tensor<f32>, tensor<i8>) -> tensor<2x5xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) {axis = 0 : i64} : (tensor<3x5xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<3x5xf32>
  %b = "nn.dequantize_linear"(%bq, %bs, %bz) {axis = 0 : i64} : (tensor<3xi32>, tensor<3xf32>, tensor<3xi32>) -> tensor<3xf32>
  %g = "nn.gemm"(%x, %w, %b) {transB = 1 : i64} : (tensor<2x5xf32>, tensor<3x5xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %y = "nn.quantize_linear"(%g, %ys, %yz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// transB with weights that are not a constant: a transpose.
// CHECK-LABEL: func.func @gemm_weights_argument
// CHECK: %[[T:.*]] = "nn.transpose"(%arg1) {perm = array<i64: 1, 0>} : (tensor<3x5xi8>) -> tensor<5x3xi8>
// CHECK: "nn.qlinear_matmul"(%arg0, %{{.*}}, %{{.*}}, %[[T]],
// CHECK-NOT: nn.gemm
func.func @gemm_weights_argument(%xq: tensor<2x5xi8>, %wq: tensor<3x5xi8>) -> tensor<2x3xi8> {
  %xs = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %xz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ws = "nn.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %ys = "nn.constant"() {value = dense<0.2> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<-3> : tensor<i8>} : () -> tensor<i8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<2x5xi8>, tensor<f32>, tensor<i8>) -> tensor<2x5xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) : (tensor<3x5xi8>, tensor<f32>, tensor<i8>) -> tensor<3x5xf32>
  %g = "nn.gemm"(%x, %w) {transB = 1 : i64} : (tensor<2x5xf32>, tensor<3x5xf32>) -> tensor<2x3xf32>
  %y = "nn.quantize_linear"(%g, %ys, %yz) : (tensor<2x3xf32>, tensor<f32>, tensor<i8>) -> tensor<2x3xi8>
  return %y : tensor<2x3xi8>
}

// -----

// A batched MatMul plus a bias vector (a transformer's Linear).
// CHECK-LABEL: func.func @matmul_add
// CHECK: %[[B:.*]] = "nn.constant"() {value = dense<[4, -2]> : tensor<2xi32>}
// CHECK: "nn.qlinear_matmul"(%arg0, {{.*}}, %[[B]]) : (tensor<2x3x4xui8>, {{.*}}) -> tensor<2x3x2xui8>
// CHECK-NOT: nn.matmul"
// CHECK-NOT: nn.add
func.func @matmul_add(%xq: tensor<2x3x4xui8>) -> tensor<2x3x2xui8> {
  %xs = "nn.constant"() {value = dense<[0.5]> : tensor<1xf32>} : () -> tensor<1xf32>
  %xz = "nn.constant"() {value = dense<[100]> : tensor<1xui8>} : () -> tensor<1xui8>
  %wq = "nn.constant"() {value = dense<2> : tensor<4x2xi8>} : () -> tensor<4x2xi8>
  %ws = "nn.constant"() {value = dense<0.25> : tensor<f32>} : () -> tensor<f32>
  %wz = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %b = "nn.constant"() {value = dense<[0.5, -0.25]> : tensor<2xf32>} : () -> tensor<2xf32>
  %ys = "nn.constant"() {value = dense<0.2> : tensor<f32>} : () -> tensor<f32>
  %yz = "nn.constant"() {value = dense<128> : tensor<ui8>} : () -> tensor<ui8>
  %x = "nn.dequantize_linear"(%xq, %xs, %xz) : (tensor<2x3x4xui8>, tensor<1xf32>, tensor<1xui8>) -> tensor<2x3x4xf32>
  %w = "nn.dequantize_linear"(%wq, %ws, %wz) : (tensor<4x2xi8>, tensor<f32>, tensor<i8>) -> tensor<4x2xf32>
  %m = "nn.matmul"(%x, %w) : (tensor<2x3x4xf32>, tensor<4x2xf32>) -> tensor<2x3x2xf32>
  %a = "nn.add"(%m, %b) : (tensor<2x3x2xf32>, tensor<2xf32>) -> tensor<2x3x2xf32>
  %y = "nn.quantize_linear"(%a, %ys, %yz) : (tensor<2x3x2xf32>, tensor<f32>, tensor<ui8>) -> tensor<2x3x2xui8>
  return %y : tensor<2x3x2xui8>
}

// -----

// Not rewritten: the conv's float result has another user; the weights are
// per-channel along the wrong axis; the bias is a run-time value; the
// activation is not dequantized.
// CHECK-LABEL: func.func @negatives
// CHECK-NOT: qlinear
// CHECK-COUNT-4: "nn.quantize_linear"
func.func @negatives(%xq: tensor<1x2x4x4xi8>, %bf: tensor<2xf32>, %xf: tensor<1x2x4x4xf32>) -> (tensor<1x2x2x2xi8>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>) {
  %s = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<0> : tensor<i8>} : () -> tensor<i8>
  %wq = "nn.constant"() {value = dense<1> : tensor<2x2x3x3xi8>} : () -> tensor<2x2x3x3xi8>
  %ws = "nn.constant"() {value = dense<[0.25, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %wz = "nn.constant"() {value = dense<0> : tensor<2xi8>} : () -> tensor<2xi8>
  %x = "nn.dequantize_linear"(%xq, %s, %z) : (tensor<1x2x4x4xi8>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xf32>
  %w = "nn.dequantize_linear"(%wq, %s, %z) : (tensor<2x2x3x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2x3x3xf32>
  %c1 = "nn.conv"(%x, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %y1 = "nn.quantize_linear"(%c1, %s, %z) : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xi8>
  %w1 = "nn.dequantize_linear"(%wq, %ws, %wz) {axis = 1 : i64} : (tensor<2x2x3x3xi8>, tensor<2xf32>, tensor<2xi8>) -> tensor<2x2x3x3xf32>
  %c2 = "nn.conv"(%x, %w1) : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %y2 = "nn.quantize_linear"(%c2, %s, %z) : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xi8>
  %c3 = "nn.conv"(%x, %w, %bf) : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %y3 = "nn.quantize_linear"(%c3, %s, %z) : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xi8>
  %c4 = "nn.conv"(%xf, %w) : (tensor<1x2x4x4xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x2x2xf32>
  %y4 = "nn.quantize_linear"(%c4, %s, %z) : (tensor<1x2x2x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x2x2xi8>
  return %y1, %c1, %y2, %y3, %y4 : tensor<1x2x2x2xi8>, tensor<1x2x2x2xf32>, tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>, tensor<1x2x2x2xi8>
}
