/* The launcher's cache hit (launcher.h): the key made as the full driver
 * makes it (the model's bytes and the code options, the host facts the
 * driver stored, the driver's build ID), the model file read and its object
 * linked by the runtime's ELF loader, the weights bound where the file maps
 * them and their packed forms lent to the runtime, as the driver's hit
 * does (modelcache.c); inputs made and outputs printed as the driver does
 * (model.c, execute.c). Any step that fails is a miss: nothing printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "cachefile.h"
#include "callpacked.h"
#include "elfload.h"
#include "kernels.h"
#include "launcher.h"
#include "plain.h"
#include "status.h"
#include "strata/target.h"
#include "tool_time.h"

typedef struct {
  const LaunchOptions *o;
  StrataHostFacts facts;
  StrataModelFile m;
  bool haveModel;
  StrataRtObject *obj;
  StrataRtEnv *env;
  StrataTensor *inputs[1024], *outputs[1024];
  bool lent; /* packed constants lent to the runtime */
} Hit;

static bool keyOfParts(void *user, const void *const *parts, const size_t *sizes, size_t n, char key[33]) {
  strataCpuModelKey(user, parts, sizes, n, key);
  return true;
}

/* The model cache key of the run, as the full driver makes it. */
static bool cacheKey(Hit *h, const char *fullDriver, char key[33]) {
  if (!strataBuildIdOfFile(fullDriver, &h->facts) || !strataHostFactsLoad(h->o->cacheDir, &h->facts)) return false;
  size_t size;
  bool mapped;
  char why[4200];
  char *bytes = strataModelBytesRead(h->o->file, &size, &mapped, why, sizeof why);
  if (!bytes) return false;
  bool ok = strataModelCacheKeyOfBytes(keyOfParts, &h->facts, bytes, size, mapped, h->o->codeArgs,
                                       h->o->codeArgsLen, key);
  strataModelBytesRelease(bytes, size, mapped);
  return ok;
}

/* Inputs random and seeded as the driver makes them (model.c: floats in
 * [-1, 1), integers in [-8, 8), unsigned in [0, 16)); outputs of the
 * result types, dynamic dims 0. False for a type it cannot make (the
 * driver then explains). */
static bool makeTensors(Hit *h) {
  const StrataModelFile *m = &h->m;
  if (m->numIn > 1024 || m->numOut > 1024 || (size_t)h->o->numOutputs > m->numOut) return false;
  for (size_t i = 0; i < m->numIn + m->numOut; i++) {
    const StrataModelArg *a = &m->args[i];
    bool isInput = i < m->numIn;
    if (a->rank < 0 || a->rank > STRATA_MAX_RANK || !strataDTypeSize((StrataDType)a->dtype)) return false;
    int64_t dims[STRATA_MAX_RANK];
    for (int d = 0; d < a->rank; d++) {
      if (a->dims[d] < 0 && isInput) return false; /* --input-shape's case */
      dims[d] = a->dims[d] < 0 ? 0 : a->dims[d];
    }
    StrataTensor *t = strataTensorCreate((StrataDType)a->dtype, a->rank, dims);
    if (!t) return false;
    if (!isInput) {
      h->outputs[i - m->numIn] = t;
      continue;
    }
    h->inputs[i] = t;
    StrataDType dt = t->dtype;
    bool isFloat = dt == STRATA_DTYPE_F32 || dt == STRATA_DTYPE_F64 || dt == STRATA_DTYPE_F16 || dt == STRATA_DTYPE_BF16;
    bool isUnsigned = dt == STRATA_DTYPE_U8 || dt == STRATA_DTYPE_U16 || dt == STRATA_DTYPE_U32 || dt == STRATA_DTYPE_U64;
    strataTensorFillRandom(t, h->o->seed + i, isFloat ? -1.0 : isUnsigned ? 0 : -8, isFloat ? 1.0 : isUnsigned ? 16 : 8);
  }
  return true;
}

/* The model file and its object, linked; the runtime's environment. */
static bool load(Hit *h, const char *fullDriver) {
  char key[33], why[256];
  if (!cacheKey(h, fullDriver, key) || !(h->haveModel = strataModelFileRead(h->o->cacheDir, key, &h->m))) return false;
  size_t objSize;
  char *obj = strataObjCacheRead(h->o->cacheDir, h->m.objKey, &objSize);
  if (!obj) return false;
  h->obj = strataRtObjectLoad(obj, objSize, strataCpuResolveSymbol, h->m.params, why, sizeof why);
  free(obj);
  if (!h->obj) return false;
  for (size_t i = 0; i < h->m.numPacked; i++) strataRtPackedConstantsAdd(&h->m.packed[i]);
  h->lent = true;
  StrataRtAllocator alloc = {NULL, NULL, h->o->maxMemory};
  return (h->env = strataRtEnvCreate(&alloc, (int)h->o->threads)) != NULL;
}

/* The outputs printed and written as the driver's report does. */
static bool report(Hit *h) {
  for (size_t i = 0; i < h->m.numOut; i++) runPrintTensor("output", i, h->outputs[i], !h->o->quiet);
  for (int i = 0; i < h->o->numOutputs; i++) {
    char err[512];
    if (!strataNpyWrite(h->o->outputs[i], h->outputs[i], err, sizeof err)) {
      fprintf(stderr, "error: %s\n", err);
      return false;
    }
  }
  return true;
}

/* In the order the driver's JIT and context go (jit.c, context.c). */
static void release(Hit *h) {
  if (h->obj) {
    int64_t *plans = strataRtObjectSymbol(h->obj, "__strata_shape_plans");
    if (plans) strataRtShapePlansRelease(plans);
  }
  if (h->lent) strataRtReleasePackedConstants();
  strataRtObjectUnload(h->obj);
  if (h->haveModel) strataModelFileFree(&h->m, false);
  for (size_t i = 0; i < 1024; i++) strataTensorDestroy(h->inputs[i]), strataTensorDestroy(h->outputs[i]);
  strataRtEnvDestroy(h->env);
}

bool launchServe(const LaunchOptions *o, const char *fullDriver) {
  Hit *h = calloc(1, sizeof *h);
  if (!h) return false;
  h->o = o;
  double t0 = toolNowMs();
  char sym[300], err[1024];
  void (*fn)(void **) = NULL;
  bool ok = load(h, fullDriver) && makeTensors(h) &&
            snprintf(sym, sizeof sym, "_mlir__mlir_ciface_%s", h->m.entry) < (int)sizeof sym &&
            (fn = (void (*)(void **))strataRtObjectSymbol(h->obj, sym)) != NULL;
  double t1 = toolNowMs();
  ok = ok && strataCpuCallPacked(h->env, fn, h->inputs, h->m.numIn, h->outputs, h->m.numOut, h->m.runtimeResult, err,
                                 sizeof err) == STRATA_CALL_OK;
  if (ok) {
    runPrintCompiled(h->m.entry, t1 - t0, toolNowMs() - t1, "model");
    double *times = o->repeat ? malloc((size_t)o->repeat * sizeof *times) : NULL;
    for (long k = 0; times && k < o->repeat; k++) {
      double s = toolNowMs();
      strataCpuCallPacked(h->env, fn, h->inputs, h->m.numIn, h->outputs, h->m.numOut, h->m.runtimeResult, err,
                          sizeof err);
      times[k] = toolNowMs() - s;
    }
    if (times) printf("median %.4f ms (%ld runs)\n", toolMedian(times, (size_t)o->repeat), o->repeat);
    free(times);
    ok = report(h); /* printing started: its errors are the run's */
    release(h);
    free(h);
    if (!ok) exit(1);
    return true;
  }
  release(h);
  free(h);
  return false;
}
