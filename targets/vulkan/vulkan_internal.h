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

/* Replaces `op` by the body of the one function in MLIR text `text` (no
 * nested regions; at most one returned value, which replaces op's result),
 * its arguments bound to `args` (NULL: op's operands); the clones take
 * op's location. False after a located error. */
bool vkInlineText(MlirOperation op, const char *text, const MlirValue *args);

/* gpu-tile-workgroup's kernels (vulkan_workgroup.c). Before the SPIR-V
 * conversion: workgroup memory (#gpu.address_space<workgroup>) into the
 * Workgroup storage class, vector loads into scalar loads. False after a
 * located error. */
bool vkWorkgroupKernel(MlirOperation kernel, const GpuStep *step);
/* Vector loads (gpu-tile-workgroup's vector<4xf32>, 16-byte aligned) read
 * through a second, vec4-typed binding of the same buffer: the kernel
 * arguments (numbers in `kernel`, a launch's gpu.func) that get one, at
 * most `max`, in order; their bindings follow the kernel's buffers and
 * the error record. Other vector loads are made scalar loads. */
enum { VK_MAX_VEC4_ARGS = 8 };
int vkVec4Args(MlirOperation kernel, int *args, int max);
/* A kernel clone's function_type set from its entry block's arguments. */
void vkSetFunctionType(MlirOperation f);
/* After it, in spirv.module `spv`: the entry points share their Workgroup
 * variables (the i-th of a type each uses is one variable), since SPIR-V
 * 1.3 counts every Workgroup variable of the module against each entry
 * point's maxComputeSharedMemorySize. */
void vkShareWorkgroupVariables(MlirOperation spv);

/* Run-time check failures: a kernel whose checks call strata_rt_index_error
 * or strata_rt_shape_error (gpuCheckCall) takes the error record as its
 * last binding, VK_ERROR_RECORD_WORDS i32 words, zero before the call. The
 * first failing work-item sets word 0 and fills the slot of
 * VK_ERROR_SLOT_WORDS words from word 1: its launch's step number, the
 * kernel argument holding the error site's text, the check, then the
 * call's values as 64-bit values (low word first). Other failing
 * work-items write the slot after it. */
#define VK_ERROR_SLOT_WORDS (3 + 2 * GPU_CHECK_VALUES)
#define VK_ERROR_RECORD_WORDS (1 + 2 * VK_ERROR_SLOT_WORDS)

#endif /* STRATA_VULKAN_INTERNAL_H */
