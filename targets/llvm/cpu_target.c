/* The `cpu` target: the host CPU through LLVM. Its pipelines are the
 * strata-cpu-pipeline family, its library kernels those nn-to-kernels
 * calls in libstrata_rt, it runs through the JIT and writes objects,
 * assembly or LLVM IR with a C header. */
#include <string.h>
#include "strata/target.h"
#include "strata/target_llvm.h"
#include "cpu_internal.h"
#include "nn_to_kernels.h"

static bool isKernel(const StrataTargetDef *def, MlirOperation op) {
  (void)def;
  return strataNnToKernelsCandidate(op);
}

static bool absorbsPrologue(const StrataTargetDef *def, MlirOperation producer,
                            MlirOperation kernelOp) {
  (void)def;
  return strataNnToKernelsAbsorbsPrologue(producer, kernelOp);
}

static void *compile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                     const StrataCompileOptions *options) {
  (void)def;
  return strataJitCreateCached(ctx, lowered, options->optLevel, options->cacheDir);
}

static bool fromCache(void *exe) { return strataJitFromCache(exe); }

static void cacheKey(const StrataTargetDef *def, const void *const *parts, const size_t *sizes, size_t n,
                     char key[33]) {
  (void)def;
  strataCpuCacheKey(parts, sizes, n, key);
}

static bool store(void *exe, const char *cacheDir, const char *key, const char *entry, char *why, size_t whySize) {
  return strataJitStore(exe, cacheDir, key, entry, why, whySize);
}

static void *load(const StrataTargetDef *def, StrataContext *ctx, const char *cacheDir, const char *key,
                  char **entry) {
  (void)def;
  return strataJitLoad(ctx, cacheDir, key, entry);
}

static MlirLogicalResult invoke(void *exe, const char *name, StrataTensor *const *inputs,
                                size_t numInputs, StrataTensor *const *outputs,
                                size_t numOutputs) {
  return strataJitInvoke(exe, name, inputs, numInputs, outputs, numOutputs);
}

static void destroy(void *exe) { strataJitDestroy(exe); }

static char *emit(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                  const StrataEmitOptions *options, size_t *size) {
  (void)def;
  const char *format = options->format ? options->format : "obj";
  StrataAotOptions o = {
      .kind = !strcmp(format, "asm")    ? STRATA_AOT_ASM
              : !strcmp(format, "llvm") ? STRATA_AOT_LLVM_IR
                                        : STRATA_AOT_OBJECT,
      .optLevel = options->compile.optLevel,
      .triple = options->triple,
      .cpu = options->cpu,
      .features = options->features,
  };
  return strataAotEmitLowered(ctx, lowered, &o, size);
}

static char *emitHeader(const StrataTargetDef *def, MlirModule module, const char *prefix,
                        const char *source) {
  (void)def;
  return strataAotHeader(module, prefix, source);
}

const StrataTargetDef strataCpuTarget = {
    .name = "cpu",
    .summary = "The host CPU through LLVM: runtime kernels, JIT, objects with a C header",
    .pipelines =
        {
            [STRATA_FUSION_FIXED] = strataCpuPipelineText,
            [STRATA_FUSION_NONE] = strataCpuPipelineUnfusedText,
            [STRATA_FUSION_DNNFUSION] = strataCpuPipelineFusedText,
            [STRATA_FUSION_PLANNED] = strataCpuPipelineFusedCodegenText,
            [STRATA_FUSION_BASELINE] = strataCpuPipelineUpstreamText,
        },
    .dialects = "nn,instr,sparse,dsp",
    .isKernel = isKernel,
    .absorbsPrologue = absorbsPrologue,
    .compile = compile,
    .invoke = invoke,
    .destroy = destroy,
    .fromCache = fromCache,
    .cacheKey = cacheKey,
    .store = store,
    .load = load,
    .emitFormats = "obj,asm,llvm",
    .emit = emit,
    .emitHeader = emitHeader,
};
