// rdp-fold-checks: run-time comparisons of extents RDP proves equal are
// folded and the checks they guarded dropped; argument dims of one symbol
// are compared once at entry instead (kind 16), and read as one value.
// Without the pass (BEFORE) every op checks its operands' extents.
// Numerics: test/e2e/dynamic/rdp-dims.mlir; the entry error:
// test/e2e/dynamic/rdp-dims-errors.test.
// RUN: strata-opt %s --pass-pipeline='builtin.module(nn-to-kernels,func.func(nn-to-linalg),func.func(resolve-ranked-shaped-type-result-dims,rdp-fold-checks{stats}))' | FileCheck %s
// RUN: strata-opt %s --pass-pipeline='builtin.module(nn-to-kernels,func.func(nn-to-linalg),func.func(resolve-ranked-shaped-type-result-dims))' | FileCheck %s --check-prefix=BEFORE
// The fused code generation: one loop nest across both arguments, and no
// check but the entry's.
// RUN: strata-opt %s --pass-pipeline='builtin.module(nn-fuse{cpu-kernels},nn-to-kernels,func.func(nn-to-linalg),func.func(resolve-ranked-shaped-type-result-dims,rdp-fold-checks),func.func(fused-blocks-remap),func.func(linalg-fuse-elementwise-ops),func.func(fused-blocks-tile),func.func(fused-blocks-inline),func.func(canonicalize,cse))' | FileCheck %s --check-prefix=FUSED

// CHECK-LABEL: func.func @pair
// CHECK-SAME: rdp.dropped_checks = 4 : i64, rdp.entry_checks = 2 : i64, rdp.folded_compares = 4 : i64
// CHECK: %[[B0:.*]] = tensor.dim %arg0, %{{.*}} : tensor<?x?x4xf32>
// CHECK: %[[B1:.*]] = tensor.dim %arg1, %{{.*}} : tensor<?x?x4xf32>
// CHECK: %[[BAD:.*]] = arith.cmpi ne, %[[B1]], %[[B0]] : index
// CHECK: scf.if %[[BAD]]
// CHECK: func.call @strata_rt_shape_error(%c16_i64,
// CHECK: scf.if
// CHECK: func.call @strata_rt_shape_error(%c16_i64,
// CHECK-NOT: strata_rt_shape_error
// CHECK-NOT: tensor.dim %arg1
// CHECK: return
// BEFORE-LABEL: func.func @pair
// BEFORE-COUNT-4: func.call @strata_rt_shape_error(%c0_i64,
// BEFORE: return
// FUSED-LABEL: func.func @pair
// FUSED: func.call @strata_rt_shape_error(%c16_i64,
// FUSED: func.call @strata_rt_shape_error(%c16_i64,
// FUSED-NOT: strata_rt_shape_error
// FUSED: linalg.generic
// FUSED-SAME: ins(%arg0, %arg1 : tensor<?x?x4xf32>, tensor<?x?x4xf32>)
// FUSED: math.exp
// FUSED: arith.addf
// FUSED: arith.mulf
// FUSED-NOT: linalg.generic
// FUSED: return
func.func @pair(%a: tensor<?x?x4xf32> {onnx.dim_params = ["B", "S", ""]},
                %b: tensor<?x?x4xf32> {onnx.dim_params = ["B", "S", ""]}) -> tensor<?x?x4xf32> {
  %r = "nn.relu"(%a) : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %e = "nn.exp"(%b) : (tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %y = "nn.add"(%r, %e) : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  %z = "nn.mul"(%y, %b) : (tensor<?x?x4xf32>, tensor<?x?x4xf32>) -> tensor<?x?x4xf32>
  return %z : tensor<?x?x4xf32>
}

// An addend a matmul kernel absorbs: its extent was checked before the
// call; the symbol N proves it.
// (The check of the addend's static dim 1 is already constant false, the
// types deciding it: canonicalize drops it later.)
// CHECK-LABEL: func.func @residual
// CHECK-SAME: rdp.dropped_checks = 1 : i64, rdp.entry_checks = 1 : i64, rdp.folded_compares = 1 : i64
// CHECK: func.call @strata_rt_shape_error(%c16_i64,
// CHECK: scf.if %false
// CHECK-NEXT: func.call @strata_rt_shape_error
// CHECK-NOT: strata_rt_shape_error
// CHECK: call @strata_rt_matmul_f32
// CHECK: return
// BEFORE-LABEL: func.func @residual
// BEFORE: %[[NE:.*]] = arith.cmpi ne
// BEFORE: scf.if %[[NE]]
// BEFORE: func.call @strata_rt_shape_error(%c0_i64, %c1_i64, %c0_i64
// BEFORE: call @strata_rt_matmul_f32
func.func @residual(%x: tensor<?x8xf32> {onnx.dim_params = ["N", ""]},
                    %r: tensor<?x6xf32> {onnx.dim_params = ["N", ""]}) -> tensor<?x6xf32> {
  %w = "nn.constant"() {value = dense<0.25> : tensor<8x6xf32>} : () -> tensor<8x6xf32>
  %y = "nn.matmul"(%x, %w) : (tensor<?x8xf32>, tensor<8x6xf32>) -> tensor<?x6xf32>
  %z = "nn.add"(%y, %r) : (tensor<?x6xf32>, tensor<?x6xf32>) -> tensor<?x6xf32>
  return %z : tensor<?x6xf32>
}

// Expressions: a reshape to [2*N] meets an argument of extent M named
// "2*N" nowhere: distinct symbols, the check stays; the concat of two
// N-extents is 2*N, equal to the reshape's, so that add is not checked.
// CHECK-LABEL: func.func @expr
// CHECK-SAME: rdp.dropped_checks = 1 : i64, rdp.entry_checks = 1 : i64, rdp.folded_compares = 1 : i64
// CHECK: func.call @strata_rt_shape_error(%c16_i64,
// CHECK: func.call @strata_rt_shape_error(%c0_i64,
// CHECK-NOT: strata_rt_shape_error
// CHECK: return
func.func @expr(%a: tensor<?x2xf32> {onnx.dim_params = ["N", ""]},
                %b: tensor<?xf32> {onnx.dim_params = ["N"]},
                %m: tensor<?xf32> {onnx.dim_params = ["M"]}) -> tensor<?xf32> {
  %s = "nn.constant"() {value = dense<[-1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %f = "nn.reshape"(%a, %s) : (tensor<?x2xf32>, tensor<1xi64>) -> tensor<?xf32>
  %c = "nn.concat"(%b, %b) {axis = 0 : i64} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %y = "nn.add"(%f, %c) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  %z = "nn.add"(%y, %m) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %z : tensor<?xf32>
}

// Unnamed dims are distinct symbols: nothing to fold, nothing at entry.
// CHECK-LABEL: func.func @unnamed
// CHECK-SAME: rdp.dropped_checks = 0 : i64, rdp.entry_checks = 0 : i64, rdp.folded_compares = 0 : i64
// CHECK: func.call @strata_rt_shape_error(%c0_i64,
func.func @unnamed(%a: tensor<?x4xf32>, %b: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %y = "nn.add"(%a, %b) : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return %y : tensor<?x4xf32>
}
