/* Shape plans (strata-shape-plan, runtime/shape_plan.c) under concurrent
 * invokes of one executable: four threads call a function with buffers of
 * dynamic size at three shape classes, every result equal to the
 * interpreter's; the classes are planned exactly once each (a thread that
 * met a class without a plan keeps none when another kept one first), and
 * every later call is served from its plan. Then the cache's bound: more
 * classes than it keeps evict the least recently used, which is planned
 * again when it comes back. And sizes computed from data: a buffer larger
 * than its slot in the class's plan comes from the heap, a smaller one
 * from the slot, the results exact either way. STRATA_SHAPE_PLAN_CHECK is on: a buffer placed
 * over a live one aborts, a released slot is poisoned.
 * RUN: %capi/shape_plan_threads 2>&1 | FileCheck %s
 */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "status.h"
#include "strata/strata.h"

static const char *kModel =
    "func.func @f(%x: tensor<?x16xf32>, %w: tensor<16x16xf32>) -> tensor<?x16xf32> {\n"
    "  %a = \"nn.matmul\"(%x, %w) : (tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>\n"
    "  %b = \"nn.relu\"(%a) : (tensor<?x16xf32>) -> tensor<?x16xf32>\n"
    "  %c = \"nn.matmul\"(%b, %w) : (tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>\n"
    "  %d = \"nn.tanh\"(%c) : (tensor<?x16xf32>) -> tensor<?x16xf32>\n"
    "  %e = \"nn.matmul\"(%d, %w) : (tensor<?x16xf32>, tensor<16x16xf32>) -> tensor<?x16xf32>\n"
    "  %f = \"nn.add\"(%e, %b) : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>\n"
    "  return %f : tensor<?x16xf32>\n"
    "}\n"
    /* sizes computed from data (a range to the sum of |x|): planned as the
     * class's first call met them, checked on every call */
    "func.func @g(%x: tensor<?xf32>) -> tensor<?xi64> {\n"
    "  %a = \"nn.abs\"(%x) : (tensor<?xf32>) -> tensor<?xf32>\n"
    "  %s = \"nn.reduce_sum\"(%a) {keepdims = 0 : i64} : (tensor<?xf32>) -> tensor<f32>\n"
    "  %k = \"nn.cast\"(%s) {to = i64} : (tensor<f32>) -> tensor<i64>\n"
    "  %z = \"nn.constant\"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>\n"
    "  %o = \"nn.constant\"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>\n"
    "  %r = \"nn.range\"(%z, %k, %o) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>\n"
    "  %y = \"nn.add\"(%r, %r) : (tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>\n"
    "  return %y : tensor<?xi64>\n"
    "}\n";

enum { CLASSES = 3, THREADS = 4, CALLS = 40 };
static const int64_t kRows[CLASSES] = {3, 5, 9};

typedef struct {
  StrataExecutable *exe;
  MlirType resultType;
  StrataTensor *x[CLASSES], *w, *ref[CLASSES];
} Shared;

static bool equal(const StrataTensor *a, const StrataTensor *b, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if (fabs(strataTensorGetDouble(a, i) - strataTensorGetDouble(b, i)) > 1e-4) return false;
  return true;
}

/* One call at class k; false if it failed or differs from the reference. */
static bool call(Shared *s, int k, bool *failed) {
  StrataTensor *in[2] = {s->x[k], s->w};
  StrataTensor *out = strataTensorCreateForResult(s->resultType);
  *failed = mlirLogicalResultIsFailure(strataExecutableInvoke(s->exe, "f", in, 2, &out, 1));
  bool ok = !*failed && equal(out, s->ref[k], kRows[k] * 16);
  strataTensorDestroy(out);
  return ok;
}

typedef struct {
  Shared *s;
  int tid, mismatches, failures;
} Worker;

static void *work(void *arg) {
  Worker *w = arg;
  for (int i = 0; i < CALLS; i++) {
    bool failed;
    if (!call(w->s, (w->tid + i) % CLASSES, &failed)) w->mismatches++;
    w->failures += failed;
  }
  return NULL;
}

static StrataTensor *input(int64_t rows, uint64_t seed) {
  StrataTensor *t = strataTensorCreate(STRATA_DTYPE_F32, 2, (int64_t[]){rows, 16});
  strataTensorFillRandom(t, seed, -1, 1);
  return t;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  setenv("STRATA_SHAPE_PLAN_CHECK", "1", 1);
  StrataContext *ctx = strataContextCreate();
  MlirModule module = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "model");
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  MlirType fnType = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type")));
  Shared s = {.exe = strataCompile(ctx, module, "cpu", NULL), .resultType = mlirFunctionTypeGetResult(fnType, 0)};
  s.w = input(16, 99);
  for (int k = 0; k < CLASSES; k++) {
    s.x[k] = input(kRows[k], (uint64_t)k + 1);
    StrataTensor *in[2] = {s.x[k], s.w}, **ref = NULL;
    size_t n = 0;
    strataInterpret(ctx, func, in, 2, &ref, &n);
    s.ref[k] = ref[0];
    free(ref);
  }
  struct StrataRtEnv *env = strataContextGetRuntimeEnv(ctx);
  strataRtEnvResetShapePlanStats(env);
  pthread_t th[THREADS];
  Worker w[THREADS];
  for (int t = 0; t < THREADS; t++) {
    w[t] = (Worker){&s, t, 0, 0};
    pthread_create(&th[t], NULL, work, &w[t]);
  }
  int mismatches = 0, failures = 0;
  for (int t = 0; t < THREADS; t++) {
    pthread_join(th[t], NULL);
    mismatches += w[t].mismatches, failures += w[t].failures;
  }
  StrataRtShapePlanStats st;
  strataRtEnvShapePlanStats(env, &st);
  // CHECK: 160 concurrent calls: 0 failed, 0 differ from the interpreter
  printf("%d concurrent calls: %d failed, %d differ from the interpreter\n", THREADS * CALLS, failures, mismatches);
  // CHECK-NEXT: plans computed 3, evicted 0, buffers past their slot 0
  printf("plans computed %llu, evicted %llu, buffers past their slot %llu\n", (unsigned long long)st.computed,
         (unsigned long long)st.evicted, (unsigned long long)st.heapBuffers);
  // CHECK-NEXT: served from a plan: at least 148 of 160: 1
  printf("served from a plan: at least %d of %d: %d\n", THREADS * CALLS - THREADS * CLASSES, THREADS * CALLS,
         st.reused >= (uint64_t)(THREADS * CALLS - THREADS * CLASSES) && st.reused < (uint64_t)(THREADS * CALLS));

  /* The bound: 3 classes kept, 20 more; then the last one again (kept) and
   * the first of the 20 (evicted: planned again). */
  strataRtEnvResetShapePlanStats(env);
  StrataTensor *more[20];
  int bad = 0;
  for (int i = 0; i < 20; i++) {
    more[i] = input(20 + i, 7);
    StrataTensor *in[2] = {more[i], s.w}, *out = strataTensorCreateForResult(s.resultType);
    bad += mlirLogicalResultIsFailure(strataExecutableInvoke(s.exe, "f", in, 2, &out, 1));
    strataTensorDestroy(out);
  }
  strataRtEnvShapePlanStats(env, &st);
  // CHECK-NEXT: 20 new classes: 0 failed, computed 20, evicted 7
  printf("20 new classes: %d failed, computed %llu, evicted %llu\n", bad, (unsigned long long)st.computed,
         (unsigned long long)st.evicted);
  for (int i = 19; i >= 0; i -= 19) {
    StrataTensor *in[2] = {more[i], s.w}, *out = strataTensorCreateForResult(s.resultType);
    bad += mlirLogicalResultIsFailure(strataExecutableInvoke(s.exe, "f", in, 2, &out, 1));
    strataTensorDestroy(out);
    strataRtEnvShapePlanStats(env, &st);
    // CHECK-NEXT: rows 39 again: computed 20, reused 1
    // CHECK-NEXT: rows 20 again: computed 21, reused 1
    printf("rows %d again: computed %llu, reused %llu\n", 20 + i, (unsigned long long)st.computed,
           (unsigned long long)st.reused);
  }
  for (int i = 0; i < 20; i++) strataTensorDestroy(more[i]);

  /* One class (4 elements), three sums: 8 (planned), 40 (past the slots),
   * 2 (within them). */
  MlirOperation g = mlirOperationGetNextInBlock(func);
  MlirType gType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(g, mlirStringRefCreateFromCString("function_type")));
  strataRtEnvResetShapePlanStats(env);
  const double sums[3] = {8, 40, 2};
  for (int i = 0; i < 3; i++) {
    StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 1, (int64_t[]){4}), **ref = NULL;
    for (int k = 0; k < 4; k++) strataTensorSetDouble(x, k, (k % 2 ? -1 : 1) * sums[i] / 4);
    StrataTensor *out = strataTensorCreateForResult(mlirFunctionTypeGetResult(gType, 0));
    size_t n = 0;
    bool ran = mlirLogicalResultIsSuccess(strataExecutableInvoke(s.exe, "g", &x, 1, &out, 1)) &&
               mlirLogicalResultIsSuccess(strataInterpret(ctx, g, &x, 1, &ref, &n));
    bool same = ran && n == 1 && out->dims[0] == ref[0]->dims[0] && equal(out, ref[0], out->dims[0]);
    strataRtEnvShapePlanStats(env, &st);
    // CHECK-NEXT: sum 8: equal 1, computed 1, reused 0, buffers past their slot 0
    // CHECK-NEXT: sum 40: equal 1, computed 1, reused 1, buffers past their slot 2
    // CHECK-NEXT: sum 2: equal 1, computed 1, reused 2, buffers past their slot 2
    printf("sum %g: equal %d, computed %llu, reused %llu, buffers past their slot %llu\n", sums[i], same,
           (unsigned long long)st.computed, (unsigned long long)st.reused, (unsigned long long)st.heapBuffers);
    bad += !same;
    for (size_t k = 0; k < n; k++) strataTensorDestroy(ref[k]);
    free(ref);
    strataTensorDestroy(out);
    strataTensorDestroy(x);
  }
  for (int k = 0; k < CLASSES; k++) strataTensorDestroy(s.x[k]), strataTensorDestroy(s.ref[k]);
  strataTensorDestroy(s.w);
  strataExecutableDestroy(s.exe);
  mlirModuleDestroy(module);
  strataContextDestroy(ctx);
  return bad;
}
