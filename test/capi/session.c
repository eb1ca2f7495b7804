/* Sessions: a module compiled once (cpu) or interpreted, its signature in
 * Strata's terms, runs that allocate their outputs, a located error for an
 * input of the wrong shape, and ownership of the module on every path.
 * RUN: %capi/session 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "strata/strata.h"

static const char *kSource =
    "func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> (tensor<2x3xf32>, tensor<2x1xf32>) {\n"
    "  %0 = \"nn.add\"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>\n"
    "  %1 = \"nn.reduce_sum\"(%0) {axes = array<i64: 1>, keepdims = 1} : (tensor<2x3xf32>) -> tensor<2x1xf32>\n"
    "  return %0, %1 : tensor<2x3xf32>, tensor<2x1xf32>\n"
    "}\n";

static MlirModule parse(StrataContext *ctx) {
  return strataParseModule(ctx, mlirStringRefCreateFromCString(kSource), "session.mlir");
}

static void run(StrataContext *ctx, const char *target) {
  StrataSessionOptions o = {.target = target, .compile = {.optLevel = 2}};
  StrataSession *s = strataSessionCreate(ctx, parse(ctx), &o);
  if (!s) return;
  StrataDType dt;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  strataSessionGetType(s, true, 1, &dt, &rank, dims);
  printf("%s: %zu inputs, %zu outputs; output #1 %s rank %d [%lld, %lld]; input #2 exists: %d\n", target,
         strataSessionNumInputs(s), strataSessionNumOutputs(s), strataDTypeName(dt), rank, (long long)dims[0],
         (long long)dims[1], strataSessionGetType(s, false, 2, &dt, &rank, dims));
  StrataTensor *a = strataTensorCreate(STRATA_DTYPE_F32, 2, (int64_t[]){2, 3});
  StrataTensor *b = strataTensorCreate(STRATA_DTYPE_F32, 1, (int64_t[]){3});
  for (int i = 0; i < 6; i++) ((float *)a->data)[i] = (float)i;
  for (int i = 0; i < 3; i++) ((float *)b->data)[i] = 10.0f * (float)i;
  StrataTensor *outs[2];
  if (mlirLogicalResultIsSuccess(strataSessionRun(s, (StrataTensor *[]){a, b}, 2, outs, 2))) {
    float *sum = outs[1]->data;
    printf("%s: sums %g %g, y[1][2] %g\n", target, sum[0], sum[1], ((float *)outs[0]->data)[5]);
    strataTensorDestroy(outs[0]);
    strataTensorDestroy(outs[1]);
  }
  /* b of the wrong shape: an error, and the outputs stay NULL. */
  StrataTensor *bad = strataTensorCreate(STRATA_DTYPE_F32, 1, (int64_t[]){4});
  MlirLogicalResult r = strataSessionRun(s, (StrataTensor *[]){a, bad}, 2, outs, 2);
  printf("%s: bad input: %s, outputs %s\n", target, mlirLogicalResultIsFailure(r) ? "failed" : "ran",
         outs[0] || outs[1] ? "set" : "NULL");
  strataTensorDestroy(a);
  strataTensorDestroy(b);
  strataTensorDestroy(bad);
  strataSessionDestroy(s);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  // CHECK: cpu: 2 inputs, 2 outputs; output #1 f32 rank 2 [2, 1]; input #2 exists: 0
  // CHECK: cpu: sums 33 42, y[1][2] 25
  // CHECK: session.mlir:1:{{[0-9]+}}: error: input #1 of 'main' is tensor<3xf32>, but 4xf32 was given
  // CHECK: cpu: bad input: failed, outputs NULL
  run(ctx, "cpu");
  // CHECK: interpreter: 2 inputs, 2 outputs; output #1 f32 rank 2 [2, 1]; input #2 exists: 0
  // CHECK: interpreter: sums 33 42, y[1][2] 25
  // CHECK: interpreter: bad input: failed, outputs NULL
  run(ctx, "interpreter");
  /* Failures still take the module: an unknown entry, an unknown target. */
  // CHECK: error: no function 'nope' in the module
  printf("unknown entry: %p\n", (void *)strataSessionCreate(ctx, parse(ctx), &(StrataSessionOptions){.entry = "nope"}));
  // CHECK: unknown entry: (nil)
  // CHECK: error: unknown target 'tpu'
  printf("unknown target: %p\n", (void *)strataSessionCreate(ctx, parse(ctx), &(StrataSessionOptions){.target = "tpu"}));
  // CHECK: unknown target: (nil)
  printf("null module: %p\n", (void *)strataSessionCreate(ctx, (MlirModule){NULL}, NULL));
  // CHECK: null module: (nil)
  strataContextDestroy(ctx);
  return 0;
}
