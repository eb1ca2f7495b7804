// The `flops` tool: per-op FLOPs and bytes from the ops' static facts, and
// the total; it inserts nothing, so the IR is unchanged (byte-identical).
// RUN: strata-opt %s --instrument="tool=flops" -o %t.mlir 2>&1 | FileCheck %s
// RUN: strata-opt %s -o %t.plain.mlir
// RUN: diff %t.plain.mlir %t.mlir
// Selected ops only.
// RUN: strata-opt %s --instrument="tool=flops ops=nn.matmul" -o /dev/null 2>&1 | FileCheck %s --check-prefix=MATMUL

// Conv: 2 * Cout * Hout * Wout * Cin/g * Kh * Kw (batch 1), on three shapes.
// 2*6*6*6*4*3*3 = 15552
// CHECK: instrument flops: op_id 0 nn.conv FLOPs 15552 bytes
// stride 2, pads 3 on 16x16, 7x7 kernel -> 8x8: 2*8*8*8*2*7*7 = 100352
// CHECK-NEXT: instrument flops: op_id 1 nn.conv FLOPs 100352 bytes
// group 4: Cin/g = 8/4 = 2: 2*8*4*4*2*3*3 = 4608
// CHECK-NEXT: instrument flops: op_id 2 nn.conv FLOPs 4608 bytes
// 2*8*8*8 = 1024; bytes: three 8x8 f32 tensors
// CHECK-NEXT: instrument flops: op_id 3 nn.matmul FLOPs 1024 bytes 768
// CHECK-NEXT: instrument flops: total FLOPs 121536 bytes {{[0-9]+}} in 4 ops
// MATMUL: instrument flops: op_id 3 nn.matmul FLOPs 1024 bytes 768
// MATMUL-NEXT: instrument flops: total FLOPs 1024 bytes 768 in 1 ops
func.func @f(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>, %y: tensor<1x2x16x16xf32>,
             %v: tensor<8x2x7x7xf32>, %z: tensor<1x8x6x6xf32>, %g: tensor<8x2x3x3xf32>,
             %a: tensor<8x8xf32>, %b: tensor<8x8xf32>)
    -> (tensor<1x6x6x6xf32>, tensor<1x8x8x8xf32>, tensor<1x8x4x4xf32>, tensor<8x8xf32>) {
  %0 = "nn.conv"(%x, %w) : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  %1 = "nn.conv"(%y, %v) {strides = [2, 2], pads = [3, 3, 3, 3]} : (tensor<1x2x16x16xf32>, tensor<8x2x7x7xf32>) -> tensor<1x8x8x8xf32>
  %2 = "nn.conv"(%z, %g) {group = 4 : i64} : (tensor<1x8x6x6xf32>, tensor<8x2x3x3xf32>) -> tensor<1x8x4x4xf32>
  %3 = "nn.matmul"(%a, %b) : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0, %1, %2, %3 : tensor<1x6x6x6xf32>, tensor<1x8x8x8xf32>, tensor<1x8x4x4xf32>, tensor<8x8xf32>
}
