/* --dsp-fold-converts: rewrite patterns on dsp.convert_layout (C1.6):
 *   convert(x, a->a)                 -> x
 *   convert(convert(x, a->b), b->a)  -> x
 *   convert(convert(x, a->b), b->c)  -> convert(x, a->c)
 * An inner conversion left without uses is erased (IRDL ops have no traits,
 * so MLIR's own dead-code removal never does it). */
#include <string.h>
#include "dsp_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

static MlirValue operandOf(MlirOperation op) { return mlirOperationGetOperand(op, 0); }

static void eraseIfDead(StrataRewrite *rw, MlirOperation op) {
  if (mlirOperationIsNull(op)) return;
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0)))) strataEraseOp(rw, op);
}

static MlirLogicalResult foldConvert(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  int from = strataDspOpLayout(op, "from"), to = strataDspOpLayout(op, "to");
  if (from && from == to) {
    strataReplaceOp(rw, op, STRATA_VALUES(operandOf(op)));
    return mlirLogicalResultSuccess();
  }
  MlirValue x = operandOf(op);
  if (!mlirValueIsAOpResult(x)) return mlirLogicalResultFailure();
  MlirOperation inner = mlirOpResultGetOwner(x);
  if (!strataOpIsNamed(inner, "dsp.convert_layout") || strataDspOpLayout(inner, "to") != from)
    return mlirLogicalResultFailure();
  int first = strataDspOpLayout(inner, "from");
  if (first == to) {
    strataReplaceOp(rw, op, STRATA_VALUES(operandOf(inner)));
  } else { /* one conversion instead of two */
    mlirRewriterBaseStartOpModification(rw->rewriter, op);
    mlirOperationSetOperand(op, 0, operandOf(inner));
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("from"),
                                    strataOpAttr(inner, "from"));
    mlirRewriterBaseFinalizeOpModification(rw->rewriter, op);
  }
  eraseIfDead(rw, inner);
  return mlirLogicalResultSuccess();
}

static void runFoldConverts(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "dsp.convert_layout", 1, foldConvert, NULL);
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, NULL))) {
    strataEmitError(mlirOperationGetLocation(root), "dsp-fold-converts: did not converge");
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(set);
}

const StrataPassDef strataDspFoldConvertsPass = {
    .name = "dsp-fold-converts",
    .summary = "Fold layout conversions: identities, inverse pairs, and chains into one",
    .anchor = "func.func",
    .run = runFoldConverts,
};
