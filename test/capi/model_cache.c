/* The model cache through the target API (strataExecutableCacheKey, Store,
 * Load): an executable stored after its first call comes back in another
 * context without the model, with its entry's declaration, and computes
 * the same bits (its weights and their packed GEMM panels mapped from the
 * file); other keys miss silently; an executable compiled without a cache
 * directory is refused with the reason; a target without a model cache
 * makes no key. Sessions of a model file (strataSessionCreateFromFile) use
 * it: the second session of the file is served from it, with the same
 * bits, and other options are another entry.
 * RUN: %capi/model_cache 2>&1 | FileCheck %s
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s\n", d->message);
}

/* A 64x64 f32 constant (16 KiB: a weight out of LLVM, packed by the
 * matmul kernel), values from a small recurrence. */
static char *model(void) {
  size_t cap = 64 * 64 * 16 + 1024, n = 0;
  char *s = malloc(cap);
  if (!s) return NULL;
  n += (size_t)snprintf(s + n, cap - n,
                        "func.func @f(%%x: tensor<8x64xf32> {onnx.name = \"x\"}) -> tensor<8x64xf32> {\n"
                        "  %%w = \"nn.constant\"() {value = dense<[");
  for (int i = 0; i < 64 * 64; i++) n += (size_t)snprintf(s + n, cap - n, "%s%d.0", i ? ", " : "", (i * 37) % 11 - 5);
  snprintf(s + n, cap - n,
           "]> : tensor<4096xf32>} : () -> tensor<4096xf32>\n"
           "  %%s = \"nn.constant\"() {value = dense<[64, 64]> : tensor<2xi64>} : () -> tensor<2xi64>\n"
           "  %%w2 = \"nn.reshape\"(%%w, %%s) : (tensor<4096xf32>, tensor<2xi64>) -> tensor<64x64xf32>\n"
           "  %%m = \"nn.matmul\"(%%x, %%w2) : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>\n"
           "  return %%m : tensor<8x64xf32>\n"
           "}\n");
  return s;
}

static void removeDir(const char *dir) {
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] != '.') unlink(path);
  }
  if (d) closedir(d);
  rmdir(dir);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  char *text = model();
  char dir[] = "/tmp/strata-capi-model-cache-XXXXXX";
  if (!text || !mkdtemp(dir)) return 1;
  const void *parts[] = {text, "fixed -O2"};
  size_t sizes[] = {strlen(text), 9};
  int64_t dims[2] = {8, 64};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 2, dims), *y1 = strataTensorCreate(STRATA_DTYPE_F32, 2, dims),
               *y2 = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  strataTensorFillRandom(x, 7, -1, 1);

  /* First process: compile, call, store. */
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(text), "model");
  char key[33], other[33];
  bool keyed = strataExecutableCacheKey(ctx, "cpu", parts, sizes, 2, key);
  sizes[1] = 8; /* another options text: another key */
  strataExecutableCacheKey(ctx, "cpu", parts, sizes, 2, other);
  printf("key: %d, %zu digits, differs %d\n", keyed, strlen(key), strcmp(key, other) != 0);
  // CHECK: key: 1, 32 digits, differs 1
  StrataCompileOptions o = {.fusion = STRATA_FUSION_FIXED, .optLevel = 2, .cacheDir = dir};
  StrataExecutable *exe = strataCompile(ctx, m, "cpu", &o);
  bool ran = exe && mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "f", &x, 1, &y1, 1));
  char why[256] = "";
  bool stored = exe && strataExecutableStore(exe, dir, key, strataLookupFunc(m, "f"), why, sizeof why);
  printf("first: ran %d, stored %d%s\n", ran, stored, why);
  // CHECK-NEXT: first: ran 1, stored 1
  StrataExecutable *plain = strataCompile(ctx, m, "cpu", NULL);
  bool refused = plain && !strataExecutableStore(plain, dir, other, strataLookupFunc(m, "f"), why, sizeof why);
  printf("no cache directory: refused %d (%s)\n", refused, why);
  // CHECK-NEXT: no cache directory: refused 1 (it was compiled without a cache directory)
  strataExecutableDestroy(plain);
  strataExecutableDestroy(exe);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);

  /* A second context, without the model: load, call. */
  ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  MlirModule decl, none;
  StrataExecutable *back = strataExecutableLoad(ctx, "cpu", dir, key, &decl);
  StrataExecutable *miss = strataExecutableLoad(ctx, "cpu", dir, other, &none);
  printf("load: hit %d, miss %d (null entry %d)\n", back != NULL, miss == NULL, mlirModuleIsNull(none));
  // CHECK-NEXT: load: hit 1, miss 1 (null entry 1)
  if (!back) return 1;
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(decl));
  char sig[256];
  MlirType ft = strataFuncSignature(f, sig, sizeof sig);
  printf("entry: %s, %ld input, %ld result, from the cache %d\n", sig, (long)mlirFunctionTypeGetNumInputs(ft),
         (long)mlirFunctionTypeGetNumResults(ft), strataExecutableFromCache(back));
  // CHECK-NEXT: entry: f, 1 input, 1 result, from the cache 1
  bool again = mlirLogicalResultIsSuccess(strataExecutableInvoke(back, sig, &x, 1, &y2, 1));
  printf("second: ran %d, same bits %d\n", again, !memcmp(y1->data, y2->data, strataTensorNumBytes(y1)));
  // CHECK-NEXT: second: ran 1, same bits 1
  strataExecutableDestroy(back);
  mlirModuleDestroy(decl);

  /* A target without a model cache makes no key. */
  static const StrataTargetDef kNoCache = {.name = "no-cache", .pipelines = {[STRATA_FUSION_FIXED] = ""}};
  strataContextRegisterTarget(ctx, &kNoCache);
  printf("no model cache: key %d\n", strataExecutableCacheKey(ctx, "no-cache", parts, sizes, 2, other));
  // CHECK-NEXT: no model cache: key 0

  /* Sessions of a model file. */
  char file[4200];
  snprintf(file, sizeof file, "%s/model.mlir", dir);
  FILE *out = fopen(file, "w");
  if (!out || fputs(text, out) < 0 || fclose(out) != 0) return 1;
  StrataSessionOptions so = {.compile = {.fusion = STRATA_FUSION_FIXED, .optLevel = 2, .cacheDir = dir}};
  for (int k = 0; k < 3; k++) {
    if (k == 2) so.compile.optLevel = 1;
    StrataSession *sess = strataSessionCreateFromFile(ctx, file, &so);
    StrataTensor *y3 = NULL;
    bool ok = sess && mlirLogicalResultIsSuccess(strataSessionRun(sess, &x, 1, &y3, 1));
    printf("session %d: ran %d, from the cache %d, same bits %d\n", k, ok, sess && strataSessionFromCache(sess),
           ok && !memcmp(y1->data, y3->data, strataTensorNumBytes(y1)));
    /* the input's onnx.name survives the cache; the result has none; a
     * one-byte buffer gets the empty string and the name's length */
    char name[8] = "?", tiny[1] = {'?'};
    size_t in = sess ? strataSessionGetName(sess, false, 0, name, sizeof name) : 9;
    size_t cut = sess ? strataSessionGetName(sess, false, 0, tiny, sizeof tiny) : 9;
    size_t res = sess ? strataSessionGetName(sess, true, 0, tiny, sizeof tiny) : 9;
    size_t past = sess ? strataSessionGetName(sess, false, 1, tiny, sizeof tiny) : 9;
    printf("session %d names: input '%s' (%zu), cut %zu '%s', result %zu, past the end %zu\n", k, name, in, cut, tiny,
           res, past);
    strataTensorDestroy(y3);
    strataSessionDestroy(sess);
  }
  // CHECK-NEXT: session 0: ran 1, from the cache 0, same bits 1
  // CHECK-NEXT: session 0 names: input 'x' (1), cut 1 '', result 0, past the end 0
  // CHECK-NEXT: session 1: ran 1, from the cache 1, same bits 1
  // CHECK-NEXT: session 1 names: input 'x' (1), cut 1 '', result 0, past the end 0
  // CHECK-NEXT: session 2: ran 1, from the cache 0, same bits 1
  // CHECK-NEXT: session 2 names: input 'x' (1), cut 1 '', result 0, past the end 0
  so.target = "interpreter";
  StrataSession *interp = strataSessionCreateFromFile(ctx, file, &so);
  printf("interpreter: from the cache %d\n", interp && strataSessionFromCache(interp));
  // CHECK-NEXT: interpreter: from the cache 0
  strataSessionDestroy(interp);
  snprintf(file, sizeof file, "%s/none.onnx", dir);
  printf("missing file: %d\n", strataSessionCreateFromFile(ctx, file, &so) == NULL);
  // CHECK-NEXT: diag: cannot open '{{.*}}none.onnx'
  // CHECK-NEXT: missing file: 1

  strataContextDestroy(ctx);
  removeDir(dir);
  strataTensorDestroy(x), strataTensorDestroy(y1), strataTensorDestroy(y2);
  free(text);
  return 0;
}
