// f16 in the OpenCL C the opencl target writes, without cl_khr_fp16: buffers
// of `half` read with vload_half and written with vstore_half_rte, values
// held in floats, each f16 op computed in f32 and rounded to f16 by
// strata_round_half (round to nearest even), an f16 scalar argument passed
// as its 16 bits. No extension pragma is needed.
// RUN: strata-translate %s --target opencl -o - | FileCheck %s

// CHECK-NOT: #pragma OPENCL EXTENSION cl_khr_fp16
// CHECK: static inline float strata_round_half(float x)
// CHECK-LABEL: __kernel void model_relu_add_kernel__model_relu_add_kernel(
// CHECK-SAME: __global half *[[X:v[0-9]+]], __global half *[[Y:v[0-9]+]], ushort [[ZERO:v[0-9]+]]_bits, __global half *[[OUT:v[0-9]+]])
// CHECK: float [[ZERO]] = strata_half_value([[ZERO]]_bits);
// CHECK: float [[A:v[0-9]+]] = vload_half(0UL + {{.*}}, [[X]]);
// CHECK: float [[A32:v[0-9]+]] = (float)[[A]];
// CHECK: float [[B:v[0-9]+]] = vload_half(0UL + {{.*}}, [[Y]]);
// CHECK: float [[B32:v[0-9]+]] = (float)[[B]];
// CHECK: float [[S:v[0-9]+]] = [[A32]] + [[B32]];
// CHECK: float [[SH:v[0-9]+]] = strata_round_half([[S]]);
// CHECK: float [[S32:v[0-9]+]] = (float)[[SH]];
// CHECK: float [[M:v[0-9]+]] = strata_maximum([[S32]], v{{[0-9]+}});
// CHECK: float [[R:v[0-9]+]] = strata_round_half([[M]]);
// CHECK: vstore_half_rte([[R]], 0UL + {{.*}}, [[OUT]]);
func.func @relu_add(%x: tensor<4x100xf16>, %y: tensor<4x100xf16>) -> tensor<4x100xf16> {
  %s = "nn.add"(%x, %y) : (tensor<4x100xf16>, tensor<4x100xf16>) -> tensor<4x100xf16>
  %r = "nn.relu"(%s) : (tensor<4x100xf16>) -> tensor<4x100xf16>
  return %r : tensor<4x100xf16>
}
