/* The sparse path on targets (issue 17, item 4): the CPU target lowers the
 * sparse dialect; a target that does not list it in its dialects refuses
 * a model holding a sparse op with a located error, before compiling
 * anything, instead of failing somewhere in its pipeline.
 * RUN: %capi/sparse_targets 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include "strata/strata.h"

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s: %s\n", d->location, d->message);
}

static int compiles;

static void *nnCompile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                       const StrataCompileOptions *options) {
  (void)def, (void)ctx, (void)options;
  compiles++;
  MlirModule *state = malloc(sizeof *state); /* the lowered module is the state */
  if (state) *state = lowered;
  else mlirModuleDestroy(lowered);
  return state;
}

static MlirLogicalResult nnInvoke(void *state, const char *name, StrataTensor *const *inputs, size_t numInputs,
                                  StrataTensor *const *outputs, size_t numOutputs) {
  (void)state, (void)name, (void)inputs, (void)numInputs, (void)outputs, (void)numOutputs;
  return mlirLogicalResultFailure();
}

static void nnDestroy(void *state) {
  mlirModuleDestroy(*(MlirModule *)state);
  free(state);
}

/* A target for the nn dialect only (an accelerator without sparse code). */
static const StrataTargetDef kNnOnly = {
    .name = "nnonly",
    .summary = "Lowers nn ops only",
    .pipelines = {[STRATA_FUSION_FIXED] = "func.func(nn-fold)"},
    .dialects = "nn",
    .compile = nnCompile,
    .invoke = nnInvoke,
    .destroy = nnDestroy,
};

static const char *kModel =
    "func.func @f(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {\n"
    "  %y = \"sparse.fkw_conv\"(%x) {patterns = array<i64: 0x092>, strides = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>,\n"
    "      dilations = array<i64: 1, 1>, group = 1 : i64, offset = array<i64: 0, 2, 3>, reorder = array<i64: 1, 0>,\n"
    "      index = array<i64: 0, 1, 1>, stride = array<i64: 0, 2, 0, 1>, groups = array<i64: 0, 2>,\n"
    "      weight = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]> : tensor<9xf32>} : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>\n"
    "  %r = \"nn.relu\"(%y) : (tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>\n"
    "  return %r : tensor<1x2x4x4xf32>\n"
    "}\n";

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  printf("cpu lowers: %s\n", strataContextLookupTarget(ctx, "cpu")->dialects);
  // CHECK: cpu lowers: {{.*}}sparse
  printf("register: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterTarget(ctx, &kNnOnly)));
  // CHECK-NEXT: register: 1
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "model.mlir");

  StrataExecutable *exe = strataCompile(ctx, m, "nnonly", NULL);
  printf("nnonly: %s, compiles %d\n", exe ? "compiled" : "refused", compiles);
  // CHECK-NEXT: diag: model.mlir:2:8: 'sparse.fkw_conv' op: target 'nnonly' compiles no 'sparse' ops (it lowers: nn)
  // CHECK-NEXT: nnonly: refused, compiles 0
  strataExecutableDestroy(exe);

  /* The CPU compiles and runs it (the interpreter's result is the check
   * of its numbers; here: it runs). */
  exe = strataCompile(ctx, m, "cpu", NULL);
  int64_t dims[4] = {1, 2, 4, 4};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 4, dims), *y = strataTensorCreate(STRATA_DTYPE_F32, 4, dims);
  strataTensorFillRandom(x, 1, -1, 1);
  StrataTensor *in[1] = {x}, *out[1] = {y};
  bool ran = exe && mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "f", in, 1, out, 1));
  printf("cpu: %s\n", ran ? "ran" : "failed");
  // CHECK-NEXT: cpu: ran
  strataExecutableDestroy(exe);
  strataTensorDestroy(x);
  strataTensorDestroy(y);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
