/* strataMeasureKernelsInterleaved: kernels of one module timed against each
 * other (the tuners' final comparison), and its errors.
 * RUN: %capi/measure_interleaved 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "strata/strata.h"

typedef struct {
  int count;
  char last[512];
} Seen;

static void record(const StrataDiagnostic *d, void *user) {
  Seen *s = user;
  s->count++;
  snprintf(s->last, sizeof s->last, "%s", d->message);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  Seen seen = {0};
  strataContextSetDiagnosticCallback(ctx, record, &seen);
  /* @small: a relu of the input; @big: a matmul of it by a constant */
  const char *text =
      "func.func @small(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {\n"
      "  %y = \"nn.relu\"(%x) : (tensor<64x256xf32>) -> tensor<64x256xf32>\n"
      "  return %y : tensor<64x256xf32>\n}\n"
      "func.func @big(%x: tensor<64x256xf32>) -> tensor<64x256xf32> {\n"
      "  %w = arith.constant dense<0.5> : tensor<256x256xf32>\n"
      "  %a = \"nn.matmul\"(%x, %w) : (tensor<64x256xf32>, tensor<256x256xf32>) -> tensor<64x256xf32>\n"
      "  return %a : tensor<64x256xf32>\n}\n";
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(text), "two.mlir");
  StrataCompileOptions options = {.fusion = STRATA_FUSION_FIXED, .optLevel = 3};
  const char *names[2] = {"small", "big"};
  double ns[2] = {-1, -1};
  MlirLogicalResult r = strataMeasureKernelsInterleaved(ctx, m, "cpu", &options, names, 2, 5, ns);
  /* a 64x256x256 matmul does 256x the multiply-adds of 64x256 relus */
  // CHECK: measured: 1 positive: 1 big slower: 1 errors: 0
  printf("measured: %d positive: %d big slower: %d errors: %d\n", mlirLogicalResultIsSuccess(r),
         ns[0] > 0 && ns[1] > 0, ns[1] > ns[0], seen.count);

  const char *missing[2] = {"small", "nope"};
  r = strataMeasureKernelsInterleaved(ctx, m, "cpu", &options, missing, 2, 5, ns);
  // CHECK: missing kernel fails: 1 no function 'nope' to measure
  printf("missing kernel fails: %d %s\n", mlirLogicalResultIsFailure(r), seen.last);

  r = strataMeasureKernelsInterleaved(ctx, m, "cpu", &options, names, 2, 0, ns);
  // CHECK: no rounds fails: 1 interleaved measurement of 2 kernels over 0 rounds: both must be positive
  printf("no rounds fails: %d %s\n", mlirLogicalResultIsFailure(r), seen.last);

  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
