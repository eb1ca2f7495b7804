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

/* The best of five batches of `name`'s per-call average, in ns; < 0 if a
 * call fails (it reported why). */
static double bestAverage(StrataExecutable *exe, const char *name, StrataTensor **in, size_t ni,
                          StrataTensor **out, size_t no) {
  double t0 = nowNs();
  if (mlirLogicalResultIsFailure(strataExecutableInvoke(exe, name, in, ni, out, no))) return -1;
  double once = nowNs() - t0, best = -1;
  int reps = once > 2e6 ? 1 : (int)(2e6 / (once + 1)) + 1;
  for (int batch = 0; batch < 5; batch++) {
    t0 = nowNs();
    for (int r = 0; r < reps; r++)
      if (mlirLogicalResultIsFailure(strataExecutableInvoke(exe, name, in, ni, out, no))) return -1;
    double avg = (nowNs() - t0) / reps;
    if (best < 0 || avg < best) best = avg;
  }
  return best;
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

double strataMeasureKernel(StrataContext *ctx, MlirModule module, const char *target,
                           const StrataCompileOptions *options, const char *kernel,
                           const char *baseline) {
  MlirOperation fn = findFunc(module, kernel);
  if (mlirOperationIsNull(fn)) {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)),
                    "no function '%s' to measure", kernel);
    return -1;
  }
  MlirType ft = mlirTypeAttrGetValue(strataOpAttr(fn, "function_type"));
  intptr_t ni = mlirFunctionTypeGetNumInputs(ft), no = mlirFunctionTypeGetNumResults(ft);
  StrataTensor **in = calloc((size_t)ni + 1, sizeof *in), **out = calloc((size_t)no + 1, sizeof *out);
  bool ok = in && out;
  for (intptr_t i = 0; ok && i < ni; i++) {
    in[i] = strataTensorCreateForType(mlirFunctionTypeGetInput(ft, i));
    if (in[i]) strataTensorFillRandom(in[i], (uint64_t)i + 1, -1, 1);
    ok = in[i] != NULL;
  }
  for (intptr_t o = 0; ok && o < no; o++) ok = (out[o] = strataTensorCreateForType(mlirFunctionTypeGetResult(ft, o))) != NULL;
  StrataExecutable *exe = ok ? strataCompile(ctx, module, target, options) : NULL;
  double ns = -1;
  if (exe) {
    double k = bestAverage(exe, kernel, in, (size_t)ni, out, (size_t)no);
    double base = baseline && k >= 0 ? bestAverage(exe, baseline, in, (size_t)ni, NULL, 0) : 0;
    if (k >= 0 && base >= 0) ns = k > base ? k - base : 0;
  }
  strataExecutableDestroy(exe);
  for (intptr_t i = 0; in && i < ni; i++) strataTensorDestroy(in[i]);
  for (intptr_t o = 0; out && o < no; o++) strataTensorDestroy(out[o]);
  free(in), free(out);
  return ns;
}
