// Fused code generation: in each block the kernels take their epilogues,
// the rest lowers to linalg and its element-wise loops fuse into one nest;
// then the blocks dissolve.
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(nn-fuse{profile=always},nn-to-kernels,func.func(nn-to-linalg),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-inline))' | FileCheck %s
// RUN: strata-opt %s --split-input-file --pass-pipeline='builtin.module(nn-fuse{profile=never},nn-to-kernels,func.func(nn-to-linalg),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-inline))' | FileCheck %s --check-prefix=APART

// Fig. 3.4: the GEMM (IRS1) is computed once, by one kernel call, and
// both branches and the final add are one loop nest reading it: no other
// intermediate tensor.
// CHECK-LABEL: func.func @fig34
// CHECK-NOT: scf.execute_region
// CHECK: call @strata_rt_matmul_f32
// CHECK-NOT: call
// CHECK: tensor.empty
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic
// CHECK-SAME: ins(%{{.*}}, %arg2, %arg3 :
// CHECK-DAG: arith.mulf
// CHECK-DAG: arith.divf
// CHECK-DAG: arith.addf
// CHECK-DAG: arith.divf
// CHECK-DAG: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return
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

// GEMM -> Div -> Transpose: one kernel, as in the thesis. The block's
// GEMM call absorbs the division by the constant (alpha = 1/2) and the
// transpose (it computes B^T A^T: operands exchanged, both transposed, the
// result stored as (j, i)); no loop nest and no intermediate remain.
// Kept apart from the GEMM (profile=never: GEMM -> Div is a yellow cell),
// the Div and the Transpose are one nest reading the GEMM's result through
// the permuted map (index remapping, no transposed copy).
// CHECK-LABEL: func.func @gemm_div_transpose
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1 : i64
// CHECK-DAG: %[[B:.*]] = bufferization.to_buffer %arg1
// CHECK-DAG: %[[A:.*]] = bufferization.to_buffer %arg0
// CHECK: call @strata_rt_matmul_f32(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ONE]], %[[ONE]], %{{.*}}, %{{.*}}, %[[HALF]],
// CHECK-NOT: linalg.generic
// CHECK: return
// APART-LABEL: func.func @gemm_div_transpose
// APART: call @strata_rt_matmul_f32
// APART: linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}]
// APART: arith.divf
// APART-NOT: linalg.generic
// APART: return
func.func @gemm_div_transpose(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<4x8xf32> {
  %c = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "nn.matmul"(%a, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %1 = "nn.div"(%0, %c) : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x4xf32>
  %2 = "nn.transpose"(%1) {perm = array<i64: 1, 0>} : (tensor<8x4xf32>) -> tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}

// -----

// Block boundaries stop loop fusion: a broadcasting add (One-to-Many, its
// bias is not a constant) then a transpose is a yellow cell. Fused
// (profile=always), the two are one nest; kept apart (profile=never), two.
// CHECK-LABEL: func.func @boundary
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: return
// APART-LABEL: func.func @boundary
// APART-COUNT-2: linalg.generic
// APART-NOT: linalg.generic
// APART: return
func.func @boundary(%x: tensor<4x4xf32>, %b: tensor<4xf32>) -> tensor<4x4xf32> {
  %a = "nn.add"(%x, %b) : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %t = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %t : tensor<4x4xf32>
}

// -----

// A Transpose feeding a matmul joins the matmul's block (the kernel call
// absorbs it as a prologue: it reads the input through a permuted view),
// and the Relu after it is the epilogue: one kernel call, no loop nest,
// no transposed copy.
// CHECK-LABEL: func.func @transpose_matmul_relu
// CHECK-NOT: linalg.generic
// CHECK: memref.transpose
// CHECK: call @strata_rt_matmul_f32
// CHECK-NOT: linalg.generic
// CHECK: return
// APART-LABEL: func.func @transpose_matmul_relu
func.func @transpose_matmul_relu(%a: tensor<16x8xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %at = "nn.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<16x8xf32>) -> tensor<8x16xf32>
  %c = "nn.matmul"(%at, %b) : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %r = "nn.relu"(%c) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}
