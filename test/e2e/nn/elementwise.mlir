// Every elementwise nn op through the CPU pipeline against the reference
// interpreter, on seeded random inputs (floats in [-1,1), ints in [-8,8)).
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @abs_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.abs"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @neg_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.neg"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @exp_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.exp"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @log_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.log"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sqrt_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.sqrt"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @reciprocal_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.reciprocal"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @relu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.relu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @leaky_relu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.leaky_relu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @elu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.elu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @selu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.selu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sigmoid_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.sigmoid"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @hard_sigmoid_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.hard_sigmoid"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @hard_swish_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.hard_swish"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @tanh_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.tanh"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @gelu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.gelu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @erf_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.erf"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @softplus_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.softplus"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sin_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.sin"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @cos_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.cos"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @floor_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.floor"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @ceil_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.ceil"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @round_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.round"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sign_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.sign"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @identity_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.identity"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @dropout_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.dropout"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @leaky_relu_alpha(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.leaky_relu"(%x) {alpha = 0.3 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @elu_alpha(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.elu"(%x) {alpha = 0.5 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @selu_attrs(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.selu"(%x) {alpha = 2.0 : f32, gamma = 3.0 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @hard_sigmoid_attrs(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.hard_sigmoid"(%x) {alpha = 0.5 : f32, beta = 0.25 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @gelu_tanh(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.gelu"(%x) {approximate = "tanh"} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @clip_both(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.clip"(%x) {min = -0.5 : f32, max = 0.25 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @clip_min_only(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.clip"(%x) {min = 0.0 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @is_nan_of_log(%x: tensor<3x5xf32>) -> tensor<3x5xi1> {
  %l = "nn.log"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = "nn.is_nan"(%l) : (tensor<3x5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @add_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.add"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sub_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.sub"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @mul_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.mul"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @div_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.div"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @pow_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.pow"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @max_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.max"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @min_bcast(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.min"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @add_both_sides(%a: tensor<2x1x4xf32>, %b: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.add"(%a, %b) : (tensor<2x1x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @mul_scalar(%a: tensor<3x5xf32>, %b: tensor<f32>) -> tensor<3x5xf32> {
  %r = "nn.mul"(%a, %b) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @mod_fmod(%a: tensor<3x5xf32>, %b: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.mod"(%a, %b) {fmod = 1 : i64} : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @equal_f32(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xi1> {
  %r = "nn.equal"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @less_f32(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xi1> {
  %r = "nn.less"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @less_or_equal_f32(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xi1> {
  %r = "nn.less_or_equal"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @greater_f32(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xi1> {
  %r = "nn.greater"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @greater_or_equal_f32(%a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xi1> {
  %r = "nn.greater_or_equal"(%a, %b) : (tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @prelu_channel(%x: tensor<2x3x4xf32>, %s: tensor<3x1xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.prelu"(%x, %s) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @where_bcast(%c: tensor<3x1xi1>, %a: tensor<3x5xf32>, %b: tensor<5xf32>) -> tensor<3x5xf32> {
  %r = "nn.where"(%c, %a, %b) : (tensor<3x1xi1>, tensor<3x5xf32>, tensor<5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @add_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.add"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @sub_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.sub"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @mul_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.mul"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @div_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.div"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @max_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.max"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @min_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.min"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @abs_i32(%a: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.abs"(%a) : (tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @neg_i32(%a: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.neg"(%a) : (tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @relu_i32(%a: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.relu"(%a) : (tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @sign_i32(%a: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.sign"(%a) : (tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @mod_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.mod"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @mod_i32_fmod(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi32> {
  %r = "nn.mod"(%a, %b) {fmod = 1 : i64} : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi32>
  return %r : tensor<4x6xi32>
}
func.func @div_i64(%a: tensor<7xi64>, %b: tensor<7xi64>) -> tensor<7xi64> {
  %r = "nn.div"(%a, %b) : (tensor<7xi64>, tensor<7xi64>) -> tensor<7xi64>
  return %r : tensor<7xi64>
}
func.func @clip_i8(%a: tensor<9xi8>) -> tensor<9xi8> {
  %r = "nn.clip"(%a) {min = -3 : i64, max = 5 : i64} : (tensor<9xi8>) -> tensor<9xi8>
  return %r : tensor<9xi8>
}
func.func @less_i32(%a: tensor<4x6xi32>, %b: tensor<4x6xi32>) -> tensor<4x6xi1> {
  %r = "nn.less"(%a, %b) : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi1>
  return %r : tensor<4x6xi1>
}
func.func @add_u8(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.add"(%a, %b) : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @div_u8(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.div"(%a, %b) : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @max_u8(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.max"(%a, %b) : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @mod_u8(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.mod"(%a, %b) : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @greater_u8(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xi1> {
  %r = "nn.greater"(%a, %b) : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xi1>
  return %r : tensor<10xi1>
}
func.func @bit_shift_left(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.bit_shift"(%a, %b) {direction = "LEFT"} : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @bit_shift_right(%a: tensor<10xui8>, %b: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.bit_shift"(%a, %b) {direction = "RIGHT"} : (tensor<10xui8>, tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @sign_u8(%a: tensor<10xui8>) -> tensor<10xui8> {
  %r = "nn.sign"(%a) : (tensor<10xui8>) -> tensor<10xui8>
  return %r : tensor<10xui8>
}
func.func @and_i1(%a: tensor<8xi1>, %b: tensor<8xi1>) -> tensor<8xi1> {
  %r = "nn.and"(%a, %b) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return %r : tensor<8xi1>
}
func.func @or_i1(%a: tensor<8xi1>, %b: tensor<8xi1>) -> tensor<8xi1> {
  %r = "nn.or"(%a, %b) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return %r : tensor<8xi1>
}
func.func @xor_i1(%a: tensor<8xi1>, %b: tensor<8xi1>) -> tensor<8xi1> {
  %r = "nn.xor"(%a, %b) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return %r : tensor<8xi1>
}
func.func @not_i1(%a: tensor<8xi1>) -> tensor<8xi1> {
  %r = "nn.not"(%a) : (tensor<8xi1>) -> tensor<8xi1>
  return %r : tensor<8xi1>
}
func.func @equal_i1(%a: tensor<8xi1>, %b: tensor<8xi1>) -> tensor<8xi1> {
  %r = "nn.equal"(%a, %b) : (tensor<8xi1>, tensor<8xi1>) -> tensor<8xi1>
  return %r : tensor<8xi1>
}
func.func @cast_f32_to_i32(%x: tensor<3x5xf32>) -> tensor<3x5xi32> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}
func.func @cast_f32_to_i8(%x: tensor<3x5xf32>) -> tensor<3x5xi8> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xi8>
  return %r : tensor<3x5xi8>
}
func.func @cast_f32_to_ui8(%x: tensor<3x5xf32>) -> tensor<3x5xui8> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xui8>
  return %r : tensor<3x5xui8>
}
func.func @cast_f32_to_i64(%x: tensor<3x5xf32>) -> tensor<3x5xi64> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xi64>
  return %r : tensor<3x5xi64>
}
func.func @cast_f32_to_i1(%x: tensor<3x5xf32>) -> tensor<3x5xi1> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xi1>
  return %r : tensor<3x5xi1>
}
func.func @cast_f32_to_f64(%x: tensor<3x5xf32>) -> tensor<3x5xf64> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xf64>
  return %r : tensor<3x5xf64>
}
func.func @cast_f32_to_f16(%x: tensor<3x5xf32>) -> tensor<3x5xf16> {
  %k = "nn.constant"() {value = dense<300.0> : tensor<f32>} : () -> tensor<f32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @cast_i32_to_f32(%x: tensor<6xi32>) -> tensor<6xf32> {
  %r = "nn.cast"(%x) : (tensor<6xi32>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @cast_ui8_to_f32(%x: tensor<6xui8>) -> tensor<6xf32> {
  %r = "nn.cast"(%x) : (tensor<6xui8>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @cast_i1_to_f32(%x: tensor<6xi1>) -> tensor<6xf32> {
  %r = "nn.cast"(%x) : (tensor<6xi1>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @cast_i64_to_f32(%x: tensor<6xi64>) -> tensor<6xf32> {
  %r = "nn.cast"(%x) : (tensor<6xi64>) -> tensor<6xf32>
  return %r : tensor<6xf32>
}
func.func @cast_i32_to_i8(%x: tensor<6xi32>) -> tensor<6xi8> {
  %r = "nn.cast"(%x) : (tensor<6xi32>) -> tensor<6xi8>
  return %r : tensor<6xi8>
}
func.func @cast_i8_to_i64(%x: tensor<6xi8>) -> tensor<6xi64> {
  %r = "nn.cast"(%x) : (tensor<6xi8>) -> tensor<6xi64>
  return %r : tensor<6xi64>
}
func.func @cast_ui8_to_i32(%x: tensor<6xui8>) -> tensor<6xi32> {
  %r = "nn.cast"(%x) : (tensor<6xui8>) -> tensor<6xi32>
  return %r : tensor<6xi32>
}
func.func @gelu_f64(%x: tensor<4xf64>) -> tensor<4xf64> {
  %r = "nn.gelu"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}
func.func @div_f64(%a: tensor<4xf64>, %b: tensor<4xf64>) -> tensor<4xf64> {
  %r = "nn.div"(%a, %b) : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}
func.func @tan_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.tan"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @asin_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.asin"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @acos_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.acos"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @atan_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.atan"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @sinh_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.sinh"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @cosh_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.cosh"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @asinh_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.asinh"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @atanh_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.atanh"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @thresholded_relu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.thresholded_relu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @shrink_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.shrink"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @celu_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.celu"(%x) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @acosh_f32(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %c = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %y = "nn.add"(%x, %c) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %r = "nn.acosh"(%y) : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @shrink_attrs(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.shrink"(%x) {lambd = 0.25 : f32, bias = 0.125 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @celu_alpha(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.celu"(%x) {alpha = 0.5 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @thresholded_relu_alpha(%x: tensor<3x5xf32>) -> tensor<3x5xf32> {
  %r = "nn.thresholded_relu"(%x) {alpha = 0.25 : f32} : (tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @is_inf_modes(%x: tensor<3x5xf32>) -> (tensor<3x5xi1>, tensor<3x5xi1>, tensor<3x5xi1>, tensor<3x5xi1>) {
  %z = "nn.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %q = "nn.div"(%x, %z) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3x5xf32>
  %a = "nn.is_inf"(%q) : (tensor<3x5xf32>) -> tensor<3x5xi1>
  %b = "nn.is_inf"(%q) {detect_negative = 0 : i64} : (tensor<3x5xf32>) -> tensor<3x5xi1>
  %c = "nn.is_inf"(%q) {detect_positive = 0 : i64} : (tensor<3x5xf32>) -> tensor<3x5xi1>
  %d = "nn.is_inf"(%q) {detect_positive = 0 : i64, detect_negative = 0 : i64} : (tensor<3x5xf32>) -> tensor<3x5xi1>
  return %a, %b, %c, %d : tensor<3x5xi1>, tensor<3x5xi1>, tensor<3x5xi1>, tensor<3x5xi1>
}
