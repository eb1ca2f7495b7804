// The planner of Listing 3.1 on the thesis' examples.
// RUN: strata-opt %s --split-input-file --nn-fuse=profile=always | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-fuse="profile=always max-block-ops=2" | FileCheck %s --check-prefix=SMALL
// RUN: strata-opt %s --split-input-file --nn-fuse="profile=always report=true" 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT

// Fig. 3.3: Add is the seed (One-to-One, smallest intermediate result,
// first in order); the block grows through Conv, Relu, Mul and Sub into one
// Many-to-Many block; GEMM (a predecessor) is red against it and stays apart.
// CHECK-LABEL: func.func @fig33
// CHECK: "nn.matmul"
// CHECK: } {strata.fused = {id = 1 : i64, mapping = "Many-to-Many", ops = ["nn.matmul"]}}
// CHECK: "nn.add"
// CHECK-NEXT: "nn.conv"
// CHECK-NEXT: "nn.relu"
// CHECK-NEXT: "nn.mul"
// CHECK-NEXT: "nn.sub"
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {strata.fused = {id = 0 : i64, mapping = "Many-to-Many", ops = ["nn.add", "nn.conv", "nn.relu", "nn.mul", "nn.sub"]}}
// SMALL-LABEL: func.func @fig33
// SMALL: ops = ["nn.matmul"]
// SMALL: ops = ["nn.add", "nn.conv"]
// SMALL: ops = ["nn.relu", "nn.mul"]
// SMALL: ops = ["nn.sub"]
// REPORT-LABEL: nn-fuse-report @fig33
// REPORT-NEXT: block 0  Many-to-Many  5 ops: nn.add nn.conv nn.relu nn.mul nn.sub
// REPORT-NEXT: layers before: 6 (CIL 2, MIL 4)
// REPORT-NEXT: layers after: 2 (2 blocks, 1 of several ops), fusion rate 3.00x
// REPORT-NEXT: intermediate bytes before: 2560 (0.00 MB)
// REPORT-NEXT: intermediate bytes after: 512 (0.00 MB)
// REPORT-NEXT: decisions: 1 red, 0 over the constraint, 0 would form a cycle, 0 profiled and fused, 0 profiled and kept apart
func.func @fig33(%x: tensor<1x8x4x4xf32>, %g: tensor<4x4xf32>, %a: tensor<1x8x4x4xf32>, %w: tensor<8x8x1x1xf32>, %m: tensor<1x8x4x4xf32>, %s: tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32> {
  %0 = "nn.matmul"(%x, %g) : (tensor<1x8x4x4xf32>, tensor<4x4xf32>) -> tensor<1x8x4x4xf32>
  %1 = "nn.add"(%0, %a) : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %2 = "nn.conv"(%1, %w) : (tensor<1x8x4x4xf32>, tensor<8x8x1x1xf32>) -> tensor<1x8x4x4xf32>
  %3 = "nn.relu"(%2) : (tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %4 = "nn.mul"(%3, %m) : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  %5 = "nn.sub"(%4, %s) : (tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
  return %5 : tensor<1x8x4x4xf32>
}

// -----

// Fig. 3.4: Out = Recip(GEMM * C) + Recip(GEMM + D); the GEMM result (IRS1)
// is shared by both branches. Everything forms one Many-to-One block in
// which GEMM appears, and is computed, once.
// CHECK-LABEL: func.func @fig34
// CHECK-COUNT-1: "nn.matmul"
// CHECK-NOT: "nn.matmul"
// CHECK: ops = ["nn.matmul", "nn.mul", "nn.reciprocal", "nn.add", "nn.reciprocal", "nn.add"]
func.func @fig34(%a: tensor<8x16xf32>, %b: tensor<16x8xf32>, %c: tensor<8x8xf32>, %d: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %irs1 = "nn.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>
  %irs2 = "nn.mul"(%irs1, %c) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %irs3 = "nn.reciprocal"(%irs2) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %irs4 = "nn.add"(%irs1, %d) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  %irs5 = "nn.reciprocal"(%irs4) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %out = "nn.add"(%irs3, %irs5) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %out : tensor<8x8xf32>
}

// -----

// GEMM -> Div -> Transpose: one block (M2M then a yellow M2M -> Shuffle cell).
// CHECK-LABEL: func.func @gemm_div_transpose
// CHECK: mapping = "Many-to-Many", ops = ["nn.matmul", "nn.div", "nn.transpose"]
func.func @gemm_div_transpose(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<4x8xf32> {
  %c = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "nn.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = "nn.div"(%0, %c) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %2 = "nn.transpose"(%1) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// The three chains the thesis says TVM cannot fuse, each one block.
// CHECK-LABEL: func.func @convtranspose_relu_concat
// CHECK: mapping = "Many-to-Many", ops = ["nn.conv_transpose", "nn.relu", "nn.concat"]
func.func @convtranspose_relu_concat(%x: tensor<1x4x4x4xf32>, %w: tensor<4x2x3x3xf32>, %y: tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "nn.conv_transpose"(%x, %w) : (tensor<1x4x4x4xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %1 = "nn.relu"(%0) : (tensor<1x2x6x6xf32>) -> tensor<1x2x6x6xf32>
  %2 = "nn.concat"(%1, %y) {axis = 1 : si64} : (tensor<1x2x6x6xf32>, tensor<1x2x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @matmul_reshape_transpose_add
// CHECK: mapping = "Many-to-Many", ops = ["nn.matmul", "nn.reshape", "nn.transpose", "nn.add"]
func.func @matmul_reshape_transpose_add(%x: tensor<16x32xf32>, %w: tensor<32x32xf32>, %r: tensor<4x16x8xf32>) -> tensor<4x16x8xf32> {
  %shape = "nn.constant"() {value = dense<[16, 4, 8]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "nn.matmul"(%x, %w) : (tensor<16x32xf32>, tensor<32x32xf32>) -> tensor<16x32xf32>
  %1 = "nn.reshape"(%0, %shape) : (tensor<16x32xf32>, tensor<3xi64>) -> tensor<16x4x8xf32>
  %2 = "nn.transpose"(%1) {perm = array<i64: 1, 0, 2>} : (tensor<16x4x8xf32>) -> tensor<4x16x8xf32>
  %3 = "nn.add"(%2, %r) : (tensor<4x16x8xf32>, tensor<4x16x8xf32>) -> tensor<4x16x8xf32>
  return %3 : tensor<4x16x8xf32>
}

// CHECK-LABEL: func.func @sub_pow_reducemean_add_sqrt
// CHECK: mapping = "Many-to-Many", ops = ["nn.sub", "nn.pow", "nn.reduce_mean", "nn.add", "nn.sqrt"]
func.func @sub_pow_reducemean_add_sqrt(%x: tensor<8x16xf32>, %m: tensor<8x16xf32>) -> tensor<8x1xf32> {
  %two = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %eps = "nn.constant"() {value = dense<1.0e-5> : tensor<f32>} : () -> tensor<f32>
  %0 = "nn.sub"(%x, %m) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  %1 = "nn.pow"(%0, %two) : (tensor<8x16xf32>, tensor<f32>) -> tensor<8x16xf32>
  %2 = "nn.reduce_mean"(%1) {axes = array<i64: 1>} : (tensor<8x16xf32>) -> tensor<8x1xf32>
  %3 = "nn.add"(%2, %eps) : (tensor<8x1xf32>, tensor<f32>) -> tensor<8x1xf32>
  %4 = "nn.sqrt"(%3) : (tensor<8x1xf32>) -> tensor<8x1xf32>
  return %4 : tensor<8x1xf32>
}

// -----

// Convexity: the block {relu, softmax, transpose} cannot take the add,
// which also reads the second softmax (red against the block, so outside):
// the path transpose -> softmax -> add would leave the block and re-enter.
// CHECK-LABEL: func.func @no_cycle
// CHECK: ops = ["nn.relu", "nn.softmax", "nn.transpose"]
// CHECK: ops = ["nn.softmax", "nn.add"]
// REPORT-LABEL: nn-fuse-report @no_cycle
// REPORT: decisions: 1 red, 0 over the constraint, 1 would form a cycle, 1 profiled and fused, 0 profiled and kept apart
func.func @no_cycle(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %r = "nn.relu"(%x) : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %s = "nn.softmax"(%r) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %t = "nn.transpose"(%s) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %t2 = "nn.softmax"(%t) {axis = -1 : si64} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  %a = "nn.add"(%s, %t2) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
  return %a : tensor<4x4xf32>
}
