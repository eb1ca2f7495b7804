// Trace statistics beyond one block of the sink's vectorized path (37x41 =
// 1517 values: one block of 1024, then 493 = 30 x 16 lanes + 13 one by
// one), with NaN (sqrt of negatives), -Inf (log of relu's zeros) and
// negative finite values (log of (0, 1)), and views of it that the sink
// reads through strides: every other row (a contiguous run per row) and
// every third column (no contiguous run).
func.func @stats(%a: tensor<37x41xf32>, %b: tensor<37x41xf32>) -> (tensor<37x41xf32>, tensor<19x41xf32>, tensor<37x14xf32>) {
  %r = "nn.relu"(%a) : (tensor<37x41xf32>) -> tensor<37x41xf32>
  %l = "nn.log"(%r) : (tensor<37x41xf32>) -> tensor<37x41xf32>
  %s = "nn.sqrt"(%b) : (tensor<37x41xf32>) -> tensor<37x41xf32>
  %z = "nn.add"(%l, %s) : (tensor<37x41xf32>, tensor<37x41xf32>) -> tensor<37x41xf32>
  %zero = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "nn.constant"() {value = dense<100> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax0 = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %ax1 = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %two = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %three = "nn.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %rows = "nn.slice"(%z, %zero, %big, %ax0, %two) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<37x41xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<19x41xf32>
  %cols = "nn.slice"(%z, %zero, %big, %ax1, %three) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<37x41xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<37x14xf32>
  return %z, %rows, %cols : tensor<37x41xf32>, tensor<19x41xf32>, tensor<37x14xf32>
}
