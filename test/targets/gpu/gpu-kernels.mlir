// The GPU targets' kernel-level IR: nn -> linalg -> parallel loops tiled into
// workgroups of 64 work-items -> gpu.launch_func on the host and one outlined
// gpu.func per linalg op. Element-wise chains fuse into one kernel
// (strata-gpu-kernels), or not (strata-gpu-kernels-unfused); a reduction
// keeps its reduced dims as sequential loops inside its kernel.
// RUN: strata-opt %s --strata-gpu-kernels | FileCheck %s --check-prefix=FUSED
// RUN: strata-opt %s --strata-gpu-kernels-unfused | FileCheck %s --check-prefix=UNFUSED
// RUN: strata-opt %s --strata-gpu-kernels-fused | FileCheck %s --check-prefix=PLANNED

// FUSED-LABEL: func.func @chain(
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED: gpu.module @chain_kernel
// FUSED: gpu.func @chain_kernel({{.*}}) kernel
// FUSED-DAG: gpu.block_id x
// FUSED-DAG: gpu.thread_id x
// FUSED: arith.addf
// FUSED: math.tanh
// FUSED: arith.maximumf
// FUSED-NOT: gpu.func

// UNFUSED-LABEL: func.func @chain(
// UNFUSED-COUNT-3: gpu.launch_func
// UNFUSED-NOT: gpu.launch_func
// UNFUSED: gpu.module @chain_kernel
// UNFUSED: gpu.module @chain_kernel_0
// UNFUSED: gpu.module @chain_kernel_1

// PLANNED-LABEL: func.func @chain(
// PLANNED-COUNT-1: gpu.launch_func
// PLANNED-NOT: gpu.launch_func
// PLANNED: gpu.module @chain_kernel
func.func @chain(%x: tensor<4x100xf32>, %y: tensor<4x100xf32>) -> tensor<4x100xf32> {
  %a = "nn.add"(%x, %y) : (tensor<4x100xf32>, tensor<4x100xf32>) -> tensor<4x100xf32>
  %t = "nn.tanh"(%a) : (tensor<4x100xf32>) -> tensor<4x100xf32>
  %r = "nn.relu"(%t) : (tensor<4x100xf32>) -> tensor<4x100xf32>
  return %r : tensor<4x100xf32>
}

// A matmul: its output initialized by a copy of zeros, accumulated by one
// kernel whose reduction over k is an scf.for inside it.
// FUSED-LABEL: func.func @matmul(
// FUSED: memref.copy
// FUSED-COUNT-1: gpu.launch_func
// FUSED-NOT: gpu.launch_func
// FUSED: gpu.func @matmul_kernel(
// FUSED: scf.for
// FUSED: arith.mulf
// FUSED: arith.addf
func.func @matmul(%a: tensor<3x5xf32>, %b: tensor<5x4xf32>) -> tensor<3x4xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<3x5xf32>, tensor<5x4xf32>) -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}
