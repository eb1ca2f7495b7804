/* The predication rules the passes share (docs/pred.md, R1 and the
 * speculation classes of the masked lowering). Which ops are known is
 * decided by name: the C API cannot query MLIR's memory-effect interface,
 * so anything Strata does not list is an op with unknown effects. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/pred.h"
#include "strata/support.h"

static bool nameIs(MlirOperation op, const char *const *names) {
  for (; *names; names++)
    if (strataOpIsNamed(op, *names)) return true;
  return false;
}

static void opName(MlirOperation op, char *buf, size_t size) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, size, "%.*s", (int)n.length, n.data);
}

/* Ops whose only effects are on values and on memory they are given. */
static bool effectsKnown(MlirOperation op) {
  static const char *const kDialects[] = {"arith", "math", "index", "tensor", "linalg", "scf",
                                          "complex", "ub", "affine", NULL};
  for (const char *const *d = kDialects; *d; d++)
    if (strataOpIsInDialect(op, *d)) return true;
  static const char *const kOps[] = {
      "memref.load", "memref.store", "memref.alloc", "memref.alloca", "memref.dealloc",
      "memref.dim", "memref.rank", "memref.cast", "memref.subview", "memref.copy",
      "memref.expand_shape", "memref.collapse_shape", "memref.reinterpret_cast",
      "memref.extract_strided_metadata", "bufferization.to_tensor", "bufferization.to_buffer",
      "bufferization.alloc_tensor", "bufferization.materialize_in_destination",
      "vector.broadcast", "vector.splat", "vector.extract", "vector.insert", "vector.fma",
      "vector.reduction", "vector.transfer_read", "vector.transfer_write", "vector.load",
      "vector.store", "func.return", STRATA_PRED_YIELD, NULL};
  if (nameIs(op, kOps)) return true;
  StrataContext *ctx = strataContextFromMlir(mlirOperationGetContext(op));
  return ctx && strataContextGetOpDef(ctx, op); /* a Strata op: its table knows it */
}

typedef struct {
  const char *what;
  int depth; /* calls followed, to stop on recursion */
  bool ok;
} EffectsWalk;

static bool checkRegions(MlirOperation op, EffectsWalk *w);

static MlirWalkResult checkOne(MlirOperation op, void *user) {
  EffectsWalk *w = user;
  char name[128];
  opName(op, name, sizeof name);
  if (strataOpIsNamed(op, "func.call")) {
    MlirOperation f = strataCallee(op);
    MlirAttribute sym = strataOpAttr(op, "callee");
    MlirStringRef s = mlirAttributeIsAFlatSymbolRef(sym) ? mlirFlatSymbolRefAttrGetValue(sym)
                                                         : mlirStringRefCreateFromCString("?");
    if (mlirOperationIsNull(f) || mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)))) {
      strataEmitError(mlirOperationGetLocation(op),
                      "cannot predicate this %s: it calls '@%.*s', a function without a body whose "
                      "host side effects a predicate cannot suppress (R1); move the call out of "
                      "the branch", w->what, (int)s.length, s.data);
      w->ok = false;
      return MlirWalkResultInterrupt;
    }
    if (w->depth >= 8) {
      strataEmitError(mlirOperationGetLocation(op),
                      "cannot predicate this %s: calls nest deeper than 8 (recursion?) below "
                      "'@%.*s'", w->what, (int)s.length, s.data);
      w->ok = false;
      return MlirWalkResultInterrupt;
    }
    w->depth++;
    bool ok = checkRegions(f, w);
    w->depth--;
    return ok ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
  }
  if (!effectsKnown(op)) {
    strataEmitError(mlirOperationGetLocation(op),
                    "cannot predicate this %s: '%s' has side effects Strata does not know (R1: "
                    "only ops on values and on memory they are given can be predicated)",
                    w->what, name);
    w->ok = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Every op nested in `op`'s regions (not `op` itself). */
static bool checkRegions(MlirOperation op, EffectsWalk *w) {
  for (intptr_t r = 0; w->ok && r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); w->ok && !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b); w->ok && !mlirOperationIsNull(o);
           o = mlirOperationGetNextInBlock(o))
        mlirOperationWalk(o, checkOne, w, MlirWalkPreOrder);
  return w->ok;
}

bool strataPredCheckEffects(MlirOperation op, const char *what) {
  EffectsWalk w = {what, 0, true};
  return checkRegions(op, &w);
}

/* ---- Speculation classes ---- */

/* A memref or ranked tensor whose every dim is static and non-zero: index 0
 * is in bounds on every axis. */
static bool indexZeroInBounds(MlirType t) {
  if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t)) return false;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++)
    if (mlirShapedTypeIsDynamicDim(t, i) || mlirShapedTypeGetDimSize(t, i) <= 0) return false;
  return true;
}

static bool allStaticOffsets(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsAIndex(mlirValueGetType(mlirOperationGetOperand(op, i)))) return false;
  return true;
}

static bool dynamicTensor(MlirType t) {
  return mlirTypeIsATensor(t) && (!mlirShapedTypeHasRank(t) || !mlirShapedTypeHasStaticShape(t));
}

static bool hasDynamicTensor(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (dynamicTensor(mlirValueGetType(mlirOperationGetOperand(op, i)))) return true;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (dynamicTensor(mlirValueGetType(mlirOperationGetResult(op, i)))) return true;
  return false;
}

StrataPredSpeculation strataPredClassify(MlirOperation op) {
  static const char *const kDivisions[] = {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui",
                                           "arith.ceildivsi", "arith.ceildivui", "arith.floordivsi",
                                           NULL};
  if (nameIs(op, kDivisions))
    return mlirTypeIsAInteger(mlirValueGetType(mlirOperationGetOperand(op, 1))) ? STRATA_PRED_FIX_DIVISOR
                                                                                : STRATA_PRED_KEEP;
  if (strataOpIsNamed(op, "memref.load") || strataOpIsNamed(op, "tensor.extract"))
    return indexZeroInBounds(mlirValueGetType(mlirOperationGetOperand(op, 0))) ? STRATA_PRED_FIX_INDEX
                                                                               : STRATA_PRED_KEEP;
  if (strataOpIsNamed(op, "tensor.insert"))
    return indexZeroInBounds(mlirValueGetType(mlirOperationGetOperand(op, 1))) ? STRATA_PRED_FIX_INDEX
                                                                               : STRATA_PRED_KEEP;
  if (strataOpIsNamed(op, "memref.store"))
    return indexZeroInBounds(mlirValueGetType(mlirOperationGetOperand(op, 1))) ? STRATA_PRED_FIX_STORE
                                                                               : STRATA_PRED_KEEP;
  /* Slices with run-time offsets may reach out of bounds on garbage. */
  if (strataOpIsNamed(op, "tensor.extract_slice") || strataOpIsNamed(op, "tensor.insert_slice"))
    return allStaticOffsets(op) ? STRATA_PRED_SPECULATE : STRATA_PRED_KEEP;
  /* Loops with static trip counts and ifs are safe when their bodies are;
   * a while loop on garbage state might never end. linalg on tensors only. */
  static const char *const kStructured[] = {"scf.for", "scf.if", "scf.yield", "scf.execute_region",
                                            "memref.alloc", "memref.alloca", "memref.dim",
                                            "bufferization.to_tensor", "ub.poison",
                                            STRATA_PRED_YIELD, NULL};
  if (nameIs(op, kStructured)) return STRATA_PRED_SPECULATE;
  /* A tensor of dynamic shape takes its sizes from run-time values and its
   * ops check them at run time (nn.reshape's element count, broadcasts):
   * on the values of a path not taken (a loop iteration past its exit) a
   * size may be meaningless and a check fail with a run-time error. */
  if (hasDynamicTensor(op)) return STRATA_PRED_KEEP;
  static const char *const kPureDialects[] = {"arith", "math", "index", "complex", "tensor", NULL};
  for (const char *const *d = kPureDialects; *d; d++)
    if (strataOpIsInDialect(op, *d)) return STRATA_PRED_SPECULATE;
  if (strataOpIsInDialect(op, "linalg")) {
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
      if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i)))) return STRATA_PRED_KEEP;
    return STRATA_PRED_SPECULATE;
  }
  StrataContext *ctx = strataContextFromMlir(mlirOperationGetContext(op));
  const StrataOpDef *def = ctx ? strataContextGetOpDef(ctx, op) : NULL;
  if (!def || !(strataOpDefGetFlags(ctx, def) & STRATA_OP_PURE)) return STRATA_PRED_KEEP;
  /* Integer division and data-dependent indexing trap on garbage operands. */
  static const char *const kTrapping[] = {"nn.div", "nn.mod", "nn.gather", "nn.gather_elements",
                                          "nn.gather_nd", "nn.scatter_elements", "nn.scatter_nd",
                                          NULL};
  if (nameIs(op, kTrapping)) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    bool division = strataOpIsNamed(op, "nn.div") || strataOpIsNamed(op, "nn.mod");
    if (division && mlirTypeIsAShaped(t) && mlirTypeIsAFloat(mlirShapedTypeGetElementType(t)))
      return STRATA_PRED_SPECULATE;
    /* Operand 1 is the divisor or the indices: ones divide anything, zeros
     * index any non-empty static data (operand 0); the constant replacing
     * it needs a static shape. */
    MlirType fixed = mlirValueGetType(mlirOperationGetOperand(op, 1));
    bool staticFixed = mlirTypeIsARankedTensor(fixed) && mlirShapedTypeHasStaticShape(fixed);
    if (staticFixed && (division || indexZeroInBounds(mlirValueGetType(mlirOperationGetOperand(op, 0)))))
      return STRATA_PRED_FIX_OPERAND;
    return STRATA_PRED_KEEP;
  }
  return STRATA_PRED_SPECULATE;
}

bool strataPredValuesOnly(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i)))) return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetResult(op, i)))) return false;
  static const char *const kValueDialects[] = {"arith", "math", "index", "complex", "tensor", NULL};
  for (const char *const *d = kValueDialects; *d; d++)
    if (strataOpIsInDialect(op, *d)) return true;
  StrataContext *ctx = strataContextFromMlir(mlirOperationGetContext(op));
  const StrataOpDef *def = ctx ? strataContextGetOpDef(ctx, op) : NULL;
  return def && (strataOpDefGetFlags(ctx, def) & STRATA_OP_PURE);
}
