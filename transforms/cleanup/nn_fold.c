/* --nn-fold: cleanup patterns that IRDL ops cannot get from MLIR (they have
 * no traits, so canonicalize/CSE/DCE never touch them):
 *   - dead pure Strata ops are erased; equal pure ops (same name, operands,
 *     attributes, result types) are merged (CSE), and so are equal upstream
 *     ops without memory effects among them (arith, tensor.extract/
 *     from_elements);
 *   - a pure op whose operands are all nn.constant is evaluated with its
 *     reference kernel and replaced by an nn.constant (up to `fold-limit`
 *     result elements); nn.shape / nn.size of a static shape become
 *     constants;
 *   - trivial folds: identity, dropout, relu(relu(x)), reshape-likes of
 *     reshape-likes, transpose of transpose, and ops that leave their
 *     operand's type unchanged (reshape, expand, cast, transpose by the
 *     identity permutation); the shape or size of a transpose of dynamic
 *     type read from the transpose's input;
 *   - result types are refined when shape inference now knows more (e.g. a
 *     reshape whose shape became constant); users outside nn get a
 *     tensor.cast back to the old type. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Tensor.h"
#include "strata/dialect.h"
#include "strata/nn.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "nn_fold.h"


static bool hasNoUses(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, i)))) return false;
  return true;
}

static MlirLogicalResult eraseDeadPure(StrataRewrite *rw, MlirOperation op, void *user) {
  NnFoldState *s = user;
  const StrataOpDef *def = strataContextGetOpDef(s->ctx, op);
  if (!def || !(def->flags & STRATA_OP_PURE) || !hasNoUses(op)) return mlirLogicalResultFailure();
  strataEraseOp(rw, op);
  return mlirLogicalResultSuccess();
}

/* A pure op whose value is known (its operands are all constants, or it is
 * an nn.shape / nn.size of static dims) becomes an nn.constant. */
static MlirLogicalResult foldConstants(StrataRewrite *rw, MlirOperation op, void *user) {
  NnFoldState *s = user;
  if (s->keepDequantize && strataOpIsNamed(op, "nn.dequantize_linear")) return mlirLogicalResultFailure();
  MlirAttribute value = strataNnFoldValue(s->ctx, op, s->foldLimit);
  if (mlirAttributeIsNull(value)) return mlirLogicalResultFailure();
  MlirOperation c = strataCreateOp(&rw->builder, "nn.constant", mlirOperationGetLocation(op),
                                   .results = STRATA_TYPES(mlirAttributeGetType(value)),
                                   .attrs = STRATA_ATTRS({"value", value}));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(c, 0)));
  return mlirLogicalResultSuccess();
}

static void runNnFold(StrataPassRun *run, MlirOperation root) {
  NnFoldState s = {strataPassGetContext(run), strataPassGetInt(run, "fold-limit"),
                   strataPassGetBool(run, "keep-dequantize")};
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  /* DCE, CSE, constant folding and type refinement apply to every pure
   * Strata op; the trivial folds to their ops. Higher benefit runs first. */
  for (size_t d = 0; d < strataContextNumDialects(s.ctx); d++) {
    const StrataDialectDef *dialect = strataContextGetDialect(s.ctx, d);
    for (size_t i = 0; i < strataDialectNumOps(dialect); i++) {
      const StrataOpDef *def = strataDialectGetOp(dialect, i);
      if (!(def->flags & STRATA_OP_PURE)) continue;
      strataPatternSetAdd(set, def->name, 4, eraseDeadPure, &s);
      strataPatternSetAdd(set, def->name, 3, nnFoldCse, &s);
      strataPatternSetAdd(set, def->name, 1, foldConstants, &s);
      strataPatternSetAdd(set, def->name, 0, nnFoldRefineTypes, &s);
    }
  }
  static const char *const kNoOps[] = {"nn.identity", "nn.dropout", "nn.reshape", "nn.flatten",
                                       "nn.squeeze", "nn.unsqueeze", "nn.expand", "nn.cast", "nn.transpose"};
  for (size_t i = 0; i < sizeof kNoOps / sizeof kNoOps[0]; i++)
    strataPatternSetAdd(set, kNoOps[i], 5, nnFoldNoOp, &s);
  strataPatternSetAdd(set, "nn.relu", 5, nnFoldReluRelu, &s);
  static const char *const kReshapes[] = {"nn.reshape", "nn.flatten", "nn.squeeze", "nn.unsqueeze"};
  for (size_t i = 0; i < sizeof kReshapes / sizeof kReshapes[0]; i++)
    strataPatternSetAdd(set, kReshapes[i], 2, nnFoldReshapeChain, &s);
  strataPatternSetAdd(set, "nn.transpose", 2, nnFoldTransposeChain, &s);
  strataPatternSetAdd(set, "nn.shape", 2, nnFoldShapeOfTranspose, &s);
  strataPatternSetAdd(set, "nn.size", 2, nnFoldShapeOfTranspose, &s);
  /* Upstream ops without memory effects that sit between nn ops (scalars
   * extracted from tensors, selects, compares): merged here too, so that nn
   * ops reading equal copies of them merge in the same run -- upstream's
   * cse never touches nn ops, and this never leaves half the work undone
   * (e.g. the bodies pred-lower copies once per guard type). */
  static const char *const kUpstreamPure[] = {
      "arith.constant", "arith.select", "arith.cmpi", "arith.cmpf", "arith.andi", "arith.ori",
      "arith.xori", "arith.addi", "arith.subi", "arith.muli", "arith.addf", "arith.subf",
      "arith.mulf", "arith.divf", "arith.negf", "arith.maximumf", "arith.minimumf",
      "arith.index_cast", "arith.extsi", "arith.extui", "arith.trunci", "arith.extf",
      "arith.truncf", "arith.sitofp", "arith.uitofp", "arith.fptosi", "arith.fptoui",
      "tensor.extract", "tensor.from_elements"};
  for (size_t i = 0; i < sizeof kUpstreamPure / sizeof kUpstreamPure[0]; i++)
    strataPatternSetAdd(set, kUpstreamPure[i], 3, nnFoldCse, &s);
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
    {"keep-dequantize", STRATA_OPTION_BOOL, "false",
     "Do not fold nn.dequantize_linear of constants (the ONNX importer: nn-qdq-to-qlinear needs the int8 weights)"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__tensor__, NULL};

const StrataPassDef strataNnFoldPass = {
    .name = "nn-fold",
    .summary = "Clean up nn: DCE, CSE, constant folding, trivial folds, result-type refinement",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runNnFold,
    .dependentDialects = kDeps,
};
