/* --nn-flops: prints each function's total FLOPs and bytes, summed from the
 * per-op facts (strataOpFlops, strataOpBytes), so tests and people can see
 * what a rewrite saved:
 *
 *   nn-flops: @f FLOPs 4096 bytes 49152
 *
 * Anchored on the module so functions print in order (a func.func pass may
 * run functions on several threads). Ops with dynamic shapes have no static
 * cost; their number is printed when there are any. */
#include <stdio.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "nn_flops.h"

typedef struct {
  StrataContext *ctx;
  NnCost cost;
} CostWalk;

static bool staticType(MlirType t) { return !mlirTypeIsAShaped(t) || mlirShapedTypeHasStaticShape(t); }

bool nnHasStaticShapes(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (!staticType(mlirValueGetType(mlirOperationGetOperand(op, i)))) return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!staticType(mlirValueGetType(mlirOperationGetResult(op, i)))) return false;
  return true;
}

static MlirWalkResult addOp(MlirOperation op, void *user) {
  CostWalk *w = user;
  const StrataOpDef *def = strataContextGetOpDef(w->ctx, op);
  if (!def) return MlirWalkResultAdvance;
  if (!nnHasStaticShapes(op)) {
    w->cost.dynamicOps++;
    return MlirWalkResultAdvance;
  }
  w->cost.flops += strataOpFlops(def, op);
  w->cost.bytes += strataOpBytes(op);
  return MlirWalkResultAdvance;
}

NnCost nnCountCost(StrataContext *ctx, MlirOperation root) {
  CostWalk w = {ctx, {0, 0, 0}};
  mlirOperationWalk(root, addOp, &w, MlirWalkPreOrder);
  return w.cost;
}

MlirStringRef nnFuncName(MlirOperation func) {
  MlirAttribute a = mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name"));
  return mlirAttributeIsAString(a) ? mlirStringAttrGetValue(a) : mlirStringRefCreateFromCString("");
}

typedef struct {
  StrataContext *ctx;
} PrintWalk;

static MlirWalkResult printFunc(MlirOperation op, void *user) {
  PrintWalk *w = user;
  if (!strataOpIsNamed(op, "func.func")) return MlirWalkResultAdvance;
  NnCost c = nnCountCost(w->ctx, op);
  MlirStringRef name = nnFuncName(op);
  fprintf(stderr, "nn-flops: @%.*s FLOPs %.0f bytes %.0f", (int)name.length, name.data, c.flops, c.bytes);
  if (c.dynamicOps)
    fprintf(stderr, " (%lld op%s with dynamic shapes not counted)", (long long)c.dynamicOps,
            c.dynamicOps == 1 ? "" : "s");
  fputc('\n', stderr);
  return MlirWalkResultSkip;
}

static void runFlops(StrataPassRun *run, MlirOperation root) {
  PrintWalk w = {strataPassGetContext(run)};
  mlirOperationWalk(root, printFunc, &w, MlirWalkPreOrder);
}

const StrataPassDef strataNnFlopsPass = {
    .name = "nn-flops",
    .summary = "Print each function's total FLOPs and bytes (from the ops' static facts) to stderr",
    .anchor = "builtin.module",
    .run = runFlops,
};
