/* strata-run's execution: the reference interpreter, the target's
 * compiled code (strataCompile, strataExecutableInvoke) or both, timing,
 * the comparison of the two, the numerics debugger, and the report. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "mlir-c/BuiltinTypes.h"
#include "instr.h"
#include "kernels.h"
#include "plain.h"
#include "run.h"
#include "tool_time.h"

StrataCompileOptions compileOptions(const Options *o) {
  StrataCompileOptions c = {.fusion = STRATA_FUSION_FIXED, .optLevel = (int)o->optLevel,
                            .fuseProfile = o->fuseProfile, .fuseProfileDb = o->fuseDb,
                            .cacheDir = o->cacheDir, .device = o->device};
  if (o->upstream) c.fusion = STRATA_FUSION_BASELINE;
  else if (o->fusion) strataParseFusionMode(o->fusion, &c.fusion); /* checked by parseArgs */
  return c;
}


bool compareOutputs(StrataTensor *const *jit, StrataTensor *const *ref, size_t n, const Options *o) {
  bool ok = true;
  for (size_t i = 0; i < n; i++) {
    double maxAbs = 0, maxRel = 0;
    bool within = true;
    int64_t count = strataTensorNumElements(ref[i]);
    char js[256], rs[256];
    strataTensorFormatType(jit[i], js, sizeof js);
    strataTensorFormatType(ref[i], rs, sizeof rs);
    if (strcmp(js, rs)) {
      printf("compare output #%zu: shape %s, the interpreter's %s: MISMATCH\n", i, js, rs);
      ok = false;
      continue;
    }
    for (int64_t k = 0; k < count; k++) {
      double a = strataTensorGetDouble(jit[i], k), b = strataTensorGetDouble(ref[i], k);
      /* NaN matches only NaN and an infinity only itself (a tolerance
       * computed from a NaN or infinite reference would accept anything). */
      double err;
      if (isnan(a) || isnan(b) || isinf(a) || isinf(b)) {
        bool same = (isnan(a) && isnan(b)) || a == b;
        err = same ? 0 : INFINITY;
        if (!same) within = false;
        maxAbs = err > maxAbs ? err : maxAbs;
        continue;
      }
      err = fabs(a - b);
      double rel = err / (fabs(b) > 1e-30 ? fabs(b) : 1e-30);
      maxAbs = err > maxAbs ? err : maxAbs;
      maxRel = rel > maxRel && fabs(b) > o->atol ? rel : maxRel;
      if (err > o->atol + o->rtol * fabs(b)) within = false;
    }
    printf("compare output #%zu: max abs error %.3g, max rel error %.3g: %s\n", i, maxAbs, maxRel,
           within ? "OK" : "MISMATCH");
    ok = ok && within;
  }
  return ok;
}

bool createOutputs(RunState *r) {
  for (size_t i = 0; i < r->numOut; i++) {
    MlirType t = mlirFunctionTypeGetResult(r->ftype, (intptr_t)i);
    strataTensorDestroy(r->outputs[i]);
    r->outputs[i] = strataTensorCreateForResult(t);
    if (!r->outputs[i]) {
      char ts[256], why[160];
      strataTypeToString(t, ts, sizeof ts);
      strataTensorTypeProblem(t, why, sizeof why);
      fprintf(stderr, "error: result #%zu of '%s' has type %s, which %s\n", i, r->entry, ts, why);
      return false;
    }
  }
  return true;
}

/* Compiles for the target and runs once, then --repeat times, timed. */
static bool runCompiled(RunState *r, const Options *o) {
  if (!createOutputs(r)) return false;
  double t0 = toolNowMs();
  StrataCompileOptions options = compileOptions(o);
  bool compiled = false;
  if (r->exe) { /* from the model cache (cached.c) */
    t0 -= r->loadMs;
  } else {
    if (!(r->exe = strataCompile(r->ctx, r->module, o->target, &options))) return false;
    compiled = true;
  }
  double t1 = toolNowMs();
  if (mlirLogicalResultIsFailure(
          strataExecutableInvoke(r->exe, r->entry, r->inputs, r->numIn, r->outputs, r->numOut)))
    return false;
  runPrintCompiled(r->entry, t1 - t0, toolNowMs() - t1,
                   compiled ? (strataExecutableFromCache(r->exe) ? "code" : NULL) : "model");
  if (compiled) storeCached(r, o);
  if (o->stats) {
    StrataCallStats s;
    if (strataExecutableCallStats(r->exe, r->entry, &s))
      printf("stats: a call of '%s' launches %zu kernel%s and %zu cop%s on the %s device\n", r->entry, s.launches,
             s.launches == 1 ? "" : "s", s.copies, s.copies == 1 ? "y" : "ies", o->target);
    else
      printf("stats: target '%s' launches no device kernels\n", o->target);
  }
  if (!o->repeat) return true;
  double *times = malloc((size_t)o->repeat * sizeof *times);
  if (!times) return false;
  for (long k = 0; k < o->repeat; k++) {
    double s = toolNowMs();
    strataExecutableInvoke(r->exe, r->entry, r->inputs, r->numIn, r->outputs, r->numOut);
    times[k] = toolNowMs() - s;
  }
  printf("median %.4f ms (%ld runs)\n", toolMedian(times, (size_t)o->repeat), o->repeat);
  free(times);
  return true;
}

bool execute(RunState *r, const Options *o) {
  if (o->mode != MODE_JIT) {
    if (o->shapesFile) return sweepShapes(r, o);
    double t0 = toolNowMs();
    if (mlirLogicalResultIsFailure(
            strataInterpret(r->ctx, r->func, r->inputs, r->numIn, &r->ref, &r->numRef)))
      return false;
    if (o->mode == MODE_INTERPRET) printf("interpreted '%s' in %.3f ms\n", r->entry, toolNowMs() - t0);
  }
  if (o->shapesFile) return sweepShapes(r, o);
  return o->mode == MODE_INTERPRET || runCompiled(r, o);
}

bool report(RunState *r, const Options *o) {
  StrataTensor *const *results = o->mode == MODE_INTERPRET ? r->ref : r->outputs;
  for (size_t i = 0; i < r->numOut; i++) runPrintTensor("output", i, results[i], !o->quiet);
  for (int i = 0; i < o->numOutputs; i++) {
    char err[512];
    if (!strataNpyWrite(o->outputs[i], results[i], err, sizeof err)) {
      fprintf(stderr, "error: %s\n", err);
      return false;
    }
  }
  if (o->mode == MODE_COMPARE && !compareOutputs(r->outputs, r->ref, r->numOut, o)) return false;
  if (o->traceOut && strataRtInstrWrite(o->traceOut) != 0) {
    fprintf(stderr, "error: cannot write the trace to '%s'\n", o->traceOut);
    return false;
  }
  return true;
}

bool debugNumerics(RunState *r, const Options *o) {
  if (o->dumpDir && mkdir(o->dumpDir, 0777) != 0) {
    struct stat st;
    if (stat(o->dumpDir, &st) != 0 || !S_ISDIR(st.st_mode)) {
      fprintf(stderr, "error: cannot create --dump-dir '%s'\n", o->dumpDir);
      return false;
    }
  }
  /* The debugger compares the values libstrata_rt keeps from the JIT's run. */
  if (strcmp(o->target, "cpu")) {
    fprintf(stderr, "error: --debug-numerics checks code for the cpu target, not '%s'\n", o->target);
    return false;
  }
  StrataCompileOptions c = compileOptions(o);
  char *pipeline = strataTargetPipeline(r->ctx, strataContextLookupTarget(r->ctx, o->target), &c,
                                        mlirOperationGetLocation(mlirModuleGetOperation(r->module)));
  StrataDebugNumericsOptions options = {o->atol, o->rtol, pipeline, (int)o->optLevel, o->dumpDir};
  StrataDebugNumericsReport d;
  bool ran = pipeline && mlirLogicalResultIsSuccess(strataDebugNumerics(
                             r->ctx, r->module, r->entry, r->inputs, r->numIn, &options, &d));
  free(pipeline);
  if (!ran) return false;
  if (d.diverged)
    printf("debug-numerics: first divergence at op_id %lld %s output #%lld (%s): max abs error %.3g "
           "(%zu op outputs compared)\n", (long long)d.opId, d.opName, (long long)d.index, d.location,
           d.maxAbsError, d.compared);
  else
    printf("debug-numerics: %zu op outputs compared, all within tolerance\n", d.compared);
  return !d.diverged;
}
