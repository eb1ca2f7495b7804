// f16 through the op families beyond element-wise: matmul, conv, pooling,
// reductions, softmax, normalization, movement, casts and f16 subnormals
// (below 6.1e-5: kept, not flushed). Every target
// computes each f16 op in f32 and rounds it to f16 (LLVM promotes half ops on
// the CPU; the GPU targets' kernels do the same, gpu_pipeline.c), while the
// interpreter computes in double and rounds once: accumulations (matmul,
// conv, sums) drift by a few f16 ulps, so the tolerance is f16-sized. The
// GPU targets' runs also match the CPU target's bit for bit
// (test/e2e/vulkan/f16.test, test/e2e/opencl/f16.test).
// RUN: %python %S/../compare_all.py %s --rtol 1e-2 --atol 1e-2 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @matmul_f16(%a: tensor<3x8xf16>, %b: tensor<8x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.matmul"(%a, %b) : (tensor<3x8xf16>, tensor<8x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @gemm_f16(%a: tensor<3x4xf16>, %b: tensor<4x5xf16>) -> tensor<3x5xf16> {
  %r = "nn.gemm"(%a, %b) : (tensor<3x4xf16>, tensor<4x5xf16>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @conv2d_f16(%x: tensor<1x2x7x6xf16>, %w: tensor<3x2x3x2xf16>) -> tensor<1x3x4x3xf16> {
  %r = "nn.conv"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x2x7x6xf16>, tensor<3x2x3x2xf16>) -> tensor<1x3x4x3xf16>
  return %r : tensor<1x3x4x3xf16>
}
func.func @conv_grouped_bias_f16(%x: tensor<1x3x5x5xf16>, %w: tensor<6x1x3x3xf16>, %b: tensor<6xf16>) -> tensor<1x6x5x5xf16> {
  %r = "nn.conv"(%x, %w, %b) {group = 3 : i64, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xf16>, tensor<6x1x3x3xf16>, tensor<6xf16>) -> tensor<1x6x5x5xf16>
  return %r : tensor<1x6x5x5xf16>
}
func.func @max_pool_f16(%x: tensor<2x3x7x6xf16>) -> tensor<2x3x3x3xf16> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<2x3x7x6xf16>) -> tensor<2x3x3x3xf16>
  return %r : tensor<2x3x3x3xf16>
}
func.func @reduce_sum_f16(%x: tensor<2x3x4xf16>) -> tensor<2x1x4xf16> {
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf16>) -> tensor<2x1x4xf16>
  return %r : tensor<2x1x4xf16>
}
func.func @reduce_max_f16(%x: tensor<2x3x4xf16>) -> tensor<2x1x4xf16> {
  %r = "nn.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf16>) -> tensor<2x1x4xf16>
  return %r : tensor<2x1x4xf16>
}
func.func @reduce_mean_f16(%x: tensor<2x3x4xf16>) -> tensor<2x1x4xf16> {
  %r = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf16>) -> tensor<2x1x4xf16>
  return %r : tensor<2x1x4xf16>
}
func.func @softmax_f16(%x: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %r = "nn.softmax"(%x) : (tensor<2x3x4xf16>) -> tensor<2x3x4xf16>
  return %r : tensor<2x3x4xf16>
}
func.func @log_softmax_f16(%x: tensor<2x3x4xf16>) -> tensor<2x3x4xf16> {
  %r = "nn.log_softmax"(%x) : (tensor<2x3x4xf16>) -> tensor<2x3x4xf16>
  return %r : tensor<2x3x4xf16>
}
func.func @layer_norm_f16(%x: tensor<2x4x8xf16>, %s: tensor<8xf16>, %b: tensor<8xf16>) -> tensor<2x4x8xf16> {
  %r = "nn.layer_normalization"(%x, %s, %b) : (tensor<2x4x8xf16>, tensor<8xf16>, tensor<8xf16>) -> tensor<2x4x8xf16>
  return %r : tensor<2x4x8xf16>
}
func.func @transpose_f16(%x: tensor<2x3x4xf16>) -> tensor<3x4x2xf16> {
  %r = "nn.transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf16>) -> tensor<3x4x2xf16>
  return %r : tensor<3x4x2xf16>
}
func.func @concat_f16(%a: tensor<2x3x4xf16>, %b: tensor<2x5x4xf16>) -> tensor<2x8x4xf16> {
  %r = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<2x3x4xf16>, tensor<2x5x4xf16>) -> tensor<2x8x4xf16>
  return %r : tensor<2x8x4xf16>
}
func.func @cast_f32_f16(%x: tensor<3x5xf32>) -> tensor<3x5xf16> {
  %k = "nn.constant"() {value = dense<3.7> : tensor<1xf32>} : () -> tensor<1xf32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<1xf32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @cast_f16_f32(%x: tensor<3x5xf16>) -> tensor<3x5xf32> {
  %r = "nn.cast"(%x) : (tensor<3x5xf16>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}
func.func @cast_f64_f16(%x: tensor<3x5xf64>) -> tensor<3x5xf16> {
  %k = "nn.constant"() {value = dense<1.0e5> : tensor<1xf64>} : () -> tensor<1xf64>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf64>, tensor<1xf64>) -> tensor<3x5xf64>
  %r = "nn.cast"(%s) : (tensor<3x5xf64>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @cast_f16_i32(%x: tensor<3x5xf16>) -> tensor<3x5xi32> {
  %k = "nn.constant"() {value = dense<9.5> : tensor<1xf16>} : () -> tensor<1xf16>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf16>, tensor<1xf16>) -> tensor<3x5xf16>
  %r = "nn.cast"(%s) : (tensor<3x5xf16>) -> tensor<3x5xi32>
  return %r : tensor<3x5xi32>
}
func.func @cast_i32_f16(%x: tensor<3x5xi32>) -> tensor<3x5xf16> {
  %r = "nn.cast"(%x) : (tensor<3x5xi32>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @div_sub_chain_f16(%a: tensor<3x5xf16>, %b: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %k = "nn.constant"() {value = dense<3.0> : tensor<1xf16>} : () -> tensor<1xf16>
  %d = "nn.div"(%a, %k) : (tensor<3x5xf16>, tensor<1xf16>) -> tensor<3x5xf16>
  %s = "nn.sub"(%d, %b) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  %m = "nn.mul"(%s, %s) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  return %m : tensor<3x5xf16>
}
func.func @subnormal_cast_f16(%x: tensor<3x5xf32>) -> tensor<3x5xf16> {
  %k = "nn.constant"() {value = dense<1.0e-5> : tensor<1xf32>} : () -> tensor<1xf32>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf32>, tensor<1xf32>) -> tensor<3x5xf32>
  %r = "nn.cast"(%s) : (tensor<3x5xf32>) -> tensor<3x5xf16>
  return %r : tensor<3x5xf16>
}
func.func @subnormal_arith_f16(%x: tensor<3x5xf16>) -> tensor<3x5xf16> {
  %k = "nn.constant"() {value = dense<1.0e-3> : tensor<1xf16>} : () -> tensor<1xf16>
  %s = "nn.mul"(%x, %k) : (tensor<3x5xf16>, tensor<1xf16>) -> tensor<3x5xf16>
  %t = "nn.mul"(%s, %k) : (tensor<3x5xf16>, tensor<1xf16>) -> tensor<3x5xf16>
  %u = "nn.add"(%t, %t) : (tensor<3x5xf16>, tensor<3x5xf16>) -> tensor<3x5xf16>
  return %u : tensor<3x5xf16>
}
