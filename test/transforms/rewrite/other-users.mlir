// A rule does not fire when an intermediate it would delete has users
// outside the match: the intermediate would have to stay, and the rewrite
// would no longer be the table's.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1" | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// Row 1 with Recip(A) also returned.
// CHECK-LABEL: func.func @row1_recip_used
// CHECK-NEXT: %[[RA:.*]] = "nn.reciprocal"(%arg0)
// CHECK-NEXT: %[[AB:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[RAB:.*]] = "nn.reciprocal"(%[[AB]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[RA]], %[[RAB]])
// CHECK-NEXT: return %[[R]], %[[RA]]
// REPORT: @row1_recip_used FLOPs 128 -> 128 (rules applied: 0)
func.func @row1_recip_used(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ra = "nn.reciprocal"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %rab = "nn.reciprocal"(%ab) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%ra, %rab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %ra : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Row 3 with Abs(C) also returned.
// CHECK-LABEL: func.func @row3_abs_used
// CHECK-NEXT: "nn.abs"(%arg0)
// CHECK-NEXT: "nn.mul"
// CHECK-NEXT: "nn.abs"(%arg2)
// CHECK-NEXT: "nn.mul"
// CHECK-NEXT: return
// REPORT: @row3_abs_used FLOPs 128 -> 128 (rules applied: 0)
func.func @row3_abs_used(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %aa = "nn.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%aa, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %ac) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %ac : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Row 3 with the inner product Abs(A)⊙B also returned: the chain stops at
// it, and the two Abs are no longer factors of one chain.
// CHECK-LABEL: func.func @row3_inner_used
// CHECK-NEXT: %[[AA:.*]] = "nn.abs"(%arg0)
// CHECK-NEXT: %[[T:.*]] = "nn.mul"(%[[AA]], %arg1)
// CHECK-NEXT: %[[AC:.*]] = "nn.abs"(%arg2)
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[T]], %[[AC]])
// CHECK-NEXT: return %[[R]], %[[T]]
func.func @row3_inner_used(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %aa = "nn.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%aa, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %ac) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %t : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Row 5 with A⊙C also used.
// CHECK-LABEL: func.func @row5_product_used
// CHECK-NEXT: %[[AC:.*]] = "nn.mul"(%arg0, %arg2)
// CHECK-NEXT: %[[AB:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.add"(%[[AC]], %[[AB]])
// CHECK-NEXT: %[[S:.*]] = "nn.relu"(%[[AC]])
// CHECK-NEXT: return %[[R]], %[[S]]
func.func @row5_product_used(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ac = "nn.mul"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ac, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = "nn.relu"(%ac) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %s : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Row 6 with A⊙B also used.
// CHECK-LABEL: func.func @row6_product_used
// CHECK-NEXT: %[[AB:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.add"(%arg0, %[[AB]])
// CHECK-NEXT: return %[[R]], %[[AB]]
func.func @row6_product_used(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%a, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %ab : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Row 2 (fast-math on) with one √B also used elsewhere.
// CHECK-LABEL: func.func @row2_sqrt_used
// CHECK-COUNT-2: "nn.sqrt"
// REPORT: @row2_sqrt_used FLOPs 160 -> 160 (rules applied: 0)
func.func @row2_sqrt_used(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %s1 = "nn.sqrt"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %l = "nn.mul"(%a, %s1) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %s2 = "nn.sqrt"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%s2, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %o = "nn.mul"(%l, %r) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %o, %s2 : tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// Row 9 (fast-math on) with the shifted tensor also returned.
// CHECK-LABEL: func.func @row9_shift_used
// CHECK: %[[B:.*]] = "nn.bit_shift"(%arg0
// CHECK-NEXT: %[[R:.*]] = "nn.reduce_sum"(%[[B]])
// CHECK-NEXT: return %[[R]], %[[B]]
func.func @row9_shift_used(%a: tensor<4x8xui8>) -> (tensor<4x1xui8>, tensor<4x8xui8>) {
  %s = "nn.constant"() {value = dense<2> : tensor<ui8>} : () -> tensor<ui8>
  %b = "nn.bit_shift"(%a, %s) {direction = "LEFT"} : (tensor<4x8xui8>, tensor<ui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  return %r, %b : tensor<4x1xui8>, tensor<4x8xui8>
}

// -----

// Three Abs factors, the first also returned: that pair cannot merge, the
// other two can.
// CHECK-LABEL: func.func @abs_next_pair
// CHECK-NEXT: %[[AA:.*]] = "nn.abs"(%arg0)
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%arg1, %arg2)
// CHECK-NEXT: %[[AP:.*]] = "nn.abs"(%[[P]])
// CHECK-NEXT: %[[R:.*]] = "nn.mul"(%[[AA]], %[[AP]])
// CHECK-NEXT: return %[[R]], %[[AA]]
// REPORT: @abs_next_pair FLOPs 160 -> 128 (rules applied: 1)
func.func @abs_next_pair(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %aa = "nn.abs"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab = "nn.abs"(%b) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ac = "nn.abs"(%c) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %t = "nn.mul"(%aa, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %ac) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r, %aa : tensor<4x8xf32>, tensor<4x8xf32>
}
