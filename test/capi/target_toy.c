/* An embedder's own target: a StrataTargetDef that "compiles" by keeping
 * the lowered module and runs it through the reference interpreter, with
 * one op it calls a library kernel so that fusion planning for it
 * (nn-fuse{target=toy}) differs from the CPU's. Compiled and run next to
 * the built-in `cpu` target through strataCompile/strataExecutableInvoke.
 * RUN: %capi/target_toy 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s\n", d->message);
}

static void print(MlirStringRef s, void *user) {
  (void)user;
  fwrite(s.data, 1, s.length, stdout);
}

typedef struct {
  StrataContext *ctx;
  MlirModule module;
} ToyExecutable;

/* The toy's one library kernel: nn.add, which absorbs epilogues only. */
static bool toyIsKernel(const StrataTargetDef *def, MlirOperation op) {
  (void)def;
  return strataOpIsNamed(op, "nn.add");
}

static void *toyCompile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                        const StrataCompileOptions *options) {
  (void)options;
  ToyExecutable *exe = malloc(sizeof *exe);
  if (!exe) {
    mlirModuleDestroy(lowered);
    return NULL;
  }
  *exe = (ToyExecutable){ctx, lowered};
  (*(int *)def->userData)++;
  return exe;
}

static MlirLogicalResult toyInvoke(void *state, const char *name, StrataTensor *const *inputs,
                                   size_t numInputs, StrataTensor *const *outputs,
                                   size_t numOutputs) {
  ToyExecutable *exe = state;
  MlirOperation func = strataLookupFunc(exe->module, name);
  if (mlirOperationIsNull(func)) {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(exe->module)),
                    "toy: no function '%s'", name);
    return mlirLogicalResultFailure();
  }
  StrataTensor **outs;
  size_t n;
  if (mlirLogicalResultIsFailure(strataInterpret(exe->ctx, func, inputs, numInputs, &outs, &n)))
    return mlirLogicalResultFailure();
  bool ok = n == numOutputs;
  for (size_t i = 0; i < n; i++) {
    ok = ok && strataTensorNumBytes(outs[i]) == strataTensorNumBytes(outputs[i]);
    if (ok) memcpy(outputs[i]->data, outs[i]->data, strataTensorNumBytes(outs[i]));
    strataTensorDestroy(outs[i]);
  }
  free(outs);
  if (!ok)
    strataEmitError(mlirOperationGetLocation(func), "toy: outputs of '%s' do not match", name);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static void toyDestroy(void *state) {
  ToyExecutable *exe = state;
  mlirModuleDestroy(exe->module);
  free(exe);
}

static int compiles;
static const StrataTargetDef kToy = {
    .name = "toy",
    .summary = "The reference interpreter as a target",
    .pipelines =
        {
            [STRATA_FUSION_FIXED] = "func.func(nn-fold)",
            [STRATA_FUSION_DNNFUSION] = "nn-fuse{target=toy cpu-kernels},func.func(fused-blocks-inline)",
            [STRATA_FUSION_PLANNED] = "func.func(fused-blocks-inline)",
        },
    .isKernel = toyIsKernel,
    .compile = toyCompile,
    .invoke = toyInvoke,
    .destroy = toyDestroy,
    .userData = &compiles,
};

static const char *kModel =
    "func.func @f(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %a = \"nn.relu\"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %b = \"nn.add\"(%a, %y) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  %c = \"nn.neg\"(%b) : (tensor<2x3xf32>) -> tensor<2x3xf32>\n"
    "  return %c : tensor<2x3xf32>\n"
    "}\n";

/* Runs @f compiled for `target` and prints the output. */
static void run(StrataContext *ctx, MlirModule m, const char *target, StrataFusionMode fusion,
                StrataTensor *const *in, StrataTensor *out) {
  StrataCompileOptions o = {.fusion = fusion, .optLevel = 2};
  StrataExecutable *exe = strataCompile(ctx, m, target, &o);
  if (!exe || mlirLogicalResultIsFailure(strataExecutableInvoke(exe, "f", in, 2, &out, 1))) {
    printf("%s %s: failed\n", target, strataFusionModeName(fusion));
  } else {
    printf("%s %s (%s):", target, strataFusionModeName(fusion), strataExecutableGetTarget(exe)->name);
    for (int64_t k = 0; k < strataTensorNumElements(out); k++)
      printf(" %g", strataTensorGetDouble(out, k));
    printf("\n");
  }
  strataExecutableDestroy(exe);
}

/* How many fused blocks nn-fuse makes for `target`. */
static void countBlocks(StrataContext *ctx, MlirModule m, const char *target) {
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(m));
  char pipeline[128];
  snprintf(pipeline, sizeof pipeline, "nn-fuse{target=%s cpu-kernels}", target);
  int blocks = 0;
  if (mlirLogicalResultIsSuccess(strataRunPipeline(ctx, clone, pipeline))) {
    MlirOperation f = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(clone, 0)));
    for (MlirOperation op = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)));
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      blocks += strataOpIsNamed(op, "scf.execute_region");
    printf("%s plan: %d blocks\n", target, blocks);
  }
  mlirOperationDestroy(clone);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  char names[256];
  strataContextFormatTargetNames(ctx, names, sizeof names);
  printf("built in: %s\n", names);
  // CHECK: built in: cpu
  printf("register: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterTarget(ctx, &kToy)));
  printf("again: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterTarget(ctx, &kToy)));
  // CHECK-NEXT: register: 1
  // CHECK-NEXT: diag: target 'toy' is already registered
  // CHECK-NEXT: again: 0
  printf("lookup: %s %d\n", strataContextLookupTarget(ctx, "toy")->name, strataContextLookupTarget(ctx, "gpu") == NULL);
  // CHECK-NEXT: lookup: toy 1

  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "toy.mlir");
  int64_t dims[2] = {2, 3};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  StrataTensor *y = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  StrataTensor *out = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  for (int k = 0; k < 6; k++) strataTensorSetDouble(x, k, k - 3), strataTensorSetDouble(y, k, 10 * k);
  StrataTensor *in[2] = {x, y};

  run(ctx, m, "toy", STRATA_FUSION_FIXED, in, out);
  run(ctx, m, "toy", STRATA_FUSION_DNNFUSION, in, out);
  run(ctx, m, "cpu", STRATA_FUSION_FIXED, in, out);
  run(ctx, m, "cpu", STRATA_FUSION_DNNFUSION, in, out);
  // CHECK-NEXT: toy fixed (toy): -0 -10 -20 -30 -41 -52
  // CHECK-NEXT: toy dnnfusion (toy): -0 -10 -20 -30 -41 -52
  // CHECK-NEXT: cpu fixed (cpu): -0 -10 -20 -30 -41 -52
  // CHECK-NEXT: cpu dnnfusion (cpu): -0 -10 -20 -30 -41 -52
  printf("toy compiles: %d\n", compiles);
  // CHECK-NEXT: toy compiles: 2

  /* The toy's kernel (nn.add) takes the neg as an epilogue but not the
   * relu as a prologue; the CPU has no kernel here and fuses all three. */
  countBlocks(ctx, m, "toy");
  countBlocks(ctx, m, "cpu");
  // CHECK-NEXT: toy plan: 2 blocks
  // CHECK-NEXT: cpu plan: 1 blocks
  countBlocks(ctx, m, "gpu");
  // CHECK-NEXT: diag: unknown target 'gpu' (registered: cpu, opencl, vulkan, hexagon, toy)

  /* Errors: unknown target, a mode the target lacks, no emitter, no function. */
  run(ctx, m, "gpu", STRATA_FUSION_FIXED, in, out);
  // CHECK-NEXT: diag: unknown target 'gpu' (registered: cpu, opencl, vulkan, hexagon, toy)
  // CHECK-NEXT: gpu fixed: failed
  run(ctx, m, "toy", STRATA_FUSION_NONE, in, out);
  // CHECK-NEXT: diag: target 'toy' has no none lowering (it has: fixed, dnnfusion, planned)
  // CHECK-NEXT: toy none: failed
  size_t size;
  printf("emit: %d\n", strataEmit(ctx, m, "toy", NULL, &size) == NULL);
  // CHECK-NEXT: diag: target 'toy' writes no code ahead of time (it has no object emitter)
  // CHECK-NEXT: emit: 1
  StrataExecutable *exe = strataCompile(ctx, m, "toy", NULL);
  printf("missing: %d\n", mlirLogicalResultIsFailure(strataExecutableInvoke(exe, "g", in, 2, &out, 1)));
  strataExecutableDestroy(exe);
  // CHECK-NEXT: diag: toy: no function 'g'
  // CHECK-NEXT: missing: 1

  /* The profile options go into the pipeline's nn-fuse; the CPU's equals
   * the named helper's; a target without nn-fuse in that pipeline says so. */
  MlirLocation loc = mlirLocationUnknownGet(strataContextGetMlir(ctx));
  StrataCompileOptions prof = {.fusion = STRATA_FUSION_DNNFUSION, .fuseProfile = "always",
                               .fuseProfileDb = "x.db"};
  char *viaTarget = strataTargetPipeline(ctx, strataContextLookupTarget(ctx, "cpu"), &prof, loc);
  char *viaHelper = strataCpuPipelineFusedWith("always", "x.db");
  printf("same pipeline: %d\n", viaTarget && viaHelper && !strcmp(viaTarget, viaHelper));
  // CHECK-NEXT: same pipeline: 1
  free(viaTarget);
  free(viaHelper);
  prof.fusion = STRATA_FUSION_FIXED;
  printf("no nn-fuse: %d\n", strataTargetPipeline(ctx, &kToy, &prof, loc) == NULL);
  // CHECK-NEXT: diag: target 'toy': the fixed pipeline runs no nn-fuse to take the fusion profile options
  // CHECK-NEXT: no nn-fuse: 1
  prof = (StrataCompileOptions){.fusion = STRATA_FUSION_DNNFUSION, .fuseProfile = "never"};
  char *toyProfiled = strataTargetPipeline(ctx, &kToy, &prof, loc);
  printf("toy: %s\n", toyProfiled);
  free(toyProfiled);
  // CHECK-NEXT: toy: nn-fuse{target=toy cpu-kernels profile=never},func.func(fused-blocks-inline)

  /* The caller's module is left as it was. */
  mlirOperationPrint(mlirModuleGetOperation(m), print, NULL);
  // CHECK: "nn.relu"
  // CHECK-NEXT: "nn.add"
  // CHECK-NEXT: "nn.neg"
  // CHECK-NEXT: return

  strataTensorDestroy(x);
  strataTensorDestroy(y);
  strataTensorDestroy(out);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
