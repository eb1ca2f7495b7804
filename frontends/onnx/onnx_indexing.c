/* ONNX's index-based operators as compositions of nn ops (see
 * onnx_compose.c): OneHot (a constant or run-time depth), GatherND (any
 * batch_dims) and ScatterND. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"

/* ---- OneHot: where(unsqueeze(indices mod depth) == iota, on, off) ---- */

bool onnxImportOneHot(Node *x) {
  if (x->nIn != 3 || mlirValueIsNull(x->in[1]) || mlirValueIsNull(x->in[2])) {
    NODE_ERROR(x->im, x->loc, x->n, "needs 3 inputs (indices, depth, values)");
    return false;
  }
  /* A depth known only at run time sizes the output's axis at run time
   * (the iota is an nn.range to it); a constant one must be >= 1. */
  double depthValue = 1;
  int known = onnxConstDoubles(x->in[1], &depthValue, 1);
  MlirType dt = mlirValueGetType(x->in[1]);
  bool oneValue = mlirShapedTypeHasStaticShape(dt) && mlirShapedTypeGetRank(dt) <= 1 &&
                  (mlirShapedTypeGetRank(dt) == 0 || mlirShapedTypeGetDimSize(dt, 0) == 1);
  if (known != 1 && (known >= 0 || !oneValue)) {
    NODE_ERROR(x->im, x->loc, x->n, "input #1 ('depth') must hold one value (a scalar or a [1] tensor)");
    return false;
  }
  int64_t depth = (int64_t)depthValue;
  MlirType it = mlirValueGetType(x->in[0]), vt = mlirValueGetType(x->in[2]);
  if (!(depthValue >= 1 && depthValue < 1e9) || !mlirShapedTypeHasRank(it) || mlirShapedTypeGetRank(it) >= STRATA_MAX_RANK ||
      !mlirShapedTypeHasRank(vt) || mlirShapedTypeGetRank(vt) != 1 || mlirShapedTypeGetDimSize(vt, 0) != 2) {
    NODE_ERROR(x->im, x->loc, x->n, "needs a depth >= 1, ranked indices and values of shape [2] (off, on)");
    return false;
  }
  int64_t rank = mlirShapedTypeGetRank(it) + 1, axis = -1;
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "axis");
  if (a) axis = a->i;
  if (axis < -rank || axis >= rank) {
    NODE_ERROR(x->im, x->loc, x->n, "axis %lld is out of range for the output's rank %lld", (long long)axis, (long long)rank);
    return false;
  }
  if (axis < 0) axis += rank;
  MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64);
  MlirValue idx = onnxCast(x, x->in[0], i64); /* float indices truncate, as ONNX's reference casts them */
  /* Negative indices count from the end; others outside [-depth, depth)
   * match no position and give all off values. */
  MlirValue depthV = onnxScalarConst(x, i64, (double)depth);
  if (known != 1) /* as i64 (a float depth truncates), rank 0 */
    depthV = onnxBinary(x, "nn.reshape", onnxCast(x, x->in[1], i64), onnxI64Vector(x, NULL, 0), NULL, 0);
  MlirValue neg = onnxBinary(x, "nn.less", idx, onnxScalarConst(x, i64, 0), NULL, 0);
  MlirValue wrapped = onnxBinary(x, "nn.add", idx, depthV, NULL, 0);
  Attr ax[1] = {{"axes", mlirDenseI64ArrayGet(x->im->mc, 1, &axis)}};
  MlirValue expanded = onnxUnary(x, "nn.unsqueeze", onnxWhere(x, neg, wrapped, idx), ax, 1);
  MlirValue hit = onnxBinary(x, "nn.equal", expanded, onnxIotaTo(x, (int)rank, (int)axis, depthV), NULL, 0);
  Attr ax0[1] = {{"axis", strataI64Attr(x->im->mc, 0)}};
  MlirValue off = onnxBinary(x, "nn.gather", x->in[2], onnxScalarConst(x, i64, 0), ax0, 1);
  MlirValue on = onnxBinary(x, "nn.gather", x->in[2], onnxScalarConst(x, i64, 1), ax0, 1);
  return onnxBindValueAt(x, 0, onnxWhere(x, hit, on, off));
}

/* ---- GatherND and ScatterND: the k-tuples of indices become row numbers
 * of the data viewed as [B * d(b) * ... * d(b+k-1), rest...] (B the product
 * of the b batch dims, GatherND's batch_dims; ScatterND has none), then a
 * gather / scatter_elements along that first axis. A tuple with an index
 * outside its dim becomes the row count, which the gather or scatter reports
 * as out of range at run time instead of reading another row. ---- */

typedef struct {
  int dataRank, indexRank;
  int64_t data[STRATA_MAX_RANK], index[STRATA_MAX_RANK];
  int64_t b, batch; /* batch dims and their product */
  int64_t k, rows;  /* tuple length, product of data dims b .. b+k-1 */
} NdShapes;

static bool ndShapes(Node *x, NdShapes *s, int64_t b) {
  if (!onnxStaticShape(x, x->in[0], &s->dataRank, s->data, onnxOpType(x->n)) ||
      !onnxStaticShape(x, x->in[1], &s->indexRank, s->index, onnxOpType(x->n)))
    return false;
  if (b < 0 || b >= s->dataRank || b >= s->indexRank) {
    NODE_ERROR(x->im, x->loc, x->n, "batch_dims = %lld must be from 0 to below the ranks of data (%d) and indices (%d)",
               (long long)b, s->dataRank, s->indexRank);
    return false;
  }
  s->b = b;
  s->batch = 1;
  for (int64_t i = 0; i < b; i++) {
    if (s->data[i] != s->index[i]) {
      NODE_ERROR(x->im, x->loc, x->n, "batch dim %lld differs between data (%lld) and indices (%lld)", (long long)i,
                 (long long)s->data[i], (long long)s->index[i]);
      return false;
    }
    s->batch *= s->data[i];
  }
  s->k = s->index[s->indexRank - 1];
  if (s->k < 1 || s->k > s->dataRank - b || !mlirTypeIsAInteger(onnxElemOf(x->in[1]))) {
    NODE_ERROR(x->im, x->loc, x->n, "needs integer indices whose last dim (%lld) is from 1 to the data's rank %d less batch_dims %lld",
               (long long)s->k, s->dataRank, (long long)b);
    return false;
  }
  s->rows = 1;
  for (int64_t i = 0; i < s->k; i++) s->rows *= s->data[b + i];
  return true;
}

/* The row of each index tuple, i64: shape indices[:-1] without batch dims,
 * [B, tuples per batch] with them (the batch's first row added). */
static MlirValue ndRows(Node *x, const NdShapes *s) {
  MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64);
  MlirValue idx = onnxCast(x, x->in[1], i64);
  const int64_t *tupleDims = s->data + s->b;
  int64_t strides[STRATA_MAX_RANK], negDims[STRATA_MAX_RANK];
  for (int64_t j = s->k - 1, st = 1; j >= 0; st *= tupleDims[j], j--) strides[j] = st;
  for (int64_t j = 0; j < s->k; j++) negDims[j] = -tupleDims[j];
  MlirValue dims = onnxI64Vector(x, tupleDims, s->k), low = onnxI64Vector(x, negDims, s->k);
  MlirValue neg = onnxBinary(x, "nn.less", idx, onnxScalarConst(x, i64, 0), NULL, 0);
  MlirValue wrapped = onnxWhere(x, neg, onnxBinary(x, "nn.add", idx, dims, NULL, 0), idx);
  int64_t last = s->indexRank - 1;
  Attr red[2] = {{"axes", mlirDenseI64ArrayGet(x->im->mc, 1, &last)}, {"keepdims", strataI64Attr(x->im->mc, 0)}};
  MlirValue rows = onnxUnary(x, "nn.reduce_sum", onnxBinary(x, "nn.mul", wrapped, onnxI64Vector(x, strides, s->k), NULL, 0),
                             red, 2);
  /* Every index of a tuple within [-d, d): else the row count. */
  MlirValue inside = onnxBinary(x, "nn.and", onnxBinary(x, "nn.greater_or_equal", idx, low, NULL, 0),
                                onnxBinary(x, "nn.less", idx, dims, NULL, 0), NULL, 0);
  MlirValue ok = onnxUnary(x, "nn.reduce_min", onnxCast(x, inside, i64), red, 2);
  MlirValue okBool = onnxBinary(x, "nn.equal", ok, onnxScalarConst(x, i64, 1), NULL, 0);
  if (s->b > 0) { /* [B, tuples]: batch i's rows start at i * rows */
    int64_t perBatch = 1;
    for (int64_t i = s->b; i < s->indexRank - 1; i++) perBatch *= s->index[i];
    int64_t shape2[2] = {s->batch, perBatch};
    MlirValue shape = onnxI64Vector(x, shape2, 2);
    rows = onnxBinary(x, "nn.reshape", rows, shape, NULL, 0);
    okBool = onnxBinary(x, "nn.reshape", okBool, shape, NULL, 0);
    MlirValue first = onnxBinary(x, "nn.mul", onnxIota(x, 2, 0, s->batch), onnxScalarConst(x, i64, (double)s->rows), NULL, 0);
    rows = onnxBinary(x, "nn.add", rows, first, NULL, 0);
  }
  return onnxWhere(x, okBool, rows, onnxScalarConst(x, i64, (double)(s->batch * s->rows)));
}

/* data viewed as [rows, data[k:]...] (or data[k:] prefixed by `lead`). */
static MlirValue ndView(Node *x, MlirValue v, int64_t lead, const int64_t *rest, int nRest) {
  int64_t shape[STRATA_MAX_RANK + 1];
  shape[0] = lead;
  for (int i = 0; i < nRest; i++) shape[i + 1] = rest[i];
  return onnxBinary(x, "nn.reshape", v, onnxI64Vector(x, shape, nRest + 1), NULL, 0);
}

bool onnxImportGatherND(Node *x) {
  NdShapes s;
  const Onnx__AttributeProto *bd = onnxFindAttr(x->n, "batch_dims");
  if (x->nIn != 2 || mlirValueIsNull(x->in[1]) || !ndShapes(x, &s, bd ? bd->i : 0)) {
    if (x->nIn != 2) NODE_ERROR(x->im, x->loc, x->n, "needs 2 inputs (data, indices)");
    return false;
  }
  Attr ax0[1] = {{"axis", strataI64Attr(x->im->mc, 0)}};
  int nRest = s.dataRank - (int)(s.b + s.k);
  const int64_t *rest = s.data + s.b + s.k;
  MlirValue flat = ndView(x, x->in[0], s.batch * s.rows, rest, nRest);
  MlirValue out = onnxBinary(x, "nn.gather", flat, ndRows(x, &s), ax0, 1);
  if (s.b == 0) return onnxBindValueAt(x, 0, out);
  /* [B, tuples, rest...] back to indices[:-1] + data[b+k:]. */
  int64_t shape[2 * STRATA_MAX_RANK];
  int n = 0;
  for (int i = 0; i < s.indexRank - 1; i++) shape[n++] = s.index[i];
  for (int i = 0; i < nRest; i++) shape[n++] = rest[i];
  return onnxBindValueAt(x, 0, onnxBinary(x, "nn.reshape", out, onnxI64Vector(x, shape, n), NULL, 0));
}

bool onnxImportScatterND(Node *x) {
  NdShapes s;
  if (x->nIn != 3 || mlirValueIsNull(x->in[1]) || mlirValueIsNull(x->in[2]) || !ndShapes(x, &s, 0)) {
    if (x->nIn != 3) NODE_ERROR(x->im, x->loc, x->n, "needs 3 inputs (data, indices, updates)");
    return false;
  }
  int ur;
  int64_t ud[STRATA_MAX_RANK], tuples = 1;
  if (!onnxStaticShape(x, x->in[2], &ur, ud, "ScatterND")) return false;
  int nRest = s.dataRank - (int)s.k;
  bool fits = ur == s.indexRank - 1 + nRest;
  for (int i = 0; fits && i < s.indexRank - 1; i++) fits = ud[i] == s.index[i], tuples *= s.index[i];
  for (int i = 0; fits && i < nRest; i++) fits = ud[s.indexRank - 1 + i] == s.data[s.k + i];
  if (!fits) {
    NODE_ERROR(x->im, x->loc, x->n, "updates must have the shape indices[:-1] + data[k:]");
    return false;
  }
  MlirValue flat = ndView(x, x->in[0], s.rows, s.data + s.k, nRest);
  MlirValue upd = ndView(x, x->in[2], tuples, s.data + s.k, nRest);
  /* Each tuple's row, repeated over the rest of its update: [tuples, rest...]. */
  int64_t col[STRATA_MAX_RANK + 1], full[STRATA_MAX_RANK + 1];
  col[0] = full[0] = tuples;
  for (int i = 0; i < nRest; i++) col[i + 1] = 1, full[i + 1] = s.data[s.k + i];
  MlirValue rows = onnxBinary(x, "nn.reshape", ndRows(x, &s), onnxI64Vector(x, col, nRest + 1), NULL, 0);
  MlirValue idx = onnxBinary(x, "nn.expand", rows, onnxI64Vector(x, full, nRest + 1), NULL, 0);
  Attr attrs[2] = {{"axis", strataI64Attr(x->im->mc, 0)}};
  int nAttrs = 1;
  const Onnx__AttributeProto *ra = onnxFindAttr(x->n, "reduction");
  if (ra) attrs[nAttrs++] = (Attr){"reduction", mlirStringAttrGet(x->im->mc, mlirStringRefCreate((const char *)ra->s.data, ra->s.len))};
  MlirValue ins[3] = {flat, idx, upd};
  MlirOperation sc = mlirValueIsNull(flat) || mlirValueIsNull(idx) || mlirValueIsNull(upd)
                         ? (MlirOperation){NULL}
                         : onnxBuild(x->im, x->loc, "nn.scatter_elements", ins, 3, 1, attrs, nAttrs, onnxElemOf(x->in[0]));
  if (mlirOperationIsNull(sc)) return false;
  return onnxBindValueAt(x, 0, onnxBinary(x, "nn.reshape", strataResult(sc, 0), onnxI64Vector(x, s.data, s.dataRank), NULL, 0));
}
