/* --pred-loop-to-guard: Grape's break rule (Fig. 6(c)),
 *   for ...: if x: break ; A   ->   for ...: with Predicate(!break_flag): ...
 * on scf.while loops whose exit condition bounds the trip count: a
 * conjunction `i < UB ∧ ...` (cmpi slt/ult against a constant) where i
 * starts at a constant and every iteration adds a constant >= 1. Such a
 * loop becomes `scf.for 0..trips` running the before-region each
 * iteration and the body under `pred.guard` on its condition, so once the
 * condition fails (the break flag is set, or i reaches UB) every later
 * iteration keeps the carried values: the loop always runs its full trip
 * count and yields what the while loop would have. The carried values
 * are the for loop's iter_args, the break flag among them.
 *
 * A loop without such a bound is left as it is, with a remark (Grape
 * does not predicate unbounded loops, T6) -- unless `bound=N` is given:
 * then N predicated iterations run and the original while loop follows on
 * their result, running no iteration when N was enough, so the result is
 * exact whatever N is. The before-region must pass its arguments on
 * unchanged (`scf.condition(%c) %args`); a loop whose body has effects
 * predication cannot hold back (R1) is refused with a located error. */
#include <limits.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/SCF.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/pred.h"
#include "strata/support.h"

/* Marks the while loop kept after bound=N iterations: not converted again. */
#define TAIL_ATTR "pred.tail"

typedef struct {
  int64_t trips; /* iterations of the scf.for */
  bool tail;     /* keep the while loop after it (bound=N) */
} LoopPlan;

/* An integer constant: arith.constant, or the element extracted from a
 * one-element integer constant tensor (the ONNX importer's trip count M is
 * `tensor.extract` of an nn.constant). */
static bool constantInt(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (strataOpIsNamed(def, "tensor.extract")) {
    MlirValue t = mlirOperationGetOperand(def, 0);
    if (!mlirValueIsAOpResult(t)) return false;
    MlirOperation c = mlirOpResultGetOwner(t);
    if (!strataOpIsNamed(c, "nn.constant") && !strataOpIsNamed(c, "arith.constant")) return false;
    MlirAttribute a = strataOpAttr(c, "value");
    if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseIntElements(a) || mlirElementsAttrGetNumElements(a) != 1)
      return false;
    /* Any integer width: the tensor reader converts the element. */
    StrataTensor *t1 = strataTensorFromAttr(a);
    bool ok = t1 && strataTensorGetInt64(t1, 0, out);
    strataTensorDestroy(t1);
    return ok;
  }
  if (!strataOpIsNamed(def, "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(def, "value");
  if (!mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static MlirBlock regionBlock(MlirOperation op, intptr_t r) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
}

/* The index of `v` among `block`'s arguments, or -1. */
static intptr_t argIndex(MlirValue v, MlirBlock block) {
  if (!mlirValueIsABlockArgument(v) || !mlirBlockEqual(mlirBlockArgumentGetOwner(v), block)) return -1;
  return mlirBlockArgumentGetArgNumber(v);
}

/* `cmp` is `arith.cmpi slt|ult %arg_k, UB`: the trip bound of the loop if
 * the body adds a constant >= 1 to arg k and it starts at a constant. */
static bool counterBound(MlirOperation loop, MlirOperation cmp, int64_t *trips) {
  MlirBlock before = regionBlock(loop, 0), after = regionBlock(loop, 1);
  int64_t pred, ub, init, step;
  if (!strataOpIsNamed(cmp, "arith.cmpi") || !strataGetI64(cmp, "predicate", &pred) ||
      (pred != 2 /* slt */ && pred != 6 /* ult */))
    return false;
  intptr_t k = argIndex(mlirOperationGetOperand(cmp, 0), before);
  if (k < 0 || !constantInt(mlirOperationGetOperand(cmp, 1), &ub) ||
      !constantInt(mlirOperationGetOperand(loop, k), &init) || init < 0)
    return false;
  MlirValue next = mlirOperationGetOperand(mlirBlockGetTerminator(after), k);
  if (!mlirValueIsAOpResult(next) || !strataOpIsNamed(mlirOpResultGetOwner(next), "arith.addi")) return false;
  MlirOperation add = mlirOpResultGetOwner(next);
  MlirValue a = mlirOperationGetOperand(add, 0), b = mlirOperationGetOperand(add, 1);
  bool ok = (argIndex(a, after) == k && constantInt(b, &step)) || (argIndex(b, after) == k && constantInt(a, &step));
  /* i + step must not wrap below UB: i < UB, so UB - 1 + step must fit. */
  MlirType t = mlirValueGetType(next);
  int width = mlirTypeIsAIndex(t) ? 64 : (int)mlirIntegerTypeGetWidth(t);
  int64_t max = width >= 64 ? INT64_MAX : (int64_t)((1ull << (width - 1)) - 1);
  if (!ok || step < 1 || ub > max - step + 1 || (pred == 6 && ub < 0)) return false;
  *trips = ub <= init ? 0 : (ub - init + step - 1) / step;
  return true;
}

/* Searches the andi tree of the exit condition for a counter bound. */
static bool findBound(MlirOperation loop, MlirValue cond, int depth, int64_t *trips) {
  if (!mlirValueIsAOpResult(cond) || depth > 16) return false;
  MlirOperation def = mlirOpResultGetOwner(cond);
  if (strataOpIsNamed(def, "arith.andi"))
    return findBound(loop, mlirOperationGetOperand(def, 0), depth + 1, trips) ||
           findBound(loop, mlirOperationGetOperand(def, 1), depth + 1, trips);
  return counterBound(loop, def, trips);
}

/* The before-region must forward its arguments unchanged. */
static bool forwardsArgs(MlirOperation loop) {
  MlirBlock before = regionBlock(loop, 0);
  MlirOperation cond = mlirBlockGetTerminator(before);
  intptr_t n = mlirBlockGetNumArguments(before);
  if (mlirOperationGetNumOperands(cond) != n + 1 || mlirOperationGetNumResults(loop) != n) return false;
  for (intptr_t i = 0; i < n; i++)
    if (argIndex(mlirOperationGetOperand(cond, i + 1), before) != i) return false;
  return true;
}

typedef struct {
  int64_t bound; /* the bound=N option; 0: none */
  bool failed;
} LoopState;

/* What to do with `loop`; false (and a remark or error) to leave it. */
static bool planLoop(MlirOperation loop, const LoopState *s, LoopPlan *plan, bool report) {
  MlirLocation loc = mlirOperationGetLocation(loop);
  if (!mlirAttributeIsNull(strataOpAttr(loop, TAIL_ATTR))) return false;
  if (!forwardsArgs(loop)) {
    if (report)
      strataEmitDiagnostic(STRATA_SEVERITY_REMARK, loc,
                           "pred-loop-to-guard: left as it is: the before-region changes the "
                           "values it passes on (only `scf.condition(%%c) %%args` is predicated)");
    return false;
  }
  MlirValue cond = mlirOperationGetOperand(mlirBlockGetTerminator(regionBlock(loop, 0)), 0);
  plan->tail = false;
  if (findBound(loop, cond, 0, &plan->trips)) return true;
  if (s->bound > 0) {
    plan->trips = s->bound;
    plan->tail = true;
    return true;
  }
  if (report)
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, loc,
                         "pred-loop-to-guard: left as it is: no static trip bound (the exit "
                         "condition is not `i < UB and ...` with i counting up by a constant from a "
                         "constant); Grape does not predicate unbounded loops (give bound=N to run "
                         "N predicated iterations before it)");
  return false;
}

static MlirWalkResult checkLoop(MlirOperation op, void *user) {
  LoopState *s = user;
  LoopPlan plan;
  if (!strataOpIsNamed(op, "scf.while") || !planLoop(op, s, &plan, true)) return MlirWalkResultAdvance;
  if (!strataPredCheckEffects(op, "scf.while")) {
    s->failed = true;
    return MlirWalkResultAdvance;
  }
  intptr_t n = mlirOperationGetNumResults(op);
  MlirType types[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) types[i] = mlirValueGetType(mlirOperationGetResult(op, i));
  int k = strataPredNumTypes((StrataTypeList){types, n});
  if (k > 1 && !strataPredCanDuplicate(regionBlock(op, 1))) {
    strataEmitError(mlirOperationGetLocation(op),
                    "cannot predicate this scf.while: it carries values of %d types and its body "
                    "writes memory or calls; a pred.guard carries values of one type, so the body "
                    "would run once per type", k);
    s->failed = true;
  }
  return MlirWalkResultAdvance;
}

static MlirLogicalResult loopToGuard(StrataRewrite *rw, MlirOperation loop, void *user) {
  LoopState *s = user;
  LoopPlan plan;
  if (!planLoop(loop, s, &plan, false)) return mlirLogicalResultFailure();
  MlirContext ctx = mlirOperationGetContext(loop);
  MlirLocation loc = mlirOperationGetLocation(loop);
  intptr_t n = mlirOperationGetNumResults(loop);
  MlirOperation tail = {NULL};
  if (plan.tail) {
    tail = mlirOperationClone(loop);
    mlirOperationSetAttributeByName(tail, mlirStringRefCreateFromCString(TAIL_ATTR), mlirUnitAttrGet(ctx));
  }
  MlirType index = strataIndexType(ctx);
  MlirValue operands[n + 3];
  MlirType types[n ? n : 1], argTypes[n + 1];
  operands[0] = strataConstInt(&rw->builder, loc, index, 0);
  operands[1] = strataConstInt(&rw->builder, loc, index, plan.trips);
  operands[2] = strataConstInt(&rw->builder, loc, index, 1);
  argTypes[0] = index;
  for (intptr_t i = 0; i < n; i++) {
    operands[i + 3] = mlirOperationGetOperand(loop, i);
    types[i] = argTypes[i + 1] = mlirValueGetType(mlirOperationGetResult(loop, i));
  }
  MlirOperation forOp = strataCreateOp(&rw->builder, "scf.for", loc, .operands = {operands, n + 3},
                                       .results = {types, n}, .numRegions = 1);
  MlirBlock body = strataAddBlock(forOp, 0, (StrataTypeList){argTypes, n + 1}, loc);
  MlirValue carried[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) carried[i] = mlirBlockGetArgument(body, i + 1);
  /* The condition, computed each iteration on the carried values ... */
  mlirRewriterBaseMergeBlocks(rw->rewriter, regionBlock(loop, 0), body, n, carried);
  MlirOperation cond = mlirBlockGetTerminator(body);
  /* ... guards the body, which keeps the carried values once it fails. */
  StrataRewrite at = {rw->rewriter, strataBuilderBefore(cond, rw->rewriter)};
  MlirValue next[n ? n : 1], results[n ? n : 1];
  strataPredBuildGuards(&at, loc, mlirOperationGetOperand(cond, 0), (StrataValueList){carried, n},
                        regionBlock(loop, 1), (StrataValueList){carried, n}, next);
  strataCreateOp(&at.builder, "scf.yield", loc, .operands = {next, n});
  mlirRewriterBaseEraseOp(rw->rewriter, cond);
  for (intptr_t i = 0; i < n; i++) results[i] = strataResult(forOp, i);
  if (plan.tail) {
    mlirRewriterBaseSetInsertionPointBefore(rw->rewriter, loop);
    mlirRewriterBaseInsert(rw->rewriter, tail);
    for (intptr_t i = 0; i < n; i++) {
      mlirOperationSetOperand(tail, i, results[i]);
      results[i] = strataResult(tail, i);
    }
  }
  strataReplaceOp(rw, loop, (StrataValueList){results, n});
  return mlirLogicalResultSuccess();
}

static void runLoopToGuard(StrataPassRun *run, MlirOperation root) {
  LoopState s = {strataPassGetInt(run, "bound"), false};
  if (s.bound < 0) {
    strataEmitError(mlirOperationGetLocation(root), "pred-loop-to-guard: bound=%lld is negative",
                    (long long)s.bound);
    strataPassSignalFailure(run);
    return;
  }
  mlirOperationWalk(root, checkLoop, &s, MlirWalkPreOrder);
  if (s.failed) {
    strataPassSignalFailure(run);
    return;
  }
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "scf.while", 1, loopToGuard, &s);
  /* No folding or constant CSE: the pass changes what it converts only, so a
   * second run changes nothing. */
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) {
    strataEmitError(mlirOperationGetLocation(root), "pred-loop-to-guard: did not converge");
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(set);
}

static const StrataPassOptionDef kOptions[] = {
    {"bound", STRATA_OPTION_INT, "0",
     "for loops without a static bound: run this many predicated iterations, then the original "
     "loop on their result (0: leave such loops)"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__gpu__, mlirGetDialectHandle__scf__,
                                              mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataPredLoopToGuardPass = {
    .name = "pred-loop-to-guard",
    .summary = "bounded scf.while (exit `i < UB and ...`) -> scf.for 0..trips with the body under "
               "pred.guard on the exit condition (Grape's break rule); unbounded loops left with a "
               "remark",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runLoopToGuard,
    .dependentDialects = kDeps,
};
