// nn-multiversion: a weight matmul/gemm whose rows RDP leaves symbolic gets
// a few-rows version (rows <= R at run time: strata.few_rows, lowered to the
// runtime's few-rows GEMM) beside the general one, each with the op's
// element-wise epilogue; none where RDP knows the rows or they cannot be R
// or fewer, none for an activation-by-activation product.
// Numerics: test/e2e/dynamic/multiversion.mlir.
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-multiversion{stats}))' | FileCheck %s
// RUN: strata-opt %s --pass-pipeline='builtin.module(func.func(nn-multiversion{rows=2}),nn-to-kernels)' | FileCheck %s --check-prefix=KERNELS
// RUN: not strata-opt %s --pass-pipeline='builtin.module(func.func(nn-multiversion{rows=9}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: 'func.func' op nn-multiversion: option 'rows' must be in [1, 8] (the runtime's few-rows GEMM), got 9

// CHECK-LABEL: func.func @linear
// CHECK-SAME: nn.versioned = 1 : i64, nn.weight_gemms = 1 : i64
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[R:.*]] = arith.muli %[[B]], %[[S]] : index
// CHECK: %[[FEW:.*]] = arith.cmpi ule, %[[R]], %c4 : index
// CHECK: scf.if %[[FEW]] -> (tensor<?x?x6xf32>)
// CHECK: "nn.matmul"(%arg0, %{{.*}}) {strata.few_rows = 4 : i64}
// CHECK: "nn.add"
// CHECK: "nn.relu"
// CHECK: scf.yield
// CHECK: } else {
// CHECK: "nn.matmul"(%arg0, %{{.*}}) :
// CHECK: "nn.add"
// CHECK: "nn.relu"
// CHECK: scf.yield
// CHECK: return
// KERNELS-LABEL: func.func @linear
// KERNELS: arith.cmpi ule, %{{.*}}, %c2 : index
// KERNELS: scf.if
// KERNELS: call @strata_rt_matmul_few_rows_f32
// KERNELS-NOT: nn.add
// KERNELS: } else {
// KERNELS: call @strata_rt_matmul_f32
// KERNELS-NOT: nn.add
// KERNELS: return
func.func @linear(%x: tensor<?x?x8xf32> {onnx.dim_params = ["B", "S", ""]}) -> tensor<?x?x6xf32> {
  %w = "nn.constant"() {value = dense<0.5> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %b = "nn.constant"() {value = dense<0.25> : tensor<6xf32>} : () -> tensor<6xf32>
  %y = "nn.matmul"(%x, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  %z = "nn.add"(%b, %y) : (tensor<6xf32>, tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  %r = "nn.relu"(%z) : (tensor<?x?x6xf32>) -> tensor<?x?x6xf32>
  return %r : tensor<?x?x6xf32>
}

// Static rows, rows of at least 16 (a tile of N by 16), and an
// activation-by-activation product: no version.
// CHECK-LABEL: func.func @none
// CHECK-SAME: nn.versioned = 0 : i64, nn.weight_gemms = 2 : i64
// CHECK-NOT: scf.if
// CHECK: return
func.func @none(%s: tensor<3x8xf32>, %x: tensor<?x8xf32> {onnx.dim_params = ["N", ""]},
                %p: tensor<?x8xf32>, %q: tensor<8x?xf32>) -> (tensor<3x6xf32>, tensor<?x6xf32>, tensor<?x?xf32>) {
  %w = "nn.constant"() {value = dense<0.5> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %y = "nn.matmul"(%s, %w) : (tensor<3x8xf32>, tensor<8x6xf32>) -> tensor<3x6xf32>
  %reps = "nn.constant"() {value = dense<[16, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %c = "nn.tile"(%x, %reps) : (tensor<?x8xf32>, tensor<2xi64>) -> tensor<?x8xf32>
  %z = "nn.matmul"(%c, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %a = "nn.matmul"(%p, %q) : (tensor<?x8xf32>, tensor<8x?xf32>) -> tensor<?x?xf32>
  return %y, %z, %a : tensor<3x6xf32>, tensor<?x6xf32>, tensor<?x?xf32>
}

// A gemm with transposed constant weights (a torch Linear): rows dim 0.
// CHECK-LABEL: func.func @gemm
// CHECK-SAME: nn.versioned = 1 : i64
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: arith.cmpi ule, %[[M]], %c4
// CHECK: "nn.gemm"(%arg0, %{{.*}}, %{{.*}}) {alpha = 1.000000e+00 : f32, beta = 1.000000e+00 : f32, strata.few_rows = 4 : i64, transB = 1 : i64}
func.func @gemm(%x: tensor<?x8xf32>) -> tensor<?x6xf32> {
  %w = "nn.constant"() {value = dense<0.5> : tensor<6x8xf32>} : () -> tensor<6x8xf32>
  %b = "nn.constant"() {value = dense<0.25> : tensor<6xf32>} : () -> tensor<6xf32>
  %y = "nn.gemm"(%x, %w, %b) {alpha = 1.0 : f32, beta = 1.0 : f32, transB = 1 : i64} : (tensor<?x8xf32>, tensor<6x8xf32>, tensor<6xf32>) -> tensor<?x6xf32>
  return %y : tensor<?x6xf32>
}

// A read through a transpose (torch's MHA input projection over [S, B, D]):
// the transpose goes into both versions (each call reads it in place),
// the guard reads the rows from its input (A's dims 0, 1 are x's 1, 0).
// CHECK-LABEL: func.func @through_transpose
// CHECK-SAME: nn.versioned = 1 : i64
// CHECK: %[[B:.*]] = tensor.dim %arg0, %c1
// CHECK: %[[S:.*]] = tensor.dim %arg0, %c0
// CHECK: arith.muli %[[B]], %[[S]]
// CHECK: scf.if
// CHECK: "nn.transpose"(%arg0)
// CHECK: "nn.matmul"({{.*}}) {strata.few_rows = 4 : i64}
// CHECK: } else {
// CHECK: "nn.transpose"(%arg0)
// CHECK: "nn.matmul"
// CHECK-NOT: "nn.transpose"
// CHECK: return
// KERNELS-LABEL: func.func @through_transpose
// KERNELS-NOT: nn.transpose
// KERNELS: call @strata_rt_matmul_few_rows_f32
// KERNELS-NOT: nn.transpose
// KERNELS: call @strata_rt_matmul_f32
func.func @through_transpose(%x: tensor<?x?x8xf32>) -> tensor<?x?x6xf32> {
  %w = "nn.constant"() {value = dense<0.5> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %t = "nn.transpose"(%x) {perm = array<i64: 1, 0, 2>} : (tensor<?x?x8xf32>) -> tensor<?x?x8xf32>
  %y = "nn.matmul"(%t, %w) : (tensor<?x?x8xf32>, tensor<8x6xf32>) -> tensor<?x?x6xf32>
  return %y : tensor<?x?x6xf32>
}
