// ReverseSequence: time-major and batch-major, rank 3, integer and bool
// elements, lengths 0 to the full extent (constant: random lengths would be
// out of range): JIT against the interpreter.
// RUN: %python %S/../compare_all.py %s | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

func.func @time_major(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %l = "nn.constant"() {value = dense<[4, 0, 2]> : tensor<3xi64>} : () -> tensor<3xi64>
  %r = "nn.reverse_sequence"(%x, %l) : (tensor<4x3xf32>, tensor<3xi64>) -> tensor<4x3xf32>
  return %r : tensor<4x3xf32>
}
func.func @batch_major_rank3_i64(%x: tensor<3x5x2xi64>) -> tensor<3x5x2xi64> {
  %l = "nn.constant"() {value = dense<[1, 5, 3]> : tensor<3xi32>} : () -> tensor<3xi32>
  %r = "nn.reverse_sequence"(%x, %l) {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<3x5x2xi64>, tensor<3xi32>) -> tensor<3x5x2xi64>
  return %r : tensor<3x5x2xi64>
}
func.func @bool(%x: tensor<3x2xi1>) -> tensor<3x2xi1> {
  %l = "nn.constant"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reverse_sequence"(%x, %l) : (tensor<3x2xi1>, tensor<2xi64>) -> tensor<3x2xi1>
  return %r : tensor<3x2xi1>
}
