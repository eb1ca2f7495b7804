// dsp-lower-operators on nn-to-dsp's quantized-layer ops: flip_sign is an
// element-wise xor 0x80; im2col a nest over (row, col) reading the image or
// the pad byte (an i8 zero point flipped); qrequant computes m in f32 and
// the f64 product's rounding in i64 integers (no f64, so that Hexagon runs
// it); qsum the corrected sum in i32. The result then lowers through
// dsp-to-vector and dsp-to-hexagon with no dsp op left. Numerics:
// qrequant.test, qlayers.test (CPU), test/targets/hexagon/qlayers.test.
// RUN: strata-opt %s --dsp-lower-operators | FileCheck %s
// RUN: strata-opt %s --dsp-lower-operators --dsp-to-vector | FileCheck %s --check-prefix=VEC
// RUN: strata-opt %s --dsp-lower-operators --dsp-to-hexagon | FileCheck %s --check-prefix=VEC

// CHECK-LABEL: func.func @quant
// CHECK: linalg.generic {{.*}} ins(%arg0 : tensor<1x2x5x4xi8>) outs(%{{.*}} : tensor<1x2x5x4xui8>)
// CHECK: arith.xori %{{.*}}, %c-128_i8 : i8
// CHECK: linalg.generic {{.*}} ins(%arg1 : tensor<i8>) outs(%{{.*}} : tensor<6x18xui8>)
// CHECK: linalg.index 0
// CHECK: linalg.index 1
// CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}] : tensor<1x2x5x4xui8>
// CHECK: arith.xori %{{.*}}, %c-128_i8 : i8
// CHECK: linalg.generic {{.*}} ins(%arg2, %arg3, %arg4, {{.*}} : tensor<6x3xi32>, tensor<6x1xi32>, tensor<1x3xi32>, tensor<f32>, tensor<i8>, tensor<3xf32>, tensor<1xui8>, tensor<f32>, tensor<1xui8>) outs(%{{.*}} : tensor<6x3xui8>)
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: arith.bitcast %{{.*}} : f32 to i32
// CHECK: arith.muli %{{.*}}, %{{.*}} : i64
// CHECK: arith.trunci %{{.*}} : i64 to i8
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<6x3xi32>)
// CHECK-NOT: "dsp.
// VEC-NOT: "dsp.
func.func @quant(%x: tensor<1x2x5x4xi8>, %p: tensor<i8>, %acc: tensor<6x3xi32>, %rs: tensor<6x1xi32>, %cs: tensor<1x3xi32>) -> (tensor<6x18xui8>, tensor<6x3xui8>, tensor<6x3xi32>) {
  %f = "dsp.flip_sign"(%x) : (tensor<1x2x5x4xi8>) -> tensor<1x2x5x4xui8>
  %c = "dsp.im2col"(%f, %p) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 1>, dilations = array<i64: 1, 2>, pads = array<i64: 1, 2, 1, 0>} : (tensor<1x2x5x4xui8>, tensor<i8>) -> tensor<6x18xui8>
  %s = "nn.constant"() {value = dense<[0.01, 0.02, 0.03]> : tensor<3xf32>} : () -> tensor<3xf32>
  %one = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %z = "nn.constant"() {value = dense<3> : tensor<1xui8>} : () -> tensor<1xui8>
  %y = "dsp.qrequant"(%acc, %rs, %cs, %one, %p, %s, %z, %one, %z) {k = 18, relu} : (tensor<6x3xi32>, tensor<6x1xi32>, tensor<1x3xi32>, tensor<f32>, tensor<i8>, tensor<3xf32>, tensor<1xui8>, tensor<f32>, tensor<1xui8>) -> tensor<6x3xui8>
  %q = "dsp.qsum"(%acc, %rs, %cs, %p, %z) {k = 18} : (tensor<6x3xi32>, tensor<6x1xi32>, tensor<1x3xi32>, tensor<i8>, tensor<1xui8>) -> tensor<6x3xi32>
  return %c, %y, %q : tensor<6x18xui8>, tensor<6x3xui8>, tensor<6x3xi32>
}
