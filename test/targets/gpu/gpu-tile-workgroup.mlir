// gpu-tile-workgroup in the GPU targets' kernel-level IR: a matmul and a
// conv become one kernel of 32x32 output tiles (grid = ceil(N/32) x
// ceil(M/32) x batch, 64 work-items): each K tile of 8 loads both operand
// tiles into workgroup memory, gpu.barrier, accumulates each work-item's
// 4x4 register tile from them, gpu.barrier. A grouped conv (its output
// channel read by both operands: no N dimension to share) keeps the plain
// kernel. Both emitters take the workgroup memory: OpenCL C __local arrays
// and barrier(), SPIR-V Workgroup variables and OpControlBarrier
// (spirv-val clean), two variables all entry points share.
// RUN: strata-opt %s --strata-gpu-kernels | FileCheck %s
// RUN: strata-opt %s --strata-gpu-kernels-unfused | FileCheck %s
// RUN: strata-translate %s --target opencl -o - | FileCheck %s --check-prefix=CL
// RUN: strata-translate %s --target vulkan -o %t.spv
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=SPV
// RUN: strata-translate %s --target vulkan --emit=mlir -o - | FileCheck %s --check-prefix=SPVMLIR
// RUN: strata-translate %s --target vulkan --emit=mlir -o - | FileCheck %s --check-prefix=VEC4

// CHECK-LABEL: func.func @matmul(
// CHECK: memref.copy
// CHECK: gpu.launch_func @matmul_kernel::@matmul_kernel blocks in (%[[TWO:.*]], %[[TWO]], %[[ONE:.*]]) threads in (%[[T64:.*]], %[[ONE]], %[[ONE]])
// CHECK-NOT: gpu.launch_func
// CHECK: gpu.func @matmul_kernel(
// CHECK-DAG: gpu.block_id x
// CHECK-DAG: gpu.block_id y
// CHECK-DAG: gpu.thread_id x
// CHECK: %[[A:.*]] = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
// CHECK: %[[B:.*]] = memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for {{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: memref.load {{.*}} : memref<37x19xf32>
// CHECK: memref.store {{.*}}, %[[A]][
// CHECK: memref.load {{.*}} : memref<19x45xf32>
// CHECK: memref.store {{.*}}, %[[B]][
// CHECK: gpu.barrier
// CHECK: arith.minui
// CHECK: scf.for
// CHECK: memref.load %[[A]]
// CHECK: memref.load %[[B]]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: gpu.barrier
// CHECK: memref.store {{.*}} : memref<37x45xf32>
// CHECK-NOT: gpu.func
func.func @matmul(%a: tensor<37x19xf32>, %b: tensor<19x45xf32>) -> tensor<37x45xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<37x19xf32>, tensor<19x45xf32>) -> tensor<37x45xf32>
  return %r : tensor<37x45xf32>
}

// The conv's input tile is read through its map: strides (and dilations)
// multiply the output position, the kernel offset is added.
// CHECK-LABEL: func.func @conv(
// CHECK: gpu.func @conv_kernel(
// CHECK: memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
// CHECK: memref.alloc() : memref<8x32xf32, #gpu.address_space<workgroup>>
// CHECK: scf.for
// CHECK: arith.muli {{.*}}, %c2
// CHECK: memref.load {{.*}} : memref<1x5x13x11xf32>
// CHECK: gpu.barrier
// CHECK: gpu.barrier
func.func @conv(%x: tensor<1x5x13x11xf32>, %w: tensor<7x5x3x3xf32>) -> tensor<1x7x6x5xf32> {
  %y = "nn.conv"(%x, %w) {strides = array<i64: 2, 2>} : (tensor<1x5x13x11xf32>, tensor<7x5x3x3xf32>) -> tensor<1x7x6x5xf32>
  return %y : tensor<1x7x6x5xf32>
}

// K and N multiples of 4, rows 16-byte aligned: both operand tiles are
// read as vector<4xf32> (above, K = 19 and N = 45 are read element by
// element); OpenCL C reads them with vload4, SPIR-V element by element.
// CHECK-LABEL: func.func @matmul_vec(
// CHECK: gpu.func @matmul_vec_kernel(
// CHECK: vector.load {{.*}} : memref<45x20xf32>, vector<4xf32>
// CHECK-COUNT-4: vector.extract
// CHECK: vector.load {{.*}} : memref<20x36xf32>, vector<4xf32>
// CHECK: gpu.barrier
func.func @matmul_vec(%a: tensor<45x20xf32>, %b: tensor<20x36xf32>) -> tensor<45x36xf32> {
  %r = "nn.matmul"(%a, %b) : (tensor<45x20xf32>, tensor<20x36xf32>) -> tensor<45x36xf32>
  return %r : tensor<45x36xf32>
}

// CHECK-LABEL: func.func @grouped(
// CHECK: gpu.func @grouped_kernel(
// CHECK-NOT: workgroup
// CHECK-NOT: gpu.barrier
// CHECK: gpu.return
func.func @grouped(%x: tensor<1x6x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32> {
  %y = "nn.conv"(%x, %w) {group = 2 : i64} : (tensor<1x6x9x9xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32>
  return %y : tensor<1x4x7x7xf32>
}

// CL: __kernel void {{.*}}matmul_kernel(
// CL: __local float v{{[0-9]+}}[256];
// CL: __local float v{{[0-9]+}}[256];
// CL: barrier(CLK_LOCAL_MEM_FENCE
// CL: barrier(CLK_LOCAL_MEM_FENCE
// CL-NOT: vload4
// CL: __kernel void {{.*}}conv_kernel(
// CL: __local float
// CL: barrier(
// CL: __kernel void {{.*}}matmul_vec_kernel(
// CL: float4 [[V:v[0-9]+]] = vload4(0, &v{{[0-9]+}}[0UL + v{{[0-9]+}} * 20UL + v{{[0-9]+}} * 1UL]);
// CL: float v{{[0-9]+}} = [[V]].s3;

// SPV-DAG: OpEntryPoint GLCompute %{{.*}} "{{.*}}matmul_kernel"
// SPV-DAG: OpEntryPoint GLCompute %{{.*}} "{{.*}}conv_kernel"
// SPV-DAG: %{{.*}} = OpVariable %{{.*}} Workgroup
// SPV-DAG: OpControlBarrier

// SPVMLIR-COUNT-2: spirv.GlobalVariable @{{.*}} : !spirv.ptr<!spirv.struct<(!spirv.array<256 x f32>)>, Workgroup>
// SPVMLIR-NOT: Workgroup>
// SPVMLIR: spirv.func

// The vulkan target reads the aligned vector loads through a second,
// vec4-typed binding of the same buffer after the kernel's own (A 45x20
// and B 20x36 of matmul_vec); the other kernels have none.
// VEC4-NOT: vector<4xf32>, stride=16
// VEC4: spirv.GlobalVariable @model_matmul_vec_kernel_arg_3 bind(0, 3) : !spirv.ptr<!spirv.struct<(!spirv.array<225 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
// VEC4-NEXT: spirv.GlobalVariable @model_matmul_vec_kernel_arg_4 bind(0, 4) : !spirv.ptr<!spirv.struct<(!spirv.array<180 x vector<4xf32>, stride=16> [0])>, StorageBuffer>
// VEC4: spirv.AccessChain %model_matmul_vec_kernel_arg_3_addr{{.*}} -> !spirv.ptr<vector<4xf32>, StorageBuffer>
// VEC4: spirv.AccessChain %model_matmul_vec_kernel_arg_4_addr{{.*}} -> !spirv.ptr<vector<4xf32>, StorageBuffer>
// VEC4-NOT: vector<4xf32>, stride=16
