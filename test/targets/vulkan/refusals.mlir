// What the vulkan target cannot run exactly it refuses at the op, for
// strata-translate as for strata-run (no device needed here): bf16 buffers
// (f16 runs, test/e2e/vulkan/f16.test),
// erf in f64 (SPIR-V has none; the expansion is accurate to f32).
// RUN: split-file %s %t
// RUN: not strata-translate %t/bf16.mlir --target vulkan -o %t/bf16.spv 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not strata-translate %t/erf.mlir --target vulkan -o %t/erf.spv 2>&1 | FileCheck %s --check-prefix=ERF
// BF16: bf16.mlir:2:8: error: 'memref.alloc' op an allocation: memref<4xbf16>: the vulkan target stores f16, f32, f64, i1 (a byte) and i8-i64 elements
// ERF: erf.mlir:2:8: error: 'math.erf' op the vulkan target computes erf in f32 only

//--- bf16.mlir
func.func @bf16(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %r = "nn.cast"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}
//--- erf.mlir
func.func @erf(%x: tensor<4xf64>) -> tensor<4xf64> {
  %r = "nn.erf"(%x) : (tensor<4xf64>) -> tensor<4xf64>
  return %r : tensor<4xf64>
}
