/* The context's runtime environment as an embedder sees it through
 * strataCompile/strataExecutableInvoke: memory from the host's allocator
 * hook (counted here), a cap that turns a too-large buffer arena into a
 * returned error, bad data (a gather index out of range) as a located error
 * with the process still running, and the thread count changed between
 * calls. Nothing aborts.
 * RUN: %capi/context_runtime 2>&1 | FileCheck %s
 */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include "strata/strata.h"

static atomic_long allocs, frees, held;

static void *countingAlloc(void *user, void *ptr, size_t oldSize, size_t newSize) {
  (void)user;
  if (newSize == 0) {
    if (ptr) atomic_fetch_add(&frees, 1), atomic_fetch_sub(&held, (long)oldSize);
    free(ptr);
    return NULL;
  }
  void *p = malloc(newSize);
  if (p) atomic_fetch_add(&allocs, 1), atomic_fetch_add(&held, (long)newSize);
  return p;
}

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s: %s\n", d->location, d->message);
}

static const char *kModel =
    "func.func @mm(%a: tensor<128x128xf32>, %b: tensor<128x128xf32>) -> tensor<128x128xf32> {\n"
    "  %c = \"nn.matmul\"(%a, %b) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n"
    "  %d = \"nn.relu\"(%c) : (tensor<128x128xf32>) -> tensor<128x128xf32>\n"
    "  %e = \"nn.add\"(%d, %c) : (tensor<128x128xf32>, tensor<128x128xf32>) -> tensor<128x128xf32>\n"
    "  return %e : tensor<128x128xf32>\n"
    "}\n"
    "func.func @gather(%d: tensor<4x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {\n"
    "  %y = \"nn.gather\"(%d, %i) {axis = 0 : i64} : (tensor<4x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>\n"
    "  return %y : tensor<2x3xf32>\n"
    "}\n";

static StrataTensor *tensor(StrataDType t, int rank, int64_t d0, int64_t d1) {
  int64_t dims[2] = {d0, d1};
  return strataTensorCreate(t, rank, dims);
}

/* Runs @mm in a fresh context with `options`; prints what happened. */
static void runMatmul(const StrataRuntimeOptions *options, const char *what) {
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  strataContextSetRuntime(ctx, options);
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "model.mlir");
  StrataTensor *a = tensor(STRATA_DTYPE_F32, 2, 128, 128), *b = tensor(STRATA_DTYPE_F32, 2, 128, 128);
  StrataTensor *y = tensor(STRATA_DTYPE_F32, 2, 128, 128);
  strataTensorFillRandom(a, 1, -1, 1);
  strataTensorFillRandom(b, 2, -1, 1);
  StrataTensor *in[2] = {a, b};
  StrataExecutable *exe = strataCompile(ctx, m, "cpu", NULL);
  MlirLogicalResult r = strataExecutableInvoke(exe, "mm", in, 2, &y, 1);
  printf("%s: %s\n", what, mlirLogicalResultIsSuccess(r) ? "ran" : "failed");
  /* The context can still run after a failure, and change its threads. */
  StrataRuntimeOptions two = *options;
  two.numThreads = 2;
  printf("%s: threads 2: %d\n", what, mlirLogicalResultIsSuccess(strataContextSetRuntime(ctx, &two)));
  StrataRuntimeOptions other = two;
  other.limit = 1;
  printf("%s: new limit: %d\n", what, mlirLogicalResultIsSuccess(strataContextSetRuntime(ctx, &other)));
  strataExecutableDestroy(exe);
  strataTensorDestroy(a), strataTensorDestroy(b), strataTensorDestroy(y);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataRuntimeOptions counted = {.alloc = countingAlloc};
  runMatmul(&counted, "counted");
  // CHECK: counted: ran
  // CHECK-NEXT: counted: threads 2: 1
  // CHECK-NEXT: diag: {{.*}}: the runtime's allocator and limit cannot change after code has run
  // CHECK-NEXT: counted: new limit: 0
  printf("allocator used: %d, all freed: %d\n", allocs > 0, allocs == frees && held == 0);
  // CHECK-NEXT: allocator used: 1, all freed: 1

  StrataRuntimeOptions capped = {.alloc = countingAlloc, .limit = 32 * 1024};
  runMatmul(&capped, "capped");
  // CHECK-NEXT: diag: function 'mm': out of memory for a buffer arena of 131072 bytes
  // CHECK-NEXT: capped: failed
  // CHECK-NEXT: capped: threads 2: 1
  printf("all freed: %d\n", allocs == frees && held == 0);
  // CHECK: all freed: 1

  /* Bad data: an index read from a tensor at run time. */
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "model.mlir");
  StrataExecutable *exe = strataCompile(ctx, m, "cpu", NULL);
  StrataTensor *d = tensor(STRATA_DTYPE_F32, 2, 4, 3), *i = tensor(STRATA_DTYPE_I64, 1, 2, 0);
  StrataTensor *y = tensor(STRATA_DTYPE_F32, 2, 2, 3);
  strataTensorSetDouble(i, 0, 1);
  strataTensorSetDouble(i, 1, 4);
  StrataTensor *in[2] = {d, i};
  printf("gather 4: %d\n", mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "gather", in, 2, &y, 1)));
  // CHECK-NEXT: diag: model.mlir:8:8: 'nn.gather' op index 4 is out of range for axis 0 of size 4
  // CHECK-NEXT: gather 4: 0
  strataTensorSetDouble(i, 1, -4);
  printf("gather -4: %d\n", mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "gather", in, 2, &y, 1)));
  // CHECK-NEXT: gather -4: 1
  strataExecutableDestroy(exe);
  strataTensorDestroy(d), strataTensorDestroy(i), strataTensorDestroy(y);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
