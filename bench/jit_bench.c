/* What bench/fusion_time.c and bench/instr_time.c share (jit_bench.h). */
#include "jit_bench.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "tool_io.h"
#include "tool_time.h"

bool benchLoad(Bench *b, const char *prog, const char *path) {
  memset(b, 0, sizeof *b);
  b->prog = prog;
  b->ctx = strataContextCreate();
  size_t len;
  b->text = b->ctx ? toolReadFile(path, &len) : NULL;
  b->module = b->text ? strataParseModule(b->ctx, mlirStringRefCreate(b->text, len), path) : (MlirModule){NULL};
  if (mlirModuleIsNull(b->module)) return fprintf(stderr, "%s: cannot load %s\n", prog, path), false;
  MlirOperation f = strataLookupFunc(b->module, NULL);
  if (mlirOperationIsNull(f)) return fprintf(stderr, "%s: error: no public function with a body\n", path), false;
  b->type = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("function_type")));
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
  snprintf(b->entry, sizeof b->entry, "%.*s", (int)name.length, name.data);
  b->ni = (size_t)mlirFunctionTypeGetNumInputs(b->type), b->no = (size_t)mlirFunctionTypeGetNumResults(b->type);
  if (b->ni > BENCH_MAX_IO || b->no > BENCH_MAX_IO) return fprintf(stderr, "%s: too many inputs/outputs\n", prog), false;
  for (size_t i = 0; i < b->ni; i++) {
    b->in[i] = strataTensorCreateForType(mlirFunctionTypeGetInput(b->type, (intptr_t)i));
    if (!b->in[i] || b->in[i]->dtype != STRATA_DTYPE_F32)
      return fprintf(stderr, "%s: input #%zu is not a static f32 tensor\n", prog, i), false;
    strataTensorFillRandom(b->in[i], i + 1, -1, 1);
  }
  return true;
}

bool benchAddVariant(Bench *b, const char *name, MlirModule m, const char *pipeline) {
  if (b->variants == BENCH_MAX_VARIANTS) return fprintf(stderr, "%s: too many variants\n", b->prog), false;
  int k = b->variants++;
  b->names[k] = name;
  b->jit[k] = strataJitCreateWithPipeline(b->ctx, m, pipeline, 2);
  for (size_t o = 0; o < b->no; o++) {
    b->out[k][o] = strataTensorCreateForType(mlirFunctionTypeGetResult(b->type, (intptr_t)o));
    if (!b->out[k][o] || b->out[k][o]->dtype != STRATA_DTYPE_F32)
      return fprintf(stderr, "%s: result #%zu is not a static f32 tensor\n", b->prog, o), false;
  }
  if (!b->jit[k] || mlirLogicalResultIsFailure(strataJitInvoke(b->jit[k], b->entry, b->in, b->ni, b->out[k], b->no)))
    return fprintf(stderr, "%s: %s failed\n", b->prog, name), false;
  return true;
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

bool benchAgree(const Bench *b) {
  for (int k = 1; k < b->variants; k++)
    for (size_t o = 0; o < b->no; o++) {
      double range, d = maxAbsDiff(b->out[k][o], b->out[0][o], &range);
      if (d > 1e-3 * range + 1e-6)
        return fprintf(stderr, "%s: %s differs from %s by %g (range %g)\n", b->prog, b->names[k], b->names[0], d,
                       range),
               false;
    }
  return true;
}

void benchTime(Bench *b, int runs, bool rotate, void (*afterRound)(void), double *medianMs) {
  double *t[BENCH_MAX_VARIANTS];
  for (int k = 0; k < b->variants; k++) t[k] = malloc((size_t)runs * sizeof(double));
  for (int r = 0; r < runs; r++) {
    for (int i = 0; i < b->variants; i++) {
      int k = rotate ? (r + i) % b->variants : i;
      double s = toolNowMs();
      strataJitInvoke(b->jit[k], b->entry, b->in, b->ni, b->out[k], b->no);
      if (t[k]) t[k][r] = toolNowMs() - s;
    }
    if (afterRound) afterRound();
  }
  for (int k = 0; k < b->variants; k++) {
    medianMs[k] = t[k] ? toolMedian(t[k], (size_t)runs) : NAN;
    free(t[k]);
  }
}

void benchDestroy(Bench *b) {
  for (int k = 0; k < b->variants; k++) {
    if (b->jit[k]) strataJitDestroy(b->jit[k]);
    for (size_t o = 0; o < b->no; o++) strataTensorDestroy(b->out[k][o]);
  }
  for (size_t i = 0; i < b->ni; i++) strataTensorDestroy(b->in[i]);
  if (!mlirModuleIsNull(b->module)) mlirModuleDestroy(b->module);
  free(b->text);
  if (b->ctx) strataContextDestroy(b->ctx);
}
