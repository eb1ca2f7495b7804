/* pred-lower for an unlikely guard (Grape's UnlikelyPredicate, §4.3.2):
 * its body becomes a private function called under `scf.if %pred`, so a
 * rarely true predicate costs one branch, not a pass over the masked body. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "grow.h"
#include "strata/builder.h"
#include "strata/pred.h"
#include "strata/support.h"
#include "pred_lower.h"

bool predIsInside(MlirOperation inner, MlirOperation outer) {
  for (MlirOperation o = inner; !mlirOperationIsNull(o); o = mlirOperationGetParentOperation(o))
    if (mlirOperationEqual(o, outer)) return true;
  return false;
}

static bool definedInside(MlirValue v, MlirOperation guard) {
  MlirOperation owner = mlirValueIsAOpResult(v)
                            ? mlirOpResultGetOwner(v)
                            : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  return predIsInside(owner, guard);
}

typedef struct {
  MlirOperation guard;
  MlirValue *values;
  intptr_t count;
  size_t cap;
  bool oom;
} Captures;

static MlirWalkResult collect(MlirOperation op, void *user) {
  Captures *c = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (definedInside(v, c->guard)) continue;
    bool seen = false;
    for (intptr_t j = 0; j < c->count && !seen; j++) seen = mlirValueEqual(c->values[j], v);
    if (seen) continue;
    MlirValue *grown = strataGrow(c->values, &c->cap, (size_t)c->count + 1, sizeof *grown);
    if (!grown) {
      c->oom = true;
      return MlirWalkResultInterrupt;
    }
    c->values = grown;
    c->values[c->count++] = v;
  }
  return MlirWalkResultAdvance;
}

static MlirOperation enclosingFunc(MlirOperation op) {
  MlirOperation f = op;
  while (!mlirOperationIsNull(f) && !strataOpIsNamed(f, "func.func")) f = mlirOperationGetParentOperation(f);
  return f;
}

MlirLogicalResult predLowerUnlikely(StrataRewrite *rw, MlirOperation guard) {
  MlirOperation func = enclosingFunc(guard);
  MlirOperation module = mlirOperationIsNull(func) ? func : mlirOperationGetParentOperation(func);
  if (mlirOperationIsNull(module) || !strataOpIsNamed(module, "builtin.module")) {
    strataEmitOpError(guard, "is 'unlikely' but not in a func.func of a module; there is nowhere "
                      "to outline its body to");
    return mlirLogicalResultFailure();
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(guard, 0));
  Captures caps = {guard, NULL, 0, 0, false};
  for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o) && !caps.oom;
       o = mlirOperationGetNextInBlock(o))
    mlirOperationWalk(o, collect, &caps, MlirWalkPreOrder);
  if (caps.oom) {
    free(caps.values);
    return mlirLogicalResultFailure();
  }
  MlirContext ctx = mlirOperationGetContext(guard);
  MlirLocation loc = mlirOperationGetLocation(guard);
  intptr_t n = mlirOperationGetNumResults(guard);
  MlirType argTypes[caps.count ? caps.count : 1], resTypes[n ? n : 1];
  for (intptr_t i = 0; i < caps.count; i++) argTypes[i] = mlirValueGetType(caps.values[i]);
  for (intptr_t i = 0; i < n; i++) resTypes[i] = mlirValueGetType(mlirOperationGetResult(guard, i));

  /* @<func>_unlikely<k>, the first k free in the module. */
  MlirStringRef fname = mlirStringAttrGetValue(strataOpAttr(func, "sym_name"));
  char name[256];
  for (int k = 0;; k++) {
    snprintf(name, sizeof name, "%.*s_unlikely%d", (int)fname.length, fname.data, k);
    if (!strataModuleHasSymbol(module, name)) break;
  }
  MlirType fnType = mlirFunctionTypeGet(ctx, caps.count, argTypes, n, resTypes);
  StrataBuilder atFunc = strataBuilderBefore(func, (MlirRewriterBase){NULL});
  MlirOperation outlined = strataCreateOp(
      &atFunc, "func.func", loc,
      .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(ctx, name)},
                            {"function_type", mlirTypeAttrGet(fnType)},
                            {"sym_visibility", strataStrAttr(ctx, "private")}),
      .numRegions = 1);
  MlirBlock fb = strataAddBlock(outlined, 0, (StrataTypeList){argTypes, caps.count}, loc);
  mlirRewriterBaseMergeBlocks(rw->rewriter, body, fb, 0, NULL);
  /* Uses of the captured values inside the new function read its arguments. */
  for (intptr_t i = 0; i < caps.count; i++) {
    MlirOpOperand use = mlirValueGetFirstUse(caps.values[i]);
    while (!mlirOpOperandIsNull(use)) {
      MlirOpOperand next = mlirOpOperandGetNextUse(use);
      MlirOperation owner = mlirOpOperandGetOwner(use);
      if (predIsInside(owner, outlined))
        mlirOperationSetOperand(owner, (intptr_t)mlirOpOperandGetOperandNumber(use),
                                mlirBlockGetArgument(fb, i));
      use = next;
    }
  }
  MlirOperation term = mlirBlockGetTerminator(fb);
  MlirValue yielded[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) yielded[i] = mlirOperationGetOperand(term, i);
  StrataBuilder atTerm = strataBuilderBefore(term, (MlirRewriterBase){NULL});
  strataCreateOp(&atTerm, "func.return", mlirOperationGetLocation(term), .operands = {yielded, n});
  mlirRewriterBaseEraseOp(rw->rewriter, term);

  /* scf.if %pred -> results { func.call } else { yield inits } */
  MlirValue pred = mlirOperationGetOperand(guard, 0);
  MlirOperation ifOp = strataCreateOp(&rw->builder, "scf.if", loc, .operands = STRATA_VALUES(pred),
                                      .results = {resTypes, n}, .numRegions = 2);
  MlirBlock thenB = strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc);
  StrataBuilder tb = strataBuilderAtEnd(ctx, thenB);
  MlirOperation call = strataCreateOp(
      &tb, "func.call", loc, .operands = {caps.values, caps.count}, .results = {resTypes, n},
      .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(name))}));
  MlirValue callResults[n ? n : 1], inits[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) {
    callResults[i] = strataResult(call, i);
    inits[i] = mlirOperationGetOperand(guard, i + 1);
  }
  strataCreateOp(&tb, "scf.yield", loc, .operands = {callResults, n});
  if (n) {
    MlirBlock elseB = strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, loc);
    StrataBuilder eb = strataBuilderAtEnd(ctx, elseB);
    strataCreateOp(&eb, "scf.yield", loc, .operands = {inits, n});
  }
  MlirValue results[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) results[i] = strataResult(ifOp, i);
  strataReplaceOp(rw, guard, (StrataValueList){results, n});
  free(caps.values);
  return mlirLogicalResultSuccess();
}
