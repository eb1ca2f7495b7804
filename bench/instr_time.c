/* bench/instr_time: the run-time cost of instrumentation on one model, in
 * one process. The model is compiled four times through the default CPU
 * pipeline -- uninstrumented ("none"), and after --instrument with the
 * `noop` tool (callbacks that record nothing: Amanda's no-op routines), the
 * `trace` tool and the `profile` tool -- and single runs of the four are
 * interleaved, each round in a rotated order, so that this VM's slow and
 * fast phases hit all of them alike. The trace records and profile events
 * stay in the runtime's memory, dropped after each round (outside the
 * timed runs). Checks first that noop left the IR byte-identical and that
 * the four agree on the outputs.
 *   instr_time model.mlir RUNS  ->  lines "<name> <value>":
 *     none|noop|trace|profile <median ms of a run>
 *     pass-noop|pass-trace|pass-profile <ms of the instrument pass (best of 3)>
 *     probes-trace|probes-profile <instr.probe ops inserted> */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "instr.h"
#include "strata/strata.h"
#include "tool_io.h"

enum { VARIANTS = 4, MAX_IO = 16 };
static const char *const kNames[VARIANTS] = {"none", "noop", "trace", "profile"};

static double nowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void appendText(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, (FILE *)user); }

/* The module's text with large constants elided (a tool that records
 * nothing touches no constant either). malloc'd. */
static char *moduleText(MlirModule m) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsElideLargeElementsAttrs(flags, 16);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(m), flags, appendText, f);
  mlirOpPrintingFlagsDestroy(flags);
  fclose(f);
  return text;
}

static MlirWalkResult countProbe(MlirOperation op, void *user) {
  *(long *)user += strataOpIsNamed(op, "instr.probe");
  return MlirWalkResultAdvance;
}

/* A clone of `m` instrumented with `tool`; *passMs: the pass's best time
 * over three fresh clones. Null module on failure (diagnostics printed). */
static MlirModule instrumented(StrataContext *ctx, MlirModule m, const char *tool, double *passMs) {
  char pipeline[64];
  snprintf(pipeline, sizeof pipeline, "instrument{tool=%s}", tool);
  MlirModule clone = {NULL};
  *passMs = INFINITY;
  for (int rep = 0; rep < 3; rep++) {
    if (!mlirModuleIsNull(clone)) mlirModuleDestroy(clone);
    clone = mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(m)));
    double t0 = nowMs();
    if (mlirLogicalResultIsFailure(strataRunPipeline(ctx, mlirModuleGetOperation(clone), pipeline))) {
      mlirModuleDestroy(clone);
      return (MlirModule){NULL};
    }
    *passMs = fmin(*passMs, nowMs() - t0);
  }
  return clone;
}

static double maxAbsDiff(const StrataTensor *a, const StrataTensor *b, double *range) {
  double d = 0, lo = INFINITY, hi = -INFINITY;
  const float *x = a->data, *y = b->data;
  for (int64_t i = 0; i < strataTensorNumElements(a); i++) {
    d = fmax(d, fabs((double)x[i] - y[i]));
    lo = fmin(lo, y[i]), hi = fmax(hi, y[i]);
  }
  *range = hi - lo;
  return d;
}

int main(int argc, char **argv) {
  if (argc != 3) return fprintf(stderr, "usage: instr_time model.mlir RUNS\n"), 2;
  int runs = atoi(argv[2]);
  StrataContext *ctx = strataContextCreate();
  size_t len;
  char *text = ctx ? toolReadFile(argv[1], &len) : NULL;
  MlirModule m = text ? strataParseModule(ctx, mlirStringRefCreate(text, len), argv[1]) : (MlirModule){NULL};
  if (mlirModuleIsNull(m) || runs < 1) return fprintf(stderr, "instr_time: cannot load %s\n", argv[1]), 1;
  MlirOperation f = strataLookupFunc(m, NULL);
  if (mlirOperationIsNull(f)) return fprintf(stderr, "%s: error: no public function with a body\n", argv[1]), 1;
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  char entry[256];
  snprintf(entry, sizeof entry, "%.*s", (int)fname.length, fname.data);
  size_t ni = (size_t)mlirFunctionTypeGetNumInputs(ft), no = (size_t)mlirFunctionTypeGetNumResults(ft);
  if (ni > MAX_IO || no > MAX_IO) return fprintf(stderr, "instr_time: too many inputs/outputs\n"), 1;
  StrataTensor *in[MAX_IO], *out[VARIANTS][MAX_IO];
  for (size_t i = 0; i < ni; i++) {
    in[i] = strataTensorCreateForType(mlirFunctionTypeGetInput(ft, (intptr_t)i));
    if (!in[i] || in[i]->dtype != STRATA_DTYPE_F32)
      return fprintf(stderr, "instr_time: input #%zu is not a static f32 tensor\n", i), 1;
    strataTensorFillRandom(in[i], i + 1, -1, 1);
  }
  StrataJit *jit[VARIANTS];
  double passMs[VARIANTS] = {0};
  long probes[VARIANTS] = {0};
  char *plain = moduleText(m);
  for (int k = 0; k < VARIANTS; k++) {
    MlirModule v = k ? instrumented(ctx, m, kNames[k], &passMs[k]) : m;
    if (mlirModuleIsNull(v)) return fprintf(stderr, "instr_time: --instrument tool=%s failed\n", kNames[k]), 1;
    mlirOperationWalk(mlirModuleGetOperation(v), countProbe, &probes[k], MlirWalkPreOrder);
    if (!strcmp(kNames[k], "noop")) {
      char *after = moduleText(v);
      bool same = plain && after && !strcmp(plain, after);
      free(after);
      if (!same) return fprintf(stderr, "instr_time: the noop tool changed the IR\n"), 1;
    }
    jit[k] = strataJitCreateWithPipeline(ctx, v, strataCpuPipeline(), 2);
    if (k) mlirModuleDestroy(v);
    for (size_t o = 0; o < no; o++) {
      out[k][o] = strataTensorCreateForType(mlirFunctionTypeGetResult(ft, (intptr_t)o));
      if (!out[k][o] || out[k][o]->dtype != STRATA_DTYPE_F32)
        return fprintf(stderr, "instr_time: result #%zu is not a static f32 tensor\n", o), 1;
    }
    if (!jit[k] || mlirLogicalResultIsFailure(strataJitInvoke(jit[k], entry, in, ni, out[k], no)))
      return fprintf(stderr, "instr_time: %s failed\n", kNames[k]), 1;
  }
  free(plain);
  for (int k = 1; k < VARIANTS; k++)
    for (size_t o = 0; o < no; o++) {
      double range, d = maxAbsDiff(out[k][o], out[0][o], &range);
      if (d > 1e-3 * range + 1e-6)
        return fprintf(stderr, "instr_time: %s differs from none by %g (range %g)\n", kNames[k], d, range), 1;
    }
  double *t[VARIANTS];
  for (int k = 0; k < VARIANTS; k++) t[k] = malloc((size_t)runs * sizeof(double));
  for (int r = 0; r < runs; r++) {
    for (int i = 0; i < VARIANTS; i++) {
      int k = (r + i) % VARIANTS;
      double s = nowMs();
      strataJitInvoke(jit[k], entry, in, ni, out[k], no);
      t[k][r] = nowMs() - s;
    }
    strataRtInstrReset();
  }
  for (int k = 0; k < VARIANTS; k++) {
    qsort(t[k], (size_t)runs, sizeof(double), cmpDouble);
    printf("%s %.4f\n", kNames[k], t[k][runs / 2]);
    free(t[k]);
    strataJitDestroy(jit[k]);
    for (size_t o = 0; o < no; o++) strataTensorDestroy(out[k][o]);
  }
  for (int k = 1; k < VARIANTS; k++) printf("pass-%s %.3f\n", kNames[k], passMs[k]);
  for (int k = 2; k < VARIANTS; k++) printf("probes-%s %ld\n", kNames[k], probes[k]);
  for (size_t i = 0; i < ni; i++) strataTensorDestroy(in[i]);
  free(text);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
