/* Building pred.guard ops and the values around them, for the passes. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/pred.h"
#include "strata/support.h"

MlirValue strataPredNot(StrataBuilder *b, MlirLocation loc, MlirValue v) {
  MlirType t = mlirValueGetType(v);
  MlirValue one = strataConstInt(b, loc, t, 1);
  return strataResult(strataCreateOp(b, "arith.xori", loc, .operands = STRATA_VALUES(v, one),
                                     .results = STRATA_TYPES(t)),
                      0);
}

const char *strataPredZeroProblem(MlirType t) {
  MlirType et = t;
  if (mlirTypeIsATensor(t) || mlirTypeIsAVector(t)) {
    if (!mlirShapedTypeHasRank(t) || !mlirShapedTypeHasStaticShape(t))
      return "has a dynamic shape, which may depend on the predicate (R4)";
    et = mlirShapedTypeGetElementType(t);
  }
  if (!mlirTypeIsAInteger(et) && !mlirTypeIsAIndex(et) && !mlirTypeIsAFloat(et))
    return "has no zero value to stand for the branch not taken (only numbers and static "
           "tensors or vectors of numbers do)";
  return NULL;
}

MlirValue strataPredZero(StrataBuilder *b, MlirLocation loc, MlirType t) {
  if (strataPredZeroProblem(t)) return (MlirValue){NULL};
  bool shaped = mlirTypeIsATensor(t) || mlirTypeIsAVector(t);
  MlirType et = shaped ? mlirShapedTypeGetElementType(t) : t;
  if (!shaped)
    return mlirTypeIsAFloat(t) ? strataConstFloat(b, loc, t, 0.0) : strataConstInt(b, loc, t, 0);
  MlirAttribute zero = strataNumberAttr(et, 0.0);
  MlirAttribute value = mlirDenseElementsAttrSplatGet(t, zero);
  return strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"value", value})),
                      0);
}

int strataPredNumTypes(StrataTypeList types) {
  int distinct = 0;
  for (intptr_t i = 0; i < types.count; i++) {
    bool seen = false;
    for (intptr_t j = 0; j < i && !seen; j++) seen = mlirTypeEqual(types.data[i], types.data[j]);
    distinct += !seen;
  }
  return distinct;
}

static MlirWalkResult duplicable(MlirOperation op, void *user) {
  bool *ok = user;
  if (strataOpIsNamed(op, "pred.guard")) return MlirWalkResultAdvance; /* its body is walked */
  StrataPredSpeculation s = strataPredClassify(op);
  if ((s == STRATA_PRED_KEEP && !strataPredValuesOnly(op)) || s == STRATA_PRED_FIX_STORE ||
      strataOpIsNamed(op, "memref.alloc") ||
      strataOpIsNamed(op, "memref.alloca")) {
    *ok = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

bool strataPredCanDuplicate(MlirBlock body) {
  bool ok = true;
  for (MlirOperation o = mlirBlockGetFirstOperation(body); ok && !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    mlirOperationWalk(o, duplicable, &ok, MlirWalkPreOrder);
  return ok;
}

/* One guard yielding the values at positions `which` of the terminator. */
static MlirOperation buildGuard(StrataRewrite *rw, MlirLocation loc, MlirValue pred,
                                StrataValueList inits, const intptr_t *which, intptr_t count,
                                MlirBlock body, bool copy, StrataValueList bodyArgs) {
  MlirValue operands[count + 1];
  MlirType types[count ? count : 1];
  operands[0] = pred;
  for (intptr_t i = 0; i < count; i++) {
    operands[i + 1] = inits.data[which[i]];
    types[i] = mlirValueGetType(operands[i + 1]);
  }
  MlirOperation guard = strataCreateOp(&rw->builder, "pred.guard", loc,
                                       .operands = {operands, count + 1},
                                       .results = {types, count}, .numRegions = 1);
  MlirBlock dest = strataAddBlock(guard, 0, (StrataTypeList){NULL, 0}, loc);
  if (copy) { /* the copy lands before `dest` in the guard's region */
    mlirRewriterBaseCloneRegionBefore(rw->rewriter, mlirBlockGetParentRegion(body), dest);
    body = mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 0));
  }
  mlirRewriterBaseMergeBlocks(rw->rewriter, body, dest, bodyArgs.count, bodyArgs.data);
  MlirOperation term = mlirBlockGetTerminator(dest);
  MlirValue yielded[count ? count : 1];
  for (intptr_t i = 0; i < count; i++) yielded[i] = mlirOperationGetOperand(term, which[i]);
  StrataBuilder at = strataBuilderBefore(term, rw->rewriter);
  strataCreateOp(&at, STRATA_PRED_YIELD, mlirOperationGetLocation(term), .operands = {yielded, count});
  mlirRewriterBaseEraseOp(rw->rewriter, term);
  return guard;
}

void strataPredBuildGuards(StrataRewrite *rw, MlirLocation loc, MlirValue pred,
                           StrataValueList inits, MlirBlock body, StrataValueList bodyArgs,
                           MlirValue *results) {
  intptr_t n = inits.count;
  MlirType types[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) types[i] = mlirValueGetType(inits.data[i]);
  int groups = strataPredNumTypes((StrataTypeList){types, n});
  if (groups == 0) { /* no values: one guard for the effects */
    buildGuard(rw, loc, pred, inits, NULL, 0, body, false, bodyArgs);
    return;
  }
  bool done[n];
  memset(done, 0, sizeof done);
  for (int g = 0; g < groups; g++) {
    intptr_t which[n], count = 0, first = 0;
    while (done[first]) first++;
    for (intptr_t i = first; i < n; i++)
      if (!done[i] && mlirTypeEqual(types[i], types[first])) {
        which[count++] = i;
        done[i] = true;
      }
    /* Every group but the last takes a copy; the last, the body itself. */
    MlirOperation guard = buildGuard(rw, loc, pred, inits, which, count, body, g + 1 < groups, bodyArgs);
    for (intptr_t i = 0; i < count; i++) results[which[i]] = strataResult(guard, i);
  }
}
