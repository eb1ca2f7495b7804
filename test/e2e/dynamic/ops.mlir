// Dynamic dims (issue 19) through each shape rule of the CPU lowering
// (conversions/nn-to-linalg/lower_dims.c, the runtime kernels of
// nn-to-kernels): every function compiles once and runs at every shape set
// listed above it, against the interpreter on seeded random inputs.
// RUN: rm -rf %t && %python %S/sweep_all.py %s %t --rtol 1e-4 --atol 1e-5 | FileCheck %s
// CHECK-NOT: FAIL
// CHECK: functions, 0 failed

// shapes: 0=1x4 | 0=7x4 | 0=0x4 | 0=33x4
func.func @unary(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %r = "nn.sigmoid"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %r : tensor<?x4xf32>
}
// shapes: 0=3x5 1=3x5 | 0=1x1 1=1x1 | 0=8x2 1=8x2
func.func @binary_same(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.sub"(%a, %b) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// A static 1 broadcasts against a dynamic dim; a static extent fixes one.
// shapes: 0=2x6x4 1=6x1 | 0=5x3x4 1=3x1
func.func @broadcast(%a: tensor<?x?x4xf32>, %b: tensor<?x1xf32>) -> tensor<?x?x4xf32> {
  %r = "nn.mul"(%a, %b) : (tensor<?x?x4xf32>, tensor<?x1xf32>) -> tensor<?x?x4xf32>
  return %r : tensor<?x?x4xf32>
}
// shapes: 0=2x3 1=2x3 2=2x3 | 0=9x1 1=9x1 2=9x1
func.func @where(%c: tensor<?x?xi1>, %a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.where"(%c, %a, %b) : (tensor<?x?xi1>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 0=2x3 | 0=4x1
func.func @cast(%x: tensor<?x?xf32>) -> tensor<?x?xi32> {
  %r = "nn.cast"(%x) {to = 6 : i64} : (tensor<?x?xf32>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}
// shapes: 0=2x3x4 | 0=1x7x2
func.func @reduce_mean_keep(%x: tensor<?x?x?xf32>) -> tensor<?x1x?xf32> {
  %r = "nn.reduce_mean"(%x) {axes = array<i64: 1>} : (tensor<?x?x?xf32>) -> tensor<?x1x?xf32>
  return %r : tensor<?x1x?xf32>
}
// shapes: 0=2x3x4 | 0=5x1x9
func.func @reduce_max_drop(%x: tensor<?x?x?xf32>) -> tensor<?xf32> {
  %r = "nn.reduce_max"(%x) {axes = array<i64: 1, 2>, keepdims = 0 : i64} : (tensor<?x?x?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// shapes: 0=2x3x5 | 0=1x1x17
func.func @softmax(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.softmax"(%x) {axis = -1 : i64} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=2x3x8 | 0=1x9x8
func.func @layer_norm(%x: tensor<?x?x8xf32>) -> tensor<?x?x8xf32> {
  %s = "nn.constant"() {value = dense<[1.0, 0.5, 2.0, 1.0, 1.5, 1.0, 0.25, 1.0]> : tensor<8xf32>} : () -> tensor<8xf32>
  %r = "nn.layer_normalization"(%x, %s) {axis = -1 : i64} : (tensor<?x?x8xf32>, tensor<8xf32>) -> tensor<?x?x8xf32>
  return %r : tensor<?x?x8xf32>
}
// Batched matmul on the runtime kernel (f32) and on loops (f64).
// shapes: 0=2x3x4 1=2x4x5 | 0=1x7x3 1=1x3x2
func.func @matmul_batched(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=3x4 1=4x2 | 0=9x1 1=1x5
func.func @matmul_f64(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %r = "nn.matmul"(%a, %b) : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}
// shapes: 0=4x3 | 0=1x3 | 0=17x3
func.func @gemm_bias_relu(%a: tensor<?x3xf32>) -> tensor<?x2xf32> {
  %w = "nn.constant"() {value = dense<[[0.5, -1.0, 2.0], [1.0, 0.25, -0.5]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %c = "nn.constant"() {value = dense<[0.1, -0.2]> : tensor<2xf32>} : () -> tensor<2xf32>
  %g = "nn.gemm"(%a, %w, %c) {transB = 1 : i64} : (tensor<?x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<?x2xf32>
  %r = "nn.relu"(%g) : (tensor<?x2xf32>) -> tensor<?x2xf32>
  return %r : tensor<?x2xf32>
}
// shapes: 0=1x2x5x5 | 0=3x2x8x6 | 0=2x2x3x3
func.func @conv_relu(%x: tensor<?x2x?x?xf32>) -> tensor<?x3x?x?xf32> {
  %w = "nn.constant"() {value = dense<0.25> : tensor<3x2x3x3xf32>} : () -> tensor<3x2x3x3xf32>
  %b = "nn.constant"() {value = dense<[0.5, -0.5, 0.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %y = "nn.conv"(%x, %w, %b) {pads = array<i64: 1, 0, 1, 2>, strides = array<i64: 2, 1>} : (tensor<?x2x?x?xf32>, tensor<3x2x3x3xf32>, tensor<3xf32>) -> tensor<?x3x?x?xf32>
  %r = "nn.relu"(%y) : (tensor<?x3x?x?xf32>) -> tensor<?x3x?x?xf32>
  return %r : tensor<?x3x?x?xf32>
}
// shapes: 0=1x2x7x7 | 0=2x2x4x9
func.func @max_pool_ceil(%x: tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32> {
  %r = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  return %r : tensor<?x2x?x?xf32>
}
// shapes: 0=1x2x6x6 | 0=2x2x5x3
func.func @average_pool(%x: tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32> {
  %r = "nn.average_pool"(%x) {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x2x?x?xf32>) -> tensor<?x2x?x?xf32>
  return %r : tensor<?x2x?x?xf32>
}
// shapes: 0=1x3x4x4 | 0=2x3x7x1
func.func @global_pool(%x: tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32> {
  %r = "nn.global_average_pool"(%x) : (tensor<?x3x?x?xf32>) -> tensor<?x3x1x1xf32>
  return %r : tensor<?x3x1x1xf32>
}
// shapes: 0=2x3x4 | 0=1x5x1
func.func @transpose(%x: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=2x3x4 | 0=5x1x2
func.func @flatten(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.flatten"(%x) {axis = 1 : i64} : (tensor<?x?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 0=2x3 | 0=4x1
func.func @unsqueeze_squeeze(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %u = "nn.unsqueeze"(%x) {axes = array<i64: 0, 2>} : (tensor<?x?xf32>) -> tensor<1x?x1x?xf32>
  %r = "nn.squeeze"(%u) {axes = array<i64: 0, 2>} : (tensor<1x?x1x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// A reshape whose target comes from the input's run-time shape: [N, -1].
// shapes: 0=2x3x4 | 0=3x1x5
func.func @reshape_runtime(%x: tensor<?x?x?xf32>) -> tensor<?x?xf32> {
  %s = "nn.shape"(%x) : (tensor<?x?x?xf32>) -> tensor<3xi64>
  %i = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %n = "nn.gather"(%s, %i) {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %m = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %t = "nn.concat"(%n, %m) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = "nn.reshape"(%x, %t) : (tensor<?x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 0=2x3 | 0=1x7
func.func @embedding(%ids: tensor<?x?xi64>) -> tensor<?x?x2xf32> {
  %e = "nn.constant"() {value = dense<[[0.0, 1.0], [2.0, 3.0], [4.0, 5.0], [6.0, 7.0], [8.0, 9.0], [1.0, -1.0], [2.0, -2.0], [3.0, -3.0]]> : tensor<8x2xf32>} : () -> tensor<8x2xf32>
  %r = "nn.gather"(%e, %ids) {axis = 0 : i64} : (tensor<8x2xf32>, tensor<?x?xi64>) -> tensor<?x?x2xf32>
  return %r : tensor<?x?x2xf32>
}
// Slices whose bounds come from the run-time shape (the attention split of
// a packed QKV projection) and a constant slice of a dynamic dim.
// shapes: 0=2x3x12 | 0=1x5x12
func.func @slice_runtime(%x: tensor<?x?x12xf32>) -> (tensor<?x?x?xf32>, tensor<?x?x12xf32>) {
  %s = "nn.shape"(%x) : (tensor<?x?x12xf32>) -> tensor<3xi64>
  %i = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %d = "nn.gather"(%s, %i) {axis = 0 : i64} : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>
  %three = "nn.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  %q = "nn.div"(%d, %three) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %two = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "nn.mul"(%q, %two) : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %r = "nn.slice"(%x, %q, %e, %i) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x12xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x?xf32>
  %b0 = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %b1 = "nn.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %z = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %t = "nn.slice"(%x, %b0, %b1, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x12xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x12xf32>
  return %r, %t : tensor<?x?x?xf32>, tensor<?x?x12xf32>
}
// shapes: 0=2x3x4x4 | 0=1x3x1x7
func.func @batch_norm(%x: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %s = "nn.constant"() {value = dense<[1.0, 2.0, 0.5]> : tensor<3xf32>} : () -> tensor<3xf32>
  %b = "nn.constant"() {value = dense<[0.0, 0.1, -0.1]> : tensor<3xf32>} : () -> tensor<3xf32>
  %m = "nn.constant"() {value = dense<[0.2, 0.0, -0.3]> : tensor<3xf32>} : () -> tensor<3xf32>
  %v = "nn.constant"() {value = dense<[1.0, 0.5, 2.0]> : tensor<3xf32>} : () -> tensor<3xf32>
  %r = "nn.batch_normalization"(%x, %s, %b, %m, %v) : (tensor<?x?x?x?xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}
// shapes: 0=2x3 | 0=5x3
func.func @prelu(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %s = "nn.constant"() {value = dense<[0.1, 0.2, 0.3]> : tensor<3xf32>} : () -> tensor<3xf32>
  %r = "nn.prelu"(%x, %s) : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
// A declared result type more open than the operands: the static 5 decides
// dim 1, and the dynamic operand's extent there is checked against it.
// shapes: 0=2x5 1=2x5 | 0=3x5 1=3x5
func.func @open_result(%a: tensor<?x5xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %r = "nn.add"(%a, %b) : (tensor<?x5xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// Concat along a dynamic axis (b lands at a's run-time extent) and off it
// (the operands' extents are checked equal; a static one fixes them).
// shapes: 0=2x3x4 1=2x5x4 | 0=1x0x4 1=1x2x4 | 0=0x3x4 1=0x1x4
func.func @concat_axis(%a: tensor<?x?x4xf32>, %b: tensor<?x?x4xf32>) -> tensor<?x?x4xf32> {
  %r = "nn.concat"(%a, %b) {axis = 1 : i64} : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  return %r : tensor<?x?x4xf32>
}
// shapes: 0=2x3 1=4x3 | 0=1x3 1=0x3
func.func @concat_mixed(%a: tensor<?x3xi64>, %b: tensor<?x?xi64>) -> tensor<?x3xi64> {
  %r = "nn.concat"(%a, %b) {axis = -2 : i64} : (tensor<?x3xi64>, tensor<?x?xi64>) -> tensor<?x3xi64>
  return %r : tensor<?x3xi64>
}
// Expand to a run-time shape (y's), both directions: x's static 1 takes the
// target's extent, x's dynamic dim stays where the target says 1.
// shapes: 0=3x1 1=3x5 | 0=2x1 1=1x4 | 0=4x1 1=4x0
func.func @expand_runtime(%x: tensor<?x1xf32>, %y: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = "nn.shape"(%y) : (tensor<?x?xf32>) -> tensor<2xi64>
  %r = "nn.expand"(%x, %s) : (tensor<?x1xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 0=5 | 0=1 | 0=0
func.func @expand_rank(%x: tensor<?xf32>) -> tensor<3x?xf32> {
  %s = "nn.constant"() {value = dense<[3, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.expand"(%x, %s) : (tensor<?xf32>, tensor<2xi64>) -> tensor<3x?xf32>
  return %r : tensor<3x?xf32>
}
// Tile by constant repeats over dynamic dims, and by run-time repeats (y's
// shape) over a static input.
// shapes: 0=2x3 | 0=1x4 | 0=0x2
func.func @tile_const(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %k = "nn.constant"() {value = dense<[2, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.tile"(%x, %k) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 1=2x1 | 1=3x2 | 1=0x2
func.func @tile_runtime(%x: tensor<2x3xi32>, %y: tensor<?x?xf32>) -> tensor<?x?xi32> {
  %k = "nn.shape"(%y) : (tensor<?x?xf32>) -> tensor<2xi64>
  %r = "nn.tile"(%x, %k) : (tensor<2x3xi32>, tensor<2xi64>) -> tensor<?x?xi32>
  return %r : tensor<?x?xi32>
}
// Data-dependent extents: a range whose bounds are run-time values (the
// position ids of a sequence: range(0, S, 1), and a descending one), and
// constant_of_shape of a run-time shape.
// shapes: 0=2x5 | 0=1x1 | 0=3x0
func.func @range_runtime(%x: tensor<?x?xf32>) -> (tensor<?xi64>, tensor<?xi64>) {
  %s = "nn.shape"(%x) : (tensor<?x?xf32>) -> tensor<2xi64>
  %i = "nn.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %n = "nn.gather"(%s, %i) {axis = 0 : i64} : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %z = "nn.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %one = "nn.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %r = "nn.range"(%z, %n, %one) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %m = "nn.constant"() {value = dense<-2> : tensor<i64>} : () -> tensor<i64>
  %d = "nn.range"(%n, %z, %m) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return %r, %d : tensor<?xi64>, tensor<?xi64>
}
// shapes: 0=2x5 | 0=1x1 | 0=0x3
func.func @constant_of_shape_runtime(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %s = "nn.shape"(%x) : (tensor<?x?xf32>) -> tensor<2xi64>
  %r = "nn.constant_of_shape"(%s) {value = dense<2.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// A float range: ceil((limit - start) / delta) elements.
// shapes: 0=7 | 0=1 | 0=0
func.func @range_float(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = "nn.shape"(%x) : (tensor<?xf32>) -> tensor<1xi64>
  %sf = "nn.cast"(%s) {to = 1 : i64} : (tensor<1xi64>) -> tensor<1xf32>
  %n = "nn.squeeze"(%sf) {axes = array<i64: 0>} : (tensor<1xf32>) -> tensor<f32>
  %a = "nn.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %d = "nn.constant"() {value = dense<0.75> : tensor<f32>} : () -> tensor<f32>
  %r = "nn.range"(%a, %n, %d) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
// Pad over dynamic dims: constant pads in every mode, and run-time pads
// (a crop by the input's own extent) in constant mode.
// shapes: 0=2x3 | 0=1x5 | 0=4x2
func.func @pad_modes(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %p = "nn.constant"() {value = dense<[1, 0, 0, 1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %v = "nn.constant"() {value = dense<-2.5> : tensor<f32>} : () -> tensor<f32>
  %c = "nn.pad"(%x, %p, %v) {mode = "constant"} : (tensor<?x?xf32>, tensor<4xi64>, tensor<f32>) -> tensor<?x?xf32>
  %e = "nn.pad"(%x, %p) {mode = "edge"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %w = "nn.pad"(%x, %p) {mode = "wrap"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %q = "nn.constant"() {value = dense<[0, 1, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
  %r = "nn.pad"(%x, %q) {mode = "reflect"} : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  return %c, %e, %w, %r : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
// shapes: 1=2 | 1=0 | 1=4
func.func @pad_runtime(%x: tensor<3x4xf32>, %y: tensor<?xf32>) -> tensor<?x?xf32> {
  %s = "nn.shape"(%y) : (tensor<?xf32>) -> tensor<1xi64>
  %z = "nn.constant"() {value = dense<[0, -1, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %p = "nn.concat"(%s, %z) {axis = 0 : i64} : (tensor<1xi64>, tensor<3xi64>) -> tensor<4xi64>
  %r = "nn.pad"(%x, %p) : (tensor<3x4xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// Split of a dynamic axis into even chunks (ceil(extent / 3), the last ones
// smaller), and by given sizes with a dynamic dim off the axis.
// shapes: 0=2x9 | 0=3x7 | 0=1x2 | 0=0x4
func.func @split_even(%x: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %a, %b, %c = "nn.split"(%x) {axis = 1 : i64} : (tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
  return %a, %b, %c : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
// shapes: 0=4x3 | 0=4x1
func.func @split_sizes(%x: tensor<?x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>) {
  %a, %b = "nn.split"(%x) {axis = 0 : i64, split = array<i64: 2, 2>} : (tensor<?x?xf32>) -> (tensor<2x?xf32>, tensor<2x?xf32>)
  return %a, %b : tensor<2x?xf32>, tensor<2x?xf32>
}
// ArgMax/ArgMin: the axis kept as 1 or dropped, the others at run time.
// shapes: 0=3x5 | 0=1x1 | 0=4x9
func.func @arg_max_keep(%x: tensor<?x?xf32>) -> tensor<?x1xi64> {
  %r = "nn.arg_max"(%x) {axis = 1 : i64} : (tensor<?x?xf32>) -> tensor<?x1xi64>
  return %r : tensor<?x1xi64>
}
// shapes: 0=2x3x4 | 0=5x1x4 | 0=1x7x4
func.func @arg_min_drop(%x: tensor<?x?x4xf32>) -> tensor<?x4xi64> {
  %r = "nn.arg_min"(%x) {axis = -2 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<?x?x4xf32>) -> tensor<?x4xi64>
  return %r : tensor<?x4xi64>
}
// Instance and group normalization: batch and spatial dims at run time.
// shapes: 0=2x3x4x5 1=3 2=3 | 0=1x3x1x7 1=3 2=3
func.func @instance_norm(%x: tensor<?x3x?x?xf32>, %s: tensor<?xf32>, %b: tensor<3xf32>) -> tensor<?x3x?x?xf32> {
  %r = "nn.instance_normalization"(%x, %s, %b) {epsilon = 1.0e-3 : f32} : (tensor<?x3x?x?xf32>, tensor<?xf32>, tensor<3xf32>) -> tensor<?x3x?x?xf32>
  return %r : tensor<?x3x?x?xf32>
}
// shapes: 0=2x4x3x5 | 0=1x4x6x1
func.func @group_norm(%x: tensor<?x4x?x?xf32>) -> tensor<?x4x?x?xf32> {
  %s = "nn.constant"() {value = dense<[1.0, 2.0, -1.0, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %b = "nn.constant"() {value = dense<[0.0, 1.0, 2.0, -3.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %r = "nn.group_normalization"(%x, %s, %b) {num_groups = 2 : i64} : (tensor<?x4x?x?xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<?x4x?x?xf32>
  return %r : tensor<?x4x?x?xf32>
}
// DepthToSpace (both modes) and SpaceToDepth: static channels.
// shapes: 0=1x8x2x3 | 0=3x8x1x1
func.func @depth_to_space(%x: tensor<?x8x?x?xf32>) -> (tensor<?x2x?x?xf32>, tensor<?x?x?x?xf32>) {
  %a = "nn.depth_to_space"(%x) {blocksize = 2 : i64} : (tensor<?x8x?x?xf32>) -> tensor<?x2x?x?xf32>
  %c = "nn.depth_to_space"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<?x8x?x?xf32>) -> tensor<?x?x?x?xf32>
  return %a, %c : tensor<?x2x?x?xf32>, tensor<?x?x?x?xf32>
}
// shapes: 0=1x2x4x6 | 0=2x2x2x2
func.func @space_to_depth(%x: tensor<?x2x?x?xf32>) -> tensor<?x8x?x?xf32> {
  %r = "nn.space_to_depth"(%x) {blocksize = 2 : i64} : (tensor<?x2x?x?xf32>) -> tensor<?x8x?x?xf32>
  return %r : tensor<?x8x?x?xf32>
}
// GatherElements and ScatterElements (random indices lie in [-8, 8): the
// axis has 8 elements); indices off the axis within data's extent.
// shapes: 0=3x8 1=3x5 | 0=4x8 1=2x11 | 0=1x8 1=1x1
func.func @gather_elements(%x: tensor<?x8xf32>, %i: tensor<?x?xi64>) -> tensor<?x?xf32> {
  %r = "nn.gather_elements"(%x, %i) {axis = 1 : i64} : (tensor<?x8xf32>, tensor<?x?xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
// shapes: 0=3x8 1=2x4 2=2x4 | 0=5x8 1=5x9 2=5x9
func.func @scatter_elements(%x: tensor<?x8xf32>, %i: tensor<?x?xi64>, %u: tensor<?x?xf32>) -> tensor<?x8xf32> {
  %r = "nn.scatter_elements"(%x, %i, %u) {axis = 1 : i64, reduction = "add"} : (tensor<?x8xf32>, tensor<?x?xi64>, tensor<?x?xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}
// Per-axis quantization and back; Size of a dynamic tensor.
// shapes: 0=2x3x4 | 0=1x3x1
func.func @quantize(%x: tensor<?x3x?xf32>) -> (tensor<?x3x?xf32>, tensor<i64>) {
  %s = "nn.constant"() {value = dense<[0.01, 0.02, 0.05]> : tensor<3xf32>} : () -> tensor<3xf32>
  %z = "nn.constant"() {value = dense<[0, 3, -2]> : tensor<3xi8>} : () -> tensor<3xi8>
  %q = "nn.quantize_linear"(%x, %s, %z) : (tensor<?x3x?xf32>, tensor<3xf32>, tensor<3xi8>) -> tensor<?x3x?xi8>
  %d = "nn.dequantize_linear"(%q, %s, %z) : (tensor<?x3x?xi8>, tensor<3xf32>, tensor<3xi8>) -> tensor<?x3x?xf32>
  %n = "nn.size"(%x) : (tensor<?x3x?xf32>) -> tensor<i64>
  return %d, %n : tensor<?x3x?xf32>, tensor<i64>
}
// ReverseSequence, time-major: the lengths fix the batch extent.
// shapes: 0=3x2x2 | 0=5x2x1
func.func @reverse_sequence(%x: tensor<?x2x?xf32>) -> tensor<?x2x?xf32> {
  %l = "nn.constant"() {value = dense<[1, 3]> : tensor<2xi64>} : () -> tensor<2xi64>
  %r = "nn.reverse_sequence"(%x, %l) {batch_axis = 1 : i64, time_axis = 0 : i64} : (tensor<?x2x?xf32>, tensor<2xi64>) -> tensor<?x2x?xf32>
  return %r : tensor<?x2x?xf32>
}
// Einsum: a batched matmul (the summed subscript checked too), a trace (a
// diagonal), and a static 1 that broadcasts against a run-time extent.
// shapes: 0=2x3x4 1=2x4x5 | 0=1x1x7 1=1x7x2 | 0=3x0x2 1=3x2x4
func.func @einsum_bmm(%a: tensor<?x?x?xf32>, %b: tensor<?x?x?xf32>) -> tensor<?x?x?xf32> {
  %r = "nn.einsum"(%a, %b) {equation = "bij,bjk->bik"} : (tensor<?x?x?xf32>, tensor<?x?x?xf32>) -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}
// shapes: 0=3x3 1=1x5 | 0=1x1 1=4x2
func.func @einsum_trace_bcast(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<f32>, tensor<?x?xf32>) {
  %t = "nn.einsum"(%a) {equation = "ii->"} : (tensor<?x?xf32>) -> tensor<f32>
  %o = "nn.constant"() {value = dense<[[2.0]]> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %r = "nn.einsum"(%b, %o) {equation = "ij,kj->ij"} : (tensor<?x?xf32>, tensor<1x1xf32>) -> tensor<?x?xf32>
  return %t, %r : tensor<f32>, tensor<?x?xf32>
}
