// strata-translate --target opencl writes the program's OpenCL C: a kernel
// per outlined gpu.func (named <gpu.module>__<gpu.func>; strata-translate prefixes
// the functions with model_), memref accesses
// as offsets from static strides, integers in unsigned types with signed
// operations cast, and a copy kernel per host memref.copy.
// RUN: strata-translate %s --target opencl -o - | FileCheck %s

// CHECK: OpenCL C 1.2 written by Strata's opencl target: 4 kernels, 1 copy kernels.
// CHECK: strata_maximum(T a, T b)
// CHECK-LABEL: __kernel void model_chain_kernel__model_chain_kernel(
// CHECK-SAME: __global float *[[X:v[0-9]+]], __global float *[[Y:v[0-9]+]], float [[ZERO:v[0-9]+]], __global float *[[OUT:v[0-9]+]])
// CHECK-DAG: get_group_id(0)
// CHECK-DAG: get_local_id(0)
// CHECK: float [[A:v[0-9]+]] = [[X]][0UL + v{{[0-9]+}} * 100UL + v{{[0-9]+}} * 1UL];
// CHECK: float [[B:v[0-9]+]] = [[Y]][0UL
// CHECK: float [[S:v[0-9]+]] = [[A]] + [[B]];
// CHECK: float [[T:v[0-9]+]] = tanh([[S]]);
// CHECK: float [[R:v[0-9]+]] = strata_maximum([[T]], [[ZERO]]);
// CHECK: [[OUT]][0UL + {{.*}}] = [[R]];
func.func @chain(%x: tensor<4x100xf32>, %y: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %a = "nn.add"(%x, %y) : (tensor<4x100xf32>, tensor<4x100xf32>) -> tensor<4x100xf32>
  %t = "nn.tanh"(%a) : (tensor<4x100xf32>) -> tensor<4x100xf32>
  %r = "nn.relu"(%t) : (tensor<4x100xf32>) -> tensor<4x100xf32>
  return %r : tensor<4x100xf32>
}

// A matmul is a workgroup-tile kernel (gpu-tile-workgroup): a loop over
// the K tiles loads both operand tiles into __local arrays, a barrier, a
// loop over the tile's k accumulates from them, a barrier. B's rows (4
// wide, 16-byte aligned) are read with vload4.
// CHECK-LABEL: __kernel void model_matmul_kernel__model_matmul_kernel(
// CHECK: __local float [[TA:v[0-9]+]][256];
// CHECK: __local float [[TB:v[0-9]+]][256];
// CHECK: for (ulong [[KT:v[0-9]+]] = v{{[0-9]+}}; (long)[[KT]] < (long)v{{[0-9]+}}; [[KT]] += v{{[0-9]+}}) {
// CHECK: float {{v[0-9]+}} = {{v[0-9]+}}[0UL + {{v[0-9]+}} * 5UL + {{v[0-9]+}} * 1UL];
// CHECK: [[TA]][0UL + {{v[0-9]+}} * 32UL + {{v[0-9]+}} * 1UL] = {{v[0-9]+}};
// CHECK: float4 {{v[0-9]+}} = vload4(0, &{{v[0-9]+}}[0UL + {{v[0-9]+}} * 4UL + {{v[0-9]+}} * 1UL]);
// CHECK: [[TB]][0UL + {{v[0-9]+}} * 32UL + {{v[0-9]+}} * 1UL] = {{v[0-9]+}};
// CHECK: barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
// CHECK: for (ulong [[K:v[0-9]+]] = v{{[0-9]+}}; (long)[[K]] < (long)v{{[0-9]+}}; [[K]] += v{{[0-9]+}}) {
// CHECK: float {{v[0-9]+}} = [[TA]][0UL + [[K]] * 32UL
// CHECK: float {{v[0-9]+}} = [[TB]][0UL + [[K]] * 32UL
// CHECK: barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
func.func @matmul(%a: tensor<3x5xf32>, %b: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// Signed integer ops go through the signed spelling.
// CHECK-LABEL: __kernel void model_div_i32_kernel__model_div_i32_kernel(
// CHECK: uint [[Q:v[0-9]+]] = (uint)((int)v{{[0-9]+}} / (int)v{{[0-9]+}});
func.func @div_i32(%x: tensor<8xi32>, %y: tensor<8xi32>) -> tensor<8xi32> {
  %r = "nn.div"(%x, %y) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8xi32>
  return %r : tensor<8xi32>
}

// OpenCL C takes no bool argument: an i1 the host passes comes as a byte.
// CHECK-LABEL: __kernel void model_not_i1_kernel__model_not_i1_kernel(
// CHECK-SAME: uchar [[B:v[0-9]+]]_byte
// CHECK-NEXT: bool [[B]] = [[B]]_byte != 0;
// CHECK: bool [[L:v[0-9]+]] = {{v[0-9]+}}[0UL + {{v[0-9]+}} * 1UL] != 0;
// CHECK: bool [[X:v[0-9]+]] = (bool)([[L]] ^ [[B]]);
// CHECK: = (uchar)[[X]];
func.func @not_i1(%x: tensor<4xi1>) -> tensor<4xi1> {
  %r = "nn.not"(%x) : (tensor<4xi1>) -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// The copy kernel of the matmul's zero initialization.
// CHECK-LABEL: __kernel void strata_copy_0(__global const float *src, __global float *dst) {
// CHECK: if (i >= 12UL) return;
// CHECK: dst[d] = src[s];
