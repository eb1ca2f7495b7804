// Table 3.4 row 1 (associative), as corrected in the digest:
// Recip(A)⊙Recip(A⊙B) → Recip(Square(A)⊙B), 4mn → 3mn FLOPs (m×n = 4×8:
// 128 → 96). The thesis prints Square(Recip(A))⊙B, which is B/A², not
// 1/(A²B). Family: recip(x)⊙recip(y) → recip(x⊙y).
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite | FileCheck %s
// RUN: strata-opt %s --split-input-file --nn-algebraic-rewrite=report=1 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT

// CHECK-LABEL: func.func @row1
// CHECK-NEXT: %[[SQ:.*]] = "nn.mul"(%arg0, %arg0)
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%[[SQ]], %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.reciprocal"(%[[P]])
// CHECK-NEXT: return %[[R]]
// REPORT: nn-algebraic-rewrite: @row1: assoc-recip saves 32 FLOPs
// REPORT-NEXT: nn-algebraic-rewrite: @row1 FLOPs 128 -> 96 (rules applied: 1)
func.func @row1(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ra = "nn.reciprocal"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %rab = "nn.reciprocal"(%ab) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%ra, %rab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Either operand order, in both products (commutativity as the enabler).
// CHECK-LABEL: func.func @row1_swapped
// CHECK-NEXT: %[[SQ:.*]] = "nn.mul"(%arg0, %arg0)
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%[[SQ]], %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.reciprocal"(%[[P]])
// CHECK-NEXT: return %[[R]]
// REPORT: @row1_swapped FLOPs 128 -> 96 (rules applied: 1)
func.func @row1_swapped(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ba = "nn.mul"(%b, %a) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %rab = "nn.reciprocal"(%ba) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ra = "nn.reciprocal"(%a) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%rab, %ra) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Family: recip(x)⊙recip(y) → recip(x⊙y), 3mn → 2mn.
// CHECK-LABEL: func.func @recip_family
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%arg0, %arg1)
// CHECK-NEXT: %[[R:.*]] = "nn.reciprocal"(%[[P]])
// CHECK-NEXT: return %[[R]]
// REPORT: @recip_family FLOPs 96 -> 64 (rules applied: 1)
func.func @recip_family(%x: tensor<4x8xf32>, %y: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %rx = "nn.reciprocal"(%x) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %ry = "nn.reciprocal"(%y) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%rx, %ry) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// In a longer chain, with broadcast operands: the two reciprocals meet at
// their own size (8 elements), the full-size factor keeps its place.
// 16 + 64 → 8 + 8 + 32.
// CHECK-LABEL: func.func @recip_chain
// CHECK-NEXT: %[[P:.*]] = "nn.mul"(%arg1, %arg2) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[R:.*]] = "nn.reciprocal"(%[[P]]) : (tensor<8xf32>) -> tensor<8xf32>
// CHECK-NEXT: %[[M:.*]] = "nn.mul"(%[[R]], %arg0) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
// CHECK-NEXT: return %[[M]]
// REPORT: @recip_chain FLOPs 80 -> 48 (rules applied: 1)
func.func @recip_chain(%x: tensor<4x8xf32>, %v: tensor<8xf32>, %w: tensor<8xf32>) -> tensor<4x8xf32> {
  %rv = "nn.reciprocal"(%v) : (tensor<8xf32>) -> tensor<8xf32>
  %rw = "nn.reciprocal"(%w) : (tensor<8xf32>) -> tensor<8xf32>
  %t = "nn.mul"(%rv, %x) : (tensor<8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.mul"(%t, %rw) : (tensor<4x8xf32>, tensor<8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}
