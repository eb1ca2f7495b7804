/* The built-in `cpu` target through the target API gives what the
 * LLVM-specific API (strataJit*, strataAotCompile) gives; registry errors.
 * RUN: %capi/target_cpu 2>&1 | FileCheck %s
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#endif
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "strata/strata.h"

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s\n", d->message);
}

static const char *kModel =
    "func.func @f(%x: tensor<4x4xf32>, %w: tensor<4x4xf32>) -> tensor<4x4xf32> {\n"
    "  %m = \"nn.matmul\"(%x, %w) : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>\n"
    "  %r = \"nn.relu\"(%m) : (tensor<4x4xf32>) -> tensor<4x4xf32>\n"
    "  return %r : tensor<4x4xf32>\n"
    "}\n";

/* A target that only writes text: no compile, so strataCompile refuses it. */
static char *emitNames(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                       const StrataEmitOptions *options, size_t *size) {
  (void)def, (void)ctx, (void)lowered;
  char *text = strdup(options->format ? options->format : "listing");
  *size = strlen(text);
  return text;
}
static const StrataTargetDef kEmitOnly = {
    .name = "emit-only",
    .pipelines = {[STRATA_FUSION_FIXED] = ""},
    .emitFormats = "listing,other",
    .emit = emitNames,
};

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  const StrataTargetDef *cpu = strataContextGetTarget(ctx, 0);
  printf("%zu target: %s, kernels %d, formats %s, modes:", strataContextNumTargets(ctx), cpu->name,
         cpu->isKernel != NULL, cpu->emitFormats);
  for (int m = 0; m < STRATA_NUM_FUSION_MODES; m++)
    if (cpu->pipelines[m]) printf(" %s", strataFusionModeName((StrataFusionMode)m));
  printf("\n");
  // CHECK: 4 target: cpu, kernels 1, formats obj,asm,llvm, modes: fixed none dnnfusion planned baseline
  printf("pipelines: %d %d\n", cpu->pipelines[STRATA_FUSION_FIXED] == strataCpuPipeline(),
         !strcmp(cpu->pipelines[STRATA_FUSION_BASELINE], strataCpuPipelineUpstream()));
  // CHECK-NEXT: pipelines: 1 1
  StrataFusionMode mode;
  bool known = strataParseFusionMode("dnnfusion", &mode), unknown = strataParseFusionMode("x", &mode);
  printf("parse: %d %d %s\n", known, unknown, strataFusionModeName(mode));
  // CHECK-NEXT: parse: 1 0 dnnfusion

  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "cpu.mlir");
  int64_t dims[2] = {4, 4};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  StrataTensor *w = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  StrataTensor *viaJit = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  StrataTensor *viaTarget = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  strataTensorFillRandom(x, 1, -1, 1);
  strataTensorFillRandom(w, 2, -1, 1);
  StrataTensor *in[2] = {x, w};
  StrataJit *jit = strataJitCreate(ctx, m, 2);
  strataJitInvoke(jit, "f", in, 2, &viaJit, 1);
  strataJitDestroy(jit);
  StrataExecutable *exe = strataCompile(ctx, m, NULL, NULL); /* cpu, fixed, level 2 */
  bool ran = exe && mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "f", in, 2, &viaTarget, 1));
  printf("same results: %d %d (%s)\n", ran,
         !memcmp(viaJit->data, viaTarget->data, strataTensorNumBytes(viaJit)),
         strataExecutableGetTarget(exe)->name);
  // CHECK-NEXT: same results: 1 1 (cpu)
  printf("invoke missing: %d\n",
         mlirLogicalResultIsFailure(strataExecutableInvoke(exe, "g", in, 2, &viaTarget, 1)));
  // CHECK-NEXT: diag: JIT: no compiled public function 'g'
  // CHECK-NEXT: invoke missing: 1
  strataExecutableDestroy(exe);

  /* A compile cache: the second compile loads the first one's code, and
   * it computes the same. (The directory is this test's own.) */
  char dir[] = "/tmp/strata-capi-cache-XXXXXX";
  if (!mkdtemp(dir)) return 1;
  StrataCompileOptions cached = {.optLevel = 2, .cacheDir = dir};
  for (int k = 0; k < 2; k++) {
    StrataExecutable *e = strataCompile(ctx, m, NULL, &cached);
    bool ok = e && mlirLogicalResultIsSuccess(strataExecutableInvoke(e, "f", in, 2, &viaTarget, 1));
    printf("cache %d: ran %d, from the cache %d, same %d\n", k, ok, e && strataExecutableFromCache(e),
           !memcmp(viaJit->data, viaTarget->data, strataTensorNumBytes(viaJit)));
    strataExecutableDestroy(e);
  }
  // CHECK-NEXT: cache 0: ran 1, from the cache 0, same 1
  // CHECK-NEXT: cache 1: ran 1, from the cache 1, same 1
  DIR *d = opendir(dir);
  for (struct dirent *e; d && (e = readdir(d));) {
    char path[sizeof dir + sizeof e->d_name + 1];
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    if (e->d_name[0] != '.') unlink(path);
  }
  if (d) closedir(d);
  rmdir(dir);
  char def[4096];
  setenv("STRATA_CACHE_DIR", "", 1);
  printf("default with STRATA_CACHE_DIR empty: %s\n", strataDefaultCacheDir(def, sizeof def) ? "a cache" : "none");
  // CHECK-NEXT: default with STRATA_CACHE_DIR empty: none
  setenv("STRATA_CACHE_DIR", "/x/y", 1);
  printf("default: %s\n", strataDefaultCacheDir(def, sizeof def));
  // CHECK-NEXT: default: /x/y

  /* strataEmit writes what strataAotCompile writes. */
  StrataAotOptions aot = {STRATA_AOT_LLVM_IR, 2, NULL, NULL, NULL};
  size_t aotSize = 0, emitSize = 0;
  char *a = strataAotCompile(ctx, m, &aot, &aotSize);
  StrataEmitOptions eo = {.compile = {.optLevel = 2}, .format = "llvm"};
  char *e = strataEmit(ctx, m, "cpu", &eo, &emitSize);
  printf("same IR: %d\n", a && e && aotSize == emitSize && !memcmp(a, e, aotSize));
  // CHECK-NEXT: same IR: 1
  free(a);
  free(e);
  eo.format = "spirv";
  printf("bad format: %d\n", strataEmit(ctx, m, "cpu", &eo, &emitSize) == NULL);
  // CHECK-NEXT: diag: target 'cpu' cannot write 'spirv' (formats: obj,asm,llvm)
  // CHECK-NEXT: bad format: 1

  /* An emit-only target: it writes, it does not run. */
  printf("register: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterTarget(ctx, &kEmitOnly)));
  // CHECK-NEXT: register: 1
  eo.format = NULL;
  char *listing = strataEmit(ctx, m, "emit-only", &eo, &emitSize);
  printf("emit-only wrote: %.*s\n", (int)emitSize, listing);
  free(listing);
  // CHECK-NEXT: emit-only wrote: listing
  printf("compile: %d\n", strataCompile(ctx, m, "emit-only", NULL) == NULL);
  // CHECK-NEXT: diag: target 'emit-only' runs no code in-process (it has no compile/invoke)
  // CHECK-NEXT: compile: 1
  StrataTargetDef unnamed = {.summary = "no name"};
  printf("unnamed: %d\n", mlirLogicalResultIsFailure(strataContextRegisterTarget(ctx, &unnamed)));
  // CHECK-NEXT: diag: a target definition needs a name
  // CHECK-NEXT: unnamed: 1

  strataTensorDestroy(x);
  strataTensorDestroy(w);
  strataTensorDestroy(viaJit);
  strataTensorDestroy(viaTarget);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
