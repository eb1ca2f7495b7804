// f16 in the SPIR-V strata-translate --target vulkan writes (spirv-val clean
// for Vulkan 1.2): f16 storage buffers (StorageBuffer16BitAccess), f16
// values only loaded, stored and converted (Float16), the arithmetic in f32,
// every conversion to f16 rounding to nearest even (RoundingModeRTE 16),
// f16 infinities and NaNs kept. No device is needed.
// RUN: strata-translate %s --target vulkan -o %t.spv
// RUN: spirv-val --target-env vulkan1.2 %t.spv
// RUN: spirv-dis %t.spv | FileCheck %s

// CHECK-DAG: OpCapability Float16
// CHECK-DAG: OpCapability StorageBuffer16BitAccess
// CHECK-DAG: OpCapability RoundingModeRTE
// CHECK-DAG: OpExtension "SPV_KHR_16bit_storage"
// CHECK-DAG: OpExtension "SPV_KHR_float_controls"
// CHECK-DAG: OpExecutionMode %{{.*}} RoundingModeRTE 16
// CHECK-DAG: OpExecutionMode %{{.*}} SignedZeroInfNanPreserve 16
// CHECK-DAG: %half = OpTypeFloat 16
// CHECK-DAG: OpFConvert %half
// CHECK-DAG: OpFAdd %float
// CHECK-NOT: OpFAdd %half
func.func @half(%a: tensor<4x100xf16>, %b: tensor<4x100xf16>) -> (tensor<4x100xf16>, tensor<4xf32>) {
  %s = "nn.add"(%a, %b) : (tensor<4x100xf16>, tensor<4x100xf16>) -> tensor<4x100xf16>
  %t = "nn.tanh"(%s) : (tensor<4x100xf16>) -> tensor<4x100xf16>
  %c = "nn.cast"(%t) : (tensor<4x100xf16>) -> tensor<4x100xf32>
  %r = "nn.reduce_sum"(%c) {axes = array<i64: 1>, keepdims = 0 : i64} : (tensor<4x100xf32>) -> tensor<4xf32>
  return %t, %r : tensor<4x100xf16>, tensor<4xf32>
}
