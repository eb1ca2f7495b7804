/* JIT execution of lowered modules: the module's weights go to a parameter
 * blob (params.c), its code becomes an object as strata-translate's
 * (aot.c) or comes from the compile cache (objcache.c), and ORC's LLJIT
 * links that object into this process, binding the weights, libstrata_rt's
 * kernels and the process's own symbols (libc, libm). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "llvm-c/Core.h"
#include "llvm-c/Error.h"
#include "llvm-c/LLJIT.h"
#include "llvm-c/Orc.h"
#include "llvm-c/Target.h"
#include "instr.h"
#include "kernels.h"
#include "memref.h"
#include "callpacked.h"
#include "elfload.h"
#include "results.h"
#include "rt_symbols.h"
#include "status.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "strata/support.h"
#include "strata/target_llvm.h"
#include "cpu_internal.h"

struct StrataJit {
  StrataContext *ctx;
  MlirModule lowered;
  LLVMOrcLLJITRef orc;
  StrataRtObject *elf;  /* a cached object, loaded without LLVM (elfload.h); else orc */
  StrataParams *params; /* the weights the compiled code reads */
  void *map;            /* a model cache file the weights are in (munmapped last) */
  size_t mapSize;
  bool fromCache;
  char objKey[33]; /* the code's key in the object cache; "" when not cached */
  bool cacheWarned; /* writing it there failed, with a warning */
  /* The last function looked up: an ORC symbol lookup costs microseconds,
   * as much as a small kernel, and callers invoke one function repeatedly.
   * Guarded by lastMu: threads may invoke one executable concurrently. */
  pthread_mutex_t lastMu;
  char lastName[256];
  void (*lastFn)(void **);
  MlirAttribute lastRuntime; /* its strata.runtime_results, or null */
};

StrataJit *strataJitCreate(StrataContext *ctx, MlirModule module, int optLevel) {
  return strataJitCreateWithPipeline(ctx, module, strataCpuPipeline(), optLevel);
}

StrataJit *strataJitCreateWithPipeline(StrataContext *ctx, MlirModule module, const char *pipeline,
                                       int optLevel) {
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(module));
  MlirModule lowered = mlirModuleFromOperation(clone);
  if (mlirLogicalResultIsFailure(strataRunPipeline(ctx, clone, pipeline))) {
    mlirModuleDestroy(lowered);
    return NULL;
  }
  return strataJitCreateFromLowered(ctx, lowered, optLevel);
}

StrataJit *strataJitCreateFromLowered(StrataContext *ctx, MlirModule lowered, int optLevel) {
  return strataJitCreateCached(ctx, lowered, optLevel, NULL);
}

/* An LLVM error as a located error (the error is consumed). */
static void orcError(MlirLocation loc, const char *what, LLVMErrorRef err) {
  char *msg = LLVMGetErrorMessage(err);
  strataEmitError(loc, "JIT: %s: %s", what, msg);
  LLVMDisposeErrorMessage(msg);
}

/* Symbols the object may use: libstrata_rt's entry points (rt_symbols.h)
 * and the weights, bound explicitly; the process's own (libc, libm) are
 * searched after them. */
static LLVMErrorRef defineSymbols(LLVMOrcLLJITRef orc, const StrataParams *params) {
  size_t nRuntime;
  const StrataRtSymbol *kRuntime = strataRtSymbols(&nRuntime);
  size_t n = nRuntime + (size_t)params->count;
  LLVMOrcCSymbolMapPair *pairs = calloc(n, sizeof *pairs);
  if (!pairs) return LLVMCreateStringError("out of memory");
  for (size_t i = 0; i < n; i++) {
    bool fn = i < nRuntime;
    const char *name = fn ? kRuntime[i].name : params->entries[i - nRuntime].name;
    const void *addr = fn ? kRuntime[i].addr : params->entries[i - nRuntime].data;
    uint8_t flags = LLVMJITSymbolGenericFlagsExported | (fn ? LLVMJITSymbolGenericFlagsCallable : 0);
    pairs[i] = (LLVMOrcCSymbolMapPair){LLVMOrcLLJITMangleAndIntern(orc, name),
                                       {(LLVMOrcExecutorAddress)(uintptr_t)addr, {flags, 0}}};
  }
  LLVMErrorRef err = LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(orc), LLVMOrcAbsoluteSymbols(pairs, n));
  free(pairs);
  return err;
}

/* The object code of `lowered` (its weights out): from the cache when it
 * holds it, compiled (and stored) otherwise. objKey gets its key when it
 * is in the cache. */
static char *objectCode(MlirModule lowered, int optLevel, const char *cacheDir, size_t *size, bool *fromCache,
                        char objKey[33], bool *warned) {
  char key[33];
  *fromCache = false;
  if (cacheDir) {
    strataObjCacheKey(lowered, optLevel, key);
    char *cached = strataObjCacheRead(cacheDir, key, size);
    if (cached) return *fromCache = true, memcpy(objKey, key, 33), cached;
  }
  StrataAotOptions o = {.kind = STRATA_AOT_OBJECT, .optLevel = optLevel};
  char *obj = strataLlvmEmit(lowered, &o, NULL, true, size);
  char why[256];
  if (obj && cacheDir) {
    if (strataObjCacheWrite(cacheDir, key, obj, *size, why, sizeof why)) memcpy(objKey, key, 33);
    else {
      *warned = true;
      strataEmitDiagnostic(STRATA_SEVERITY_WARNING, mlirOperationGetLocation(mlirModuleGetOperation(lowered)),
                           "the compile cache '%s' cannot be written (%s): this code is not cached", cacheDir, why);
    }
  }
  return obj;
}

/* Links `obj` (taken) into a new LLJIT with the runtime and the weights. */
static bool linkObject(StrataJit *jit, char *obj, size_t size, MlirLocation loc) {
  LLVMErrorRef err = NULL;
  LLVMOrcDefinitionGeneratorRef process = NULL;
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  if ((err = LLVMOrcCreateLLJIT(&jit->orc, NULL))) {
    orcError(loc, "cannot create the JIT", err);
    goto fail;
  }
  if ((err = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
           &process, LLVMOrcLLJITGetGlobalPrefix(jit->orc), NULL, NULL))) {
    orcError(loc, "cannot see the process's symbols", err);
    goto fail;
  }
  LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit->orc), process);
  if ((err = defineSymbols(jit->orc, jit->params))) {
    orcError(loc, "cannot define the runtime's symbols", err);
    goto fail;
  }
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(obj, size, "strata-jit");
  free(obj);
  obj = NULL;
  if ((err = LLVMOrcLLJITAddObjectFile(jit->orc, LLVMOrcLLJITGetMainJITDylib(jit->orc), buf))) {
    orcError(loc, "cannot load the compiled code", err);
    goto fail;
  }
  return true;
fail:
  free(obj);
  return false;
}

static StrataJit *newJit(StrataContext *ctx, MlirModule lowered) {
  StrataJit *jit = calloc(1, sizeof *jit);
  if (!jit) return NULL;
  pthread_mutex_init(&jit->lastMu, NULL);
  jit->ctx = ctx, jit->lowered = lowered;
  return jit;
}

StrataJit *strataJitCreateCached(StrataContext *ctx, MlirModule lowered, int optLevel, const char *cacheDir) {
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(lowered));
  StrataJit *jit = newJit(ctx, lowered);
  size_t size = 0;
  char *obj = NULL;
  if (!jit) {
    strataEmitError(loc, "JIT: out of memory");
    mlirModuleDestroy(lowered);
    return NULL;
  }
  if (!(jit->params = strataParamsExtract(lowered, STRATA_PARAM_MIN_BYTES))) {
    strataEmitError(loc, "JIT: out of memory for the module's weights");
    strataJitDestroy(jit);
    return NULL;
  }
  if (!(obj = objectCode(lowered, optLevel, cacheDir, &size, &jit->fromCache, jit->objKey, &jit->cacheWarned)) ||
      !linkObject(jit, obj, size, loc)) {
    strataJitDestroy(jit);
    return NULL;
  }
  return jit;
}

StrataJit *strataJitFromParts(StrataContext *ctx, MlirModule iface, StrataParams *params, void *map,
                              size_t mapSize, char *obj, size_t objSize) {
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(iface));
  StrataJit *jit = newJit(ctx, iface);
  if (!jit) {
    strataEmitError(loc, "JIT: out of memory");
    mlirModuleDestroy(iface);
    strataParamsDestroy(params);
    munmap(map, mapSize);
    free(obj);
    return NULL;
  }
  jit->params = params, jit->map = map, jit->mapSize = mapSize, jit->fromCache = true;
  /* The object loader first: it maps a few pages where ORC needs LLVM's
   * code; what it does not handle, ORC links. */
  char why[256];
  if ((jit->elf = strataRtObjectLoad(obj, objSize, strataCpuResolveSymbol, params, why, sizeof why))) {
    free(obj);
    return jit;
  }
  if (!linkObject(jit, obj, objSize, loc)) {
    strataJitDestroy(jit);
    return NULL;
  }
  return jit;
}

bool strataJitCacheParts(const StrataJit *jit, MlirModule *lowered, const StrataParams **params, char objKey[33],
                         bool *warned) {
  *warned = jit->cacheWarned;
  if (!jit->objKey[0]) return false;
  *lowered = jit->lowered, *params = jit->params;
  memcpy(objKey, jit->objKey, 33);
  return true;
}

bool strataJitFromCache(const StrataJit *jit) { return jit && jit->fromCache; }

/* The shape plans the code kept (strata-shape-plan) live in the runtime,
 * keyed by its `__strata_shape_plans` table: freed before the code goes. */
static void *lookupSymbol(StrataJit *jit, const char *name) {
  if (jit->elf) return strataRtObjectSymbol(jit->elf, name);
  LLVMOrcExecutorAddress addr = 0;
  LLVMErrorRef err = jit->orc ? LLVMOrcLLJITLookup(jit->orc, &addr, name) : NULL;
  if (err) LLVMConsumeError(err);
  return err ? NULL : (void *)(uintptr_t)addr;
}

static void releaseShapePlans(StrataJit *jit) {
  if ((!jit->orc && !jit->elf) || !jit->lowered.ptr ||
      !strataModuleHasSymbol(mlirModuleGetOperation(jit->lowered), "__strata_shape_plans"))
    return;
  void *plans = lookupSymbol(jit, "__strata_shape_plans");
  if (plans) strataRtShapePlansRelease(plans);
}

void strataJitDestroy(StrataJit *jit) {
  if (!jit) return;
  releaseShapePlans(jit);
  if (jit->orc) {
    LLVMErrorRef err = LLVMOrcDisposeLLJIT(jit->orc);
    if (err) LLVMConsumeError(err);
  }
  strataRtObjectUnload(jit->elf);
  strataRtReleasePackedConstants(); /* keyed by addresses this code owned */
  strataParamsDestroy(jit->params);
  if (jit->map) munmap(jit->map, jit->mapSize);
  if (!mlirModuleIsNull(jit->lowered)) mlirModuleDestroy(jit->lowered);
  pthread_mutex_destroy(&jit->lastMu);
  free(jit);
}

/* The strata.runtime_results of function `name` (set by
 * strata-dynamic-results: the outputs it hands to the runtime), or null. */
static MlirAttribute runtimeResultsOf(StrataJit *jit, const char *name) {
  MlirSymbolTable table = mlirSymbolTableCreate(mlirModuleGetOperation(jit->lowered));
  MlirOperation f = mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(name));
  mlirSymbolTableDestroy(table);
  MlirAttribute a = mlirOperationIsNull(f) ? mlirAttributeGetNull() : strataOpAttr(f, STRATA_RUNTIME_RESULTS_ATTR);
  return !mlirAttributeIsNull(a) && mlirAttributeIsADenseI64Array(a) ? a : mlirAttributeGetNull();
}

/* Marks the outputs `a` (runtimeResultsOf) lists; false if it lists one
 * beyond numOutputs. */
static bool runtimeOutputs(MlirAttribute a, bool *isRuntime, size_t numOutputs) {
  for (size_t i = 0; i < numOutputs; i++) isRuntime[i] = false;
  if (mlirAttributeIsNull(a)) return true;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(a); i++) {
    int64_t r = mlirDenseI64ArrayGetElement(a, i);
    if (r < 0 || (size_t)r >= numOutputs) return false;
    isRuntime[r] = true;
  }
  return true;
}

/* An error the compiled code reported (runtime/status.h). One raised at an
 * op's site carries the op's location as text, up to a tab; the others are
 * located at the function. */
static void reportRuntimeError(StrataJit *jit, const char *fn, const char *err) {
  const char *tab = strchr(err, '\t');
  if (tab) {
    char where[512];
    snprintf(where, sizeof where, "%.*s", (int)(tab - err), err);
    strataEmitErrorText(jit->ctx, where, "%s", tab + 1);
  } else {
    char where[300];
    snprintf(where, sizeof where, "function '%s'", fn);
    strataEmitErrorText(jit->ctx, where, "%s", err);
  }
}

MlirLogicalResult strataJitInvoke(StrataJit *jit, const char *name, StrataTensor *const *inputs,
                                  size_t numInputs, StrataTensor *const *outputs,
                                  size_t numOutputs) {
  bool *isRuntime = calloc(numOutputs ? numOutputs : 1, sizeof *isRuntime);
  MlirLogicalResult r = mlirLogicalResultFailure();
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(jit->lowered));
  if (!isRuntime) goto done;
  /* the last function's lookups are cached: a call costs microseconds */
  pthread_mutex_lock(&jit->lastMu);
  bool cached = jit->lastFn && !strcmp(jit->lastName, name);
  void (*packed)(void **) = cached ? jit->lastFn : NULL;
  MlirAttribute runtime = cached ? jit->lastRuntime : mlirAttributeGetNull();
  pthread_mutex_unlock(&jit->lastMu);
  if (!cached) runtime = runtimeResultsOf(jit, name);
  if (!runtimeOutputs(runtime, isRuntime, numOutputs)) {
    strataEmitError(loc, "JIT: '%s' has fewer outputs than its compiled form delivers (%zu given)", name,
                    numOutputs);
    goto done;
  }
  if (!cached) {
    char sym[512];
    snprintf(sym, sizeof sym, "_mlir__mlir_ciface_%s", name);
    packed = (void (*)(void **))lookupSymbol(jit, sym);
    if (packed && strlen(name) < sizeof jit->lastName) {
      pthread_mutex_lock(&jit->lastMu);
      strcpy(jit->lastName, name);
      jit->lastFn = packed;
      jit->lastRuntime = runtime;
      pthread_mutex_unlock(&jit->lastMu);
    }
  }
  if (!packed) {
    strataEmitError(loc, "JIT: no compiled public function '%s'", name);
    goto done;
  }
  struct StrataRtEnv *env = strataContextGetRuntimeEnv(jit->ctx);
  if (!env) goto done;
  char err[1024];
  int rc = strataCpuCallPacked(env, packed, inputs, numInputs, outputs, numOutputs, isRuntime, err, sizeof err);
  if (rc == STRATA_CALL_OK) r = mlirLogicalResultSuccess();
  else if (rc == STRATA_CALL_FAILED) reportRuntimeError(jit, name, err);
  else if (rc > 0)
    strataEmitError(loc, "JIT: output #%d of '%s' came back with another rank or element type", rc - 1, name);
done:
  free(isRuntime);
  return r;
}
