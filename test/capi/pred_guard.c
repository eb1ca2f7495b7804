/* pred.guard's reference kernel through strataInterpret: the body runs
 * only when the i1 predicate (held as a rank-0 tensor) is true; otherwise
 * the results are copies of the else operands -- also for a true inner
 * guard inside a false outer one. (strata-run cannot pass an i1 scalar.)
 * RUN: %capi/pred_guard 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

static const char kModule[] =
    "func.func @guard(%p: i1, %q: i1, %x: tensor<4xf32>, %old: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %r = \"pred.guard\"(%p, %old) ({\n"
    "    %i = \"pred.guard\"(%q, %x) ({\n"
    "      %y = \"nn.relu\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "      \"gpu.yield\"(%y) : (tensor<4xf32>) -> ()\n"
    "    }) : (i1, tensor<4xf32>) -> tensor<4xf32>\n"
    "    \"gpu.yield\"(%i) : (tensor<4xf32>) -> ()\n"
    "  }) : (i1, tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %r : tensor<4xf32>\n"
    "}\n";

static StrataTensor *vec(const float *v) {
  int64_t dims[1] = {4};
  StrataTensor *t = strataTensorCreate(STRATA_DTYPE_F32, 1, dims);
  if (t) memcpy(t->data, v, 4 * sizeof(float));
  return t;
}

static StrataTensor *flag(bool b) {
  StrataTensor *t = strataTensorCreate(STRATA_DTYPE_I1, 0, NULL);
  if (t) strataTensorSetDouble(t, 0, b);
  return t;
}

int main(void) {
  StrataContext *ctx = strataContextCreate();
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "guard.mlir");
  if (mlirModuleIsNull(m)) return 1;
  MlirOperation f = strataLookupFunc(m, "guard");
  static const float x[4] = {-1, 2, -3, 4}, old[4] = {7, 7, 7, 7};
  for (int p = 0; p < 2; p++)
    for (int q = 0; q < 2; q++) {
      StrataTensor *in[4] = {flag(p), flag(q), vec(x), vec(old)};
      StrataTensor **out = NULL;
      size_t n = 0;
      if (mlirLogicalResultIsFailure(strataInterpret(ctx, f, in, 4, &out, &n)) || n != 1) {
        printf("p=%d q=%d: failed\n", p, q);
      } else {
        const float *r = out[0]->data;
        printf("p=%d q=%d: %g %g %g %g\n", p, q, r[0], r[1], r[2], r[3]);
      }
      for (size_t i = 0; i < n; i++) strataTensorDestroy(out[i]);
      free(out);
      for (int i = 0; i < 4; i++) strataTensorDestroy(in[i]);
    }
  // CHECK: p=0 q=0: 7 7 7 7
  // CHECK: p=0 q=1: 7 7 7 7
  // CHECK: p=1 q=0: -1 2 -3 4
  // CHECK: p=1 q=1: 0 2 0 4
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
