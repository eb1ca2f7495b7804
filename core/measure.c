/* strataMeasureKernel (strata/target.h): a candidate kernel timed on this
 * machine, the measurement every tuner shares. */
#include <stdlib.h>
#include <time.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "strata/target.h"

static double nowNs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* Calls of `name` a batch makes to last >= 2 ms, from one timed call
 * (which also warms it up); 0 if the call fails (it reported why). */
static int batchCalls(StrataExecutable *exe, const char *name, StrataTensor **in, size_t ni, StrataTensor **out,
                      size_t no) {
  double t0 = nowNs();
  if (mlirLogicalResultIsFailure(strataExecutableInvoke(exe, name, in, ni, out, no))) return 0;
  double once = nowNs() - t0;
  return once > 2e6 ? 1 : (int)(2e6 / (once + 1)) + 1;
}

/* The per-call average of a batch of `reps` calls, in ns; < 0 if a call
 * fails. */
static double batchAverage(StrataExecutable *exe, const char *name, int reps, StrataTensor **in, size_t ni,
                           StrataTensor **out, size_t no) {
  double t0 = nowNs();
  for (int r = 0; r < reps; r++)
    if (mlirLogicalResultIsFailure(strataExecutableInvoke(exe, name, in, ni, out, no))) return -1;
  return (nowNs() - t0) / reps;
}

/* The best of five batches of `name`'s per-call average, in ns; < 0 if a
 * call fails (it reported why). */
static double bestAverage(StrataExecutable *exe, const char *name, StrataTensor **in, size_t ni,
                          StrataTensor **out, size_t no) {
  int reps = batchCalls(exe, name, in, ni, out, no);
  double best = -1;
  for (int batch = 0; reps > 0 && batch < 5; batch++) {
    double avg = batchAverage(exe, name, reps, in, ni, out, no);
    if (avg < 0) return -1;
    if (best < 0 || avg < best) best = avg;
  }
  return reps > 0 ? best : -1;
}

static MlirOperation findFunc(MlirModule m, const char *name) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute n = strataOpAttr(op, "sym_name");
    if (strataOpIsNamed(op, "func.func") && !mlirAttributeIsNull(n) &&
        mlirStringRefEqual(mlirStringAttrGetValue(n), mlirStringRefCreateFromCString(name)))
      return op;
  }
  return (MlirOperation){NULL};
}

/* The inputs (seeded random) and outputs of function `fn`, null-terminated
 * arrays; false if one cannot be made (what was made is still to free). */
typedef struct {
  StrataTensor **in, **out;
  intptr_t ni, no;
} Args;

static bool argsCreate(MlirOperation fn, Args *a) {
  MlirType ft = mlirTypeAttrGetValue(strataOpAttr(fn, "function_type"));
  a->ni = mlirFunctionTypeGetNumInputs(ft), a->no = mlirFunctionTypeGetNumResults(ft);
  a->in = calloc((size_t)a->ni + 1, sizeof *a->in), a->out = calloc((size_t)a->no + 1, sizeof *a->out);
  bool ok = a->in && a->out;
  for (intptr_t i = 0; ok && i < a->ni; i++) {
    a->in[i] = strataTensorCreateForType(mlirFunctionTypeGetInput(ft, i));
    if (a->in[i]) strataTensorFillRandom(a->in[i], (uint64_t)i + 1, -1, 1);
    ok = a->in[i] != NULL;
  }
  for (intptr_t o = 0; ok && o < a->no; o++)
    ok = (a->out[o] = strataTensorCreateForType(mlirFunctionTypeGetResult(ft, o))) != NULL;
  return ok;
}

static void argsDestroy(Args *a) {
  for (intptr_t i = 0; a->in && i < a->ni; i++) strataTensorDestroy(a->in[i]);
  for (intptr_t o = 0; a->out && o < a->no; o++) strataTensorDestroy(a->out[o]);
  free(a->in), free(a->out);
}

static MlirOperation kernelFunc(MlirModule module, const char *kernel) {
  MlirOperation fn = findFunc(module, kernel);
  if (mlirOperationIsNull(fn))
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)), "no function '%s' to measure", kernel);
  return fn;
}

double strataMeasureKernel(StrataContext *ctx, MlirModule module, const char *target,
                           const StrataCompileOptions *options, const char *kernel,
                           const char *baseline) {
  MlirOperation fn = kernelFunc(module, kernel);
  if (mlirOperationIsNull(fn)) return -1;
  Args a = {0};
  bool ok = argsCreate(fn, &a);
  StrataExecutable *exe = ok ? strataCompile(ctx, module, target, options) : NULL;
  double ns = -1;
  if (exe) {
    double k = bestAverage(exe, kernel, a.in, (size_t)a.ni, a.out, (size_t)a.no);
    double base = baseline && k >= 0 ? bestAverage(exe, baseline, a.in, (size_t)a.ni, NULL, 0) : 0;
    if (k >= 0 && base >= 0) ns = k > base ? k - base : 0;
  }
  strataExecutableDestroy(exe);
  argsDestroy(&a);
  return ns;
}

static int byValue(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

MlirLogicalResult strataMeasureKernelsInterleaved(StrataContext *ctx, MlirModule module, const char *target,
                                                  const StrataCompileOptions *options, const char *const *kernels,
                                                  int n, int rounds, double *ns) {
  if (n < 1 || rounds < 1) {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                    "interleaved measurement of %d kernels over %d rounds: both must be positive", n, rounds);
    return mlirLogicalResultFailure();
  }
  MlirOperation fn = kernelFunc(module, kernels[0]);
  bool ok = !mlirOperationIsNull(fn);
  for (int k = 1; ok && k < n; k++) ok = !mlirOperationIsNull(kernelFunc(module, kernels[k]));
  Args a = {0};
  ok = ok && argsCreate(fn, &a);
  StrataExecutable *exe = ok ? strataCompile(ctx, module, target, options) : NULL;
  int *reps = calloc((size_t)n, sizeof *reps);
  double *times = calloc((size_t)n * (size_t)rounds, sizeof *times);
  ok = exe && reps && times;
  for (int k = 0; ok && k < n; k++) ok = (reps[k] = batchCalls(exe, kernels[k], a.in, (size_t)a.ni, a.out, (size_t)a.no)) > 0;
  /* round r runs the kernels from k = r % n on: each takes every place in
   * the order, so a load that comes and goes falls on all of them */
  for (int r = 0; ok && r < rounds; r++)
    for (int j = 0; ok && j < n; j++) {
      int k = (r + j) % n;
      double t = batchAverage(exe, kernels[k], reps[k], a.in, (size_t)a.ni, a.out, (size_t)a.no);
      times[(size_t)k * (size_t)rounds + (size_t)r] = t;
      ok = t >= 0;
    }
  for (int k = 0; ok && k < n; k++) {
    double *t = times + (size_t)k * (size_t)rounds;
    qsort(t, (size_t)rounds, sizeof *t, byValue);
    ns[k] = rounds % 2 ? t[rounds / 2] : (t[rounds / 2 - 1] + t[rounds / 2]) / 2;
  }
  if (exe && (!reps || !times))
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)), "out of memory");
  free(reps), free(times);
  strataExecutableDestroy(exe);
  argsDestroy(&a);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
