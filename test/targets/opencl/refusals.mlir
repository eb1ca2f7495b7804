// What the opencl target cannot express it refuses at the op, writing
// nothing: f16 buffers (no cl_khr_fp16 code yet), i1 kernel arguments, and
// host-side loops (a reduction of every dimension leaves its loop on the host).
// RUN: not strata-run %s --target opencl --no-cache --entry f16 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not strata-run %s --target opencl --no-cache --entry not_i1 2>&1 | FileCheck %s --check-prefix=I1
// RUN: not strata-run %s --target opencl --no-cache --entry sum_all 2>&1 | FileCheck %s --check-prefix=HOST
// RUN: not strata-translate %s --target opencl -o %t.cl 2>&1 | FileCheck %s --check-prefix=F16
// RUN: not test -e %t.cl

// F16: refusals.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'gpu.func' op kernel argument {{[0-9]+}}: memref<4xf16>: the opencl target stores f32, f64, i1 (a byte) and i8-i64 elements
func.func @f16(%x: tensor<4xf32>) -> tensor<4xf16> {
  %r = "nn.cast"(%x) : (tensor<4xf32>) -> tensor<4xf16>
  return %r : tensor<4xf16>
}

// I1: refusals.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'gpu.func' op kernel argument {{[0-9]+}}: the opencl target passes no i1 to a kernel
func.func @not_i1(%x: tensor<4xi1>) -> tensor<4xi1> {
  %r = "nn.not"(%x) : (tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// HOST: refusals.mlir:[[@LINE+2]]:{{[0-9]+}}: error: 'scf.for' op the opencl target's host side cannot run 'scf.for'
func.func @sum_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %r = "nn.reduce_sum"(%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<f32>
  return %r : tensor<f32>
}
