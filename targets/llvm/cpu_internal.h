/* Internals of the CPU target shared by its files: the pipeline texts
 * (cpu_pipeline.c), the JIT and the object writer on an already lowered
 * module (jit.c, aot.c), which the target definition (cpu_target.c) uses. */
#ifndef STRATA_CPU_INTERNAL_H
#define STRATA_CPU_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/target_llvm.h"
#include "cachefile.h"

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

/* The public function attribute (dense i64 array) listing the results
 * that strata-dynamic-results hands to the runtime (runtime/results.h)
 * instead of out-params: results of dynamic shape. */
#define STRATA_RUNTIME_RESULTS_ATTR "strata.runtime_results"

/* A lowered module's weights, out of LLVM (params.c; StrataParams is
 * cachefile.h's): the minimum size of a constant that leaves the module. */
#define STRATA_PARAM_MIN_BYTES 4096
/* Moves every constant llvm.mlir.global of a non-splat dense(_resource)
 * value of >= minBytes into the blob and makes it an external declaration.
 * NULL when out of memory (the module may then be half rewritten). */
StrataParams *strataParamsExtract(MlirModule lowered, size_t minBytes);

/* The LLVM half of strataAotEmitLowered, on a module whose weights
 * strataParamsExtract took out (borrowed; translated as it is): LLVM IR,
 * assembly or an object (PIC) for o's machine. With `params`, their
 * declarations are defined as bytes in .strata_params; without, they stay
 * external (the JIT binds them). `packed` adds, for each _mlir_ciface_f,
 * _mlir__mlir_ciface_f(void **args), the form the JIT calls. NULL after a
 * located error. */
char *strataLlvmEmit(MlirModule lowered, const StrataAotOptions *o, const StrataParams *params, bool packed,
                     size_t *size);

/* Cache keys (cachefile.h; cachekey.c): adds this build of Strata
 * (version, ELF build ID), LLVM's version, the LLVM level and the host CPU
 * with its features. */
void strataCacheHashMachine(StrataCacheHash *h, int optLevel);
/* Those facts, of this process. */
void strataCpuHostFacts(StrataHostFacts *f);
/* Keeps LLVM's part of that in DIR for processes that do not load LLVM
 * (strataHostFactsStore); false with the reason when it cannot. */
bool strataCpuHostFactsStore(const char *dir, char *why, size_t whySize);

/* The compile cache (objcache.c). The key of a module whose weights are
 * out, for the host CPU at an LLVM level: 32 hex digits and a NUL. */
void strataObjCacheKey(MlirModule lowered, int optLevel, char key[33]);
/* Stores an object under `key` (creating DIR); false with the reason in
 * `why` when it cannot. */
bool strataObjCacheWrite(const char *dir, const char *key, const char *data, size_t size, char *why,
                         size_t whySize);

/* The model cache (modelcache.c): a whole executable under a key its
 * caller makes from the model (strataExecutableStore/Load). DIR/<key>.model
 * holds the key of its object in the object cache, the declarations the
 * JIT reads (interface), the caller's text (`entry`) and the weights, 4 KiB
 * aligned, which a load maps rather than reads. */
void strataCpuCacheKey(const void *const *parts, const size_t *sizes, size_t n, char key[33]);
bool strataJitStore(StrataJit *jit, const char *dir, const char *key, const char *entry, char *why,
                    size_t whySize);
/* NULL on a miss (no message): no such file, a damaged one, or its object
 * gone from the cache. *entry gets the stored text (malloc'ed). */
StrataJit *strataJitLoad(StrataContext *ctx, const char *dir, const char *key, char **entry);

/* What modelcache.c needs of the JIT (jit.c). The object key the JIT's
 * code has in the cache, its module and weights; false when the code is not
 * in the cache (*warned: its write failed, with a warning). */
bool strataJitCacheParts(const StrataJit *jit, MlirModule *lowered, const StrataParams **params, char objKey[33],
                         bool *warned);
/* A JIT from cached parts, taking ownership of all of them also on failure:
 * `iface` (the interface module), `params` (entries into `map`, munmapped
 * with the JIT) and the object `obj` (malloc'ed). NULL after located errors. */
StrataJit *strataJitFromParts(StrataContext *ctx, MlirModule iface, StrataParams *params, void *map,
                              size_t mapSize, char *obj, size_t objSize);

#endif /* STRATA_CPU_INTERNAL_H */
