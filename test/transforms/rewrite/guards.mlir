// Correctness guards: a rewrite is an optimization, so anything it cannot
// price or prove is left alone, silently.
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1" | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite="fast-math=1 report=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// Dynamic shapes have no static FLOPs: row 5 is not applied.
// CHECK-LABEL: func.func @dynamic
// CHECK-NEXT: "nn.mul"(%arg0, %arg2)
// CHECK-NEXT: "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: "nn.add"
// REPORT: @dynamic FLOPs 0 -> 0 (rules applied: 0)
func.func @dynamic(%a: tensor<?x8xf32>, %b: tensor<?x8xf32>, %c: tensor<?x8xf32>) -> tensor<?x8xf32> {
  %ac = "nn.mul"(%a, %c) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = "nn.add"(%ac, %ab) : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
  return %r : tensor<?x8xf32>
}

// -----

// One dynamic operand in an otherwise static chain: not matched either.
// CHECK-LABEL: func.func @dynamic_leaf
// CHECK-COUNT-2: "nn.reciprocal"
func.func @dynamic_leaf(%a: tensor<4x8xf32>, %b: tensor<?x8xf32>) -> tensor<4x8xf32> {
  %ra = "nn.reciprocal"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %rb = "nn.reciprocal"(%b) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = "nn.mul"(%ra, %rb) : (tensor<4x8xf32>, tensor<?x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// The rewritten expression must have exactly the root's type. Here
// ReduceSum(x⊙c) → ReduceSum(x)⊙c would broadcast the 4 sums against c's
// 1x1 to 1x4, not 4: no rewrite.
// CHECK-LABEL: func.func @type_would_change
// CHECK: "nn.mul"(%arg0
// CHECK-NEXT: "nn.reduce_sum"
// REPORT: @type_would_change FLOPs 64 -> 64 (rules applied: 0)
func.func @type_would_change(%x: tensor<4x8xf32>) -> tensor<4xf32> {
  %c = "nn.constant"() {value = dense<3.0> : tensor<1x1xf32>} : () -> tensor<1x1xf32>
  %m = "nn.mul"(%x, %c) : (tensor<4x8xf32>, tensor<1x1xf32>) -> tensor<4x8xf32>
  %r = "nn.reduce_sum"(%m) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<4x8xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// -----

// Row 9 where the shift broadcasts A (4x1 shifted by a 1x8 row of amounts):
// the sum runs over the broadcast copies, so summing A first would be
// wrong. No rewrite.
// CHECK-LABEL: func.func @shift_broadcasts_a
// CHECK-NEXT: "nn.bit_shift"(%arg0, %arg1)
// CHECK-NEXT: "nn.reduce_sum"
func.func @shift_broadcasts_a(%a: tensor<4x1xui8>, %s: tensor<1x8xui8>) -> tensor<4x1xui8> {
  %b = "nn.bit_shift"(%a, %s) {direction = "LEFT"} : (tensor<4x1xui8>, tensor<1x8xui8>) -> tensor<4x8xui8>
  %r = "nn.reduce_sum"(%b) {axes = array<i64: 1>} : (tensor<4x8xui8>) -> tensor<4x1xui8>
  return %r : tensor<4x1xui8>
}

// -----

// Ops inside other regions are matched within their own block; a function
// without nn ops is fine.
// CHECK-LABEL: func.func @nested
// CHECK: scf.execute_region
// CHECK: %[[S:.*]] = "nn.add"(%arg2, %arg1)
// CHECK-NEXT: "nn.mul"(%arg0, %[[S]])
// REPORT: @nested FLOPs 96 -> 64 (rules applied: 1)
func.func @nested(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %r = scf.execute_region -> tensor<4x8xf32> {
    %ac = "nn.mul"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %s = "nn.add"(%ac, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    scf.yield %s : tensor<4x8xf32>
  }
  return %r : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @no_nn
// REPORT: @no_nn FLOPs 0 -> 0 (rules applied: 0)
func.func @no_nn(%x: i32) -> i32 {
  return %x : i32
}
