// sparse-to-vector stores a conv's tiles through the nn.relu, or the nn.clip
// with constant bounds, that is its result's sole user, and the activation
// goes; a result with other users keeps it. epilogues=false (the unfused
// CPU pipeline) keeps every activation.
// RUN: strata-opt %s --sparse-to-vector=vector-width=8 | FileCheck %s
// RUN: strata-opt %s "--sparse-to-vector=vector-width=8 epilogues=false" | FileCheck %s --check-prefix=KEEP
// RUN: %python %root/test/e2e/compare_all.py %s --rtol 1e-5 --atol 1e-5 | FileCheck %s --check-prefix=NUM
// RUN: %python %root/test/e2e/compare_all.py %s --rtol 1e-5 --atol 1e-5 --fusion none | FileCheck %s --check-prefix=NUM
// RUN: %python %root/test/e2e/compare_all.py %s --rtol 1e-5 --atol 1e-5 --upstream-lowering | FileCheck %s --check-prefix=NUM
// NUM: 3 functions, 0 failed

// CHECK-LABEL: func.func @relu
// CHECK-NOT: nn.relu
// CHECK: return
// CHECK-LABEL: func.func @clip
// CHECK-NOT: nn.clip
// CHECK: return
// CHECK-LABEL: func.func @shared
// CHECK: "nn.relu"
// CHECK: return
// The chunk functions: @relu's stores through max(., 0); @clip's through
// min(max(., 0), 6); @shared's through nothing.
// CHECK-LABEL: func.func private @__strata_sparse_fkw0(
// CHECK: arith.maximumf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK: vector.store
// CHECK-LABEL: func.func private @__strata_sparse_fkw1(
// CHECK: %[[MAX:.*]] = arith.maximumf
// CHECK: arith.minimumf %[[MAX]]
// CHECK-LABEL: func.func private @__strata_sparse_fkw2(
// CHECK-NOT: arith.maximumf
// CHECK-NOT: arith.minimumf
// CHECK: return

// KEEP-LABEL: func.func @relu
// KEEP: "nn.relu"
// KEEP-LABEL: func.func @clip
// KEEP: "nn.clip"
// KEEP-NOT: arith.maximumf

func.func @relu(%x: tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 0, 1, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0]> : tensor<9xf32>} : (tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32>
  %r = "nn.relu"(%y) : (tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32>
  return %r : tensor<1x2x6x9xf32>
}
func.func @clip(%x: tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32> {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 0, 1, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0]> : tensor<9xf32>} : (tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32>
  %r = "nn.clip"(%y) {min = 0.0 : f32, max = 6.0 : f32} : (tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32>
  return %r : tensor<1x2x6x9xf32>
}
func.func @shared(%x: tensor<1x2x6x9xf32>) -> (tensor<1x2x6x9xf32>, tensor<1x2x6x9xf32>) {
  %y = "sparse.fkw_conv"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 1, 1>, group = 1 : i64,
      offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>, index = array<i64: 0, 1, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,
      weight = dense<[1.0, -2.0, 3.0, -4.0, 5.0, -6.0, 7.0, -8.0, 9.0]> : tensor<9xf32>} : (tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32>
  %r = "nn.relu"(%y) : (tensor<1x2x6x9xf32>) -> tensor<1x2x6x9xf32>
  return %r, %y : tensor<1x2x6x9xf32>, tensor<1x2x6x9xf32>
}
