// --nn-rdp transfer rules, one function per family (docs/dynamic-shapes.md).
// RUN: strata-opt %s --nn-rdp | FileCheck %s

// Broadcasting: a constant other than 1 decides a dim; equal symbols stay;
// a symbol against 1 stays; two different symbols give nac.
// CHECK-LABEL: func.func @broadcast
func.func @broadcast(%a: tensor<?x?xf32> {onnx.dim_params = ["N", "M"]}, %b: tensor<1x?xf32> {onnx.dim_params = ["", "M"]},
                     %c: tensor<?x3xf32> {onnx.dim_params = ["K", ""]}, %d: tensor<?xf32> {onnx.dim_params = ["L"]}) {
  // CHECK: "nn.add"{{.*}}rdp.shapes = ["[N, M]"]
  %0 = "nn.add"(%a, %b) : (tensor<?x?xf32>, tensor<1x?xf32>) -> tensor<?x?xf32>
  // CHECK: "nn.mul"{{.*}}rdp.shapes = ["[nac, 3]"]
  %1 = "nn.mul"(%a, %c) : (tensor<?x?xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  // CHECK: "nn.where"{{.*}}rdp.shapes = ["[N, nac]"]
  %cond = "nn.constant"() {value = dense<true> : tensor<1xi1>} : () -> tensor<1xi1>
  %2 = "nn.where"(%cond, %a, %d) : (tensor<1xi1>, tensor<?x?xf32>, tensor<?xf32>) -> tensor<?x?xf32>
  return
}

// Windows: stride 1 keeps a polynomial, SAME padding too. A stride that
// does not divide the numerator as a polynomial makes a derived symbol
// standing for floor(num/stride) + 1, named for it (ceil(H/2) when the
// numerator is H - 1), one per distinct numerator and stride: a residual
// block's 3x3/s2/p1 and 1x1/s2 branches get the same one, so their sum is
// known. Derived symbols follow the input symbols, sorted by name.
// CHECK-LABEL: func.func @windows
// CHECK-SAME: rdp.symbols = ["N", "H", "W", "ceil(H/2)", "ceil(W/2)", "floor((H - 1)/2)", "floor((W - 1)/2)"]
func.func @windows(%x: tensor<?x8x?x?xf32> {onnx.dim_params = ["N", "", "H", "W"]}, %w: tensor<16x8x3x3xf32>, %w1: tensor<16x8x1x1xf32>) {
  // CHECK: "nn.conv"{{.*}}rdp.shapes = ["[N, 16, H - 2, W - 2]"]
  %0 = "nn.conv"(%x, %w) : (tensor<?x8x?x?xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x?x?xf32>
  // CHECK: "nn.conv"{{.*}}rdp.shapes = ["[N, 16, ceil(H/2), ceil(W/2)]"]
  %1 = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x8x?x?xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x?x?xf32>
  // CHECK: "nn.conv"{{.*}}rdp.shapes = ["[N, 16, ceil(H/2), ceil(W/2)]"]
  %d = "nn.conv"(%x, %w1) {strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32>, tensor<16x8x1x1xf32>) -> tensor<?x16x?x?xf32>
  // CHECK: "nn.add"{{.*}}rdp.shapes = ["[N, 16, ceil(H/2), ceil(W/2)]"]
  %sum = "nn.add"(%1, %d) : (tensor<?x16x?x?xf32>, tensor<?x16x?x?xf32>) -> tensor<?x16x?x?xf32>
  // CHECK: "nn.conv"{{.*}}rdp.shapes = ["[N, 16, floor((H - 1)/2), floor((W - 1)/2)]"]
  %v = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32>, tensor<16x8x3x3xf32>) -> tensor<?x16x?x?xf32>
  // Ceil mode keeps only exact divisions.
  // CHECK: "nn.max_pool"{{.*}}rdp.shapes = ["[N, 8, nac, nac]"]
  %cm = "nn.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>, ceil_mode = 1 : i64} : (tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>
  // CHECK: "nn.max_pool"{{.*}}rdp.shapes = ["[N, 8, H, W]"]
  %2 = "nn.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, auto_pad = "SAME_UPPER"} : (tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>
  // CHECK: "nn.global_average_pool"{{.*}}rdp.shapes = ["[N, 8, 1, 1]"]
  %3 = "nn.global_average_pool"(%x) : (tensor<?x8x?x?xf32>) -> tensor<?x8x1x1xf32>
  return
}

// Linear algebra, reductions and layout.
// CHECK-LABEL: func.func @linear_layout
func.func @linear_layout(%a: tensor<?x?x64xf32> {onnx.dim_params = ["B", "S", ""]}, %w: tensor<64x?xf32> {onnx.dim_params = ["", "E"]},
                         %g: tensor<?x64xf32> {onnx.dim_params = ["S", ""]}) {
  // CHECK: "nn.matmul"{{.*}}rdp.shapes = ["[B, S, E]"]
  %0 = "nn.matmul"(%a, %w) : (tensor<?x?x64xf32>, tensor<64x?xf32>) -> tensor<?x?x?xf32>
  // CHECK: "nn.gemm"{{.*}}rdp.shapes = ["[S, S]"]
  %1 = "nn.gemm"(%g, %g) {transB = 1 : i64} : (tensor<?x64xf32>, tensor<?x64xf32>) -> tensor<?x?xf32>
  // CHECK: "nn.reduce_mean"{{.*}}rdp.shapes = ["[B, 1, 64]"]
  %2 = "nn.reduce_mean"(%a) {axes = array<i64: 1>} : (tensor<?x?x64xf32>) -> tensor<?x1x64xf32>
  // CHECK: "nn.reduce_sum"{{.*}}rdp.shapes = ["[B, 64]"]
  %3 = "nn.reduce_sum"(%a) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<?x?x64xf32>) -> tensor<?x64xf32>
  // CHECK: "nn.arg_max"{{.*}}rdp.shapes = ["[B, S]"]
  %4 = "nn.arg_max"(%a) {axis = 2 : i64, keepdims = 0 : i64} : (tensor<?x?x64xf32>) -> tensor<?x?xi64>
  // CHECK: "nn.transpose"{{.*}}rdp.shapes = ["[64, B, S]"]
  %5 = "nn.transpose"(%a) {perm = array<i64: 2, 0, 1>} : (tensor<?x?x64xf32>) -> tensor<64x?x?xf32>
  // CHECK: "nn.flatten"{{.*}}rdp.shapes = ["[B, 64*S]"]
  %6 = "nn.flatten"(%a) : (tensor<?x?x64xf32>) -> tensor<?x?xf32>
  // CHECK: "nn.unsqueeze"{{.*}}rdp.shapes = ["[B, 1, S, 64]"]
  %7 = "nn.unsqueeze"(%a) {axes = array<i64: 1>} : (tensor<?x?x64xf32>) -> tensor<?x1x?x64xf32>
  // CHECK: "nn.squeeze"{{.*}}rdp.shapes = ["[B, S, 64]"]
  %8 = "nn.squeeze"(%7) {axes = array<i64: 1>} : (tensor<?x1x?x64xf32>) -> tensor<?x?x64xf32>
  // CHECK: "nn.concat"{{.*}}rdp.shapes = ["[B, 2*S, 64]"]
  %9 = "nn.concat"(%a, %8) {axis = 1 : i64} : (tensor<?x?x64xf32>, tensor<?x?x64xf32>) -> tensor<?x?x64xf32>
  // CHECK: "nn.split"{{.*}}rdp.shapes = ["[B, S, 64]", "[B, S, 64]"]
  %10:2 = "nn.split"(%9) {axis = 1 : i64} : (tensor<?x?x64xf32>) -> (tensor<?x?x64xf32>, tensor<?x?x64xf32>)
  // CHECK: "nn.gather"{{.*}}rdp.shapes = ["[B, 5, 64]"]
  %idx = "nn.constant"() {value = dense<[0, 1, 2, 3, 4]> : tensor<5xi64>} : () -> tensor<5xi64>
  %11 = "nn.gather"(%a, %idx) {axis = 1 : i64} : (tensor<?x?x64xf32>, tensor<5xi64>) -> tensor<?x5x64xf32>
  return
}

// Shape values: arithmetic on them, and the ISVDOS ops that read them.
// CHECK-LABEL: func.func @shape_values
func.func @shape_values(%x: tensor<?x?xf32> {onnx.dim_params = ["N", "T"]}, %k: tensor<1xi64>, %row: tensor<1x?xf32> {onnx.dim_params = ["", "T"]}) {
  %s = "nn.shape"(%x) : (tensor<?x?xf32>) -> tensor<2xi64>
  %two = "nn.constant"() {value = dense<2> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: "nn.mul"{{.*}}rdp.values = ["[2*N, 2*T]"]
  %s2 = "nn.mul"(%s, %two) : (tensor<2xi64>, tensor<1xi64>) -> tensor<2xi64>
  // Expand broadcasts the input shape with the shape value: [1, T] to
  // [N, T] is [N, T]; [N, T] to [2N, 2T] holds only if N = T = 1: nac.
  // CHECK: "nn.expand"{{.*}}rdp.class = "ISDOS", rdp.shapes = ["[N, T]"]
  %e = "nn.expand"(%row, %s) : (tensor<1x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.expand"{{.*}}rdp.shapes = ["[nac, nac]"]
  %e2 = "nn.expand"(%x, %s2) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.tile"{{.*}}rdp.shapes = ["[N^2, T^2]"]
  %t = "nn.tile"(%x, %s) : (tensor<?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  %p = "nn.constant"() {value = dense<[1, 0, 1, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  // CHECK: "nn.pad"{{.*}}rdp.shapes = ["[N + 2, T + 2]"]
  %pd = "nn.pad"(%x, %p) : (tensor<?x?xf32>, tensor<4xi64>) -> tensor<?x?xf32>
  %z = "nn.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %one = "nn.constant"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>
  %big = "nn.constant"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>
  // A slice of the shape vector is a value; a whole-extent slice of a
  // symbolic dim keeps it; a slice with a runtime end is nac.
  // CHECK: "nn.slice"{{.*}}rdp.values = ["[T]"]
  %st = "nn.slice"(%s, %one, %big) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<2xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  // CHECK: "nn.slice"{{.*}}rdp.shapes = ["[N, T]"]
  %sl = "nn.slice"(%x, %z, %big, %one) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.slice"{{.*}}rdp.class = "ISVDOS", rdp.shapes = ["[N, nac]"]
  %sk = "nn.slice"(%x, %z, %k, %one) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.constant_of_shape"{{.*}}rdp.shapes = ["[2*N, 2*T]"]
  %c = "nn.constant_of_shape"(%s2) : (tensor<2xi64>) -> tensor<?x?xf32>
  // CHECK: "nn.top_k"{{.*}}rdp.shapes = ["[N, T]", "[N, T]"]
  %v, %i = "nn.top_k"(%x, %st) : (tensor<?x?xf32>, tensor<1xi64>) -> (tensor<?x?xf32>, tensor<?x?xi64>)
  // CHECK: "nn.size"{{.*}}rdp.values = ["[N*T]"]
  %n = "nn.size"(%x) : (tensor<?x?xf32>) -> tensor<i64>
  %z0 = "nn.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %o0 = "nn.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %z0s = "nn.constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  // Range with step 1 from 0 to N*T (>= 0 for all sizes) has N*T elements;
  // to a runtime limit it is nac.
  // CHECK: "nn.range"{{.*}}rdp.shapes = ["[N*T]"]
  %r = "nn.range"(%z0, %n, %o0) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %kk = "nn.reshape"(%k, %z0s) : (tensor<1xi64>, tensor<0xi64>) -> tensor<i64>
  // CHECK: "nn.range"{{.*}}rdp.shapes = ["[nac]"]
  %r2 = "nn.range"(%z0, %kk, %o0) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  return
}

// Shape arithmetic in upstream ops (what lowered shape code is made of):
// tensor.dim, integer arith, index casts, tensor.from_elements and
// tensor.extract carry values; tensor.empty takes its sizes from them.
// CHECK-LABEL: func.func @upstream_chains
func.func @upstream_chains(%x: tensor<?x?xf32> {onnx.dim_params = ["N", "T"]}) -> (tensor<?x?xf32>, tensor<2xi64>, tensor<2xf32>, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // CHECK: tensor.dim {rdp.shapes = ["-"], rdp.values = ["[N]"]}
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %t = tensor.dim %x, %c1 : tensor<?x?xf32>
  // CHECK: arith.muli {{.*}}rdp.values = ["[N*T]"]
  %nt = arith.muli %n, %t : index
  // CHECK: tensor.empty{{.*}}rdp.shapes = ["[N*T, T]"]
  %e = tensor.empty(%nt, %t) : tensor<?x?xf32>
  %ni = arith.index_cast %nt : index to i64
  %ti = arith.index_cast %t : index to i64
  // CHECK: tensor.from_elements {{.*}}rdp.values = ["[N*T, T]"]
  %v = tensor.from_elements %ni, %ti : tensor<2xi64>
  %s = "nn.shape"(%x) : (tensor<?x?xf32>) -> tensor<2xi64>
  // Integer casts keep the value; a float tensor has no value map.
  // CHECK: "nn.cast"{{.*}}rdp.values = ["[N, T]"]
  %c = "nn.cast"(%s) {to = i32} : (tensor<2xi64>) -> tensor<2xi32>
  // CHECK: "nn.cast"
  // CHECK-NOT: rdp.values
  // CHECK-SAME: to = f32
  %f = "nn.cast"(%s) {to = f32} : (tensor<2xi64>) -> tensor<2xf32>
  // CHECK: tensor.extract {{.*}}rdp.values = ["[T]"]
  %x1 = tensor.extract %c[%c1] : tensor<2xi32>
  return %e, %v, %f, %x1 : tensor<?x?xf32>, tensor<2xi64>, tensor<2xf32>, i32
}
