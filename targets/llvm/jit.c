/* JIT execution of lowered modules through MLIR's ExecutionEngine. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/ExecutionEngine.h"
#include "instr.h"
#include "kernels.h"
#include "memref.h"
#include "status.h"
#include "strata/pass.h"
#include "strata/target_llvm.h"
#include "cpu_internal.h"

struct StrataJit {
  StrataContext *ctx;
  MlirModule lowered;
  MlirExecutionEngine engine;
  StrataParams *params; /* the weights the compiled code reads */
  /* The last function looked up: an ORC symbol lookup costs microseconds,
   * as much as a small kernel, and callers invoke one function repeatedly. */
  char lastName[256];
  void (*lastFn)(void **);
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
  MlirOperation clone = mlirModuleGetOperation(lowered);
  StrataParams *params = strataParamsExtract(lowered, STRATA_PARAM_MIN_BYTES);
  if (!params) {
    strataEmitError(mlirOperationGetLocation(clone), "JIT: out of memory for the module's weights");
    mlirModuleDestroy(lowered);
    return NULL;
  }
  /* memref.copy of non-contiguous buffers calls `memrefCopy`, which
   * libstrata_rt provides (registered below): no MLIR runtime library.
   * PIC: the weights live in the parameter blob, anywhere in the address
   * space, so the code reaches them through its GOT. */
  MlirExecutionEngine engine = mlirExecutionEngineCreate(lowered, optLevel, 0, NULL,
                                                         /*enableObjectDump=*/false,
                                                         /*enablePIC=*/true);
  if (mlirExecutionEngineIsNull(engine)) {
    strataEmitError(mlirOperationGetLocation(clone),
                    "JIT: the LLVM execution engine could not compile this module");
    strataParamsDestroy(params);
    mlirModuleDestroy(lowered);
    return NULL;
  }
  for (int i = 0; i < params->count; i++)
    mlirExecutionEngineRegisterSymbol(engine, mlirStringRefCreateFromCString(params->entries[i].name),
                                      params->blob + params->entries[i].offset);
  /* The kernels --nn-to-kernels calls live in this process (libstrata_rt). */
  static const struct {
    const char *name;
    void *fn;
  } kRuntime[] = {
      {"_mlir_ciface_strata_rt_matmul_f32", (void *)_mlir_ciface_strata_rt_matmul_f32},
      {"_mlir_ciface_strata_rt_conv2d_f32", (void *)_mlir_ciface_strata_rt_conv2d_f32},
      {"_mlir_ciface_strata_rt_frame_push", (void *)_mlir_ciface_strata_rt_frame_push},
      {"_mlir_ciface_strata_rt_frame_pop", (void *)_mlir_ciface_strata_rt_frame_pop},
      {"_mlir_ciface_strata_rt_frame_slot", (void *)_mlir_ciface_strata_rt_frame_slot},
      {"_mlir_ciface_strata_rt_softmax_f32", (void *)_mlir_ciface_strata_rt_softmax_f32},
      {"_mlir_ciface_strata_rt_pool2d_f32", (void *)_mlir_ciface_strata_rt_pool2d_f32},
      {"_mlir_ciface_strata_rt_layernorm_f32", (void *)_mlir_ciface_strata_rt_layernorm_f32},
      {"_mlir_ciface_strata_rt_index_error", (void *)_mlir_ciface_strata_rt_index_error},
      {"_mlir_ciface_strata_rt_parallel_chunks", (void *)_mlir_ciface_strata_rt_parallel_chunks},
      {"memrefCopy", (void *)memrefCopy},
      {"_mlir_ciface_strata_rt_instr_run_begin", (void *)_mlir_ciface_strata_rt_instr_run_begin},
      {"_mlir_ciface_strata_rt_instr_trace", (void *)_mlir_ciface_strata_rt_instr_trace},
      {"_mlir_ciface_strata_rt_instr_profile", (void *)_mlir_ciface_strata_rt_instr_profile},
      {"_mlir_ciface_strata_rt_instr_dump", (void *)_mlir_ciface_strata_rt_instr_dump},
  };
  for (size_t i = 0; i < sizeof kRuntime / sizeof kRuntime[0]; i++)
    mlirExecutionEngineRegisterSymbol(engine, mlirStringRefCreateFromCString(kRuntime[i].name),
                                      kRuntime[i].fn);
  StrataJit *jit = malloc(sizeof *jit);
  if (!jit) {
    mlirExecutionEngineDestroy(engine);
    strataParamsDestroy(params);
    mlirModuleDestroy(lowered);
    return NULL;
  }
  *jit = (StrataJit){ctx, lowered, engine, params, {0}, NULL};
  return jit;
}

void strataJitDestroy(StrataJit *jit) {
  if (!jit) return;
  mlirExecutionEngineDestroy(jit->engine);
  strataRtReleasePackedConstants(); /* keyed by addresses this code owned */
  strataParamsDestroy(jit->params);
  mlirModuleDestroy(jit->lowered);
  free(jit);
}

typedef struct {
  void (*fn)(void **);
  void **args;
} PackedCall;

static void runPacked(void *p) {
  PackedCall *c = p;
  c->fn(c->args);
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
  size_t n = numInputs + numOutputs;
  StrataMemRefDesc *descs = calloc(n ? n : 1, sizeof *descs);
  StrataMemRefDesc **ptrs = calloc(n ? n : 1, sizeof *ptrs);
  void **args = calloc(n ? n : 1, sizeof *args);
  MlirLogicalResult r = mlirLogicalResultFailure();
  if (!descs || !ptrs || !args) goto done;
  for (size_t i = 0; i < n; i++) {
    StrataTensor *t = i < numInputs ? inputs[i] : outputs[i - numInputs];
    if (strataRtMemRefInit(&descs[i], t->data, t->rank, t->dims) != 0) goto done;
    ptrs[i] = &descs[i];
    args[i] = &ptrs[i];
  }
  void (*packed)(void **) = NULL;
  if (jit->lastFn && !strcmp(jit->lastName, name)) {
    packed = jit->lastFn;
  } else {
    char sym[512];
    snprintf(sym, sizeof sym, "_mlir_ciface_%s", name);
    packed = (void (*)(void **))mlirExecutionEngineLookupPacked(jit->engine,
                                                                mlirStringRefCreateFromCString(sym));
    if (packed && strlen(name) < sizeof jit->lastName) {
      strcpy(jit->lastName, name);
      jit->lastFn = packed;
    }
  }
  if (packed) {
    PackedCall call = {packed, args};
    char err[1024];
    struct StrataRtEnv *env = strataContextGetRuntimeEnv(jit->ctx);
    if (env && strataRtCallIn(env, runPacked, &call, err, sizeof err) == 0) r = mlirLogicalResultSuccess();
    else if (env) reportRuntimeError(jit, name, err);
  } else {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(jit->lowered)),
                    "JIT: no compiled public function '%s'", name);
  }
done:
  free(descs);
  free(ptrs);
  free(args);
  return r;
}
