/* --pred-if-to-guard: Grape's first rewrite rule (Fig. 6(c)),
 *   if x: A else: B  ->  with Predicate(x): A ; with Predicate(!x): B
 * as patterns on scf.if: the then-region becomes a pred.guard on %c, the
 * else-region one on `%c xor true`, and each result is
 * `arith.select %c, then, else`. Both predicates come from the one SSA %c,
 * computed before either guard runs, so A cannot change what B sees (R5).
 * An scf.if whose branches have effects predication cannot hold back (R1)
 * is refused with a located error, before anything is rewritten. One whose
 * results have no value to stand for the branch not taken -- a dynamic
 * shape, which may depend on the predicate (R4), or a type with no zero --
 * cannot become guards and a select; it is left as a branch, which computes
 * what it did, with a located remark (an ONNX Loop with a run-time trip
 * count grows its scan outputs under such an scf.if: docs/pred.md). */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/GPU.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/pred.h"
#include "strata/support.h"

/* A condition known at compile time is not data-dependent: folding, not
 * predication, removes that branch. */
static bool constantCondition(MlirOperation ifOp) {
  MlirValue c = mlirOperationGetOperand(ifOp, 0);
  return mlirValueIsAOpResult(c) && strataOpIsNamed(mlirOpResultGetOwner(c), "arith.constant");
}

/* The first result with no zero value to stand for the branch not taken,
 * and why; -1 if every result has one. */
static intptr_t unzeroableResult(MlirOperation op, const char **why) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if ((*why = strataPredZeroProblem(mlirValueGetType(mlirOperationGetResult(op, i))))) return i;
  return -1;
}

static MlirWalkResult checkIf(MlirOperation op, void *user) {
  bool *failed = user;
  if (!strataOpIsNamed(op, "scf.if") || constantCondition(op)) return MlirWalkResultAdvance;
  const char *why;
  intptr_t bad = unzeroableResult(op, &why);
  if (bad >= 0) {
    char ts[160];
    strataTypeToString(mlirValueGetType(mlirOperationGetResult(op, bad)), ts, sizeof ts);
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(op),
                         "pred-if-to-guard: left as a branch: result #%d of type %s %s", (int)bad, ts,
                         why);
    return MlirWalkResultAdvance;
  }
  if (!strataPredCheckEffects(op, "scf.if")) {
    *failed = true;
    return MlirWalkResultAdvance;
  }
  intptr_t n = mlirOperationGetNumResults(op);
  MlirType types[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) types[i] = mlirValueGetType(mlirOperationGetResult(op, i));
  if (strataPredNumTypes((StrataTypeList){types, n}) > 1)
    for (intptr_t r = 0; r < 2; r++) {
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
      if (mlirBlockIsNull(b) || strataPredCanDuplicate(b)) continue;
      strataEmitError(mlirOperationGetLocation(op),
                      "cannot predicate this scf.if: its results have %d types and its %s branch "
                      "writes memory or calls; a pred.guard carries values of one type, so the "
                      "branch would run once per type", strataPredNumTypes((StrataTypeList){types, n}),
                      r ? "else" : "then");
      *failed = true;
      break;
    }
  return MlirWalkResultAdvance;
}

static bool onlyTerminator(MlirBlock b) {
  return mlirOperationEqual(mlirBlockGetFirstOperation(b), mlirBlockGetTerminator(b));
}

static MlirLogicalResult ifToGuard(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  const char *why;
  if (constantCondition(op) || unzeroableResult(op, &why) >= 0) return mlirLogicalResultFailure();
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue c = mlirOperationGetOperand(op, 0);
  intptr_t n = mlirOperationGetNumResults(op);
  MlirBlock thenBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirBlock elseBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  /* A branch that does nothing and yields nothing needs no guard (a
   * `continue` leaves only the other one: T5). */
  bool thenUsed = n > 0 || !onlyTerminator(thenBlock);
  bool elseUsed = !mlirBlockIsNull(elseBlock) && (n > 0 || !onlyTerminator(elseBlock));
  MlirValue notC = elseUsed ? strataPredNot(&rw->builder, loc, c) : (MlirValue){NULL};
  MlirValue zeros[n ? n : 1];
  for (intptr_t i = 0; i < n; i++)
    zeros[i] = strataPredZero(&rw->builder, loc, mlirValueGetType(mlirOperationGetResult(op, i)));
  MlirValue thenValues[n ? n : 1], elseValues[n ? n : 1], merged[n ? n : 1];
  if (thenUsed)
    strataPredBuildGuards(rw, loc, c, (StrataValueList){zeros, n}, thenBlock, (StrataValueList){NULL, 0},
                          thenValues);
  if (elseUsed)
    strataPredBuildGuards(rw, loc, notC, (StrataValueList){zeros, n}, elseBlock,
                          (StrataValueList){NULL, 0}, elseValues);
  for (intptr_t i = 0; i < n; i++) {
    MlirValue t = thenValues[i], e = elseValues[i];
    merged[i] = strataResult(strataCreateOp(&rw->builder, "arith.select", loc,
                                            .operands = STRATA_VALUES(c, t, e),
                                            .results = STRATA_TYPES(mlirValueGetType(t))),
                             0);
  }
  strataReplaceOp(rw, op, (StrataValueList){merged, n});
  return mlirLogicalResultSuccess();
}

static void runIfToGuard(StrataPassRun *run, MlirOperation root) {
  bool failed = false;
  mlirOperationWalk(root, checkIf, &failed, MlirWalkPreOrder);
  if (failed) {
    strataPassSignalFailure(run);
    return;
  }
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "scf.if", 1, ifToGuard, NULL);
  /* No folding or constant CSE: the pass changes what it converts only, so a
   * second run changes nothing. */
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) {
    strataEmitError(mlirOperationGetLocation(root), "pred-if-to-guard: did not converge");
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(set);
}

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__gpu__,
                                              mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataPredIfToGuardPass = {
    .name = "pred-if-to-guard",
    .summary = "scf.if -> pred.guard on %c and on %c xor true, results merged by arith.select "
               "(Grape's if/else rule); refuses host side effects (R1); leaves an scf.if with "
               "predicate-dependent shapes (R4) as a branch, with a remark",
    .anchor = "func.func",
    .run = runIfToGuard,
    .dependentDialects = kDeps,
};
