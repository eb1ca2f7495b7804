/* --nn-to-linalg: lowers nn ops to linalg.generic (+ tensor, arith, math),
 * one rewrite pattern per op, registered by category (lower_*.c). Dynamic
 * dims compile for the ops with a rule in lower_dims.c; on any other op they
 * are a located error, not a silent skip. */
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "lower_internal.h"
#include "strata/pass.h"

/* The patterns trust shapes, so every op must verify first (strataVerify);
 * an op with dynamic dims that has no dynamic-shape rule (lower_dims.c) is
 * refused here, located at the op, before any rewrite. */
static MlirWalkResult refuseDynamic(MlirOperation op, void *user) {
  bool *ok = user;
  const char *why;
  if (!strataOpIsInDialect(op, "nn") || !lowerHasDynamicDims(op) || lowerDynamicSupported(op, &why))
    return MlirWalkResultAdvance;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  strataEmitError(mlirOperationGetLocation(op), "nn-to-linalg: '%.*s' has dynamic dimensions: %s", (int)name.length,
                  name.data, why);
  *ok = false;
  return MlirWalkResultAdvance;
}

/* An op whose results are all empty computes nothing: its results become
 * empty constants (so no lowering meets a zero extent, e.g. in a floordiv). */
static MlirLogicalResult foldEmpty(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  intptr_t n = mlirOperationGetNumResults(op);
  if (!n) return mlirLogicalResultFailure();
  MlirValue values[n];
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = lowerResultType(op, i);
    bool empty = false;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++) empty |= mlirShapedTypeGetDimSize(t, d) == 0;
    if (!empty || !mlirShapedTypeHasStaticShape(t)) return mlirLogicalResultFailure();
    values[i] = linalgSplatConstant(&rw->builder, mlirOperationGetLocation(op), t, 0);
  }
  strataReplaceOp(rw, op, (StrataValueList){values, n});
  return mlirLogicalResultSuccess();
}

static MlirWalkResult findLeftover(MlirOperation op, void *user) {
  if (!strataOpIsInDialect(op, "nn")) return MlirWalkResultAdvance;
  *(MlirOperation *)user = op;
  return MlirWalkResultInterrupt;
}

static void registerAll(LowerRegistry *r) {
  nnToLinalgShape(r);
  nnToLinalgElementwise(r);
  nnToLinalgLinear(r);
  nnToLinalgReduce(r);
  nnToLinalgPoolNorm(r);
  nnToLinalgMovement(r);
  nnToLinalgQuant(r);
  nnToLinalgDataDep(r);
  nnToLinalgPoolIndices(r);
  nnToLinalgQLinear(r);
  nnToLinalgRnn(r);
  nnToLinalgSequence(r);
  nnToLinalgSample(r);
  nnToLinalgSignal(r);
  nnToLinalgDet(r);
  nnToLinalgTfIdf(r);
  nnToLinalgCheck(r);
  nnToLinalgRandom(r);
}

bool strataNnToLinalgSupports(const char *opName) {
  LowerRegistry r = {NULL, opName, false, false};
  registerAll(&r);
  return r.found;
}

static void runNnToLinalg(StrataPassRun *run, MlirOperation root) {
  bool ok = mlirLogicalResultIsSuccess(strataVerify(strataPassGetContext(run), root));
  if (ok) mlirOperationWalk(root, refuseDynamic, &ok, MlirWalkPreOrder);
  if (!ok) {
    strataPassSignalFailure(run);
    return;
  }
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  LowerRegistry reg = {set, NULL, false, strataPassGetBool(run, "unroll-rnn")};
  StrataContext *ctx = strataPassGetContext(run);
  for (size_t d = 0; d < strataContextNumDialects(ctx); d++) {
    const StrataDialectDef *dialect = strataContextGetDialect(ctx, d);
    if (strcmp(dialect->name, "nn")) continue;
    for (size_t i = 0; i < strataDialectNumOps(dialect); i++)
      strataPatternSetAdd(set, strataDialectGetOp(dialect, i)->name, 2, foldEmpty, NULL);
  }
  registerAll(&reg);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
  MlirOperation leftover = {NULL};
  mlirOperationWalk(root, findLeftover, &leftover, MlirWalkPreOrder);
  if (!mlirOperationIsNull(leftover)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(leftover));
    strataEmitError(mlirOperationGetLocation(leftover), "nn-to-linalg: no lowering for '%.*s'",
                    (int)name.length, name.data);
    strataPassSignalFailure(run);
    return;
  }
  lowerSignlessSplatInputs(root);
}

static const StrataDialectHandleFn kDeps[] = {
    mlirGetDialectHandle__linalg__, mlirGetDialectHandle__tensor__,
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__math__, mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__func__, mlirGetDialectHandle__memref__, NULL};

/* The GPU targets' and Hexagon's bufferization takes no loop that yields a
 * buffer it allocates: their pipelines unroll the recurrent ops. */
static const StrataPassOptionDef kOptions[] = {
    {"unroll-rnn", STRATA_OPTION_BOOL, "false",
     "Unroll nn.rnn/gru/lstm over a static sequence of up to 4096 steps (constant step indices) instead of an "
     "scf.for carrying the states"},
};

const StrataPassDef strataNnToLinalgPass = {
    .name = "nn-to-linalg",
    .summary = "Lower nn ops to linalg.generic, tensor, arith and math",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runNnToLinalg,
    .dependentDialects = kDeps,
};
