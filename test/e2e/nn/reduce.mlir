// Reductions, ArgMax/ArgMin, Softmax/LogSoftmax, CumSum, TopK: JIT against
// the interpreter on seeded random inputs.
// RUN: %python %S/../compare_all.py %s --rtol 1e-5 --atol 1e-6 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @reduce_sum_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_sum_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_sum"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_sum_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_sum"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_mean_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_mean_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_mean"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_mean_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_mean"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_max_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_max"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_max_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_max"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_max_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_max"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_min_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_min"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_min_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_min"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_min_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_min"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_prod_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_prod"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_prod_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_prod"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_prod_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_prod"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_l1_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_l1"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_l1_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_l1"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_l1_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_l1"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_l2_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_l2"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_l2_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_l2"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_l2_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_l2"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_sum_square_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_sum_square"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_sum_square_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_sum_square"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_sum_square_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_sum_square"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_log_sum_exp_axis1_keep(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xf32> {
  %r = "nn.reduce_log_sum_exp"(%x) {axes = array<i64: 1>} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  return %r : tensor<2x1x4xf32>
}
func.func @reduce_log_sum_exp_neg_axes_nokeep(%x: tensor<2x3x4xf32>) -> tensor<3xf32> {
  %r = "nn.reduce_log_sum_exp"(%x) {axes = array<i64: -1, 0>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_log_sum_exp_all(%x: tensor<2x3x4xf32>) -> tensor<1x1x1xf32> {
  %r = "nn.reduce_log_sum_exp"(%x) : (tensor<2x3x4xf32>) -> tensor<1x1x1xf32>
  return %r : tensor<1x1x1xf32>
}
func.func @reduce_log_sum_pos(%x: tensor<2x3x4xf32>) -> tensor<2x3xf32> {
  %a = "nn.abs"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %r = "nn.reduce_log_sum"(%a) {axes = array<i64: 2>, keepdims = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
func.func @reduce_noop(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.reduce_sum"(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @reduce_sum_i32(%x: tensor<3x5xi32>) -> tensor<3xi32> {
  %r = "nn.reduce_sum"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x5xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @reduce_max_i32(%x: tensor<3x5xi32>) -> tensor<3xi32> {
  %r = "nn.reduce_max"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x5xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @reduce_min_i32(%x: tensor<3x5xi32>) -> tensor<3xi32> {
  %r = "nn.reduce_min"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x5xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @reduce_prod_i32(%x: tensor<3x5xi32>) -> tensor<3xi32> {
  %r = "nn.reduce_prod"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x5xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @reduce_l1_i32(%x: tensor<3x5xi32>) -> tensor<3xi32> {
  %r = "nn.reduce_l1"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x5xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @reduce_sum_square_i32(%x: tensor<3x5xi32>) -> tensor<3xi32> {
  %r = "nn.reduce_sum_square"(%x) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<3x5xi32>) -> tensor<3xi32>
  return %r : tensor<3xi32>
}
func.func @reduce_max_u8(%x: tensor<3x5xui8>) -> tensor<1x5xui8> {
  %r = "nn.reduce_max"(%x) {axes = array<i64: 0>} : (tensor<3x5xui8>) -> tensor<1x5xui8>
  return %r : tensor<1x5xui8>
}
func.func @arg_max(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xi64> {
  %r = "nn.arg_max"(%x) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  return %r : tensor<2x1x4xi64>
}
func.func @arg_max_nokeep_last(%x: tensor<4x6xi32>) -> tensor<4xi64> {
  %r = "nn.arg_max"(%x) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<4x6xi32>) -> tensor<4xi64>
  return %r : tensor<4xi64>
}
func.func @arg_max_first(%x: tensor<4x6xi32>) -> tensor<1x6xi64> {
  %r = "nn.arg_max"(%x) {axis = 0 : i64} : (tensor<4x6xi32>) -> tensor<1x6xi64>
  return %r : tensor<1x6xi64>
}
func.func @arg_min(%x: tensor<2x3x4xf32>) -> tensor<2x1x4xi64> {
  %r = "nn.arg_min"(%x) {axis = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x1x4xi64>
  return %r : tensor<2x1x4xi64>
}
func.func @arg_min_nokeep_last(%x: tensor<4x6xi32>) -> tensor<4xi64> {
  %r = "nn.arg_min"(%x) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<4x6xi32>) -> tensor<4xi64>
  return %r : tensor<4xi64>
}
func.func @arg_min_first(%x: tensor<4x6xi32>) -> tensor<1x6xi64> {
  %r = "nn.arg_min"(%x) {axis = 0 : i64} : (tensor<4x6xi32>) -> tensor<1x6xi64>
  return %r : tensor<1x6xi64>
}
func.func @softmax_last(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.softmax"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @softmax_axis0(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.softmax"(%x) {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @log_softmax_last(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.log_softmax"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @log_softmax_axis0(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.log_softmax"(%x) {axis = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @cum_sum_ex0_rev0(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.cum_sum"(%x) {axis = 1 : i64, exclusive = 0 : i64, reverse = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @cum_sum_ex0_rev1(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.cum_sum"(%x) {axis = 1 : i64, exclusive = 0 : i64, reverse = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @cum_sum_ex1_rev0(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.cum_sum"(%x) {axis = 1 : i64, exclusive = 1 : i64, reverse = 0 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @cum_sum_ex1_rev1(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %r = "nn.cum_sum"(%x) {axis = 1 : i64, exclusive = 1 : i64, reverse = 1 : i64} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return %r : tensor<2x3x4xf32>
}
func.func @cum_sum_i64(%x: tensor<7xi64>) -> tensor<7xi64> {
  %r = "nn.cum_sum"(%x) : (tensor<7xi64>) -> tensor<7xi64>
  return %r : tensor<7xi64>
}
func.func @top_k_values(%x: tensor<4x9xf32>) -> tensor<4x3xf32> {
  %k = "nn.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %r, %i = "nn.top_k"(%x, %k) : (tensor<4x9xf32>, tensor<1xi64>) -> (tensor<4x3xf32>, tensor<4x3xi64>)
  return %r : tensor<4x3xf32>
}
func.func @top_k_indices_smallest_axis0(%x: tensor<9x4xf32>) -> tensor<3x4xi64> {
  %k = "nn.constant"() {value = dense<[3]> : tensor<1xi64>} : () -> tensor<1xi64>
  %v, %r = "nn.top_k"(%x, %k) {axis = 0 : i64, largest = 0 : i64} : (tensor<9x4xf32>, tensor<1xi64>) -> (tensor<3x4xf32>, tensor<3x4xi64>)
  return %r : tensor<3x4xi64>
}
func.func @top_k_ties_i32(%x: tensor<12xi32>) -> tensor<5xi64> {
  %k = "nn.constant"() {value = dense<[5]> : tensor<1xi64>} : () -> tensor<1xi64>
  %v, %r = "nn.top_k"(%x, %k) : (tensor<12xi32>, tensor<1xi64>) -> (tensor<5xi32>, tensor<5xi64>)
  return %r : tensor<5xi64>
}
