/* Internals of the CPU target shared by its files: the pipeline texts
 * (cpu_pipeline.c), the JIT and the object writer on an already lowered
 * module (jit.c, aot.c), which the target definition (cpu_target.c) uses. */
#ifndef STRATA_CPU_INTERNAL_H
#define STRATA_CPU_INTERNAL_H

#include <stdbool.h>
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
/* The same with a compile cache in `cacheDir` (NULL: none). */
StrataJit *strataJitCreateCached(StrataContext *ctx, MlirModule lowered, int optLevel, const char *cacheDir);
/* True if the JIT's code came from the cache. */
bool strataJitFromCache(const StrataJit *jit);

/* strataAotCompile on an already lowered module (borrowed, left as is). */
char *strataAotEmitLowered(StrataContext *ctx, MlirModule lowered, const StrataAotOptions *o,
                           size_t *size);

/* A lowered module's weights, out of LLVM (params.c): each entry is an
 * external global of the module and its bytes, 64-byte aligned, in the
 * blob or where the importer put them (the context owns those). */
typedef struct {
  char *name;
  const unsigned char *data;
  size_t bytes;
} StrataParam;
typedef struct {
  unsigned char *blob; /* 64-byte aligned; the bytes Strata had to copy */
  size_t bytes;
  StrataParam *entries;
  int count;
} StrataParams;
/* The minimum size of a constant that leaves the module. */
/* The public function attribute (dense i64 array) listing the results
 * that strata-dynamic-results hands to the runtime (runtime/results.h)
 * instead of out-params: results of dynamic shape. */
#define STRATA_RUNTIME_RESULTS_ATTR "strata.runtime_results"

#define STRATA_PARAM_MIN_BYTES 4096
/* Moves every constant llvm.mlir.global of a non-splat dense(_resource)
 * value of >= minBytes into the blob and makes it an external declaration.
 * NULL when out of memory (the module may then be half rewritten). */
StrataParams *strataParamsExtract(MlirModule lowered, size_t minBytes);
void strataParamsDestroy(StrataParams *p);

/* The LLVM half of strataAotEmitLowered, on a module whose weights
 * strataParamsExtract took out (borrowed; translated as it is): LLVM IR,
 * assembly or an object (PIC) for o's machine. With `params`, their
 * declarations are defined as bytes in .strata_params; without, they stay
 * external (the JIT binds them). `packed` adds, for each _mlir_ciface_f,
 * _mlir__mlir_ciface_f(void **args), the form the JIT calls. NULL after a
 * located error. */
char *strataLlvmEmit(MlirModule lowered, const StrataAotOptions *o, const StrataParams *params, bool packed,
                     size_t *size);

/* The compile cache (objcache.c). The key of a module whose weights are
 * out, for the host CPU at an LLVM level: 32 hex digits and a NUL. */
void strataObjCacheKey(MlirModule lowered, int optLevel, char key[33]);
/* DIR/<key>.o's object (malloc'd) when the file is whole; NULL otherwise. */
char *strataObjCacheRead(const char *dir, const char *key, size_t *size);
/* Stores an object under `key` (creating DIR); false with the reason in
 * `why` when it cannot. */
bool strataObjCacheWrite(const char *dir, const char *key, const char *data, size_t size, char *why,
                         size_t whySize);

#endif /* STRATA_CPU_INTERNAL_H */
