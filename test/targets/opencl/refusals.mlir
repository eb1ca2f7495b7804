// What the opencl target cannot express it refuses at the op, writing
// nothing: bf16 buffers (f16 runs, test/e2e/opencl/f16.test) and dynamic shapes (the
// kernels and their host plan take static buffers; the CPU target compiles
// dynamic shapes).
// RUN: not strata-run %s --target opencl --no-cache --entry bf16 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not strata-translate %S/Inputs/dynamic.mlir --target opencl -o %t.dyn.cl 2>&1 | FileCheck %s --check-prefix=DYN
// RUN: not test -e %t.dyn.cl
// DYN: dynamic.mlir:2:8: error: 'gpu.func' op kernel argument {{[0-9]+}}: memref<?x4xf32> has a dynamic size (the opencl target compiles static shapes)
// RUN: not strata-translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s --check-prefix=BF16
// RUN: not test -e %t.cl

// BF16: refusals.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'gpu.func' op kernel argument {{[0-9]+}}: memref<4xbf16>: the opencl target stores f16, f32, f64, i1 (a byte) and i8-i64 elements
func.func @bf16(%x: tensor<4xf32>) -> tensor<4xbf16> {
  %r = "nn.cast"(%x) : (tensor<4xf32>) -> tensor<4xbf16>
  return %r : tensor<4xbf16>
}
