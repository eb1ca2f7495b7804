/* The vulkan target's parts: vulkan_spirv.c lowers the kernels of the GPU
 * targets' kernel-level IR (gpu_pipeline.h) to one SPIR-V module; the host
 * plan is targets/gpu/gpu_host.h's; vulkan_target.c runs both through the
 * Vulkan runtime (runtime/vulkan.h). */
#ifndef STRATA_VULKAN_INTERNAL_H
#define STRATA_VULKAN_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "gpu_host.h"
#include "vulkan.h"

/* The SPIR-V of the kernels the plans launch: one module whose entry
 * points are named after their gpu.module (GpuStep.module) and take, as
 * bindings 0.. of descriptor set 0, the launch's buffer arguments in order.
 * Scalar arguments, constants on the host, become constants in the shader.
 * Capabilities follow `features` (what the device has; NULL: all of them,
 * for strata-translate). With `text` non-NULL it receives the spirv.module
 * printed instead (malloc'ed). False after located errors: a type the
 * device cannot compute in, an op SPIR-V conversion refuses. */
typedef struct {
  uint32_t *words; /* malloc'ed */
  size_t bytes;
} VkSpirv;
bool vkSpirvBuild(StrataContext *ctx, MlirOperation module, const GpuPlan *plans, size_t numPlans,
                  const StrataVkFeatures *features, VkSpirv *out, char **text);

/* Rewrites what kernel `kernel` computes that SPIR-V has no exact op for
 * (vulkan_math.c: powf, erf, unsigned integer types). False after located
 * errors. */
bool vkExpandMath(MlirOperation kernel);

#endif /* STRATA_VULKAN_INTERNAL_H */
