/* --fused-blocks-remap: inside nn-fuse's blocks, a Slice (a static,
 * rank-preserving tensor.extract_slice, as nn-to-linalg lowers nn.slice)
 * read only by linalg.generic ops becomes index remapping in its readers:
 * each reader takes the slice's source through its indexing map composed
 * with the slice (dim q: offset_q + stride_q * index), so no sliced
 * tensor exists and the element-wise fusion that follows sees one more
 * generic input instead of an op it cannot fuse. (A Transpose already is a
 * permuted map after element-wise fusion; a reshape of contiguous data is
 * a view.) The rewrite is a pattern rooted at tensor.extract_slice. */
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "fuse_internal.h"

/* Offsets and strides of a static rank-preserving slice; false otherwise. */
static bool staticSlice(MlirOperation slice, int64_t *offsets, int64_t *strides, intptr_t *rank) {
  if (mlirOperationGetNumOperands(slice) != 1) return false; /* dynamic offsets/sizes/strides */
  MlirType src = mlirValueGetType(mlirOperationGetOperand(slice, 0));
  MlirType dst = mlirValueGetType(mlirOperationGetResult(slice, 0));
  if (!mlirTypeIsARankedTensor(src) || !mlirTypeIsARankedTensor(dst) ||
      mlirShapedTypeGetRank(src) != mlirShapedTypeGetRank(dst) || !mlirShapedTypeHasStaticShape(src))
    return false;
  *rank = mlirShapedTypeGetRank(src);
  MlirAttribute off = strataOpAttr(slice, "static_offsets"), str = strataOpAttr(slice, "static_strides");
  if (*rank > STRATA_MAX_RANK || mlirAttributeIsNull(off) || mlirAttributeIsNull(str)) return false;
  for (intptr_t d = 0; d < *rank; d++) {
    offsets[d] = mlirDenseI64ArrayGetElement(off, d);
    strides[d] = mlirDenseI64ArrayGetElement(str, d);
    if (offsets[d] < 0 || strides[d] < 1) return false;
  }
  return true;
}

/* Linalg infers each loop's range from an operand dim indexed by that loop
 * alone: after remapping operand `n` (its dim q stays a pure index only
 * where offset 0 and stride 1), every loop must still have one. */
static bool loopsStayInferable(MlirOperation user, unsigned n, const int64_t *offsets,
                               const int64_t *strides) {
  MlirAttribute maps = strataOpAttr(user, "indexing_maps");
  intptr_t count = mlirArrayAttrGetNumElements(maps);
  bool covered[64] = {false};
  intptr_t loops = mlirAffineMapGetNumDims(mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0)));
  if (loops > 64) return false;
  for (intptr_t i = 0; i < count; i++) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
    for (intptr_t q = 0; q < mlirAffineMapGetNumResults(map); q++) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, q);
      if (mlirAffineExprIsADim(e) && (i != (intptr_t)n || (offsets[q] == 0 && strides[q] == 1)))
        covered[mlirAffineDimExprGetPosition(e)] = true;
    }
  }
  for (intptr_t l = 0; l < loops; l++)
    if (!covered[l]) return false;
  return true;
}

/* Every use is an input of a linalg.generic that can take the remapping. */
static bool onlyGenericInputs(MlirValue v, const int64_t *offsets, const int64_t *strides) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u)) return false;
  for (; !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!strataOpIsNamed(user, "linalg.generic")) return false;
    MlirAttribute seg = strataOpAttr(user, "operandSegmentSizes");
    for (MlirOpOperand w = mlirOpOperandGetNextUse(u); !mlirOpOperandIsNull(w); w = mlirOpOperandGetNextUse(w))
      if (mlirOperationEqual(mlirOpOperandGetOwner(w), user)) return false; /* read twice: keep it simple */
    unsigned n = mlirOpOperandGetOperandNumber(u);
    if (mlirAttributeIsNull(seg) || (intptr_t)n >= mlirDenseI32ArrayGetElement(seg, 0) ||
        !loopsStayInferable(user, n, offsets, strides))
      return false;
  }
  return true;
}

/* Reader operand `n` of `user` reads the slice's source instead (an
 * in-place modification of the reader, through the rewriter). */
static void remapUse(MlirRewriterBase rewriter, MlirOperation user, unsigned n, MlirValue source,
                     const int64_t *offsets, const int64_t *strides, intptr_t rank) {
  MlirContext ctx = mlirOperationGetContext(user);
  MlirAttribute maps = strataOpAttr(user, "indexing_maps");
  intptr_t count = mlirArrayAttrGetNumElements(maps);
  MlirAttribute updated[count];
  for (intptr_t i = 0; i < count; i++) updated[i] = mlirArrayAttrGetElement(maps, i);
  MlirAffineMap map = mlirAffineMapAttrGetValue(updated[n]);
  MlirAffineExpr exprs[STRATA_MAX_RANK];
  for (intptr_t q = 0; q < rank; q++) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, q);
    e = mlirAffineMulExprGet(e, mlirAffineConstantExprGet(ctx, strides[q]));
    exprs[q] = mlirAffineAddExprGet(e, mlirAffineConstantExprGet(ctx, offsets[q]));
  }
  updated[n] = mlirAffineMapAttrGet(
      mlirAffineMapGet(ctx, mlirAffineMapGetNumDims(map), mlirAffineMapGetNumSymbols(map), rank, exprs));
  mlirRewriterBaseStartOpModification(rewriter, user);
  mlirOperationSetAttributeByName(user, mlirStringRefCreateFromCString("indexing_maps"),
                                  mlirArrayAttrGet(ctx, count, updated));
  mlirOperationSetOperand(user, n, source);
  mlirRewriterBaseFinalizeOpModification(rewriter, user);
}

/* The pattern, rooted at tensor.extract_slice: a slice read only by
 * generics that can take it is folded into their maps and erased; a slice
 * nothing reads is erased. Whether a slice folds depends on its readers'
 * maps as the earlier slices of the block left them, so the decision is
 * taken here, in the order the walk driver visits the slices (the order
 * of the block), not planned ahead. */
static MlirLogicalResult remapSlice(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  MlirValue result = mlirOperationGetResult(op, 0), source = mlirOperationGetOperand(op, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(result))) {
    strataEraseOp(rw, op);
    return mlirLogicalResultSuccess();
  }
  int64_t offsets[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  intptr_t rank;
  if (!staticSlice(op, offsets, strides, &rank) || !onlyGenericInputs(result, offsets, strides))
    return mlirLogicalResultFailure();
  while (!mlirOpOperandIsNull(mlirValueGetFirstUse(result))) {
    MlirOpOperand u = mlirValueGetFirstUse(result);
    remapUse(rw->rewriter, mlirOpOperandGetOwner(u), mlirOpOperandGetOperandNumber(u), source, offsets,
             strides, rank);
  }
  strataEraseOp(rw, op);
  return mlirLogicalResultSuccess();
}

/* A walk finds the blocks (in post-order); the walk driver applies the
 * pattern inside each one: a single visit per op, no folding, no dead-code
 * elimination of the linalg ops around the slices. */
static void runRemap(StrataPassRun *run, MlirOperation root) {
  StrataOpList blocks = {0};
  StrataPatternSet *set = NULL;
  bool ok = fuseCollectBlocks(root, &blocks);
  if (ok && blocks.count) ok = (set = strataPatternSetCreate(mlirOperationGetContext(root))) != NULL;
  if (!ok) {
    strataOpListDestroy(&blocks);
    strataEmitError(mlirOperationGetLocation(root), "fused-blocks-remap: out of memory");
    strataPassSignalFailure(run);
    return;
  }
  if (set) {
    strataPatternSetAdd(set, "tensor.extract_slice", 1, remapSlice, NULL);
    for (size_t i = 0; i < blocks.count; i++) strataApplyPatternsWalk(set, blocks.ops[i]);
    strataPatternSetDestroy(set);
  }
  strataOpListDestroy(&blocks);
}

const StrataPassDef strataFusedBlocksRemapPass = {
    .name = "fused-blocks-remap",
    .summary = "Inside nn-fuse's blocks, fold static slices read only by linalg.generic ops into "
               "their readers' indexing maps (index remapping, no sliced tensor)",
    .run = runRemap,
};
