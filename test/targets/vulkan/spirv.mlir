// strata-translate --target vulkan writes one SPIR-V module (spirv-val
// clean for Vulkan 1.2) whose entry points are the outlined kernels, named
// after their gpu.module: storage buffers at set 0, bindings in argument
// order; scalar operands (constants on the host) folded into the shader;
// the launch's workgroup size; infinities and NaNs kept. --emit mlir writes
// the same module in the spirv dialect. No device is needed.
// RUN: strata-translate %s --target vulkan -o %t.spv
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s --check-prefix=DIS
// RUN: strata-translate %s --target vulkan --emit=mlir -o - | FileCheck %s --check-prefix=MLIR

// DIS-DAG: OpCapability Shader
// DIS-DAG: OpCapability SignedZeroInfNanPreserve
// DIS-DAG: OpEntryPoint GLCompute %{{.*}} "model_chain_kernel"
// DIS-DAG: OpEntryPoint GLCompute %{{.*}} "model_chain_kernel_0"
// DIS-DAG: OpExecutionMode %{{.*}} LocalSize 64 1 1
// DIS-DAG: OpExecutionMode %{{.*}} SignedZeroInfNanPreserve 32
// DIS-DAG: OpDecorate %{{.*}} DescriptorSet 0
// DIS-DAG: OpDecorate %{{.*}} Binding 1

// MLIR: spirv.module @__spv__strata_kernels Logical GLSL450
// MLIR: spirv.func @model_chain_kernel()
// MLIR: spirv.GL.Tanh
// MLIR: spirv.func @model_chain_kernel_0()
// MLIR-COUNT-2: spirv.EntryPoint "GLCompute"
// MLIR-NOT: spirv.EntryPoint

func.func @chain(%a: tensor<4x100xf32>, %b: tensor<4x100xf32>) -> (tensor<4x100xf32>, tensor<4xf32>) {
  %s = "nn.add"(%a, %b) : (tensor<4x100xf32>, tensor<4x100xf32>) -> tensor<4x100xf32>
  %t = "nn.tanh"(%s) : (tensor<4x100xf32>) -> tensor<4x100xf32>
  %r = "nn.relu"(%t) : (tensor<4x100xf32>) -> tensor<4x100xf32>
  %m = "nn.reduce_sum"(%a) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<4x100xf32>) -> tensor<4xf32>
  return %r, %m : tensor<4x100xf32>, tensor<4xf32>
}
