// Operands known only at run time (issue 18): squeeze/unsqueeze/reduce
// axes, CumSum's axis, Split's sizes, TopK's k, Resize's sizes and
// scales and Slice's axes and steps computed from an input's
// extent (so every shape set below picks other axes, sizes or k), each
// function compiled once and run at every set against the interpreter.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// axes = [len(a) - 1]
// shapes: 0=1x3x4 1=1 | 0=3x1x4 1=2 | 0=3x4x1 1=3 | 0=0x1x2 1=2
func.func @squeeze(%x: tensor<?x?x?xf32>, %a: tensor<?xf32>) -> tensor<?x?xf32> {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %one = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "nn.sub"(%s, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "nn.squeeze"(%x, %axes) : (tensor<?x?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// axes = [len(a) - 1, -1] (positions in the rank-4 result)
// shapes: 0=2x3 1=1 | 0=5x1 1=2 | 0=2x7 1=3
func.func @unsqueeze(%x: tensor<?x?xf32>, %a: tensor<?xf32>) -> tensor<?x?x?x?xf32> {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %one = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %last = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %first = "nn.sub"(%s, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %axes4 = "nn.concat"(%first, %last) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "nn.unsqueeze"(%x, %axes4) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
// axes = [len(a) - 2], keepdims (len 1 gives -1)
// shapes: 0=2x3x4 1=1 | 0=2x3x4 1=2 | 0=5x1x3 1=3 | 0=0x2x2 1=2
func.func @reduce_sum_keep(%x: tensor<?x?x?xf32>, %a: tensor<?xf32>) -> tensor<?x?x?xf32> {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %two = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "nn.sub"(%s, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "nn.reduce_sum"(%x, %axes) : (tensor<?x?x?xf32>, tensor<1xi64>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// Two axes [len(a) - 1, 2], keepdims = 0: mean, max, l2, prod and an integer sum.
// shapes: 0=2x3x4 1=1 2=2x3x4 | 0=3x5x2 1=2 2=3x5x2
func.func @reduce_drop(%x: tensor<?x?x?xf32>, %a: tensor<?xf32>, %i: tensor<?x?x?xi32>)
    -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xi32>) {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %c = "nn.constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %m = "nn.constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %sm = "nn.mul"(%s, %m) : (tensor<1xi64>, tensor<2xi64>) -> tensor<2xi64>
  %axes = "nn.add"(%sm, %c) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %mean = "nn.reduce_mean"(%x, %axes) {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?xf32>
  %max = "nn.reduce_max"(%x, %axes) {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?xf32>
  %l2 = "nn.reduce_l2"(%x, %axes) {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?xf32>
  %prod = "nn.reduce_prod"(%x, %axes) {keepdims = 0 : i64} : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?xf32>
  %isum = "nn.reduce_sum"(%i, %axes) {keepdims = 0 : i64} : (tensor<?x?x?xi32>, tensor<2xi64>) -> tensor<?xi32>
  return %mean, %max, %l2, %prod, %isum : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xi32>
}
// One axis [len(a) - 1] kept: min, l1, sum of squares, log of the sum (of |x|).
// shapes: 0=2x3 1=1 | 0=4x5 1=2
func.func @reduce_more(%x: tensor<?x?xf32>, %a: tensor<?xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %one = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "nn.sub"(%s, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %min = "nn.reduce_min"(%x, %axes) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %l1 = "nn.reduce_l1"(%x, %axes) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %sq = "nn.reduce_sum_square"(%x, %axes) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %ab = "nn.abs"(%x) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %ls = "nn.reduce_log_sum"(%ab, %axes) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %min, %l1, %sq, %ls : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
// axis = len(a) - 2 (-1 for len 1), exclusive and reverse
// shapes: 0=3x4 1=1 | 0=3x4 1=2 | 0=5x2 1=3 | 0=0x3 1=2
func.func @cum_sum(%x: tensor<?x?xf32>, %a: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %two = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %axis = "nn.sub"(%s, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "nn.cum_sum"(%x, %axis) : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  %e = "nn.cum_sum"(%x, %axis) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x?xf32>
  return %r, %e : tensor<?x?xf32>, tensor<?x?xf32>
}
// A static input with a run-time axis (the result type stays static).
// shapes: 1=1 | 1=2
func.func @cum_sum_static(%x: tensor<3x4xi32>, %a: tensor<?xf32>) -> tensor<3x4xi32> {
  %s = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %one = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %axis = "nn.sub"(%s, %one) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "nn.cum_sum"(%x, %axis) : (tensor<3x4xi32>, tensor<1xi64>) -> tensor<3x4xi32>
  return %r : tensor<3x4xi32>
}
// sizes = [len(a), len(b)] along axis 0
// shapes: 0=5x3 1=2 2=3 | 0=4x2 1=0 2=4 | 0=1x6 1=1 2=0
func.func @split(%x: tensor<?x?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %sa = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %sb = "nn.shape"(%b) : (tensor<?xf32>) -> tensor<1xi64>
  %sizes = "nn.concat"(%sa, %sb) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %p, %q = "nn.split"(%x, %sizes) {axis = 0 : i64} : (tensor<?x?xf32>, tensor<2xi64>) -> (tensor<?x?xf32>, tensor<?x?xf32>)
  return %p, %q : tensor<?x?xf32>, tensor<?x?xf32>
}
// k = len(a), largest and smallest
// shapes: 0=3x6 1=2 | 0=2x5 1=5 | 0=4x3 1=0
func.func @top_k(%x: tensor<?x?xf32>, %a: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>) {
  %k = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %v, %i = "nn.top_k"(%x, %k) {axis = -1 : i64} : (tensor<?x?xf32>, tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  %w, %j = "nn.top_k"(%x, %k) {axis = 1 : i64, largest = 0 : i64} : (tensor<?x?xf32>, tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  return %v, %i, %w : tensor<?x?xf32>, tensor<?x?xi64>, tensor<?x?xf32>
}
// Resize to run-time sizes [1, 2, len(a), len(b)] (linear, half_pixel;
// nearest, asymmetric, floor) and by run-time scales [1, 1, len(a)/2,
// len(a)/2] (linear, align_corners; nearest, pytorch_half_pixel,
// round_prefer_ceil), over dynamic spatial dims.
// shapes: 0=1x2x3x4 1=5 2=2 | 0=1x2x4x4 1=4 2=4 | 0=1x2x1x3 1=3 2=7 | 0=1x2x5x2 1=1 2=1
func.func @resize_sizes(%x: tensor<1x2x?x?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>)
    -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %sa = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %sb = "nn.shape"(%b) : (tensor<?xf32>) -> tensor<1xi64>
  %nc = "nn.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %hw = "nn.concat"(%sa, %sb) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %sizes = "nn.concat"(%nc, %hw) {axis = 0 : i64} : (tensor<2xi64>, tensor<2xi64>) -> tensor<4xi64>
  %l = "nn.resize"(%x, %sizes) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 0, 1>}
      : (tensor<1x2x?x?xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %n = "nn.resize"(%x, %sizes) {mode = "nearest", coordinate_transformation_mode = "asymmetric",
      nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 0, 1>}
      : (tensor<1x2x?x?xf32>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %l, %n : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}
// shapes: 0=1x1x3x4 1=3 | 0=1x1x4x4 1=1 | 0=1x1x2x5 1=4 | 0=1x1x6x3 1=2
func.func @resize_scales(%x: tensor<1x1x?x?xf32>, %a: tensor<?xf32>) -> (tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>) {
  %sa = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %f = "nn.cast"(%sa) {to = 1 : i64} : (tensor<1xi64>) -> tensor<1xf32>
  %two = "nn.constant"() {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %s = "nn.div"(%f, %two) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  %ones = "nn.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %ss = "nn.concat"(%s, %s) {axis = 0 : i64} : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
  %scales = "nn.concat"(%ones, %ss) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  %l = "nn.resize"(%x, %scales) {mode = "linear", coordinate_transformation_mode = "align_corners",
      operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x?x?xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  %n = "nn.resize"(%x, %scales) {mode = "nearest", coordinate_transformation_mode = "pytorch_half_pixel",
      nearest_mode = "round_prefer_ceil", operandSegmentSizes = array<i32: 1, 0, 1, 0>}
      : (tensor<1x1x?x?xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return %l, %n : tensor<?x?x?x?xf32>, tensor<?x?x?x?xf32>
}
// Slice with run-time axes [len(a) - 2] and steps [len(b) - 2] (negative
// for len(b) < 2), starts [1] and ends [-1] / reversed [-1] to [-9].
// shapes: 0=4x6 1=1 2=4 | 0=5x3 1=2 2=1 | 0=3x7 1=3 2=3 | 0=2x2 1=2 2=0
func.func @slice_axes_steps(%x: tensor<?x?xf32>, %a: tensor<?xf32>, %b: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %sa = "nn.shape"(%a) : (tensor<?xf32>) -> tensor<1xi64>
  %sb = "nn.shape"(%b) : (tensor<?xf32>) -> tensor<1xi64>
  %two = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %axes = "nn.sub"(%sa, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %steps = "nn.sub"(%sb, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %one = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m1 = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %m9 = "nn.constant"() {value = dense<-9> : tensor<1xi64>} : () -> tensor<1xi64>
  %s = "nn.slice"(%x, %one, %m1, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<?x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  %r = "nn.slice"(%x, %m1, %m9, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<?x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  return %s, %r : tensor<?x?xf32>, tensor<?x?xf32>
}
