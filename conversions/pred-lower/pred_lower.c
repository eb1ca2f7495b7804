/* --pred-lower{mode=masked|skip}: pred.guard to upstream code.
 *
 * First every guard nested in another gets the conjunction of the two
 * predicates (`arith.andi outer, inner`), so a guard's predicate alone says
 * whether its body counts. Then, per guard:
 *   - masked: the body runs unconditionally and each result is
 *     `arith.select %p, body value, else value` (R3: the body's values are
 *     garbage when %p is false and only the select reads them). Only ops
 *     that cannot trap or write on garbage are run so: integer divisors
 *     become `select %p, b, 1`, load/extract/insert indices `select %p, i,
 *     0` (on static shapes, where 0 is in bounds), nn's integer divisors
 *     and gather/scatter index tensors a splat of 1 or 0, and a store
 *     becomes load, select, store at the selected index. A body with any
 *     other op (a call, a while loop, a gather on dynamic or empty data,
 *     ...) is lowered as in skip mode, with a remark naming the op.
 *   - skip: `scf.if %p { body } else { else values }`, a branch, as Grape's
 *     nullified kernels do inside the kernel.
 * An unlikely guard is outlined into a private function called under
 * `scf.if %p` in either mode. Afterwards `select %c, select %c, a, _, b`
 * and `select %c, a, select %c xor true, b, _` fold to `select %c, a, b`,
 * so an if/else pair becomes one select (never `acc + p*x`, T12). */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pred.h"
#include "strata/support.h"
#include "pred_lower.h"

typedef struct {
  bool masked;
} LowerMode;

/* ---- Conjunction of nested predicates ---- */

static MlirOperation enclosingGuard(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op); !mlirOperationIsNull(p);
       p = mlirOperationGetParentOperation(p))
    if (strataOpIsNamed(p, "pred.guard")) return p;
  return (MlirOperation){NULL};
}

/* Pre-order: the outer guard's predicate is already the conjunction of
 * everything above it when its inner guards read it. */
static MlirWalkResult conjoin(MlirOperation op, void *user) {
  (void)user;
  if (!strataOpIsNamed(op, "pred.guard")) return MlirWalkResultAdvance;
  MlirOperation outer = enclosingGuard(op);
  if (mlirOperationIsNull(outer)) return MlirWalkResultAdvance;
  MlirValue p = mlirOperationGetOperand(outer, 0), q = mlirOperationGetOperand(op, 0);
  StrataBuilder b = strataBuilderBefore(op, (MlirRewriterBase){NULL});
  MlirOperation andOp = strataCreateOp(&b, "arith.andi", mlirOperationGetLocation(op),
                                       .operands = STRATA_VALUES(p, q),
                                       .results = STRATA_TYPES(mlirValueGetType(q)));
  mlirOperationSetOperand(op, 0, strataResult(andOp, 0));
  return MlirWalkResultAdvance;
}

/* ---- Masked: what in a body may run when its predicate is false ---- */

typedef struct {
  MlirOperation guard;
  MlirOperation blocker; /* the first op that may not be speculated */
} Classify;

static MlirWalkResult classifyOne(MlirOperation op, void *user) {
  Classify *c = user;
  /* A nested guard is lowered on its own, with its own (conjoined) predicate. */
  if (strataOpIsNamed(op, "pred.guard") && !mlirOperationEqual(op, c->guard)) return MlirWalkResultSkip;
  if (mlirOperationEqual(op, c->guard)) return MlirWalkResultAdvance;
  if (strataPredClassify(op) == STRATA_PRED_KEEP) {
    c->blocker = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

typedef struct {
  StrataRewrite *rw;
  MlirOperation guard;
  MlirValue pred;
} Fixer;

static MlirValue selectPred(StrataBuilder *b, MlirLocation loc, MlirValue p, MlirValue v, MlirValue other) {
  return strataResult(strataCreateOp(b, "arith.select", loc, .operands = STRATA_VALUES(p, v, other),
                                     .results = STRATA_TYPES(mlirValueGetType(v))),
                      0);
}

/* Operand i of `op` becomes `select %p, operand, constant k`. */
static void guardOperand(Fixer *f, StrataBuilder *b, MlirOperation op, intptr_t i, int64_t k) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue v = mlirOperationGetOperand(op, i);
  MlirValue safe = strataConstInt(b, loc, mlirValueGetType(v), k);
  MlirValue sel = selectPred(b, loc, f->pred, v, safe);
  mlirRewriterBaseStartOpModification(f->rw->rewriter, op);
  mlirOperationSetOperand(op, i, sel);
  mlirRewriterBaseFinalizeOpModification(f->rw->rewriter, op);
}

static MlirWalkResult fixOne(MlirOperation op, void *user) {
  Fixer *f = user;
  if (strataOpIsNamed(op, "pred.guard") && !mlirOperationEqual(op, f->guard)) return MlirWalkResultSkip;
  StrataBuilder b = strataBuilderBefore(op, f->rw->rewriter);
  switch (strataPredClassify(op)) {
  case STRATA_PRED_FIX_DIVISOR: guardOperand(f, &b, op, 1, 1); break;
  case STRATA_PRED_FIX_INDEX: {
    intptr_t first = strataOpIsNamed(op, "tensor.insert") ? 2 : 1;
    for (intptr_t i = first; i < mlirOperationGetNumOperands(op); i++) guardOperand(f, &b, op, i, 0);
    break;
  }
  case STRATA_PRED_FIX_OPERAND: {
    /* nn's divisor or index tensor: `select %p, operand, splat(1 or 0)`. */
    MlirLocation loc = mlirOperationGetLocation(op);
    MlirValue v = mlirOperationGetOperand(op, 1);
    MlirType t = mlirValueGetType(v);
    bool division = strataOpIsNamed(op, "nn.div") || strataOpIsNamed(op, "nn.mod");
    MlirAttribute k = mlirIntegerAttrGet(mlirShapedTypeGetElementType(t), division ? 1 : 0);
    MlirValue safe = strataResult(
        strataCreateOp(&b, "arith.constant", loc, .results = STRATA_TYPES(t),
                       .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrSplatGet(t, k)})),
        0);
    MlirValue sel = selectPred(&b, loc, f->pred, v, safe);
    mlirRewriterBaseStartOpModification(f->rw->rewriter, op);
    mlirOperationSetOperand(op, 1, sel);
    mlirRewriterBaseFinalizeOpModification(f->rw->rewriter, op);
    break;
  }
  case STRATA_PRED_FIX_STORE: {
    /* store %v, %m[%i] -> %j = select %p, %i, 0; %old = load %m[%j];
     * store (select %p, %v, %old), %m[%j]: memory unchanged when false. */
    intptr_t n = mlirOperationGetNumOperands(op);
    for (intptr_t i = 2; i < n; i++) guardOperand(f, &b, op, i, 0);
    MlirLocation loc = mlirOperationGetLocation(op);
    MlirValue v = mlirOperationGetOperand(op, 0);
    MlirValue addr[n - 1];
    for (intptr_t i = 1; i < n; i++) addr[i - 1] = mlirOperationGetOperand(op, i);
    MlirValue old = strataResult(strataCreateOp(&b, "memref.load", loc, .operands = {addr, n - 1},
                                                .results = STRATA_TYPES(mlirValueGetType(v))),
                                 0);
    MlirValue sel = selectPred(&b, loc, f->pred, v, old);
    mlirRewriterBaseStartOpModification(f->rw->rewriter, op);
    mlirOperationSetOperand(op, 0, sel);
    mlirRewriterBaseFinalizeOpModification(f->rw->rewriter, op);
    break;
  }
  default: break;
  }
  return MlirWalkResultAdvance;
}

static void lowerMasked(StrataRewrite *rw, MlirOperation guard) {
  MlirValue p = mlirOperationGetOperand(guard, 0);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 0));
  Fixer f = {rw, guard, p};
  for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o);) {
    MlirOperation next = mlirOperationGetNextInBlock(o);
    mlirOperationWalk(o, fixOne, &f, MlirWalkPreOrder);
    o = next;
  }
  MlirOperation term = mlirBlockGetTerminator(body);
  intptr_t n = mlirOperationGetNumResults(guard);
  MlirValue yielded[n ? n : 1], results[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) yielded[i] = mlirOperationGetOperand(term, i);
  mlirRewriterBaseInlineBlockBefore(rw->rewriter, body, guard, 0, NULL);
  mlirRewriterBaseEraseOp(rw->rewriter, term);
  MlirLocation loc = mlirOperationGetLocation(guard);
  for (intptr_t i = 0; i < n; i++)
    results[i] = selectPred(&rw->builder, loc, p, yielded[i], mlirOperationGetOperand(guard, i + 1));
  strataReplaceOp(rw, guard, (StrataValueList){results, n});
}

/* ---- Skip ---- */

void predLowerSkip(StrataRewrite *rw, MlirOperation guard) {
  MlirContext ctx = mlirOperationGetContext(guard);
  MlirLocation loc = mlirOperationGetLocation(guard);
  intptr_t n = mlirOperationGetNumResults(guard);
  MlirType types[n ? n : 1];
  MlirValue inits[n ? n : 1], results[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) {
    types[i] = mlirValueGetType(mlirOperationGetResult(guard, i));
    inits[i] = mlirOperationGetOperand(guard, i + 1);
  }
  MlirOperation ifOp = strataCreateOp(&rw->builder, "scf.if", loc,
                                      .operands = STRATA_VALUES(mlirOperationGetOperand(guard, 0)),
                                      .results = {types, n}, .numRegions = 2);
  MlirBlock thenB = strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc);
  mlirRewriterBaseMergeBlocks(rw->rewriter, mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 0)),
                              thenB, 0, NULL);
  MlirOperation term = mlirBlockGetTerminator(thenB);
  MlirValue yielded[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) yielded[i] = mlirOperationGetOperand(term, i);
  StrataBuilder atTerm = strataBuilderBefore(term, rw->rewriter);
  strataCreateOp(&atTerm, "scf.yield", loc, .operands = {yielded, n});
  mlirRewriterBaseEraseOp(rw->rewriter, term);
  if (n) {
    StrataBuilder eb = strataBuilderAtEnd(ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, loc));
    strataCreateOp(&eb, "scf.yield", loc, .operands = {inits, n});
  }
  for (intptr_t i = 0; i < n; i++) results[i] = strataResult(ifOp, i);
  strataReplaceOp(rw, guard, (StrataValueList){results, n});
}

/* ---- The pattern ---- */

static MlirLogicalResult lowerGuard(StrataRewrite *rw, MlirOperation guard, void *user) {
  const LowerMode *mode = user;
  if (!mlirAttributeIsNull(strataOpAttr(guard, STRATA_PRED_UNLIKELY)))
    return predLowerUnlikely(rw, guard);
  if (!mode->masked) {
    predLowerSkip(rw, guard);
    return mlirLogicalResultSuccess();
  }
  Classify c = {guard, {NULL}};
  mlirOperationWalk(guard, classifyOne, &c, MlirWalkPreOrder);
  if (!mlirOperationIsNull(c.blocker)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(c.blocker));
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(c.blocker),
                         "pred-lower: this guard stays a branch (skip form): '%.*s' may trap or "
                         "has effects when its predicate is false, so it is not speculated",
                         (int)name.length, name.data);
    predLowerSkip(rw, guard);
  } else {
    lowerMasked(rw, guard);
  }
  return mlirLogicalResultSuccess();
}

static void runPredLower(StrataPassRun *run, MlirOperation root) {
  const char *modeName = strataPassGetString(run, "mode");
  LowerMode mode = {strcmp(modeName, "skip") != 0};
  if (strcmp(modeName, "masked") && strcmp(modeName, "skip")) {
    strataEmitError(mlirOperationGetLocation(root), "pred-lower: mode '%s' is neither 'masked' nor 'skip'",
                    modeName);
    strataPassSignalFailure(run);
    return;
  }
  mlirOperationWalk(root, conjoin, NULL, MlirWalkPreOrder);
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "pred.guard", 1, lowerGuard, &mode);
  predAddSelectFolds(set);
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) {
    strataEmitError(mlirOperationGetLocation(root), "pred-lower: did not converge");
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(set);
}

static const StrataPassOptionDef kOptions[] = {
    {"mode", STRATA_OPTION_STRING, "masked",
     "masked (speculate safe ops, arith.select the results) or skip (a branch per guard)"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__arith__, mlirGetDialectHandle__scf__,
                                              mlirGetDialectHandle__memref__,
                                              mlirGetDialectHandle__func__, NULL};

const StrataPassDef strataPredLowerPass = {
    .name = "pred-lower",
    .summary = "pred.guard -> arith.select over speculated safe ops (mode=masked) or scf.if "
               "(mode=skip); nested predicates conjoined; unlikely guards outlined",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runPredLower,
    .dependentDialects = kDeps,
};

const StrataPassDef *const strataPredLowerPasses[] = {&strataPredLowerPass, NULL};
