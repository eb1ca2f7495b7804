/* Shape inference of the data-movement ops that gather, scatter,
 * broadcast, repeat, pad, resize or move blocks of elements (and
 * ScatterElements' interpretation); the op table that names them, and the
 * other movement ops, are in ops_movement.c. */
#include <math.h>
#include <string.h>
#include "nn_movement_params.h"
#include "ops_movement.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* ---- Gather / GatherElements / ScatterElements ---- */

/* Any index into an empty axis is out of range: refuse it statically, since
 * compiled code cannot report it at run time. */
static bool indexableAxis(MlirOperation op, const StrataShape *x, int64_t axis, const StrataShape *idx) {
  int64_t n;
  if (!nnDimProduct(op, idx->dims, idx->rank, &n)) return false;
  if (x->dims[axis] == 0 && n != 0) {
    nnError(op, "axis %lld of operand 'data' is empty, so no index can be in range", (long long)axis);
    return false;
  }
  return true;
}

/* Gather and GatherElements: data, integer indices and an in-range, normalized axis. */
static bool gatherOperands(const StrataOpDef *def, MlirOperation op, StrataShape *x, StrataShape *idx,
                           int64_t *axis) {
  return nnOperand(def, op, "data", x) && nnOperand(def, op, "indices", idx) &&
         nnCheckType(op, "indices", idx, NN_INDEX) && nnAttrInt(op, "axis", 0, axis) &&
         nnNormalizeAxis(op, "axis", axis, x->rank) && indexableAxis(op, x, *axis, idx);
}

/* GatherElements and ScatterElements read and write data at the indices'
 * positions off the axis: each extent of indices there must fit data's. */
static bool withinData(MlirOperation op, const StrataShape *x, int64_t axis, const StrataShape *idx) {
  for (int d = 0; d < idx->rank && d < x->rank; d++)
    if (d != axis && idx->dims[d] >= 0 && x->dims[d] >= 0 && idx->dims[d] > x->dims[d]) {
      nnError(op, "dim %d of operand 'indices' is %lld, more than the %lld of operand 'data' (only the axis %lld "
              "may differ)", d, (long long)idx->dims[d], (long long)x->dims[d], (long long)axis);
      return false;
    }
  return true;
}

MlirLogicalResult nnInferGather(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, idx;
  int64_t axis;
  if (!gatherOperands(def, op, &x, &idx, &axis)) return fail();
  int rank = x.rank - 1 + idx.rank;
  if (rank > STRATA_MAX_RANK) {
    nnError(op, "the result would have rank %d > %d", rank, STRATA_MAX_RANK);
    return fail();
  }
  res->rank = 0;
  res->elementType = x.elementType;
  for (int i = 0; i < axis; i++) res->dims[res->rank++] = x.dims[i];
  for (int i = 0; i < idx.rank; i++) res->dims[res->rank++] = idx.dims[i];
  for (int i = (int)axis + 1; i < x.rank; i++) res->dims[res->rank++] = x.dims[i];
  return ok();
}

MlirLogicalResult nnInferGatherElements(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, idx;
  int64_t axis;
  if (!gatherOperands(def, op, &x, &idx, &axis)) return fail();
  if (idx.rank != x.rank) {
    char dx[300], di[300];
    nnError(op, "%s must have the rank of %s", nnDescribe("indices", &idx, di, sizeof di), nnDescribe("data", &x, dx, sizeof dx));
    return fail();
  }
  if (!withinData(op, &x, axis, &idx)) return fail();
  *res = idx;
  res->elementType = x.elementType;
  return ok();
}

MlirLogicalResult nnInferScatterElements(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, idx, u;
  int64_t axis;
  char red[8];
  if (!nnOperand(def, op, "data", &x) || !nnOperand(def, op, "indices", &idx) ||
      !nnOperand(def, op, "updates", &u) || !nnCheckType(op, "indices", &idx, NN_INDEX) ||
      !nnSameType(op, "data", &x, "updates", &u) || !nnAttrInt(op, "axis", 0, &axis) ||
      !nnNormalizeAxis(op, "axis", &axis, x.rank) ||
      !nnAttrString(op, "reduction", "none", "none|add|mul|max|min", red, sizeof red) ||
      !indexableAxis(op, &x, axis, &idx))
    return fail();
  bool same = idx.rank == x.rank && u.rank == idx.rank;
  for (int i = 0; same && i < idx.rank; i++) same = idx.dims[i] == u.dims[i];
  if (!same) {
    char di[300], du[300];
    nnError(op, "%s and %s must have the same shape, of data's rank", nnDescribe("indices", &idx, di, sizeof di),
            nnDescribe("updates", &u, du, sizeof du));
    return fail();
  }
  if (!withinData(op, &x, axis, &idx)) return fail();
  *res = x;
  return ok();
}

/* ---- Expand / Tile ---- */

MlirLogicalResult nnInferExpand(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t shape[STRATA_MAX_RANK];
  int n, bad;
  if (!nnOperand(def, op, "input", &x) || !nnInt1DOperand(def, op, "shape", &s)) return fail();
  if (s.dims[0] == -1 || s.dims[0] > STRATA_MAX_RANK) {
    nnError(op, "operand 'shape' must have a static length <= %d", STRATA_MAX_RANK);
    return fail();
  }
  if (!nnConstOperand(def, op, "shape", shape, STRATA_MAX_RANK, &n))
    for (n = 0; n < s.dims[0]; n++) shape[n] = -1;
  else
    for (int i = 0; i < n; i++)
      if (shape[i] < 0) {
        nnError(op, "operand 'shape' has a negative size %lld at %d", (long long)shape[i], i);
        return fail();
      }
  if (!nn_infer_broadcast_shape(x.dims, x.rank, shape, n, res->dims, &res->rank, &bad)) {
    char dx[300];
    nnError(op, "%s does not broadcast with the shape operand at output dimension %d",
            nnDescribe("input", &x, dx, sizeof dx), bad);
    return fail();
  }
  res->elementType = x.elementType;
  return ok();
}

MlirLogicalResult nnInferTile(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, r;
  int64_t reps[STRATA_MAX_RANK];
  int n;
  if (!nnOperand(def, op, "input", &x) || !nnInt1DOperand(def, op, "repeats", &r)) return fail();
  if (r.dims[0] != -1 && r.dims[0] != x.rank) {
    nnError(op, "operand 'repeats' has %lld values for rank %d", (long long)r.dims[0], x.rank);
    return fail();
  }
  *res = x;
  bool known = nnConstOperand(def, op, "repeats", reps, STRATA_MAX_RANK, &n);
  for (int i = 0; i < x.rank; i++) {
    if (known && reps[i] < 0) {
      nnError(op, "operand 'repeats' has a negative value");
      return fail();
    }
    if (!known || x.dims[i] == -1) res->dims[i] = -1;
    else if (!nnDimMul(op, x.dims[i], reps[i], &res->dims[i])) return fail();
  }
  return ok();
}

/* ---- Pad ---- */

MlirLogicalResult nnInferPad(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, p, c;
  int64_t pads[2 * STRATA_MAX_RANK];
  int n;
  char mode[16];
  if (!nnOperand(def, op, "data", &x) || !nnInt1DOperand(def, op, "pads", &p) ||
      !nnAttrString(op, "mode", "constant", "constant|reflect|edge|wrap", mode, sizeof mode))
    return fail();
  if (nnHasOperand(def, op, "constant_value") &&
      (!nnOperand(def, op, "constant_value", &c) || !nnSameType(op, "data", &x, "constant_value", &c)))
    return fail();
  if (p.dims[0] != -1 && p.dims[0] != 2 * x.rank) {
    nnError(op, "operand 'pads' has %lld values; expected %d (begin and end per dim)", (long long)p.dims[0], 2 * x.rank);
    return fail();
  }
  *res = x;
  bool known = nnConstOperand(def, op, "pads", pads, 2 * STRATA_MAX_RANK, &n);
  for (int i = 0; i < x.rank; i++) {
    if (!known || x.dims[i] == -1) {
      res->dims[i] = -1;
      continue;
    }
    if (!nnDimAdd(op, x.dims[i], pads[i], &res->dims[i]) ||
        !nnDimAdd(op, res->dims[i], pads[x.rank + i], &res->dims[i]))
      return fail();
    if (res->dims[i] < 0) {
      nnError(op, "pads remove more than dim %d's %lld elements", i, (long long)x.dims[i]);
      return fail();
    }
    if (strcmp(mode, "constant") != 0 && x.dims[i] == 0 && (pads[i] > 0 || pads[x.rank + i] > 0)) {
      nnError(op, "%s padding of dim %d needs elements to copy, but the dim is empty", mode, i);
      return fail();
    }
    if (!strcmp(mode, "reflect") && (pads[i] >= x.dims[i] || pads[x.rank + i] >= x.dims[i])) {
      nnError(op, "reflect padding of dim %d must be smaller than its size %lld", i, (long long)x.dims[i]);
      return fail();
    }
  }
  return ok();
}

/* ---- Resize ---- */

MlirLogicalResult nnInferResize(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  NnResize r;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_FLOAT) || !nnResizeAttrs(op, &r))
    return fail();
  bool hasScales = nnHasOperand(def, op, "scales"), hasSizes = nnHasOperand(def, op, "sizes");
  if (hasScales == hasSizes) {
    nnError(op, "exactly one of operands 'scales' and 'sizes' must be given");
    return fail();
  }
  if (nnHasOperand(def, op, "roi")) {
    if (!nnOperand(def, op, "roi", &s) || !nnCheckType(op, "roi", &s, NN_FLOAT)) return fail();
    if (s.rank != 1 || (s.dims[0] != -1 && s.dims[0] != 2 * x.rank)) {
      nnError(op, "operand 'roi' must be 1-D with a start and an end per dim (%d values)", 2 * x.rank);
      return fail();
    }
  } else if (!strcmp(r.coord, "tf_crop_and_resize")) {
    nnError(op, "coordinate_transformation_mode tf_crop_and_resize needs the 'roi' operand");
    return fail();
  }
  const char *which = hasScales ? "scales" : "sizes";
  if (!nnOperand(def, op, which, &s) ||
      !nnCheckType(op, which, &s, hasScales ? NN_T(STRATA_DTYPE_F32) : NN_T(STRATA_DTYPE_I64)))
    return fail();
  if (s.rank != 1 || (s.dims[0] != -1 && s.dims[0] != x.rank)) {
    nnError(op, "operand '%s' must be 1-D with one value per dim (%d)", which, x.rank);
    return fail();
  }
  *res = x;
  double scales[STRATA_MAX_RANK];
  int64_t sizes[STRATA_MAX_RANK];
  bool known = hasScales ? nnConstDoubles(strataNamedOperand(def, op, "scales"), scales, STRATA_MAX_RANK) == x.rank
                         : nnConstInts(strataNamedOperand(def, op, "sizes"), sizes, STRATA_MAX_RANK) == x.rank;
  for (int i = 0; i < x.rank; i++) {
    if (!known || x.dims[i] == -1) res->dims[i] = -1;
    else if (hasScales) {
      if (!(scales[i] > 0)) {
        nnError(op, "scale %g of dim %d must be positive", scales[i], i);
        return fail();
      }
      double size = floor((double)x.dims[i] * scales[i]);
      if (!strataDoubleToInt64(size, &res->dims[i])) {
        nnError(op, "shape is too large: dim %d of size %lld scaled by %g does not fit int64", i,
                (long long)x.dims[i], scales[i]);
        return fail();
      }
    } else if (sizes[i] < 0) {
      nnError(op, "operand 'sizes' has a negative size %lld for dim %d", (long long)sizes[i], i);
      return fail();
    } else res->dims[i] = sizes[i];
  }
  return ok();
}

/* ---- DepthToSpace / SpaceToDepth ---- */

MlirLogicalResult nnInferDepthSpace(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t b;
  char mode[8];
  bool toSpace = !strcmp(def->name, "nn.depth_to_space");
  if (!nnOperand(def, op, "input", &x) || !nnAttrInt(op, "blocksize", 0, &b) ||
      !nnAttrString(op, "mode", "DCR", "DCR|CRD", mode, sizeof mode))
    return fail();
  if (x.rank != 4 || b < 1) {
    nnError(op, "needs a rank-4 NCHW input and a positive 'blocksize'");
    return fail();
  }
  *res = x;
  int64_t bb;
  if (!nnDimMul(op, b, b, &bb)) return fail();
  if (toSpace) {
    if (x.dims[1] != -1 && x.dims[1] % bb) {
      nnError(op, "channels (%lld) are not divisible by blocksize^2 = %lld", (long long)x.dims[1], (long long)bb);
      return fail();
    }
    res->dims[1] = x.dims[1] == -1 ? -1 : x.dims[1] / bb;
    for (int i = 2; i < 4; i++)
      if (x.dims[i] != -1 && !nnDimMul(op, x.dims[i], b, &res->dims[i])) return fail();
  } else {
    for (int i = 2; i < 4; i++)
      if (x.dims[i] != -1 && x.dims[i] % b) {
        nnError(op, "spatial dim %d (%lld) is not divisible by blocksize %lld", i, (long long)x.dims[i], (long long)b);
        return fail();
      }
    if (x.dims[1] != -1 && !nnDimMul(op, x.dims[1], bb, &res->dims[1])) return fail();
    res->dims[2] = x.dims[2] == -1 ? -1 : x.dims[2] / b;
    res->dims[3] = x.dims[3] == -1 ? -1 : x.dims[3] / b;
  }
  return ok();
}

/* ---- Interpretation ---- */

MlirLogicalResult nnInterpScatter(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  int64_t axis;
  char red[8];
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  nnAttrString(op, "reduction", "none", NULL, red, sizeof red);
  for (int d = 0; d < x[1]->rank; d++) /* dims the types left open */
    if (d != axis && x[1]->dims[d] > x[0]->dims[d])
      return nnInterpError(op, "dim %d of operand 'indices' is %lld, more than the %lld of operand 'data'", d,
                           (long long)x[1]->dims[d], (long long)x[0]->dims[d]);
  memcpy(y[0]->data, x[0]->data, strataTensorNumBytes(x[0]));
  int64_t strides[STRATA_MAX_RANK], idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(x[1]);
  nnStrides(y[0], strides);
  bool isFloat = nnIsFloatDType(y[0]->dtype);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, x[1]->dims, x[1]->rank)) {
    int64_t t = nnGetInt(x[1], e), dim = y[0]->dims[axis];
    if (t < -dim || t >= dim)
      return nnInterpError(op, "index %lld is out of range for axis %lld of size %lld", (long long)t,
                           (long long)axis, (long long)dim);
    if (t < 0) t += dim;
    int64_t flat = 0;
    for (int d = 0; d < y[0]->rank; d++) flat += (d == axis ? t : idx[d]) * strides[d];
    double u = strataTensorGetDouble(x[2], e), cur = strataTensorGetDouble(y[0], flat), v = u;
    if (!strcmp(red, "add")) v = cur + u;
    else if (!strcmp(red, "mul")) v = cur * u;
    else if (!strcmp(red, "max")) v = fmax(cur, u);
    else if (!strcmp(red, "min")) v = fmin(cur, u);
    if (isFloat) strataTensorSetDouble(y[0], flat, v); else nnSetInt(y[0], flat, strataDoubleToInt64Saturated(v));
  }
  return ok();
}
