// Table 3.4 row 6 (distributive): A + A⊙B → A⊙(B+1), 2mn → 2mn FLOPs (the
// 1 is a rank-0 constant): it pays because A is loaded once instead of
// twice (§), so it fires on the byte saving. Sub forms: A − A⊙B → A⊙(1−B),
// A⊙B − A → A⊙(B−1).
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row6
// CHECK-NEXT: %[[ONE:.*]] = "nn.constant"() {value = dense<1.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg1, %[[ONE]]) : (tensor<4x8xf32>, tensor<f32>) -> tensor<4x8xf32>
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
// 768 bytes (3 full tensors read or written per op) → 4 + 260 + 384.
// REPORT: nn-algebraic-rewrite: @row6: distr-one saves 0 FLOPs, 120 bytes
// REPORT-NEXT: nn-algebraic-rewrite: @row6 FLOPs 64 -> 64 (rules applied: 1)
func.func @row6(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%a, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// B⊙A + A: either order.
// CHECK-LABEL: func.func @row6_swapped
// CHECK-NEXT: %[[ONE:.*]] = "nn.constant"
// CHECK-NEXT: %[[S:.*]] = "nn.add"(%arg1, %[[ONE]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @row6_swapped(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ba = "nn.mul"(%b, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ba, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @row6_sub
// CHECK-NEXT: %[[ONE:.*]] = "nn.constant"
// CHECK-NEXT: %[[S:.*]] = "nn.sub"(%[[ONE]], %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @row6_sub(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.sub"(%a, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @row6_sub_right
// CHECK-NEXT: %[[ONE:.*]] = "nn.constant"
// CHECK-NEXT: %[[S:.*]] = "nn.sub"(%arg1, %[[ONE]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%arg0, %[[S]])
// CHECK-NEXT: return %[[R]]
func.func @row6_sub_right(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.sub"(%ab, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// An integer 1 for integer tensors.
// CHECK-LABEL: func.func @row6_int
// CHECK-NEXT: "nn.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
func.func @row6_int(%a: tensor<4x8xi32>, %b: tensor<4x8xi32>) -> tensor<4x8xi32> {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  %r = "nn.add"(%a, %ab) : (tensor<4x8xi32>, tensor<4x8xi32>) -> tensor<4x8xi32>
  return %r : tensor<4x8xi32>
}
