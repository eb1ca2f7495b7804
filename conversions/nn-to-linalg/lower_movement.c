/* Data movement -> tensor.reshape, tensor.insert_slice, and linalg.generic
 * copies whose input maps do the re-indexing (transpose, slice with any
 * step, split, expand, tile, depth/space). Ops whose source index depends on
 * values (gather, pad modes, scatter, resize) read with tensor.extract at an
 * index computed in the body. An index read from a tensor outside
 * [-n, n) is a run-time error, as in the interpreter: the body calls
 * libstrata_rt's strata_rt_index_error, which stops the call with the op's
 * location (runtime/status.h); the read itself is clamped so it stays in
 * bounds until the call stops. Resize uses per-dim index/weight tables
 * computed here by the interpreter's own coordinate code, so both agree. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_movement_params.h"
#include "lower_internal.h"

static MlirLogicalResult replace(StrataRewrite *rw, MlirOperation op, MlirValue v) {
  if (!v.ptr) return mlirLogicalResultFailure();
  strataReplaceOp(rw, op, STRATA_VALUES(v));
  return mlirLogicalResultSuccess();
}

static const StrataOpDef *defOf(MlirOperation op) { return nnMovementDef(op); }

/* A parallel generic over op's result whose single input is read through
 * `inMap` (the "copy" pattern). */
static MlirValue copyThrough(StrataBuilder *b, MlirOperation op, MlirValue x, const char *inMap) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(t);
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {inMap, id};
  MlirValue init = lowerResultEmpty(b, op, 0);
  if (!init.ptr) return init;
  return linalgBuildGeneric(b, loc, STRATA_VALUES(x), init, maps, its, bodyYieldInput, NULL);
}

static MlirLogicalResult lowerReshapeLike(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirValue dims[STRATA_MAX_RANK];
  if (lowerHasDynamicDims(op) && !lowerResultDims(&rw->builder, op, 0, dims)) return mlirLogicalResultFailure();
  return replace(rw, op, lowerReshapeTo(&rw->builder, mlirOperationGetLocation(op), lowerOperand(op, 0),
                                        lowerResultType(op, 0), dims));
}

static MlirLogicalResult lowerTranspose(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  int64_t perm[STRATA_MAX_RANK];
  if (!nnTransposePerm(op, rank, perm)) return mlirLogicalResultFailure();
  int inv[STRATA_MAX_RANK];
  for (int j = 0; j < rank; j++) inv[perm[j]] = j;
  char m[256];
  linalgFormatDims(m, sizeof m, inv, rank);
  return replace(rw, op, copyThrough(&rw->builder, op, x, m));
}

static MlirLogicalResult lowerConcat(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  if (lowerHasDynamicDims(op)) return replace(rw, op, lowerConcatDynamic(&rw->builder, op));
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue a = lowerOperand(op, 0), c = lowerOperand(op, 1);
  int64_t axis;
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, lowerRank(a));
  int64_t off[STRATA_MAX_RANK] = {0};
  /* the two slices cover the result: an empty tensor, not a zero constant
   * (which bufferizes to a copy of a zero global) */
  MlirValue y = linalgInsertSlice(b, loc, a, lowerEmptyTensor(b, loc, lowerResultType(op, 0), NULL), off);
  off[axis] = lowerDim(a, (int)axis);
  return replace(rw, op, linalgInsertSlice(b, loc, c, y, off));
}

static MlirLogicalResult lowerSplit(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  if (lowerHasDynamicDims(op)) return lowerSplitDynamic(rw, op);
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x), outputs = (int)mlirOperationGetNumResults(op);
  int64_t axis, sizes[64], offsets[STRATA_MAX_RANK] = {0}, dims[STRATA_MAX_RANK], ones[STRATA_MAX_RANK];
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, rank);
  if (!nnSplitSizes(op, NULL, lowerDim(x, (int)axis), outputs, sizes)) return mlirLogicalResultFailure();
  for (int d = 0; d < rank; d++) dims[d] = lowerDim(x, d), ones[d] = 1;
  MlirValue results[64];
  for (int k = 0; k < outputs; k++) {
    dims[axis] = sizes[k];
    results[k] = linalgExtractSlice(&rw->builder, loc, x, offsets, dims, ones);
    offsets[axis] += sizes[k];
  }
  strataReplaceOp(rw, op, (StrataValueList){results, outputs});
  return mlirLogicalResultSuccess();
}

/* Negative-step slices: read x at first + index * step in the body. */
typedef struct {
  MlirValue x;
  int rank;
  int64_t first[STRATA_MAX_RANK], step[STRATA_MAX_RANK];
} StridedCtx;

static MlirValue bodyStrided(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)a;
  const StridedCtx *c = u;
  MlirType idx = strataIndexType(b->ctx);
  MlirValue at[STRATA_MAX_RANK];
  for (int d = 0; d < c->rank; d++)
    at[d] = emitBinary(b, loc, "arith.addi",
                       emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, d), emitConst(b, loc, idx, (double)c->step[d])),
                       emitConst(b, loc, idx, (double)c->first[d]));
  return linalgExtract(b, loc, c->x, at, c->rank);
}

static MlirLogicalResult lowerSlice(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  if (lowerSliceIsDynamic(defOf(op), op)) return lowerSliceDynamicPattern(rw, op, defOf(op));
  MlirValue x = lowerOperand(op, 0);
  int rank = lowerRank(x);
  int64_t dims[STRATA_MAX_RANK], first[STRATA_MAX_RANK], step[STRATA_MAX_RANK], count[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) dims[d] = lowerDim(x, d);
  if (!nnSliceParams(defOf(op), op, dims, rank, first, step, count)) return mlirLogicalResultFailure();
  for (int d = 0; d < rank; d++)
    if (count[d] == -1) {
      strataEmitError(mlirOperationGetLocation(op), "nn-to-linalg: 'nn.slice' needs constant starts, "
                      "ends, axes and steps (fold the shape computation first)");
      return mlirLogicalResultFailure();
    }
  bool positive = true;
  for (int d = 0; d < rank; d++) positive &= step[d] > 0;
  MlirLocation loc = mlirOperationGetLocation(op);
  if (positive) return replace(rw, op, linalgExtractSlice(&rw->builder, loc, x, first, count, step));
  StridedCtx c = {x, rank, {0}, {0}};
  memcpy(c.first, first, sizeof c.first);
  memcpy(c.step, step, sizeof c.step);
  MlirType t = lowerResultType(op, 0);
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {id};
  return replace(rw, op, linalgBuildGeneric(&rw->builder, loc, (StrataValueList){NULL, 0},
                                            linalgSplatConstant(&rw->builder, loc, t, 0), maps, its, bodyStrided, &c));
}

static MlirLogicalResult lowerExpand(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  char m[256];
  lowerBroadcastMap(m, sizeof m, lowerOperand(op, 0), lowerResultType(op, 0));
  return replace(rw, op, copyThrough(&rw->builder, op, lowerOperand(op, 0), m));
}

static MlirLogicalResult lowerTile(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  if (lowerHasDynamicDims(op)) return replace(rw, op, lowerTileDynamic(&rw->builder, op));
  MlirValue x = lowerOperand(op, 0);
  char m[512];
  size_t off = (size_t)snprintf(m, sizeof m, "(");
  for (int d = 0; d < lowerRank(x); d++)
    off += (size_t)snprintf(m + off, sizeof m - off, "%sd%d mod %lld", d ? ", " : "", d, (long long)lowerDim(x, d));
  snprintf(m + off, sizeof m - off, ")");
  return replace(rw, op, copyThrough(&rw->builder, op, x, m));
}

static MlirLogicalResult lowerDepthSpace(StrataRewrite *rw, MlirOperation op, void *toSpace) {
  MlirValue x = lowerOperand(op, 0);
  int64_t b, C;
  char mode[8], m[512];
  nnAttrInt(op, "blocksize", 1, &b);
  nnAttrString(op, "mode", "DCR", NULL, mode, sizeof mode);
  long long B = (long long)b;
  if (toSpace) {
    C = lowerDim(x, 1) / (b * b); /* static (lowerDynamicSupported) */
    if (!strcmp(mode, "CRD"))
      snprintf(m, sizeof m, "(d0, d1 * %lld + (d2 mod %lld) * %lld + d3 mod %lld, d2 floordiv %lld, d3 floordiv %lld)",
               B * B, B, B, B, B, B);
    else
      snprintf(m, sizeof m, "(d0, ((d2 mod %lld) * %lld + d3 mod %lld) * %lld + d1, d2 floordiv %lld, d3 floordiv %lld)",
               B, B, B, (long long)C, B, B);
  } else {
    C = lowerDim(x, 1);
    snprintf(m, sizeof m, "(d0, d1 mod %lld, d2 * %lld + (d1 floordiv %lld) floordiv %lld, d3 * %lld + (d1 floordiv %lld) mod %lld)",
             (long long)C, B, (long long)C, B, B, (long long)C, B);
  }
  return replace(rw, op, copyThrough(&rw->builder, op, x, m));
}

/* ---- Extract-based lowerings ---- */

#define INDEX_ERROR_FN "strata_rt_index_error"

static MlirValue clampIndex(StrataBuilder *b, MlirLocation loc, MlirValue v, int64_t n) {
  v = emitBinary(b, loc, "arith.maxsi", v, lowerIndexConst(b, loc, 0));
  return emitBinary(b, loc, "arith.minsi", v, lowerIndexConst(b, loc, n - 1));
}

/* v clamped to [0, n - 1] for a run-time n. */
static MlirValue clampIndexTo(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirValue n) {
  v = emitBinary(b, loc, "arith.maxsi", v, lowerIndexConst(b, loc, 0));
  return emitBinary(b, loc, "arith.minsi", v, emitBinary(b, loc, "arith.subi", n, lowerIndexConst(b, loc, 1)));
}

/* Where an op's run-time index errors are reported from: the op's site text
 * (strata_rt_index_error's) and the axis its indices address. */
typedef struct {
  MlirValue site;
  int64_t axis;
} IndexCheck;

static bool indexCheck(StrataRewrite *rw, MlirOperation op, int64_t axis, IndexCheck *out) {
  out->axis = axis;
  return lowerRuntimeSite(&rw->builder, op, INDEX_ERROR_FN, &out->site);
}

/* An index read from an integer tensor element: negative counts from the
 * end; outside [-n, n) it is reported (the call stops there) and clamped.
 * n is the axis's extent, an index value (run-time where it is dynamic). */
static MlirValue normalizeIndex(StrataBuilder *b, MlirLocation loc, MlirValue raw, MlirValue n,
                                const IndexCheck *check) {
  MlirValue v = emitConvert(b, loc, "arith.index_cast", raw, strataIndexType(b->ctx));
  MlirValue neg = emitCmpI(b, loc, CMPI_SLT, v, lowerIndexConst(b, loc, 0));
  MlirValue at = emitSelect(b, loc, neg, emitBinary(b, loc, "arith.addi", v, n), v);
  MlirValue outside = emitCmpI(b, loc, CMPI_UGE, at, n); /* also at < 0 */
  MlirOperation ifOp = strataCreateOp(b, "scf.if", loc, .operands = STRATA_VALUES(outside), .numRegions = 2);
  StrataBuilder then = strataBuilderAtEnd(b->ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc));
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue args[] = {emitConvert(&then, loc, "arith.index_cast", v, i64), strataConstInt(&then, loc, i64, check->axis),
                      emitConvert(&then, loc, "arith.index_cast", n, i64), check->site};
  strataCreateOp(&then, "func.call", loc, .operands = {args, 4},
                 .attrs = STRATA_ATTRS({"callee", mlirFlatSymbolRefAttrGet(b->ctx, mlirStringRefCreateFromCString(INDEX_ERROR_FN))}));
  strataCreateOp(&then, "scf.yield", loc);
  return clampIndexTo(b, loc, at, n);
}

typedef struct {
  MlirValue data;
  int axis, dataRank, indexRank;
  IndexCheck check;
  MlirValue axisLen; /* gather_elements: the axis's extent (run-time where dynamic) */
} GatherCtx;

static MlirValue bodyGather(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const GatherCtx *c = u;
  MlirValue at[STRATA_MAX_RANK];
  for (int d = 0; d < c->axis; d++) at[d] = linalgIndex(b, loc, d);
  at[c->axis] = normalizeIndex(b, loc, a[0], lowerIndexConst(b, loc, lowerDim(c->data, c->axis)), &c->check);
  for (int d = c->axis + 1; d < c->dataRank; d++) at[d] = linalgIndex(b, loc, d - 1 + c->indexRank);
  return linalgExtract(b, loc, c->data, at, c->dataRank);
}

static MlirLogicalResult lowerGather(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue data = lowerOperand(op, 0), ind = lowerOperand(op, 1);
  int64_t axis;
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, lowerRank(data));
  GatherCtx c = {data, (int)axis, lowerRank(data), lowerRank(ind), {{NULL}, 0}, {NULL}};
  if (!indexCheck(rw, op, axis, &c.check)) return mlirLogicalResultFailure();
  MlirType t = lowerResultType(op, 0);
  int rank = (int)mlirShapedTypeGetRank(t);
  int dims[STRATA_MAX_RANK];
  for (int d = 0; d < c.indexRank; d++) dims[d] = (int)axis + d;
  char mi[256], id[256], its[STRATA_MAX_RANK + 1];
  linalgFormatDims(mi, sizeof mi, dims, c.indexRank);
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {mi, id};
  MlirValue init = lowerResultEmpty(&rw->builder, op, 0);
  if (!init.ptr) return mlirLogicalResultFailure();
  return replace(rw, op, linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(ind), init, maps, its, bodyGather, &c));
}

static MlirValue bodyGatherElements(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const GatherCtx *c = u;
  MlirValue at[STRATA_MAX_RANK];
  for (int d = 0; d < c->dataRank; d++)
    at[d] = d == c->axis ? normalizeIndex(b, loc, a[0], c->axisLen, &c->check) : linalgIndex(b, loc, d);
  return linalgExtract(b, loc, c->data, at, c->dataRank);
}

static MlirLogicalResult lowerGatherElements(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue data = lowerOperand(op, 0);
  int64_t axis;
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, lowerRank(data));
  GatherCtx c = {data, (int)axis, lowerRank(data), lowerRank(data), {{NULL}, 0},
                 lowerDimValue(&rw->builder, loc, data, (int)axis)};
  if (!indexCheck(rw, op, axis, &c.check)) return mlirLogicalResultFailure();
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, c.dataRank);
  lowerParallelIterators(its, c.dataRank);
  const char *maps[] = {id, id};
  MlirValue init = lowerResultEmpty(&rw->builder, op, 0); /* every element is written */
  if (!init.ptr) return mlirLogicalResultFailure();
  return replace(rw, op, linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(lowerOperand(op, 1)), init, maps, its,
                                            bodyGatherElements, &c));
}

/* ScatterElements: loops (data dims | update dims); an update lands on the
 * output element whose index matches it (axis: the index value). */
typedef struct {
  int axis, rank;
  MlirValue axisLen; /* run-time where dynamic */
  char reduction[8];
  bool isFloat;
  IndexCheck check;
} ScatterCtx;

static MlirValue bodyScatter(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const ScatterCtx *c = u;
  MlirValue target = normalizeIndex(b, loc, a[0], c->axisLen, &c->check), upd = a[1], acc = a[2];
  MlirValue hit = emitCmpI(b, loc, CMPI_EQ, target, linalgIndex(b, loc, c->axis));
  for (int d = 0; d < c->rank; d++) {
    if (d == c->axis) continue;
    hit = emitBinary(b, loc, "arith.andi", hit,
                     emitCmpI(b, loc, CMPI_EQ, linalgIndex(b, loc, d), linalgIndex(b, loc, c->rank + d)));
  }
  MlirValue v = upd;
  const char *r = c->reduction;
  if (!strcmp(r, "add")) v = emitBinary(b, loc, c->isFloat ? "arith.addf" : "arith.addi", acc, upd);
  else if (!strcmp(r, "mul")) v = emitBinary(b, loc, c->isFloat ? "arith.mulf" : "arith.muli", acc, upd);
  else if (!strcmp(r, "max")) v = emitBinary(b, loc, c->isFloat ? "arith.maxnumf" : "arith.maxsi", acc, upd);
  else if (!strcmp(r, "min")) v = emitBinary(b, loc, c->isFloat ? "arith.minnumf" : "arith.minsi", acc, upd);
  return emitSelect(b, loc, hit, v, acc);
}

static MlirLogicalResult lowerScatterElements(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue data = lowerOperand(op, 0);
  int rank = lowerRank(data);
  int64_t axis;
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, rank);
  ScatterCtx c = {(int)axis, rank, lowerDimValue(&rw->builder, loc, data, (int)axis), "",
                  lowerIsFloat(lowerElementType(data)), {{NULL}, 0}};
  MlirValue dims[STRATA_MAX_RANK]; /* dynamic dims: the run-time checks of indices and updates */
  if (!indexCheck(rw, op, axis, &c.check) || (lowerHasDynamicDims(op) && !lowerResultDims(&rw->builder, op, 0, dims)))
    return mlirLogicalResultFailure();
  nnAttrString(op, "reduction", "none", NULL, c.reduction, sizeof c.reduction);
  char mu[256], md[256], its[2 * STRATA_MAX_RANK + 1];
  int ud[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) ud[d] = rank + d, its[d] = 'p', its[rank + d] = 'r';
  its[2 * rank] = '\0';
  linalgFormatDims(mu, sizeof mu, ud, rank);
  lowerIdentityMap(md, sizeof md, rank);
  const char *maps[] = {mu, mu, md};
  /* The output starts as a copy of data: updates then overwrite/combine. */
  return replace(rw, op, linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(lowerOperand(op, 1), lowerOperand(op, 2)),
                                            data, maps, its, bodyScatter, &c));
}

/* Pad: source index per dim (o - begin), resolved by the mode. */
typedef struct {
  MlirValue data;
  int rank;
  int64_t pads[2 * STRATA_MAX_RANK];
  char mode[16];
  MlirValue padValue; /* rank-0 tensor or null (0) */
  /* dynamic dims or run-time pads: the extents and begin pads as values
   * (lower_dims.c's pad rule checks them); null where static */
  MlirValue extent[STRATA_MAX_RANK], begin[STRATA_MAX_RANK];
} PadCtx;

static MlirValue bodyPad(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)a;
  const PadCtx *c = u;
  MlirValue at[STRATA_MAX_RANK], inside = emitConst(b, loc, mlirIntegerTypeGet(b->ctx, 1), 1);
  for (int d = 0; d < c->rank; d++) {
    int64_t n = lowerDim(c->data, d);
    bool dyn = c->extent[d].ptr != NULL;
    MlirValue nv = dyn ? c->extent[d] : (MlirValue){NULL};
    MlirValue v = emitBinary(b, loc, "arith.subi", linalgIndex(b, loc, d),
                             dyn ? c->begin[d] : lowerIndexConst(b, loc, c->pads[d]));
    if (!strcmp(c->mode, "constant")) {
      MlirValue ok = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGE, v, lowerIndexConst(b, loc, 0)),
                                emitCmpI(b, loc, CMPI_SLT, v, dyn ? nv : lowerIndexConst(b, loc, n)));
      inside = emitBinary(b, loc, "arith.andi", inside, ok);
      v = dyn ? clampIndexTo(b, loc, v, nv) : clampIndex(b, loc, v, n);
    } else if (!strcmp(c->mode, "edge")) {
      v = dyn ? clampIndexTo(b, loc, v, nv) : clampIndex(b, loc, v, n);
    } else if (!strcmp(c->mode, "wrap")) {
      MlirValue nn = dyn ? nv : lowerIndexConst(b, loc, n);
      v = emitBinary(b, loc, "arith.remsi", emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.remsi", v, nn), nn), nn);
    } else { /* reflect: |v|, then mirror at n - 1 */
      MlirValue zero = lowerIndexConst(b, loc, 0);
      MlirValue last = dyn ? emitBinary(b, loc, "arith.subi", nv, lowerIndexConst(b, loc, 1)) : lowerIndexConst(b, loc, n - 1);
      v = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SLT, v, zero), emitBinary(b, loc, "arith.subi", zero, v), v);
      MlirValue mirrored = emitBinary(b, loc, "arith.subi", emitBinary(b, loc, "arith.addi", last, last), v);
      v = emitSelect(b, loc, emitCmpI(b, loc, CMPI_SGT, v, last), mirrored, v);
      v = dyn ? clampIndexTo(b, loc, v, nv) : clampIndex(b, loc, v, n);
    }
    at[d] = v;
  }
  MlirValue x = linalgExtract(b, loc, c->data, at, c->rank);
  if (strcmp(c->mode, "constant") != 0) return x;
  MlirValue fill = mlirValueIsNull(c->padValue) ? emitConst(b, loc, mlirValueGetType(x), 0)
                                                : linalgExtract(b, loc, c->padValue, NULL, 0);
  return emitSelect(b, loc, inside, x, fill);
}

static MlirLogicalResult lowerPad(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  PadCtx c = {lowerOperand(op, 0), lowerRank(lowerOperand(op, 0)), {0}, "", {NULL}, {{NULL}}, {{NULL}}};
  nnAttrString(op, "mode", "constant", NULL, c.mode, sizeof c.mode);
  StrataBuilder *b = &rw->builder;
  MlirType t = lowerResultType(op, 0);
  MlirValue init = {NULL};
  if (lowerHasDynamicDims(op) || nnConstInts(lowerOperand(op, 1), c.pads, 2 * STRATA_MAX_RANK) != 2 * c.rank) {
    /* run-time extents or pads: every dim reads them as values */
    init = lowerResultEmpty(b, op, 0); /* bodyPad writes every element */
    if (!init.ptr) return mlirLogicalResultFailure();
    for (int d = 0; d < c.rank; d++) {
      c.extent[d] = lowerDimValue(b, loc, c.data, d);
      MlirValue e = linalgExtract(b, loc, lowerOperand(op, 1), (MlirValue[]){lowerIndexConst(b, loc, d)}, 1);
      c.begin[d] = emitConvert(b, loc, "arith.index_cast", e, strataIndexType(b->ctx));
    }
  } else {
    init = linalgSplatConstant(b, loc, t, 0);
  }
  if (mlirOperationGetNumOperands(op) == 3) {
    MlirValue v = lowerOperand(op, 2);
    /* A one-element constant_value of any rank: read it as rank 0. */
    c.padValue = linalgReshape(&rw->builder, loc, v, strataTensorType(lowerElementType(v), 0, NULL));
  }
  char id[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, c.rank);
  lowerParallelIterators(its, c.rank);
  const char *maps[] = {id};
  return replace(rw, op, linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, init, maps, its, bodyPad, &c));
}

/* Resize: per-dim tables, one entry per output index, of the taps the
 * interpreter uses (nnResizeTaps: an index and a weight table per tap) and,
 * for tf_crop_and_resize, whether the coordinate is outside (then the
 * element is extrapolation_value). Dims that keep their size read one tap,
 * the index itself. The body blends the product of the dims' taps. */
typedef struct {
  MlirValue x;
  int rank;
  bool nearest, crop;
  int taps[STRATA_MAX_RANK]; /* taps read per dim */
  double extrapolation;
} ResizeCtx;

static MlirValue bodyResize(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const ResizeCtx *c = u;
  /* args per dim d: idx_0..idx_{n-1} (i64), w_0..w_{n-1} (f64), then outside_d (i1) when cropping */
  MlirType idx = strataIndexType(b->ctx), f64 = mlirF64TypeGet(b->ctx), et = lowerElementType(c->x);
  const MlirValue *at[STRATA_MAX_RANK], *w[STRATA_MAX_RANK];
  MlirValue index[STRATA_MAX_RANK][4], outside = {NULL};
  int corners = 1;
  for (int d = 0, pos = 0; d < c->rank; d++) {
    for (int k = 0; k < c->taps[d]; k++) index[d][k] = emitConvert(b, loc, "arith.index_cast", a[pos + k], idx);
    at[d] = index[d];
    w[d] = a + pos + c->taps[d];
    pos += 2 * c->taps[d];
    if (c->crop) outside = mlirValueIsNull(outside) ? a[pos] : emitBinary(b, loc, "arith.ori", outside, a[pos]);
    pos += c->crop;
    corners *= c->taps[d];
  }
  MlirValue result;
  if (c->nearest) {
    MlirValue first[STRATA_MAX_RANK];
    for (int d = 0; d < c->rank; d++) first[d] = at[d][0];
    result = linalgExtract(b, loc, c->x, first, c->rank);
  } else {
    MlirValue acc = emitConst(b, loc, f64, 0), zero = emitConst(b, loc, f64, 0);
    for (int corner = 0; corner < corners; corner++) {
      MlirValue where[STRATA_MAX_RANK], weight = {NULL};
      for (int d = 0, rest = corner; d < c->rank; d++) {
        int k = rest % c->taps[d];
        rest /= c->taps[d];
        where[d] = at[d][k];
        if (c->taps[d] > 1) weight = mlirValueIsNull(weight) ? w[d][k] : emitBinary(b, loc, "arith.mulf", weight, w[d][k]);
      }
      MlirValue v = linalgExtract(b, loc, c->x, where, c->rank);
      if (!mlirTypeIsAF64(et)) v = emitConvert(b, loc, "arith.extf", v, f64);
      if (mlirValueIsNull(weight)) {
        acc = emitBinary(b, loc, "arith.addf", acc, v);
        continue;
      }
      /* a zero weight adds nothing, even to an infinite element (as interpResize) */
      MlirValue term = emitSelect(b, loc, emitCmpF(b, loc, CMPF_UNE, weight, zero), emitBinary(b, loc, "arith.mulf", weight, v), zero);
      acc = emitBinary(b, loc, "arith.addf", acc, term);
    }
    result = mlirTypeIsAF64(et) ? acc : emitConvert(b, loc, "arith.truncf", acc, et);
  }
  if (!c->crop) return result;
  return emitSelect(b, loc, outside, emitConst(b, loc, et, c->extrapolation), result);
}

static MlirValue constTensor(StrataBuilder *b, MlirLocation loc, StrataTensor *t) {
  MlirType type = strataTensorType(strataDTypeToMlir(b->ctx, t->dtype), t->rank, t->dims);
  MlirAttribute v = strataTensorToAttr(type, t);
  return strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(type),
                                     .attrs = STRATA_ATTRS({"value", v})), 0);
}

/* The tables of dim d (see ResizeCtx) appended to tables[*n]; a `same`
 * dim (size and scale unchanged) reads its own index. False when out of
 * memory. */
static bool resizeDimTables(StrataBuilder *b, MlirLocation loc, const NnResize *r, const ResizeCtx *c, int d,
                            bool same, int64_t in, int64_t out, double scale, const double *roi, MlirValue *tables, int *n) {
  int taps = c->taps[d];
  StrataTensor *t[9] = {NULL};
  bool ok = true;
  for (int k = 0; k < 2 * taps; k++) ok &= (t[k] = strataTensorCreate(k < taps ? STRATA_DTYPE_I64 : STRATA_DTYPE_F64, 1, &out)) != NULL;
  if (c->crop) ok &= (t[2 * taps] = strataTensorCreate(STRATA_DTYPE_I1, 1, &out)) != NULL;
  for (int64_t o = 0; ok && o < out; o++) {
    NnTaps tp;
    nnResizeOutputTaps(r, same, o, in, out, scale, roi, &tp);
    for (int k = 0; k < taps; k++) nnSetInt(t[k], o, tp.idx[k]), strataTensorSetDouble(t[taps + k], o, tp.w[k]);
    if (c->crop) nnSetInt(t[2 * taps], o, nnResizeOutside(r, nnResizeCoord(r, o, in, out, scale, roi), in));
  }
  for (int k = 0; k < 2 * taps + c->crop; k++) {
    if (ok) tables[(*n)++] = constTensor(b, loc, t[k]);
    strataTensorDestroy(t[k]);
  }
  return ok;
}

static MlirLogicalResult lowerResize(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue x = lowerOperand(op, 0);
  MlirType t = lowerResultType(op, 0);
  int rank = lowerRank(x);
  NnResize r;
  if (!nnResizeAttrs(op, &r)) return mlirLogicalResultFailure();
  bool crop = !strcmp(r.coord, "tf_crop_and_resize");
  double roi[2 * STRATA_MAX_RANK];
  /* run-time shapes, scales, sizes or roi: the body computes the taps */
  if (lowerHasDynamicDims(op) ||
      (crop && nnConstDoubles(strataNamedOperand(defOf(op), op, "roi"), roi, 2 * STRATA_MAX_RANK) != 2 * rank))
    return replace(rw, op, lowerResizeDynamic(b, op, defOf(op)));
  int64_t in[STRATA_MAX_RANK], out[STRATA_MAX_RANK];
  double scales[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) in[d] = lowerDim(x, d), out[d] = mlirShapedTypeGetDimSize(t, d);
  nnResizeScales(defOf(op), op, in, out, rank, scales);
  ResizeCtx c = {x, rank, !strcmp(r.mode, "nearest"), crop, {0}, r.extrapolation};
  MlirValue tables[(2 * 4 + 1) * STRATA_MAX_RANK];
  int n = 0;
  for (int d = 0; d < rank; d++) {
    bool same = in[d] == out[d] && scales[d] == 1.0 && !crop;
    c.taps[d] = nnResizeTapCount(&r, same);
    double dimRoi[2] = {crop ? roi[d] : 0, crop ? roi[rank + d] : 1};
    if (!resizeDimTables(b, loc, &r, &c, d, same, in[d], out[d], scales[d], dimRoi, tables, &n)) {
      strataEmitError(loc, "nn-to-linalg: out of memory building the resize tables");
      return mlirLogicalResultFailure();
    }
  }
  char mapText[(2 * 4 + 1) * STRATA_MAX_RANK + 1][64];
  const char *maps[(2 * 4 + 1) * STRATA_MAX_RANK + 1];
  for (int d = 0, k = 0; d < rank; d++)
    for (int j = 0; j < 2 * c.taps[d] + crop; j++, k++) {
      snprintf(mapText[k], sizeof mapText[0], "(d%d)", d);
      maps[k] = mapText[k];
    }
  lowerIdentityMap(mapText[n], sizeof mapText[0], rank);
  maps[n] = mapText[n];
  char its[STRATA_MAX_RANK + 1];
  lowerParallelIterators(its, rank);
  return replace(rw, op, linalgBuildGeneric(b, loc, (StrataValueList){tables, n}, linalgSplatConstant(b, loc, t, 0),
                                            maps, its, bodyResize, &c));
}

void nnToLinalgMovement(LowerRegistry *r) {
  static const int kToSpace = 1;
  lowerRegister(r, "nn.reshape", lowerReshapeLike, NULL);
  lowerRegister(r, "nn.flatten", lowerReshapeLike, NULL);
  lowerRegister(r, "nn.squeeze", lowerReshapeLike, NULL);
  lowerRegister(r, "nn.unsqueeze", lowerReshapeLike, NULL);
  lowerRegister(r, "nn.transpose", lowerTranspose, NULL);
  lowerRegister(r, "nn.concat", lowerConcat, NULL);
  lowerRegister(r, "nn.split", lowerSplit, NULL);
  lowerRegister(r, "nn.slice", lowerSlice, NULL);
  lowerRegister(r, "nn.gather", lowerGather, NULL);
  lowerRegister(r, "nn.gather_elements", lowerGatherElements, NULL);
  lowerRegister(r, "nn.scatter_elements", lowerScatterElements, NULL);
  lowerRegister(r, "nn.expand", lowerExpand, NULL);
  lowerRegister(r, "nn.tile", lowerTile, NULL);
  lowerRegister(r, "nn.pad", lowerPad, NULL);
  lowerRegister(r, "nn.resize", lowerResize, NULL);
  lowerRegister(r, "nn.depth_to_space", lowerDepthSpace, (void *)&kToSpace);
  lowerRegister(r, "nn.space_to_depth", lowerDepthSpace, NULL);
}
