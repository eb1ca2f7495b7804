// Matching procedure step 1: the graph is partitioned at ops with none of
// the associative, commutative or distributive properties (nn.conv here);
// no rule matches across one.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1" | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// (x⊙k1) → conv → ⊙k2: the constants are on either side of the conv.
// CHECK-LABEL: func.func @consts_across_conv
// CHECK: %[[A:.*]] = "nn.mul"(%arg0, %[[K1:.*]]) :
// CHECK-NEXT: %[[C:.*]] = "nn.conv"(%[[A]], %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[C]], %[[K2:.*]]) :
// CHECK-NEXT: return %[[R]]
// REPORT: @consts_across_conv FLOPs 2560 -> 2560 (rules applied: 0)
func.func @consts_across_conv(%x: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %k1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %k2 = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.mul"(%x, %k1) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %c = "nn.conv"(%a, %w) : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %b = "nn.mul"(%c, %k2) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  return %b : tensor<1x4x8x8xf32>
}

// -----

// The same chain without the conv: the constants meet.
// CHECK-LABEL: func.func @consts_no_conv
// CHECK: %[[K:.*]] = "nn.mul"(%{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[K]])
// CHECK-NEXT: return %[[R]]
// REPORT: @consts_no_conv FLOPs 512 -> 257 (rules applied: 1)
func.func @consts_no_conv(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32> {
  %k1 = "nn.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %k2 = "nn.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %a = "nn.mul"(%x, %k1) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  %b = "nn.mul"(%a, %k2) : (tensor<1x4x8x8xf32>, tensor<f32>) -> tensor<1x4x8x8xf32>
  return %b : tensor<1x4x8x8xf32>
}

// -----

// Row 1 across a conv: Recip(A)⊙Recip(Conv(A⊙B)). The reciprocals still
// meet (recip(x)⊙recip(y) → recip(x⊙y) with y = the conv's result), but the
// A⊙B inside the conv is not visible: no Square(A)⊙B.
// CHECK-LABEL: func.func @recip_across_conv
// CHECK: %[[AB:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[C:.*]] = "nn.conv"(%[[AB]], %arg2)
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%arg0, %[[C]])
// CHECK-NEXT: %[[R:.*]] = "nn.reciprocal"(%[[P]])
// CHECK-NEXT: return %[[R]]
func.func @recip_across_conv(%a: tensor<1x4x8x8xf32>, %b: tensor<1x4x8x8xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32> {
  %ra = "nn.reciprocal"(%a) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %c = "nn.conv"(%ab, %w) : (tensor<1x4x8x8xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x8x8xf32>
  %rc = "nn.reciprocal"(%c) : (tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  %r = "nn.mul"(%ra, %rc) : (tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
  return %r : tensor<1x4x8x8xf32>
}

// -----

// Row 10 with a matmul between the Exp and the ReduceProd.
// CHECK-LABEL: func.func @exp_across_matmul
// CHECK-NEXT: "nn.exp"(%arg0)
// CHECK-NEXT: "nn.matmul"
// CHECK-NEXT: "nn.reduce_prod"
// REPORT: @exp_across_matmul FLOPs {{[0-9]+}} -> {{[0-9]+}} (rules applied: 0)
func.func @exp_across_matmul(%a: tensor<4x8xf32>, %w: tensor<8x8xf32>) -> tensor<4x1xf32> {
  %e = "nn.exp"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %m = "nn.matmul"(%e, %w) : (tensor<4x8xf32>, tensor<8x8xf32>) -> tensor<4x8xf32>
  %r = "nn.reduce_prod"(%m) {axes = array<i64: 1>} : (tensor<4x8xf32>) -> tensor<4x1xf32>
  return %r : tensor<4x1xf32>
}
