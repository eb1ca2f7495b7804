/* The trivial-fold, CSE and type-refinement patterns of --nn-fold. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_fold.h"
#include "strata/nn.h"
#include "strata/support.h"
#include "nn_internal.h"

static MlirOperation producer(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static MlirType resultType(MlirOperation op) { return mlirValueGetType(mlirOperationGetResult(op, 0)); }

/* identity, dropout, and ops whose result has the operand's exact type and
 * that then change nothing. */
MlirLogicalResult nnFoldNoOp(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue x = mlirOperationGetOperand(op, 0);
  bool sameType = mlirTypeEqual(mlirValueGetType(x), resultType(op));
  bool noop = strataOpIsNamed(op, "nn.identity") || strataOpIsNamed(op, "nn.dropout");
  /* A reshape or expand to the operand's type changes nothing only when that
   * type is static: ?x?x? to ?x?x? may move extents between dims. */
  bool staticType = mlirShapedTypeHasStaticShape(resultType(op));
  if (sameType && staticType &&
      (strataOpIsNamed(op, "nn.reshape") || strataOpIsNamed(op, "nn.flatten") || strataOpIsNamed(op, "nn.squeeze") ||
       strataOpIsNamed(op, "nn.unsqueeze") || strataOpIsNamed(op, "nn.expand")))
    noop = true;
  if (sameType && strataOpIsNamed(op, "nn.cast")) noop = true;
  if (strataOpIsNamed(op, "nn.transpose") && sameType) {
    int64_t perm[STRATA_MAX_RANK];
    int n = strataGetI64Array(op, "perm", perm, STRATA_MAX_RANK);
    noop = n > 0;
    for (int i = 0; noop && i < n; i++) noop = perm[i] == i;
  }
  if (!noop || !sameType) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(x));
  return mlirLogicalResultSuccess();
}

MlirLogicalResult nnFoldReluRelu(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirOperation p = producer(x);
  if (mlirOperationIsNull(p) || !strataOpIsNamed(p, "nn.relu")) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(x));
  return mlirLogicalResultSuccess();
}

/* (A squeeze or unsqueeze with an axes operand keeps its run-time checks.) */
static bool reshapeLike(MlirOperation op) {
  return strataOpIsNamed(op, "nn.reshape") || strataOpIsNamed(op, "nn.flatten") ||
         ((strataOpIsNamed(op, "nn.squeeze") || strataOpIsNamed(op, "nn.unsqueeze")) &&
          mlirOperationGetNumOperands(op) == 1);
}

/* A reshape-like of a reshape-like is one reshape of the original input to
 * the final (static) type. */
MlirLogicalResult nnFoldReshapeChain(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirOperation inner = producer(mlirOperationGetOperand(op, 0));
  MlirType t = resultType(op);
  if (!reshapeLike(op) || mlirOperationIsNull(inner) || !reshapeLike(inner) || !mlirShapedTypeHasStaticShape(t))
    return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(inner, 0);
  MlirLocation loc = mlirOperationGetLocation(op);
  if (mlirTypeEqual(mlirValueGetType(x), t)) {
    strataReplaceOp(rw, op, STRATA_VALUES(x));
    return mlirLogicalResultSuccess();
  }
  int rank;
  int64_t dims[STRATA_MAX_RANK], n;
  strataGetShape(t, &rank, dims);
  n = rank;
  MlirType st = mlirRankedTensorTypeGet(1, &n, mlirIntegerTypeGet(rw->builder.ctx, 64), mlirAttributeGetNull());
  MlirOperation shape = strataCreateOp(&rw->builder, "nn.constant", loc, .results = STRATA_TYPES(st),
                                       .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrInt64Get(st, rank, dims)}));
  MlirOperation r = strataCreateOp(&rw->builder, "nn.reshape", loc,
                                   .operands = STRATA_VALUES(x, strataResult(shape, 0)), .results = STRATA_TYPES(t));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(r, 0)));
  return mlirLogicalResultSuccess();
}

/* transpose(transpose(x, p), q) = transpose(x, p∘q); the identity permutation
 * folds away. */
MlirLogicalResult nnFoldTransposeChain(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirOperation inner = producer(mlirOperationGetOperand(op, 0));
  if (mlirOperationIsNull(inner) || !strataOpIsNamed(inner, "nn.transpose")) return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(inner, 0);
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(x));
  int64_t p[STRATA_MAX_RANK], q[STRATA_MAX_RANK], r[STRATA_MAX_RANK];
  int np = strataGetI64Array(inner, "perm", p, STRATA_MAX_RANK), nq = strataGetI64Array(op, "perm", q, STRATA_MAX_RANK);
  for (int i = 0; i < rank; i++) {
    if (np != rank) p[i] = rank - 1 - i;
    if (nq != rank) q[i] = rank - 1 - i;
  }
  bool identity = true;
  for (int i = 0; i < rank; i++) {
    r[i] = p[q[i]]; /* output dim i of the outer reads inner dim q[i], which reads x dim p[q[i]] */
    identity &= r[i] == i;
  }
  if (identity) {
    strataReplaceOp(rw, op, STRATA_VALUES(x));
    return mlirLogicalResultSuccess();
  }
  MlirOperation t = strataCreateOp(&rw->builder, "nn.transpose", mlirOperationGetLocation(op),
                                   .operands = STRATA_VALUES(x), .results = STRATA_TYPES(resultType(op)),
                                   .attrs = STRATA_ATTRS({"perm", mlirDenseI64ArrayGet(rw->builder.ctx, rank, r)}));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(t, 0)));
  return mlirLogicalResultSuccess();
}

bool nnSameAttributes(MlirOperation a, MlirOperation b) {
  intptr_t n = mlirOperationGetNumAttributes(a);
  if (n != mlirOperationGetNumAttributes(b)) return false;
  for (intptr_t i = 0; i < n; i++) {
    MlirNamedAttribute na = mlirOperationGetAttribute(a, i);
    MlirAttribute other = mlirOperationGetAttributeByName(b, mlirIdentifierStr(na.name));
    if (mlirAttributeIsNull(other) || !mlirAttributeEqual(na.attribute, other)) return false;
  }
  return true;
}

/* CSE: an earlier op in the block with the same name, operands, attributes
 * and result types replaces this one. */
MlirLogicalResult nnFoldCse(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  intptr_t nOperands = mlirOperationGetNumOperands(op), nResults = mlirOperationGetNumResults(op);
  MlirIdentifier name = mlirOperationGetName(op);
  MlirBlock block = mlirOperationGetBlock(op);
  for (MlirOperation p = mlirBlockGetFirstOperation(block); !mlirOperationEqual(p, op);
       p = mlirOperationGetNextInBlock(p)) {
    if (!mlirIdentifierEqual(mlirOperationGetName(p), name) || mlirOperationGetNumOperands(p) != nOperands ||
        mlirOperationGetNumResults(p) != nResults)
      continue;
    bool same = true;
    for (intptr_t i = 0; same && i < nOperands; i++)
      same = mlirValueEqual(mlirOperationGetOperand(p, i), mlirOperationGetOperand(op, i));
    for (intptr_t i = 0; same && i < nResults; i++)
      same = mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(p, i)), mlirValueGetType(mlirOperationGetResult(op, i)));
    if (!same || !nnSameAttributes(p, op)) continue;
    MlirValue values[nResults ? nResults : 1];
    for (intptr_t i = 0; i < nResults; i++) values[i] = mlirOperationGetResult(p, i);
    strataReplaceOp(rw, op, (StrataValueList){values, nResults});
    return mlirLogicalResultSuccess();
  }
  return mlirLogicalResultFailure();
}

/* Refines result types that shape inference now knows better. Users that are
 * not Strata ops keep seeing the old type, through a tensor.cast. */
MlirLogicalResult nnFoldRefineTypes(StrataRewrite *rw, MlirOperation op, void *user) {
  NnFoldState *s = user;
  const StrataOpDef *def = strataContextGetOpDef(s->ctx, op);
  intptr_t n = mlirOperationGetNumResults(op);
  if (!def || !def->infer || !n) return mlirLogicalResultFailure();
  StrataShape shapes[n];
  /* Inference of an op that does not verify is not this pattern's business;
   * its errors are left to the verifier. */
  if (mlirLogicalResultIsFailure(strataVerifyOp(def, op))) return mlirLogicalResultFailure();
  def->infer(def, op, shapes);
  bool changed = false;
  for (intptr_t i = 0; i < n; i++) {
    MlirValue r = mlirOperationGetResult(op, i);
    int rank;
    int64_t dims[STRATA_MAX_RANK];
    if (!strataGetShape(mlirValueGetType(r), &rank, dims) || rank != shapes[i].rank) continue;
    bool better = false;
    for (int d = 0; d < rank; d++) {
      if (dims[d] == -1 && shapes[i].dims[d] >= 0) better = true;
      else shapes[i].dims[d] = dims[d];
    }
    int64_t count;
    /* A refinement whose element count overflows int64 is left '?': the
     * verifier reports such types where IR enters Strata. */
    if (!better || !strataShapeNumElements(shapes[i].dims, rank, &count)) continue;
    MlirType oldType = mlirValueGetType(r), newType = strataTensorType(shapes[i].elementType, rank, shapes[i].dims);
    mlirRewriterBaseStartOpModification(rw->rewriter, op);
    mlirValueSetType(r, newType);
    mlirRewriterBaseFinalizeOpModification(rw->rewriter, op);
    /* Non-nn users: cast back to the type they were written against. */
    StrataBuilder after = {rw->builder.ctx, rw->rewriter, mlirOperationGetBlock(op), mlirOperationGetNextInBlock(op)};
    MlirValue cast = {NULL};
    for (MlirOpOperand use = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(use);) {
      MlirOpOperand next = mlirOpOperandGetNextUse(use);
      MlirOperation owner = mlirOpOperandGetOwner(use);
      if (!strataOpIsInDialect(owner, "nn")) {
        if (mlirValueIsNull(cast))
          cast = strataResult(strataCreateOp(&after, "tensor.cast", mlirOperationGetLocation(op),
                                             .operands = STRATA_VALUES(r), .results = STRATA_TYPES(oldType)), 0);
        if (!mlirOperationEqual(owner, mlirOpResultGetOwner(cast))) {
          mlirRewriterBaseStartOpModification(rw->rewriter, owner);
          mlirOperationSetOperand(owner, mlirOpOperandGetOperandNumber(use), cast);
          mlirRewriterBaseFinalizeOpModification(rw->rewriter, owner);
        }
      }
      use = next;
    }
    changed = true;
  }
  return changed ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* The shape or size of a transpose is its input's (the shape's elements
 * permuted: an nn.gather with constant indices). Exported models read
 * shapes of transposed activations (attention's head split); rewritten,
 * those reads no longer keep a transpose alive whose one other reader, a
 * matmul kernel, reads its input in place. Dynamic dims only: static ones
 * fold to a constant. */
MlirLogicalResult nnFoldShapeOfTranspose(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue t = mlirOperationGetOperand(op, 0);
  MlirOperation p = producer(t);
  if (mlirOperationIsNull(p) || !strataOpIsNamed(p, "nn.transpose") ||
      mlirShapedTypeHasStaticShape(mlirValueGetType(t)))
    return mlirLogicalResultFailure();
  MlirValue x = mlirOperationGetOperand(p, 0);
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType rt = resultType(op);
  if (strataOpIsNamed(op, "nn.size")) {
    MlirOperation s = strataCreateOp(&rw->builder, "nn.size", loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(rt));
    strataReplaceOp(rw, op, STRATA_VALUES(strataResult(s, 0)));
    return mlirLogicalResultSuccess();
  }
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(x));
  int64_t perm[STRATA_MAX_RANK], start, end;
  int n = strataGetI64Array(p, "perm", perm, STRATA_MAX_RANK);
  if (n == -1)
    for (int d = 0; d < rank; d++) perm[d] = rank - 1 - d, n = rank;
  if (n != rank) return mlirLogicalResultFailure();
  nnShapeRange(op, rank, &start, &end);
  if (mlirShapedTypeIsDynamicDim(rt, 0) || mlirShapedTypeGetDimSize(rt, 0) != end - start)
    return mlirLogicalResultFailure();
  bool dynamic = false; /* else the elements read are static: a constant */
  for (int64_t d = start; d < end; d++) dynamic |= mlirShapedTypeIsDynamicDim(mlirValueGetType(t), d);
  if (!dynamic) return mlirLogicalResultFailure();
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  int64_t full = rank;
  MlirType shapeType = mlirRankedTensorTypeGet(1, &full, i64, mlirAttributeGetNull());
  MlirValue shape = strataResult(
      strataCreateOp(&rw->builder, "nn.shape", loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(shapeType)), 0);
  MlirAttribute indices = mlirDenseElementsAttrInt64Get(rt, end - start, perm + start);
  MlirValue idx = strataResult(strataCreateOp(&rw->builder, "nn.constant", loc, .results = STRATA_TYPES(rt),
                                              .attrs = STRATA_ATTRS({"value", indices})),
                               0);
  MlirOperation g = strataCreateOp(&rw->builder, "nn.gather", loc, .operands = STRATA_VALUES(shape, idx),
                                   .results = STRATA_TYPES(rt), .attrs = STRATA_ATTRS({"axis", strataI64Attr(ctx, 0)}));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(g, 0)));
  return mlirLogicalResultSuccess();
}
