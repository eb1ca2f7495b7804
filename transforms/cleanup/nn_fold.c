/* --nn-fold: cleanup patterns that IRDL ops cannot get from MLIR (they have
 * no traits, so canonicalize/DCE never touch them):
 *   - dead pure Strata ops are erased;
 *   - relu(relu(x)) -> relu(x);
 *   - a pure op whose operands are all nn.constant is evaluated with its
 *     reference kernel and replaced by an nn.constant (up to `fold-limit`
 *     result elements). */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/dialect.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

typedef struct {
  StrataContext *ctx;
  int64_t foldLimit;
} FoldState;

static bool isOp(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && strncmp(n.data, name, n.length) == 0;
}

static bool hasNoUses(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i)))) return false;
  return true;
}

static MlirLogicalResult eraseDeadPure(StrataRewrite *rw, MlirOperation op, void *user) {
  FoldState *s = user;
  const StrataOpDef *def = strataGetOpDef(s->ctx, op);
  if (!def || !(def->flags & STRATA_OP_PURE) || !hasNoUses(op)) return mlirLogicalResultFailure();
  strataEraseOp(rw, op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult foldReluRelu(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue x = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(x) || !isOp(mlirOpResultGetOwner(x), "nn.relu"))
    return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(x));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult foldConstants(StrataRewrite *rw, MlirOperation op, void *user) {
  FoldState *s = user;
  const StrataOpDef *def = strataGetOpDef(s->ctx, op);
  if (!def || !(def->flags & STRATA_OP_PURE) || !def->interpret || isOp(op, "nn.constant") ||
      mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumOperands(op) == 0)
    return mlirLogicalResultFailure();
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  StrataTensor *out = strataTensorCreateForType(rt);
  if (!out || strataTensorNumElements(out) > s->foldLimit) {
    strataTensorDestroy(out);
    return mlirLogicalResultFailure();
  }
  StrataTensor *ins[n];
  intptr_t got = 0;
  for (; got < n; got++) {
    MlirValue v = mlirOperationGetOperand(op, got);
    if (!mlirValueIsAOpResult(v) || !isOp(mlirOpResultGetOwner(v), "nn.constant")) break;
    MlirOperation c = mlirOpResultGetOwner(v);
    ins[got] = strataTensorFromAttr(
        mlirOperationGetAttributeByName(c, mlirStringRefCreateFromCString("value")));
    if (!ins[got]) break;
  }
  MlirLogicalResult r = mlirLogicalResultFailure();
  if (got == n && mlirLogicalResultIsSuccess(strataVerifyOp(def, op)) &&
      mlirLogicalResultIsSuccess(def->interpret(NULL, op, ins, &out))) {
    MlirAttribute value = strataTensorToAttr(rt, out);
    if (!mlirAttributeIsNull(value)) {
      MlirOperation c = strataCreateOp(&rw->builder, "nn.constant", mlirOperationGetLocation(op),
                                       .results = STRATA_TYPES(rt),
                                       .attrs = STRATA_ATTRS({"value", value}));
      strataReplaceOp(rw, op, STRATA_VALUES(strataResult(c, 0)));
      r = mlirLogicalResultSuccess();
    }
  }
  for (intptr_t i = 0; i < got; i++) strataTensorDestroy(ins[i]);
  strataTensorDestroy(out);
  return r;
}

static void runNnFold(StrataPassRun *run, MlirOperation root) {
  FoldState s = {strataPassGetContext(run), strataPassGetInt(run, "fold-limit")};
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  /* DCE and constant folding apply to every pure Strata op. */
  for (size_t d = 0; d < strataContextNumDialects(s.ctx); d++) {
    const StrataDialectDef *dialect = strataContextGetDialect(s.ctx, d);
    for (size_t i = 0; i < strataDialectNumOps(dialect); i++) {
      const StrataOpDef *def = strataDialectGetOp(dialect, i);
      if (!(def->flags & STRATA_OP_PURE)) continue;
      strataPatternSetAdd(set, def->name, 2, eraseDeadPure, &s);
      strataPatternSetAdd(set, def->name, 1, foldConstants, &s);
    }
  }
  strataPatternSetAdd(set, "nn.relu", 3, foldReluRelu, &s);
  StrataGreedyConfig cfg = {strataPassGetInt(run, "max-iterations"), true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) {
    strataEmitError(mlirOperationGetLocation(root),
                    "nn-fold: did not converge within max-iterations=%lld",
                    (long long)cfg.maxIterations);
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(set);
}

static const StrataPassOptionDef kOptions[] = {
    {"max-iterations", STRATA_OPTION_INT, "10", "Greedy driver iteration limit"},
    {"fold-limit", STRATA_OPTION_INT, "65536",
     "Largest result (in elements) that constant folding materializes"},
};

const StrataPassDef strataNnFoldPass = {
    .name = "nn-fold",
    .summary = "Erase dead pure nn ops, fold relu(relu(x)), and constant-fold nn ops",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runNnFold,
};
