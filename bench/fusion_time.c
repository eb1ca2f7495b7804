/* bench/fusion_time: times one model compiled with each fusion mode of the
 * CPU pipeline -- none, fixed (kernel epilogues), dnnfusion -- in one
 * process, interleaving single runs of the three so that this VM's slow and
 * fast phases hit all of them alike (separate processes minutes apart
 * differed by up to 20% on the same code). Checks the three agree first.
 *   fusion_time model.mlir RUNS [PROFILE_DB]  ->  "<mode> <median ms>" lines */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"
#include "tool_io.h"

enum { MODES = 3, MAX_IO = 16 };

static double nowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
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
  if (argc < 3) return fprintf(stderr, "usage: fusion_time model.mlir RUNS [PROFILE_DB]\n"), 2;
  int runs = atoi(argv[2]);
  StrataContext *ctx = strataContextCreate();
  size_t len;
  char *text = ctx ? toolReadFile(argv[1], &len) : NULL;
  MlirModule m = text ? strataParseModule(ctx, mlirStringRefCreate(text, len), argv[1]) : (MlirModule){NULL};
  if (mlirModuleIsNull(m) || runs < 1) return fprintf(stderr, "fusion_time: cannot load %s\n", argv[1]), 1;
  MlirOperation f = strataLookupFunc(m, NULL);
  MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  MlirStringRef fname = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  char entry[256];
  snprintf(entry, sizeof entry, "%.*s", (int)fname.length, fname.data);
  size_t ni = (size_t)mlirFunctionTypeGetNumInputs(ft), no = (size_t)mlirFunctionTypeGetNumResults(ft);
  if (ni > MAX_IO || no > MAX_IO) return fprintf(stderr, "fusion_time: too many inputs/outputs\n"), 1;
  StrataTensor *in[MAX_IO], *out[MODES][MAX_IO];
  for (size_t i = 0; i < ni; i++) {
    in[i] = strataTensorCreateForType(mlirFunctionTypeGetInput(ft, (intptr_t)i));
    if (!in[i] || in[i]->dtype != STRATA_DTYPE_F32)
      return fprintf(stderr, "fusion_time: input #%zu is not a static f32 tensor\n", i), 1;
    strataTensorFillRandom(in[i], i + 1, -1, 1);
  }
  static const char *const names[MODES] = {"none", "fixed", "dnnfusion"};
  char *withDb = argc > 3 ? strataCpuPipelineFusedWithProfileDb(argv[3]) : NULL;
  const char *pipelines[MODES] = {strataCpuPipelineUnfused(), strataCpuPipeline(),
                                  withDb ? withDb : strataCpuPipelineFused()};
  StrataJit *jit[MODES];
  for (int k = 0; k < MODES; k++) {
    jit[k] = strataJitCreateWithPipeline(ctx, m, pipelines[k], 2);
    for (size_t o = 0; o < no; o++) {
      out[k][o] = strataTensorCreateForType(mlirFunctionTypeGetResult(ft, (intptr_t)o));
      if (!out[k][o] || out[k][o]->dtype != STRATA_DTYPE_F32)
        return fprintf(stderr, "fusion_time: result #%zu is not a static f32 tensor\n", o), 1;
    }
    if (!jit[k] || mlirLogicalResultIsFailure(strataJitInvoke(jit[k], entry, in, ni, out[k], no)))
      return fprintf(stderr, "fusion_time: %s failed\n", names[k]), 1;
  }
  for (int k = 1; k < MODES; k++)
    for (size_t o = 0; o < no; o++) {
      double range, d = maxAbsDiff(out[k][o], out[0][o], &range);
      if (d > 1e-3 * range + 1e-6)
        return fprintf(stderr, "fusion_time: %s differs from none by %g (range %g)\n", names[k], d, range), 1;
    }
  double *t[MODES];
  for (int k = 0; k < MODES; k++) t[k] = malloc((size_t)runs * sizeof(double));
  for (int r = 0; r < runs; r++)
    for (int k = 0; k < MODES; k++) {
      double s = nowMs();
      strataJitInvoke(jit[k], entry, in, ni, out[k], no);
      t[k][r] = nowMs() - s;
    }
  for (int k = 0; k < MODES; k++) {
    qsort(t[k], (size_t)runs, sizeof(double), cmpDouble);
    printf("%s %.4f\n", names[k], t[k][runs / 2]);
    free(t[k]);
    strataJitDestroy(jit[k]);
    for (size_t o = 0; o < no; o++) strataTensorDestroy(out[k][o]);
  }
  for (size_t i = 0; i < ni; i++) strataTensorDestroy(in[i]);
  free(withDb);
  free(text);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
