/* --pred-compress-plans on compiled code: a gather whose 4096 constant
 * indices (a plan-like table: mostly zeros, a few runs) is compiled through
 * the CPU pipeline with the pass before the arena, and computes exactly
 * what the same model compiled without it computes, twice (the second call
 * reads the runtime's cached copy). Then the runtime entry point directly:
 * a good image gives its table, the same buffer on the next call; corrupt
 * ones are errors returned through strataRtCall.
 * RUN: %capi/compress_plans_run 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"
#include "kernels.h"
#include "pred_memory.h"
#include "status.h"

enum { N = 4096, ROWS = 16, COLS = 8 };

static int64_t indexAt(int i) { return i % 512 < 5 ? (i / 512) % ROWS : i >= 3000 && i < 3100 ? 7 : 0; }

static char *modelText(void) {
  size_t cap = 64 * N + 1024, at = 0;
  char *s = malloc(cap);
  at += (size_t)snprintf(s + at, cap - at,
                         "func.func @g(%%x: tensor<%dx%dxf32>) -> tensor<%dx%dxf32> {\n"
                         "  %%i = \"nn.constant\"() {value = dense<[",
                         ROWS, COLS, N, COLS);
  for (int i = 0; i < N; i++) at += (size_t)snprintf(s + at, cap - at, "%s%lld", i ? ", " : "", (long long)indexAt(i));
  snprintf(s + at, cap - at,
           "]> : tensor<%dxi64>} : () -> tensor<%dxi64>\n"
           "  %%r = \"nn.gather\"(%%x, %%i) : (tensor<%dx%dxf32>, tensor<%dxi64>) -> tensor<%dx%dxf32>\n"
           "  return %%r : tensor<%dx%dxf32>\n}\n",
           N, N, ROWS, COLS, N, N, COLS, N, COLS);
  return s;
}

/* The CPU pipeline with the pass inserted before the arena. */
static char *withPass(const char *pipeline, const char *pass) {
  const char *at = strstr(pipeline, "strata-buffer-arena");
  if (!at) return NULL;
  size_t n = strlen(pipeline) + strlen(pass) + 2;
  char *p = malloc(n);
  snprintf(p, n, "%.*s%s,%s", (int)(at - pipeline), pipeline, pass, at);
  return p;
}

typedef struct {
  StrataMemRefDesc image;
  int64_t raw;
  StrataMemRefDesc out;
} TableCall;

static void callTable(void *p) {
  TableCall *c = p;
  _mlir_ciface_strata_rt_plan_table(&c->out, &c->image, c->raw);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *sctx = strataContextCreate();
  MlirContext ctx = strataContextGetMlir(sctx);
  char *text = modelText();
  MlirModule module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  free(text);
  char *pipeline = withPass(strataCpuPipeline(), "pred-compress-plans{min-bytes=1024 min-ratio=4 report}");
  // CHECK: remark: pred-compress-plans: @__constant_4096xi64: 32768 bytes -> {{[0-9]+}} ({{[0-9.]+}}x)
  StrataJit *plain = strataJitCreate(sctx, module, 2);
  StrataJit *packed = strataJitCreateWithPipeline(sctx, module, pipeline, 2);
  printf("compiled: %d %d\n", plain != NULL, packed != NULL);
  // CHECK: compiled: 1 1
  int64_t xd[] = {ROWS, COLS}, yd[] = {N, COLS};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 2, xd);
  StrataTensor *a = strataTensorCreate(STRATA_DTYPE_F32, 2, yd), *b = strataTensorCreate(STRATA_DTYPE_F32, 2, yd);
  strataTensorFillRandom(x, 5, -1, 1);
  for (int run = 1; run <= 2; run++) {
    memset(b->data, 0, strataTensorNumBytes(b));
    int ok = mlirLogicalResultIsSuccess(strataJitInvoke(plain, "g", &x, 1, &a, 1)) &&
             mlirLogicalResultIsSuccess(strataJitInvoke(packed, "g", &x, 1, &b, 1));
    int right = 1;
    for (int i = 0; i < N && right; i++)
      right = !memcmp((float *)b->data + i * COLS, (float *)x->data + indexAt(i) * COLS, COLS * sizeof(float));
    printf("run %d: ran %d, same as without the pass: %d, rows gathered right: %d\n", run, ok,
           !memcmp(a->data, b->data, strataTensorNumBytes(a)), right);
  }
  // CHECK: run 1: ran 1, same as without the pass: 1, rows gathered right: 1
  // CHECK: run 2: ran 1, same as without the pass: 1, rows gathered right: 1
  strataJitDestroy(plain);
  strataJitDestroy(packed);

  /* The entry point itself. */
  uint32_t table[N];
  for (int i = 0; i < N; i++) table[i] = (uint32_t)indexAt(i);
  size_t cap = strataRtPlanRleBound(sizeof table), imageBytes;
  uint32_t *image = malloc(cap);
  strataRtPlanRleCompress(table, sizeof table, image, cap, &imageBytes);
  TableCall c = {.raw = sizeof table};
  strataRtMemRefInit(&c.image, image, 1, (int64_t[]){(int64_t)imageBytes});
  char err[256] = "";
  int r1 = strataRtCall(callTable, &c, err, sizeof err);
  void *first = c.out.aligned;
  int same = r1 == 0 && c.out.sizesAndStrides[0] == (int64_t)sizeof table && !memcmp(first, table, sizeof table);
  int r2 = strataRtCall(callTable, &c, err, sizeof err);
  printf("table: %d %d, equal %d, cached %d\n", r1, r2, same, c.out.aligned == first);
  // CHECK: table: 0 0, equal 1, cached 1
  c.raw = sizeof table - 4;
  printf("wrong size: %d %s\n", strataRtCall(callTable, &c, err, sizeof err), err);
  // CHECK: wrong size: -1 corrupt compressed plan table ({{[0-9]+}} bytes) or not of 16380 bytes
  /* A corrupt page (its first run's count 0) in a fresh copy (another
   * address, so not the cached table): reported on every call. */
  uint32_t *bad = malloc(imageBytes);
  memcpy(bad, image, imageBytes);
  bad[4 + bad[3] + 1 + 1] = 0;
  strataRtMemRefInit(&c.image, bad, 1, (int64_t[]){(int64_t)imageBytes});
  c.raw = sizeof table;
  int b1 = strataRtCall(callTable, &c, err, sizeof err);
  printf("corrupt: %d %s\n", b1, err);
  printf("corrupt again: %d\n", strataRtCall(callTable, &c, err, sizeof err));
  // CHECK: corrupt: -1 corrupt compressed plan table ({{[0-9]+}} bytes)
  // CHECK: corrupt again: -1
  strataRtReleasePackedConstants();
  free(bad), free(image), free(pipeline);
  strataTensorDestroy(x), strataTensorDestroy(a), strataTensorDestroy(b);
  mlirModuleDestroy(module);
  strataContextDestroy(sctx);
  return 0;
}
