// The `fakequant` tool: QDQ pairs (symmetric per-tensor i8, scale max|v|/127
// computed from the value) on the activation and weight inputs of conv,
// matmul and gemm. For constant weights nn-fold evaluates the pair at
// compile time; activations keep a dynamic scale.
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=fakequant ops=nn.conv" | FileCheck %s
// RUN: strata-opt %S/Inputs/resnet-block.mlir --instrument="tool=fakequant" --nn-fold | FileCheck %s --check-prefix=FOLDED
// Numerics: JIT and interpreter agree on the quantized model, which stays
// within quantization error of the float one but is not equal to it.
// RUN: strata-run %S/Inputs/resnet-block.mlir --instrument "tool=fakequant" --compare --quiet --output %t.q.npy | FileCheck %s --check-prefix=CMP
// RUN: strata-run %S/Inputs/resnet-block.mlir --quiet --output %t.f.npy
// RUN: %python -c "import numpy as n, sys; q, f = n.load('%t.q.npy'), n.load('%t.f.npy'); e = abs(q - f).max(); print('error', e); sys.exit(not (0 < e < 0.05 * abs(f).max()))" | FileCheck %s --check-prefix=ERR

// CHECK-LABEL: func.func @g
// CHECK: %[[ABS:.*]] = "nn.abs"(%arg0)
// CHECK-NEXT: %[[MAX:.*]] = "nn.reduce_max"(%[[ABS]]) {keepdims = 0 : i64}
// CHECK-NEXT: %[[C127:.*]] = "nn.constant"() {value = dense<1.270000e+02> : tensor<f32>}
// CHECK-NEXT: %[[S:.*]] = "nn.div"(%[[MAX]], %[[C127]])
// CHECK-NEXT: %[[ZP:.*]] = "nn.constant"() {value = dense<0> : tensor<i8>}
// CHECK-NEXT: %[[Q:.*]] = "nn.quantize_linear"(%arg0, %[[S]], %[[ZP]]) : (tensor<1x2x4x4xf32>, tensor<f32>, tensor<i8>) -> tensor<1x2x4x4xi8>
// CHECK-NEXT: %[[X:.*]] = "nn.dequantize_linear"(%[[Q]], %[[S]], %[[ZP]])
// CHECK: "nn.quantize_linear"
// CHECK-NEXT: %[[W:.*]] = "nn.dequantize_linear"
// CHECK-NEXT: "nn.conv"(%[[X]], %[[W]]) {instr.op_id = 0 : i64}

// Three activations keep their QDQ pair; the three weight pairs are folded.
// FOLDED-COUNT-3: "nn.quantize_linear"
// FOLDED-NOT: "nn.quantize_linear"
// CMP: compare output #0: {{.*}}: OK
// ERR: error {{[0-9.e-]+}}
