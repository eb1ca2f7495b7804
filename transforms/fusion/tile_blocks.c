/* --fused-blocks-tile: fused code generation for blocks that stay several
 * loop nests after element-wise fusion — a reduction and the element-wise
 * ops that read its result (a softmax's Exp/ReduceSum/Div, an RMS norm's
 * Mul/ReduceMean/.../Div), or a value with several users inside the block.
 * The block becomes one scf.for nest over the dimensions every op in it
 * runs along (tile_analyze.c); inside, each op computes its tile (one row,
 * one plane) from the matching tiles of its inputs, so the intermediates
 * live in tile-sized buffers instead of whole tensors, and each value is
 * computed once. Blocks it cannot cut (windows, gathers via linalg.index,
 * ops other than linalg.generic/reshape) are left as they are.
 *
 * The rewrite is a pattern rooted at scf.execute_region, applied by the
 * walk driver: its match is the block's analysis, its rewrite builds the
 * nest through the driver's rewriter. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Bufferization.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "tile_internal.h"

typedef struct {
  MlirValue from[2 * TILE_MAX_VALUES], to[2 * TILE_MAX_VALUES]; /* results and input slices */
  int count;
} ValueMap;

static MlirValue lookup(const ValueMap *m, MlirValue v) {
  for (int i = 0; i < m->count; i++)
    if (mlirValueEqual(m->from[i], v)) return m->to[i];
  return (MlirValue){NULL};
}

static MlirType tileType(TileBlock *t, const TileValue *v, int64_t *sizes) {
  for (int d = 0; d < v->rank; d++) sizes[d] = tileDimLoop(t, v, d) >= 0 ? 1 : v->dims[d];
  return mlirRankedTensorTypeGet(v->rank, sizes, mlirShapedTypeGetElementType(mlirValueGetType(v->v)),
                                 mlirAttributeGetNull());
}

/* Offsets of `v`'s tile: the loop's induction variable along cut dims. */
static int tileOffsets(TileBlock *t, const TileValue *v, const MlirValue *ivs, int64_t *offsets,
                       MlirValue *dynamic) {
  int n = 0;
  for (int d = 0; d < v->rank; d++) {
    int l = tileDimLoop(t, v, d);
    offsets[d] = l >= 0 ? INT64_MIN /* ShapedType::kDynamic */ : 0;
    if (l >= 0) dynamic[n++] = ivs[l];
  }
  return n;
}

/* tensor.extract_slice (lead = {v}) or tensor.insert_slice (lead = {tile,
 * dest}) of `v`'s tile at the loops' induction variables. */
static MlirValue tileSliceOp(StrataBuilder *b, MlirLocation loc, TileBlock *t, const TileValue *v,
                             const MlirValue *ivs, const char *name, const MlirValue *lead, int numLead,
                             MlirType result) {
  int64_t offsets[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  MlirValue operands[2 + STRATA_MAX_RANK];
  for (int i = 0; i < numLead; i++) operands[i] = lead[i];
  int n = tileOffsets(t, v, ivs, offsets, operands + numLead);
  tileType(t, v, sizes);
  for (int d = 0; d < v->rank; d++) strides[d] = 1;
  int32_t segments[5] = {1, 1, 0, 0, 0};
  segments[numLead] = n; /* source[, dest], offsets, sizes, strides */
  return strataResult(
      strataCreateOp(b, name, loc, .operands = {operands, numLead + n}, .results = STRATA_TYPES(result),
                     .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, v->rank, offsets)},
                                           {"static_sizes", mlirDenseI64ArrayGet(b->ctx, v->rank, sizes)},
                                           {"static_strides", mlirDenseI64ArrayGet(b->ctx, v->rank, strides)},
                                           {"operandSegmentSizes",
                                            mlirDenseI32ArrayGet(b->ctx, numLead + 3, segments)})),
      0);
}

static MlirValue sliceOf(StrataBuilder *b, MlirLocation loc, TileBlock *t, const TileValue *v,
                         const MlirValue *ivs) {
  int64_t sizes[STRATA_MAX_RANK];
  return tileSliceOp(b, loc, t, v, ivs, "tensor.extract_slice", &v->v, 1, tileType(t, v, sizes));
}

static MlirValue insertTile(StrataBuilder *b, MlirLocation loc, TileBlock *t, const TileValue *v,
                            MlirValue tile, MlirValue dest, const MlirValue *ivs) {
  MlirValue lead[2] = {tile, dest};
  return tileSliceOp(b, loc, t, v, ivs, "tensor.insert_slice", lead, 2, mlirValueGetType(dest));
}

/* A tile-sized buffer on the stack, allocated once before the nest (at
 * `pre`) and reused by every tile: LLVM knows it aliases nothing, so a
 * one-element reduction result stays in a register and the loops reading
 * the tile vectorize without alias checks. Its tensor, in the nest. */
static MlirValue stackTile(StrataBuilder *b, StrataBuilder *pre, MlirLocation loc, MlirType type) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t dims[STRATA_MAX_RANK];
  for (intptr_t d = 0; d < rank; d++) dims[d] = mlirShapedTypeGetDimSize(type, d);
  MlirType memref = mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(type), rank, dims,
                                                mlirAttributeGetNull());
  int32_t segments[2] = {0, 0};
  MlirValue buffer = strataResult(
      strataCreateOp(pre, "memref.alloca", loc, .results = STRATA_TYPES(memref),
                     .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 2, segments)},
                                           {"alignment", strataI64Attr(b->ctx, 64)})),
      0);
  return strataResult(strataCreateOp(b, "bufferization.to_tensor", loc, .operands = STRATA_VALUES(buffer),
                                     .results = STRATA_TYPES(type),
                                     .attrs = STRATA_ATTRS({"restrict", mlirUnitAttrGet(b->ctx)},
                                                           {"writable", mlirUnitAttrGet(b->ctx)})),
                      0);
}

/* A tile for an intermediate: on the stack while the block's tiles fit
 * TILE_STACK_BYTES, else a tensor.empty that bufferization allocates
 * (hoisted out of the nest by buffer-loop-hoisting, placed in the arena). */
static MlirValue tileBuffer(StrataBuilder *b, StrataBuilder *pre, MlirLocation loc, TileBlock *t,
                            MlirType type) {
  MlirType et = mlirShapedTypeGetElementType(type);
  int64_t bits = mlirTypeIsAFloat(et) ? (int64_t)mlirFloatTypeGetWidth(et)
                 : mlirTypeIsAInteger(et) ? (int64_t)mlirIntegerTypeGetWidth(et) : 64;
  int64_t bytes = (bits + 7) / 8;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(type); d++) bytes *= mlirShapedTypeGetDimSize(type, d);
  if (t->stackBytes + bytes <= TILE_STACK_BYTES) {
    t->stackBytes += bytes;
    return stackTile(b, pre, loc, type);
  }
  return strataResult(strataCreateOp(b, "tensor.empty", loc, .results = STRATA_TYPES(type)), 0);
}

/* `tile` filled with the scalar `value` (a generic with no inputs). */
static MlirValue fillTile(StrataBuilder *b, StrataBuilder *pre, MlirLocation loc, MlirValue tile,
                          MlirAttribute value) {
  MlirType type = mlirValueGetType(tile), et = mlirShapedTypeGetElementType(type);
  intptr_t rank = mlirShapedTypeGetRank(type);
  MlirValue scalar = strataResult(strataCreateOp(pre, "arith.constant", loc, .results = STRATA_TYPES(et),
                                                 .attrs = STRATA_ATTRS({"value", value})),
                                  0);
  MlirAttribute parallel = strataParseAttr(b->ctx, "#linalg.iterator_type<parallel>");
  MlirAttribute its[STRATA_MAX_RANK + 1];
  for (intptr_t d = 0; d < rank; d++) its[d] = parallel;
  MlirAttribute map = mlirAffineMapAttrGet(mlirAffineMapMultiDimIdentityGet(b->ctx, rank));
  int32_t segments[2] = {0, 1};
  MlirOperation fill = strataCreateOp(
      b, "linalg.generic", loc, .operands = STRATA_VALUES(tile), .results = STRATA_TYPES(type),
      .attrs = STRATA_ATTRS({"indexing_maps", mlirArrayAttrGet(b->ctx, 1, &map)},
                            {"iterator_types", mlirArrayAttrGet(b->ctx, rank, its)},
                            {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 2, segments)}),
      .numRegions = 1);
  MlirBlock body = strataAddBlock(fill, 0, STRATA_TYPES(et), loc);
  StrataBuilder in = strataBuilderAtEnd(b->ctx, body);
  strataCreateOp(&in, "linalg.yield", loc, .operands = STRATA_VALUES(scalar));
  return strataResult(fill, 0);
}

/* The tile of an operand: the tile computed earlier in the nest, a stack
 * tile (filled, for a splat constant) for an init, or a slice of the value. */
static MlirValue operandTile(StrataBuilder *b, StrataBuilder *pre, MlirLocation loc, TileBlock *t,
                             ValueMap *m, MlirValue v, bool init, const MlirValue *ivs) {
  MlirValue mapped = lookup(m, v);
  if (!mlirValueIsNull(mapped)) return mapped;
  const TileValue *tv = tileValue(t, v);
  bool cut = false;
  for (int d = 0; tv && d < tv->rank && !cut; d++) cut = tileDimLoop(t, tv, d) >= 0;
  if (!cut) return v;
  int64_t sizes[STRATA_MAX_RANK];
  MlirType type = tileType(t, tv, sizes);
  MlirOperation def = mlirOpResultGetOwner(v);
  if (init && mlirValueIsAOpResult(v) && strataOpIsNamed(def, "tensor.empty"))
    return tileBuffer(b, pre, loc, t, type);
  if (init && mlirValueIsAOpResult(v) && strataOpIsNamed(def, "arith.constant")) {
    MlirAttribute value = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
    if (mlirAttributeIsADenseElements(value) && mlirDenseElementsAttrIsSplat(value))
      return fillTile(b, pre, loc, tileBuffer(b, pre, loc, t, type), mlirDenseElementsAttrGetSplatValue(value));
  }
  MlirValue slice = sliceOf(b, loc, t, tv, ivs);
  if (!init) { /* later readers share the slice */
    m->from[m->count] = v;
    m->to[m->count++] = slice;
  }
  return slice;
}

static MlirValue tileReshape(StrataBuilder *b, MlirLocation loc, TileBlock *t, MlirValue source,
                             const TileValue *result) {
  int64_t sizes[STRATA_MAX_RANK], rank = result->rank;
  MlirType type = tileType(t, result, sizes);
  MlirType shapeType = mlirRankedTensorTypeGet(1, &rank, mlirIntegerTypeGet(b->ctx, 64), mlirAttributeGetNull());
  MlirValue shape = strataResult(
      strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(shapeType),
                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrInt64Get(shapeType, rank, sizes)})),
      0);
  return strataResult(strataCreateOp(b, "tensor.reshape", loc, .operands = STRATA_VALUES(source, shape),
                                     .results = STRATA_TYPES(type)),
                      0);
}

/* A reduction inside a tile runs over one row or plane: its float
 * combiners may be reassociated (`fastmath<reassoc>`), so that LLVM
 * vectorizes the sum with several partial accumulators, as the runtime's
 * reduction kernels do. Results differ from the sequential order by
 * rounding only. */
static MlirWalkResult allowReassociation(MlirOperation op, void *user) {
  (void)user;
  MlirAttribute fm = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("fastmath"));
  if (!mlirAttributeIsNull(fm) && strataOpIsInDialect(op, "arith"))
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("fastmath"),
                                    strataParseAttr(mlirOperationGetContext(op), "#arith.fastmath<reassoc>"));
  return MlirWalkResultAdvance;
}

/* The resident ops, in order, on tiles; their tiles recorded in `m`.
 * `b` inserts through the rewriter, before the loop body's yield. */
static void buildTiles(StrataBuilder *b, StrataBuilder *pre, MlirLocation loc, TileBlock *t, ValueMap *m,
                       const MlirValue *ivs,
                       const MlirValue *yielded, const MlirValue *carried, int ny) {
  for (int g = 0; g < t->numOps; g++) {
    const TileOp *o = &t->ops[g];
    if (!o->resident) continue;
    if (o->kind == TILE_RESHAPE) {
      MlirValue src = operandTile(b, pre, loc, t, m, mlirOperationGetOperand(o->op, 0), false, ivs);
      MlirValue res = mlirOperationGetResult(o->op, 0);
      m->from[m->count] = res;
      m->to[m->count++] = tileReshape(b, loc, t, src, tileValue(t, res));
      continue;
    }
    intptr_t n = mlirOperationGetNumOperands(o->op), inputs = n - mlirOperationGetNumResults(o->op);
    MlirValue operands[n];
    for (intptr_t i = 0; i < n; i++) {
      MlirValue v = mlirOperationGetOperand(o->op, i);
      operands[i] = (MlirValue){NULL};
      /* A yielded result is computed in place, in its tile of the nest's
       * result (destination-passing style), when its init was only a shape. */
      if (i >= inputs && mlirValueIsAOpResult(v) && strataOpIsNamed(mlirOpResultGetOwner(v), "tensor.empty"))
        for (int k = 0; k < ny; k++)
          if (mlirValueEqual(yielded[k], mlirOperationGetResult(o->op, i - inputs))) {
            TileValue dest = *tileValue(t, yielded[k]);
            dest.v = carried[k];
            operands[i] = sliceOf(b, loc, t, &dest, ivs);
          }
      if (mlirValueIsNull(operands[i])) operands[i] = operandTile(b, pre, loc, t, m, v, i >= inputs, ivs);
    }
    mlirRewriterBaseSetInsertionPointBefore(b->rewriter, b->before);
    MlirOperation clone = mlirRewriterBaseClone(b->rewriter, o->op);
    mlirRewriterBaseStartOpModification(b->rewriter, clone);
    if (o->reduces) mlirOperationWalk(clone, allowReassociation, NULL, MlirWalkPreOrder);
    for (intptr_t i = 0; i < n; i++) mlirOperationSetOperand(clone, i, operands[i]);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(o->op); r++) {
      MlirValue res = mlirOperationGetResult(o->op, r), tile = mlirOperationGetResult(clone, r);
      int64_t sizes[STRATA_MAX_RANK];
      mlirValueSetType(tile, tileType(t, tileValue(t, res), sizes));
      m->from[m->count] = res;
      m->to[m->count++] = tile;
    }
    mlirRewriterBaseFinalizeOpModification(b->rewriter, clone);
  }
}

static MlirValue indexConst(StrataBuilder *b, MlirLocation loc, int64_t v) {
  return strataConstInt(b, loc, strataIndexType(b->ctx), v);
}

/* An empty scf.yield ending `body`, inserted through the rewriter: the
 * nest's ops are built before it, its operands set once they exist. */
static MlirOperation emptyYield(MlirRewriterBase rewriter, MlirBlock body, MlirLocation loc) {
  StrataBuilder detached = {mlirLocationGetContext(loc), {NULL}, {NULL}, {NULL}};
  mlirRewriterBaseSetInsertionPointToEnd(rewriter, body);
  return mlirRewriterBaseInsert(rewriter, strataCreateOp(&detached, "scf.yield", loc));
}

static void rewrite(MlirRewriterBase rewriter, TileBlock *t, MlirOperation region) {
  MlirContext ctx = mlirOperationGetContext(region);
  MlirLocation loc = mlirOperationGetLocation(region);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(region, 0));
  MlirOperation term = mlirBlockGetTerminator(body);
  /* The distinct resident values the block yields: the nest's results. */
  MlirValue yielded[TILE_MAX_VALUES];
  int ny = 0;
  for (intptr_t y = 0; y < mlirOperationGetNumOperands(term); y++) {
    MlirValue v = mlirOperationGetOperand(term, y);
    if (!mlirValueIsAOpResult(v)) continue;
    bool resident = false, seen = false;
    for (int g = 0; g < t->numOps && !resident; g++)
      resident = t->ops[g].resident && mlirOperationEqual(t->ops[g].op, mlirOpResultGetOwner(v));
    for (int k = 0; k < ny && !seen; k++) seen = mlirValueEqual(yielded[k], v);
    if (resident && !seen) yielded[ny++] = v;
  }
  StrataBuilder b = strataBuilderBefore(term, rewriter);
  MlirValue carried[TILE_MAX_VALUES], ivs[TILE_MAX_LOOPS];
  MlirType types[TILE_MAX_VALUES];
  for (int k = 0; k < ny; k++) {
    types[k] = mlirValueGetType(yielded[k]);
    carried[k] = strataResult(strataCreateOp(&b, "tensor.empty", loc, .results = STRATA_TYPES(types[k])), 0);
  }
  MlirOperation loops[TILE_MAX_LOOPS], yields[TILE_MAX_LOOPS];
  MlirValue zero = indexConst(&b, loc, 0), one = indexConst(&b, loc, 1);
  for (int l = 0; l < t->numTiled; l++) {
    MlirValue operands[3 + TILE_MAX_VALUES];
    operands[0] = zero;
    operands[1] = indexConst(&b, loc, t->extent[t->tiled[l]]);
    operands[2] = one;
    for (int k = 0; k < ny; k++) operands[3 + k] = carried[k];
    loops[l] = strataCreateOp(&b, "scf.for", loc, .operands = {operands, 3 + ny}, .results = {types, ny},
                              .numRegions = 1);
    MlirType argTypes[1 + TILE_MAX_VALUES];
    argTypes[0] = strataIndexType(ctx);
    for (int k = 0; k < ny; k++) argTypes[1 + k] = types[k];
    MlirBlock loopBody = strataAddBlock(loops[l], 0, (StrataTypeList){argTypes, 1 + ny}, loc);
    ivs[l] = mlirBlockGetArgument(loopBody, 0);
    for (int k = 0; k < ny; k++) carried[k] = mlirBlockGetArgument(loopBody, 1 + k);
    yields[l] = emptyYield(rewriter, loopBody, loc);
    b = strataBuilderBefore(yields[l], rewriter);
    if (l + 1 < t->numTiled) {
      zero = indexConst(&b, loc, 0);
      one = indexConst(&b, loc, 1);
    }
  }
  ValueMap m = {.count = 0};
  t->stackBytes = 0;
  StrataBuilder pre = strataBuilderBefore(loops[0], rewriter);
  buildTiles(&b, &pre, loc, t, &m, ivs, yielded, carried, ny);
  for (int k = 0; k < ny; k++)
    carried[k] = insertTile(&b, loc, t, tileValue(t, yielded[k]), lookup(&m, yielded[k]), carried[k], ivs);
  for (int l = t->numTiled - 1; l >= 0; l--) {
    mlirRewriterBaseStartOpModification(rewriter, yields[l]);
    mlirOperationSetOperands(yields[l], ny, carried);
    mlirRewriterBaseFinalizeOpModification(rewriter, yields[l]);
    for (int k = 0; k < ny; k++) carried[k] = strataResult(loops[l], k);
  }
  for (int k = 0; k < ny; k++) mlirRewriterBaseReplaceAllUsesWith(rewriter, yielded[k], carried[k]);
  for (int g = t->numOps - 1; g >= 0; g--) {
    MlirOperation op = t->ops[g].op;
    bool dead = t->ops[g].resident;
    if (t->ops[g].kind == TILE_EMPTY || t->ops[g].kind == TILE_CONSTANT)
      dead = mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0)));
    if (dead) mlirRewriterBaseEraseOp(rewriter, op);
  }
}

typedef struct {
  TileBlock *scratch; /* the analysis of the block being matched */
  bool failed;        /* a tiled block did not verify: rewrite no more */
} TileRun;

/* The pattern, rooted at scf.execute_region: a fused block the analysis
 * can cut becomes one nest over tiles. */
static MlirLogicalResult tileBlock(StrataRewrite *rw, MlirOperation region, void *user) {
  TileRun *r = user;
  if (r->failed || mlirAttributeIsNull(strataOpAttr(region, "strata.fused")) ||
      !tileAnalyze(r->scratch, region))
    return mlirLogicalResultFailure();
  rewrite(rw->rewriter, r->scratch, region);
  if (!mlirOperationVerify(region)) {
    strataEmitError(mlirOperationGetLocation(region), "fused-blocks-tile: the tiled block does not verify");
    r->failed = true;
  }
  return mlirLogicalResultSuccess();
}

/* The walk driver visits the blocks in post-order, as a walk collecting
 * them would, once each, and neither folds nor erases dead ops. */
static void runTile(StrataPassRun *run, MlirOperation root) {
  TileRun r = {malloc(sizeof *r.scratch), false};
  StrataPatternSet *set = r.scratch ? strataPatternSetCreate(mlirOperationGetContext(root)) : NULL;
  if (!set) {
    free(r.scratch);
    strataEmitError(mlirOperationGetLocation(root), "fused-blocks-tile: out of memory");
    strataPassSignalFailure(run);
    return;
  }
  strataPatternSetAdd(set, "scf.execute_region", 1, tileBlock, &r);
  strataApplyPatternsWalk(set, root);
  if (r.failed) strataPassSignalFailure(run);
  strataPatternSetDestroy(set);
  free(r.scratch);
}

/* What the nest is built from (stack tiles are memref.alloca seen as
 * tensors), loaded even when the pass runs alone on linalg IR. */
static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__scf__, mlirGetDialectHandle__tensor__,
                                              mlirGetDialectHandle__memref__,
                                              mlirGetDialectHandle__bufferization__,
                                              mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataFusedBlocksTilePass = {
    .name = "fused-blocks-tile",
    .summary = "Make each fused block that element-wise fusion left as several loop nests (a "
               "reduction and its element-wise users) one loop nest over tiles along the dims "
               "all its ops share",
    .run = runTile,
    .dependentDialects = kDeps,
};
