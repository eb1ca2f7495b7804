// --nn-flops: each function's FLOPs and bytes, summed from the ops' static
// facts (the numbers --nn-annotate writes per op), in function order.
// RUN: strata-opt %s --nn-flops -o /dev/null 2>&1 | FileCheck %s
// Before and after a rewrite (Table 3.4 row 5: 3mn → 2mn).
// RUN: strata-opt %s --nn-algebraic-rewrite --nn-flops -o /dev/null 2>&1 | FileCheck %s --check-prefix=AFTER

// 2 muls + 1 add of 4x8 = 96 FLOPs; each reads two and writes one 128-byte
// tensor.
// CHECK: nn-flops: @row5 FLOPs 96 bytes 1152
// AFTER: nn-flops: @row5 FLOPs 64 bytes 768
func.func @row5(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>, %c: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %ac = "nn.mul"(%a, %c) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %ab = "nn.mul"(%a, %b) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = "nn.add"(%ac, %ab) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// Conv: 2*Cout*Hout*Wout*Cin*Kh*Kw = 2*6*6*6*4*3*3 = 15552 (as nn-annotate).
// CHECK-NEXT: nn-flops: @conv FLOPs 15552 bytes 2752
func.func @conv(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  %y = "nn.conv"(%x, %w) : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %y : tensor<1x6x6x6xf32>
}

// Ops with dynamic shapes are not counted, and say so.
// CHECK-NEXT: nn-flops: @dynamic FLOPs 8 bytes 96 (1 op with dynamic shapes not counted)
func.func @dynamic(%x: tensor<?x8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %a = "nn.relu"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf32>
  %b = "nn.add"(%y, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %b : tensor<8xf32>
}

// CHECK-NEXT: nn-flops: @empty FLOPs 0 bytes 0
func.func @empty() {
  return
}
