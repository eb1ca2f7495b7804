/* Internals of the CPU target shared by its files: the pipeline texts
 * (cpu_pipeline.c), the JIT and the object writer on an already lowered
 * module (jit.c, aot.c), which the target definition (cpu_target.c) uses. */
#ifndef STRATA_CPU_INTERNAL_H
#define STRATA_CPU_INTERNAL_H

#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/target_llvm.h"

/* What strataCpuPipeline() and its variants return, as arrays so the
 * target definition can point at them in a static initializer. */
extern const char strataCpuPipelineText[];
extern const char strataCpuPipelineUnfusedText[];
extern const char strataCpuPipelineFusedText[];
extern const char strataCpuPipelineFusedCodegenText[];
extern const char strataCpuPipelineUpstreamText[];

/* JIT-compiles `lowered` (the LLVM dialect with C interfaces), taking
 * ownership of it, also on failure. NULL after located errors. */
StrataJit *strataJitCreateFromLowered(StrataContext *ctx, MlirModule lowered, int optLevel);

/* strataAotCompile on an already lowered module (borrowed, left as is). */
char *strataAotEmitLowered(StrataContext *ctx, MlirModule lowered, const StrataAotOptions *o,
                           size_t *size);

/* A lowered module's weights, out of LLVM (params.c): each entry is an
 * external global of the module whose bytes are blob[offset, +bytes). */
typedef struct {
  char *name;
  size_t offset, bytes;
} StrataParam;
typedef struct {
  unsigned char *blob; /* 64-byte aligned */
  size_t bytes;
  StrataParam *entries;
  int count;
} StrataParams;
/* The minimum size of a constant that leaves the module. */
#define STRATA_PARAM_MIN_BYTES 4096
/* Moves every constant llvm.mlir.global of a non-splat dense(_resource)
 * value of >= minBytes into the blob and makes it an external declaration.
 * NULL when out of memory (the module may then be half rewritten). */
StrataParams *strataParamsExtract(MlirModule lowered, size_t minBytes);
void strataParamsDestroy(StrataParams *p);

#endif /* STRATA_CPU_INTERNAL_H */
