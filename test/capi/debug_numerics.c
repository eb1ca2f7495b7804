/* The numerics debugger (strataDebugNumerics) finds the op whose lowering
 * is deliberately perturbed: a test pass, run before the CPU pipeline, turns
 * nn.sub into nn.add in the compiled code only.
 * RUN: %capi/debug_numerics 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

static const char *kModule =
    "func.func @f(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {\n"
    "  %r = \"nn.relu\"(%x) : (tensor<8xf32>) -> tensor<8xf32>\n"
    "  %m = \"nn.mul\"(%r, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n"
    "  %s = \"nn.sub\"(%m, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>\n"
    "  %n = \"nn.neg\"(%s) : (tensor<8xf32>) -> tensor<8xf32>\n"
    "  return %n : tensor<8xf32>\n}\n";

static MlirWalkResult perturbOne(MlirOperation op, void *user) {
  (void)user;
  if (!strataOpIsNamed(op, "nn.sub")) return MlirWalkResultAdvance;
  StrataBuilder b = strataBuilderBefore(op, (MlirRewriterBase){NULL});
  MlirValue r = strataResult(
      strataCreateOp(&b, "nn.add", mlirOperationGetLocation(op),
                     .operands = STRATA_VALUES(mlirOperationGetOperand(op, 0), mlirOperationGetOperand(op, 1)),
                     .results = STRATA_TYPES(mlirValueGetType(mlirOperationGetResult(op, 0)))),
      0);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  mlirOperationDestroy(op);
  return MlirWalkResultSkip;
}

static void runPerturb(StrataPassRun *run, MlirOperation root) {
  (void)run;
  mlirOperationWalk(root, perturbOne, NULL, MlirWalkPostOrder);
}

static const StrataPassDef kPerturb = {
    .name = "test-perturb-sub", .summary = "Miscompile nn.sub as nn.add", .anchor = "builtin.module",
    .run = runPerturb,
};

static void report(const char *label, MlirLogicalResult r, const StrataDebugNumericsReport *rep) {
  if (mlirLogicalResultIsFailure(r)) {
    printf("%s: failed\n", label);
    return;
  }
  if (rep->diverged)
    printf("%s: %zu compared, first divergence op_id %lld %s output #%lld at %s\n", label,
           rep->compared, (long long)rep->opId, rep->opName, (long long)rep->index, rep->location);
  else
    printf("%s: %zu compared, none diverged\n", label, rep->compared);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  if (!ctx || mlirLogicalResultIsFailure(strataContextRegisterPass(ctx, &kPerturb))) return 1;
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "test.mlir");
  int64_t dims[1] = {8};
  StrataTensor *in[2] = {strataTensorCreate(STRATA_DTYPE_F32, 1, dims),
                         strataTensorCreate(STRATA_DTYPE_F32, 1, dims)};
  strataTensorFillRandom(in[0], 1, -1, 1);
  strataTensorFillRandom(in[1], 2, 0.5, 1);
  StrataDebugNumericsOptions options = {1e-5, 1e-5, NULL, 2, NULL};
  StrataDebugNumericsReport rep;
  // CHECK: correct lowering: 4 compared, none diverged
  report("correct lowering", strataDebugNumerics(ctx, m, NULL, in, 2, &options, &rep), &rep);
  size_t n = strlen(strataCpuPipeline()) + 32;
  char *perturbed = malloc(n);
  snprintf(perturbed, n, "test-perturb-sub,%s", strataCpuPipeline());
  options.pipeline = perturbed;
  /* relu and mul match; sub (op_id 2) is the first to diverge, and neg
   * after it diverges too but is not reported. */
  // CHECK-NEXT: perturbed lowering: 4 compared, first divergence op_id 2 nn.sub output #0 at loc("test.mlir":4:{{[0-9]+}})
  report("perturbed lowering", strataDebugNumerics(ctx, m, NULL, in, 2, &options, &rep), &rep);
  /* The module itself is not instrumented. */
  // CHECK-NEXT: module untouched: 1
  MlirOperation first = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(
      mlirOperationGetRegion(strataLookupFunc(m, "f"), 0)));
  printf("module untouched: %d\n", mlirAttributeIsNull(mlirOperationGetAttributeByName(
                                        first, mlirStringRefCreateFromCString("instr.op_id"))));
  free(perturbed);
  strataTensorDestroy(in[0]);
  strataTensorDestroy(in[1]);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
