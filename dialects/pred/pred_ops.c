/* The pred dialect (issue 20, Grape predication): `pred.guard`, a region
 * that runs when its i1 predicate is true and otherwise yields its else
 * operands, which is how Grape's nullified kernels leave their outputs
 * with their old contents. The body ends with gpu.yield (an IRDL op cannot
 * be a terminator; scf.yield requires an scf parent). `unlikely` marks
 * Grape's UnlikelyPredicate: lowered to an outlined call, never nested. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/pred.h"
#include "strata/support.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static bool isUnlikely(MlirOperation op) {
  return !mlirAttributeIsNull(strataOpAttr(op, STRATA_PRED_UNLIKELY));
}

/* Results match the else operands one for one; the body yields values of
 * the results' types; an unlikely guard is not inside another. */
static MlirLogicalResult verifyGuard(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  intptr_t n = mlirOperationGetNumResults(op);
  if (mlirOperationGetNumOperands(op) - 1 != n) {
    strataEmitOpError(op, "has %d results but %d else operands; each result needs the value it "
                      "keeps when the predicate is false", (int)n, (int)mlirOperationGetNumOperands(op) - 1);
    return fail();
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockGetNumArguments(body) != 0) {
    strataEmitOpError(op, "body must take no arguments (it uses values from above)");
    return fail();
  }
  MlirOperation term = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(term) || !strataOpIsNamed(term, STRATA_PRED_YIELD) ||
      mlirOperationGetNumOperands(term) != n) {
    strataEmitOpError(op, "body must end with '" STRATA_PRED_YIELD "' of %d value%s (one per result)",
                      (int)n, n == 1 ? "" : "s");
    return fail();
  }
  for (intptr_t i = 0; i < n; i++) {
    MlirType r = mlirValueGetType(mlirOperationGetResult(op, i));
    MlirType e = mlirValueGetType(mlirOperationGetOperand(op, i + 1));
    MlirType y = mlirValueGetType(mlirOperationGetOperand(term, i));
    if (mlirTypeEqual(r, e) && mlirTypeEqual(r, y)) continue;
    char rs[128], es[128], ys[128];
    strataTypeToString(r, rs, sizeof rs);
    strataTypeToString(e, es, sizeof es);
    strataTypeToString(y, ys, sizeof ys);
    strataEmitOpError(op, "result #%d has type %s but its else operand is %s and the body yields %s",
                      (int)i, rs, es, ys);
    return fail();
  }
  if (isUnlikely(op))
    for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
         p = mlirOperationGetParentOperation(p))
      if (strataOpIsNamed(p, "pred.guard") && isUnlikely(p)) {
        strataEmitOpError(op, "is 'unlikely' inside an 'unlikely' guard; unlikely guards cannot be "
                          "nested (an outlined path is launched whole or not at all)");
        return fail();
      }
  return ok();
}

static StrataTensor *copyOf(const StrataTensor *t) {
  StrataTensor *c = strataTensorCreate(t->dtype, t->rank, t->dims);
  if (c) memcpy(c->data, t->data, strataTensorNumBytes(t));
  return c;
}

/* The body only when the predicate is true; else copies of the else operands. */
static MlirLogicalResult interpGuard(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  intptr_t n = mlirOperationGetNumResults(op);
  int64_t p;
  if (!strataTensorGetInt64(x[0], 0, &p)) return fail();
  StrataTensor **res = NULL;
  size_t numRes = 0;
  if (p) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    if (mlirLogicalResultIsFailure(strataInterpretBlock(in, body, NULL, 0, &res, &numRes)))
      return fail();
  }
  bool good = !p || numRes == (size_t)n;
  for (intptr_t i = 0; good && i < n; i++) {
    const StrataTensor *v = p ? res[i] : x[i + 1];
    if (y[i] && (y[i]->dtype != v->dtype || strataTensorNumBytes(y[i]) != strataTensorNumBytes(v))) {
      good = false;
    } else if (y[i]) {
      memcpy(y[i]->data, v->data, strataTensorNumBytes(v));
    } else {
      good = (y[i] = copyOf(v)) != NULL;
    }
  }
  for (size_t i = 0; i < numRes; i++) strataTensorDestroy(res[i]);
  free(res);
  return good ? ok() : fail();
}

static const StrataAttrDef kGuardAttrs[] = {
    {STRATA_PRED_UNLIKELY, STRATA_ATTR_UNIT, STRATA_ATTR_OPTIONAL, NULL,
     "a rarely true predicate: lowered to an outlined call (never nested)"},
};

static const StrataOpDef kOps[] = {
    {.name = "pred.guard",
     .summary = "runs `body` when `pred` is true and yields its values; when false, the results are "
                "`inits` (outputs keep their old contents). The body ends with `gpu.yield`",
     .operands = "pred: i1, inits*: any",
     .results = "results*: any",
     .interpret = interpGuard,
     .types = "any",
     .attrs = kGuardAttrs,
     .numAttrs = sizeof kGuardAttrs / sizeof kGuardAttrs[0],
     .regions = "body",
     .verify = verifyGuard},
};

static const StrataOpTable kTable = {kOps, sizeof kOps / sizeof kOps[0]};
static const StrataOpTable *const kTables[] = {&kTable};

const StrataDialectDef strataPredDialect = {
    .name = "pred",
    /* Generated from the table when registered; dialects/pred/pred.irdl.mlir
     * is the same text, checked in for upstream mlir-opt (a test diffs them). */
    .irdlName = "pred.irdl.mlir",
    .tables = kTables,
    .numTables = sizeof kTables / sizeof kTables[0],
    .summary = "predication (issue 20, Grape): guarded regions that yield their else values when "
               "the predicate is false.",
    .irdlComment =
        "GENERATED by strata-gen-irdl from the op table in dialects/pred/pred_ops.c;\n"
        "do not edit. IRDL states the structure; the results' agreement with the\n"
        "else operands and the body's gpu.yield, and the ban on nested unlikely\n"
        "guards, are checked in C. An IRDL op cannot terminate a block, so the\n"
        "body ends with the upstream gpu.yield.",
};
