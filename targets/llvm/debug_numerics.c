/* The numerics debugger: which op's compiled code first disagrees with the
 * reference interpreter? Every f32 op output gets a `dump` probe; the
 * compiled run leaves a copy of each value in libstrata_rt; the
 * interpreter, run on the same instrumented IR, reaches the same probes in
 * execution order and compares. A probe inside a loop runs once per
 * iteration and its dump keeps the last one, so the interpreter's value of
 * its last run is kept and compared after the run. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "instr.h"
#include "strata/instrument.h"
#include "strata/interpreter.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "strata/target_llvm.h"

typedef struct {
  MlirOperation probe;
  StrataTensor *ref; /* owned */
} Deferred;

typedef struct {
  const StrataDebugNumericsOptions *options;
  StrataDebugNumericsReport *report;
  bool writeFailed;
  Deferred *deferred; /* the probes inside loops, with their last value */
  size_t numDeferred;
} Observer;

static int64_t intAttr(MlirOperation op, const char *name) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a) ? -1 : mlirIntegerAttrGetValueInt(a);
}

static bool isDumpProbe(MlirOperation op) {
  if (!strataOpIsNamed(op, "instr.probe")) return false;
  MlirAttribute t = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("tool"));
  return !mlirAttributeIsNull(t) && mlirAttributeIsAString(t) &&
         mlirStringRefEqual(mlirStringAttrGetValue(t), mlirStringRefCreateFromCString("dump"));
}

static void appendLocation(MlirStringRef s, void *user) {
  char *buf = user;
  size_t len = strlen(buf), room = 255 - len;
  strncat(buf, s.data, s.length < room ? s.length : room);
}

static void writeNpy(Observer *w, int64_t opId, int64_t index, const char *kind, const StrataTensor *t) {
  char path[1024], err[512];
  snprintf(path, sizeof path, "%s/op%lld_%lld.%s.npy", w->options->dumpDir, (long long)opId,
           (long long)index, kind);
  if (!strataNpyWrite(path, t, err, sizeof err)) w->writeFailed = true;
}

static bool inLoop(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (strataOpIsNamed(p, "scf.for") || strataOpIsNamed(p, "scf.while") || strataOpIsNamed(p, "scf.parallel") ||
        strataOpIsNamed(p, "scf.forall"))
      return true;
  return false;
}

static void compareProbe(Observer *w, MlirOperation op, const StrataTensor *ref);

static void observe(MlirOperation op, const StrataTensor *const *results, intptr_t n, void *user) {
  Observer *w = user;
  if (n != 1 || !results[0] || !isDumpProbe(op)) return;
  if (!inLoop(op)) {
    compareProbe(w, op, results[0]);
    return;
  }
  size_t i = 0;
  while (i < w->numDeferred && !mlirOperationEqual(w->deferred[i].probe, op)) i++;
  StrataTensor *copy = strataTensorCreate(results[0]->dtype, results[0]->rank, results[0]->dims);
  Deferred *grown = i < w->numDeferred ? w->deferred : realloc(w->deferred, (i + 1) * sizeof *grown);
  if (!copy || !grown) { /* out of memory: this probe goes uncompared */
    strataTensorDestroy(copy);
    return;
  }
  memcpy(copy->data, results[0]->data, strataTensorNumBytes(copy));
  w->deferred = grown;
  if (i == w->numDeferred) w->deferred[w->numDeferred++] = (Deferred){op, NULL};
  strataTensorDestroy(w->deferred[i].ref);
  w->deferred[i].ref = copy;
}

static void compareProbe(Observer *w, MlirOperation op, const StrataTensor *ref) {
  int64_t opId = intAttr(op, "op_id"), index = intAttr(op, "index"), dims[STRATA_RT_MAX_RANK];
  int rank;
  const float *jit = strataRtInstrGetDump(opId, index, &rank, dims);
  if (!jit) return; /* the probe did not survive into compiled code */
  StrataTensor *copy = strataTensorCreate(STRATA_DTYPE_F32, rank, dims);
  if (!copy) return;
  memcpy(copy->data, jit, strataTensorNumBytes(copy));
  bool same = rank == ref->rank;
  for (int i = 0; same && i < rank; i++) same = dims[i] == ref->dims[i];
  double maxAbs = same ? 0 : INFINITY;
  bool within = same;
  for (int64_t k = 0; same && k < strataTensorNumElements(ref); k++) {
    double a = jit[k], b = strataTensorGetDouble(ref, k), err = fabs(a - b);
    if (isnan(a) != isnan(b)) err = INFINITY;
    else if (isnan(a) || (a == b)) err = 0; /* NaN == NaN, inf == inf */
    maxAbs = err > maxAbs ? err : maxAbs;
    if (err > w->options->atol + w->options->rtol * fabs(b)) within = false;
  }
  StrataDebugNumericsReport *r = w->report;
  r->compared++;
  if (w->options->dumpDir) {
    writeNpy(w, opId, index, "jit", copy);
    writeNpy(w, opId, index, "ref", ref);
  }
  strataTensorDestroy(copy);
  if (within || r->diverged) return;
  r->diverged = true;
  r->opId = opId;
  r->index = index;
  r->maxAbsError = maxAbs;
  MlirAttribute name = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("op_name"));
  MlirStringRef s = mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name) : mlirStringRefCreate("?", 1);
  snprintf(r->opName, sizeof r->opName, "%.*s", (int)s.length, s.data);
  r->location[0] = '\0';
  mlirLocationPrint(mlirOperationGetLocation(op), appendLocation, r->location);
}

MlirLogicalResult strataDebugNumerics(StrataContext *ctx, MlirModule module, const char *entry,
                                      StrataTensor *const *inputs, size_t numInputs,
                                      const StrataDebugNumericsOptions *options,
                                      StrataDebugNumericsReport *report) {
  *report = (StrataDebugNumericsReport){0};
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(module));
  MlirModule copy = mlirModuleFromOperation(clone);
  StrataJit *jit = NULL;
  StrataTensor *outs[64] = {0}, **refOuts = NULL;
  size_t numOuts = 0, numRef = 0;
  bool ok = mlirLogicalResultIsSuccess(strataRunPipeline(ctx, clone, "instrument{tool=dump}"));
  MlirOperation func = ok ? strataLookupFunc(copy, entry) : (MlirOperation){NULL};
  if (ok && mlirOperationIsNull(func)) {
    strataEmitError(mlirOperationGetLocation(clone), "debug-numerics: no function '%s'",
                    entry ? entry : "(first public)");
    ok = false;
  }
  char name[256] = "";
  if (ok) {
    MlirAttribute sym = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
    MlirStringRef s = mlirStringAttrGetValue(sym);
    snprintf(name, sizeof name, "%.*s", (int)s.length, s.data);
    MlirType ftype = mlirTypeAttrGetValue(
        mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type")));
    numOuts = (size_t)mlirFunctionTypeGetNumResults(ftype);
    for (size_t i = 0; ok && i < numOuts; i++)
      ok = numOuts <= 64 && (outs[i] = strataTensorCreateForType(mlirFunctionTypeGetResult(ftype, (intptr_t)i)));
    if (!ok)
      strataEmitError(mlirOperationGetLocation(func),
                      "debug-numerics: '%s' needs at most 64 results of static shapes", name);
  }
  if (ok) {
    strataRtInstrReset();
    jit = strataJitCreateWithPipeline(ctx, copy, options->pipeline ? options->pipeline : strataCpuPipeline(),
                                      options->optLevel);
    ok = jit && mlirLogicalResultIsSuccess(strataJitInvoke(jit, name, inputs, numInputs, outs, numOuts));
  }
  Observer w = {options, report, false, NULL, 0};
  if (ok)
    ok = mlirLogicalResultIsSuccess(
        strataInterpretObserved(ctx, func, inputs, numInputs, &refOuts, &numRef, observe, &w));
  for (size_t i = 0; i < w.numDeferred; i++) {
    if (ok) compareProbe(&w, w.deferred[i].probe, w.deferred[i].ref);
    strataTensorDestroy(w.deferred[i].ref);
  }
  free(w.deferred);
  if (ok && w.writeFailed) {
    strataEmitError(mlirOperationGetLocation(func), "debug-numerics: cannot write .npy files into '%s'",
                    options->dumpDir);
    ok = false;
  }
  strataJitDestroy(jit);
  strataRtInstrReset();
  for (size_t i = 0; i < numOuts && i < 64; i++) strataTensorDestroy(outs[i]);
  for (size_t i = 0; i < numRef; i++) strataTensorDestroy(refOuts[i]);
  free(refOuts);
  mlirModuleDestroy(copy);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
