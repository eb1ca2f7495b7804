/* strata-run --shapes FILE: the dynamic-shape sweep (issue 19). The model
 * compiles once; every line of FILE gives one set of input shapes (NAME=DIMS
 * ..., as --input-shape; blank lines and '#' comments skipped), whose
 * random inputs run through that one executable. Per shape it reports the
 * output shapes, the latency (the median of --repeat runs, else one) and
 * the peak of the memory the compiled code's runtime held during those
 * runs (buffer arenas, buffers of dynamic size, kernel scratch -- also the
 * arenas and scratch kept from the warm-up run: the intermediates; not the
 * weights, the inputs, or the constants it packed in the warm-up run),
 * and with --compare checks the outputs against the interpreter. A function
 * whose buffers of dynamic size have a shape plan (strata-shape-plan) also
 * reports whether this shape's class was planned now ("plan searched" by
 * the planner's search, "plan re-evaluated" from the structure of the plan
 * searched before, with this class's sizes; "at entry" when the sizes were
 * computed at the call's entry, else that call ran on the heap and planned
 * at its end) or served by a plan kept from an earlier line ("plan kept"), and the plan's arena (and the most bytes its buffers have live at one step,
 * the arena's lower bound), then how many buffers a call took from the
 * heap (memref.allocs no arena or plan serves); the last line counts
 * the plans computed and the calls they served. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "run.h"
#include "status.h"
#include "tool_time.h"

#define MAX_LINE 4096

/* Splits a line into its NAME=DIMS words; -1 when there are too many. */
static int splitSpecs(char *line, const char **specs) {
  int n = 0;
  for (char *w = strtok(line, " \t\r\n"); w; w = strtok(NULL, " \t\r\n")) {
    if (*w == '#') break;
    if (n == MAX_IO) return -1;
    specs[n++] = w;
  }
  return n;
}

/* One run of the executable on r->inputs; its time in ms, or -1. */
static double runOnce(RunState *r) {
  for (size_t i = 0; i < r->numOut; i++) {
    strataTensorDestroy(r->outputs[i]);
    r->outputs[i] = strataTensorCreateForResult(mlirFunctionTypeGetResult(r->ftype, (intptr_t)i));
    if (!r->outputs[i]) return fprintf(stderr, "error: cannot allocate output #%zu\n", i), -1;
  }
  double t0 = toolNowMs();
  if (mlirLogicalResultIsFailure(strataExecutableInvoke(r->exe, r->entry, r->inputs, r->numIn, r->outputs, r->numOut)))
    return -1;
  return toolNowMs() - t0;
}

static bool checkAgainstInterpreter(RunState *r, const Options *o) {
  StrataTensor **ref = NULL;
  size_t numRef = 0;
  bool ok = mlirLogicalResultIsSuccess(strataInterpret(r->ctx, r->func, r->inputs, r->numIn, &ref, &numRef)) &&
            numRef == r->numOut && compareOutputs(r->outputs, ref, r->numOut, o);
  for (size_t i = 0; i < numRef; i++) strataTensorDestroy(ref[i]);
  free(ref);
  return ok;
}

bool sweepShapes(RunState *r, const Options *o) {
  FILE *f = fopen(o->shapesFile, "r");
  if (!f) return fprintf(stderr, "error: cannot open --shapes file '%s'\n", o->shapesFile), false;
  StrataCompileOptions options = compileOptions(o);
  double t0 = toolNowMs();
  r->exe = o->mode == MODE_INTERPRET ? NULL : strataCompile(r->ctx, r->module, o->target, &options);
  if (o->mode != MODE_INTERPRET && !r->exe) return fclose(f), false;
  if (r->exe) printf("compiled '%s' once in %.1f ms\n", r->entry, toolNowMs() - t0);
  char line[MAX_LINE];
  int lineNo = 0, shapes = 0;
  bool ok = true;
  long repeat = o->repeat > 0 ? o->repeat : 1;
  double *times = malloc((size_t)repeat * sizeof *times);
  while (ok && times && fgets(line, sizeof line, f)) {
    lineNo++;
    const char *specs[MAX_IO];
    char words[MAX_LINE];
    snprintf(words, sizeof words, "%s", line);
    int n = splitSpecs(words, specs);
    if (n == 0) continue;
    if (n < 0) {
      fprintf(stderr, "%s:%d: error: more than %d shapes on a line\n", o->shapesFile, lineNo, MAX_IO);
      ok = false;
      break;
    }
    for (int k = 0; k < n && ok; k++)
      if (!strchr(specs[k], '=')) {
        fprintf(stderr, "%s:%d: error: '%s' is not NAME=DIMS\n", o->shapesFile, lineNo, specs[k]);
        ok = false;
      }
    if (!ok || !makeInputs(r, o, specs, n)) {
      ok = false;
      break;
    }
    shapes++;
    printf("shape %d:", shapes);
    for (int k = 0; k < n; k++) printf(" %s", specs[k]);
    if (!r->exe) { /* --interpret: the reference alone */
      StrataTensor **ref = NULL;
      size_t numRef = 0;
      ok = mlirLogicalResultIsSuccess(strataInterpret(r->ctx, r->func, r->inputs, r->numIn, &ref, &numRef));
      for (size_t i = 0; i < numRef; i++) {
        char s[256];
        strataTensorFormatType(ref[i], s, sizeof s);
        printf("%s %s", i ? "," : " ->", s);
        strataTensorDestroy(ref[i]);
      }
      free(ref);
      printf("\n");
      continue;
    }
    /* a warm-up run first: it also packs the constants the runtime keeps */
    struct StrataRtEnv *env = strataContextGetRuntimeEnv(r->ctx);
    StrataRtShapePlanStats plans0, plans1;
    strataRtEnvShapePlanStats(env, &plans0);
    ok = runOnce(r) >= 0;
    /* the arenas and scratch the warm-up left are this shape's working
     * memory too: only what outlives calls (packed constants) is not */
    size_t before = strataRtEnvBytesInUse(env) - strataRtEnvKeptBytes(env);
    strataRtEnvResetPeak(env);
    uint64_t heap0 = strataRtEnvHeapBuffers(env);
    for (long k = 0; k < repeat && ok; k++) ok = (times[k] = runOnce(r)) >= 0;
    size_t peak = strataRtEnvPeakBytes(env) - before;
    if (!ok) {
      printf("\n");
      break;
    }
    for (size_t i = 0; i < r->numOut; i++) {
      char s[256];
      strataTensorFormatType(r->outputs[i], s, sizeof s);
      printf("%s %s", i ? "," : " ->", s);
    }
    printf("  %.4f ms  peak %.1f KiB", toolMedian(times, (size_t)repeat), (double)peak / 1024.0);
    strataRtEnvShapePlanStats(env, &plans1);
    if (plans1.computed != plans0.computed || plans1.reused != plans0.reused)
      printf("  plan %s%s, arena %.1f KiB (live peak %.1f KiB)",
             plans1.computed == plans0.computed ? "kept" : plans1.rebased != plans0.rebased ? "re-evaluated" : "searched",
             plans1.atEntry != plans0.atEntry ? " at entry" : "",
             (double)plans1.lastArenaBytes / 1024.0, (double)plans1.lastLiveBytes / 1024.0);
    printf("  heap buffers %.1f per call\n", (double)(strataRtEnvHeapBuffers(env) - heap0) / (double)repeat);
    if (o->mode == MODE_COMPARE) ok = checkAgainstInterpreter(r, o);
  }
  free(times);
  fclose(f);
  if (ok && !shapes) fprintf(stderr, "error: --shapes file '%s' holds no shape\n", o->shapesFile), ok = false;
  if (ok) printf("swept %d shapes through %d compile%s\n", shapes, r->exe ? 1 : 0, r->exe ? "" : "s");
  StrataRtShapePlanStats plans;
  strataRtEnvShapePlanStats(r->exe ? strataContextGetRuntimeEnv(r->ctx) : NULL, &plans);
  if (ok && (plans.computed || plans.reused))
    printf("shape plans: %llu computed (%llu searched, %llu re-evaluated; %llu at entry), %llu calls served from one "
           "(%llu buffers past their slot), %llu evicted\n",
           (unsigned long long)plans.computed, (unsigned long long)(plans.computed - plans.rebased),
           (unsigned long long)plans.rebased, (unsigned long long)plans.atEntry, (unsigned long long)plans.reused,
           (unsigned long long)plans.heapBuffers, (unsigned long long)plans.evicted);
  return ok;
}
