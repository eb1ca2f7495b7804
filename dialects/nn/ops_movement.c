/* Data movement: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat,
 * Split, Slice, Gather, GatherElements, ScatterElements, Expand, Tile, Pad,
 * Resize, DepthToSpace, SpaceToDepth. Value operands that decide a shape
 * (Reshape's shape, Slice's starts, ...) are read when constant; otherwise
 * the affected dims are '?'. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nn_movement.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static bool constOperand(const StrataOpDef *def, MlirOperation op, const char *name, int64_t *out, int max, int *n) {
  *n = nnConstInts(strataNamedOperand(def, op, name), out, max);
  return *n >= 0;
}

static bool int1D(const StrataOpDef *def, MlirOperation op, const char *name, StrataShape *s) {
  if (!nnOperand(def, op, name, s) || !nnCheckType(op, name, s, NN_INDEX)) return false;
  if (s->rank != 1) {
    nnError(op, "operand '%s' must be 1-D", name);
    return false;
  }
  return true;
}

/* ---- Reshape ---- */

bool nnReshapeDims(MlirOperation op, const int64_t *in, int rank, const int64_t *shape, int n,
                   bool allowZero, int64_t *out) {
  int64_t known = 1, inferAt = -1, total;
  bool zero = false;
  for (int i = 0; i < n; i++) {
    int64_t d = shape[i];
    if (d == 0 && !allowZero) {
      if (i >= rank) {
        nnError(op, "shape value 0 at %d copies an input dim that does not exist", i);
        return false;
      }
      d = in[i];
    } else if (d == 0) {
      zero = true;
    }
    if (shape[i] == -1) { /* not a dynamic dim copied by a 0 */
      if (inferAt != -1) {
        nnError(op, "shape has more than one -1");
        return false;
      }
      inferAt = i;
    } else if (d < -1) {
      nnError(op, "shape value %lld at %d is invalid", (long long)d, i);
      return false;
    }
    out[i] = d;
  }
  /* ONNX: with allowzero a 0 is a real size, and then nothing is left to
   * infer a -1 from. */
  if (zero && inferAt != -1) {
    nnError(op, "shape has both a 0 (allowzero=1) and a -1, so the -1 cannot be inferred");
    return false;
  }
  /* -1 out[] entries are '?' (copied dynamic dims) except the inferred one. */
  for (int i = 0; i < n; i++)
    if (i != inferAt && out[i] != -1 && known != -1 && !nnDimMul(op, known, out[i], &known)) return false;
  for (int i = 0; i < n; i++)
    if (out[i] == -1 && i != inferAt) known = -1;
  if (!nnDimProduct(op, in, rank, &total)) return false;
  if (inferAt != -1) out[inferAt] = total == -1 || known <= 0 ? -1 : total / known;
  if (total != -1 && known != -1 && inferAt == -1 && total != known) {
    nnError(op, "cannot reshape %lld elements into shape with %lld elements", (long long)total, (long long)known);
    return false;
  }
  if (total != -1 && known > 0 && inferAt != -1 && total % known) {
    nnError(op, "cannot reshape %lld elements: not divisible by %lld", (long long)total, (long long)known);
    return false;
  }
  return true;
}

static MlirLogicalResult inferReshape(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t allowZero, shape[STRATA_MAX_RANK];
  int n;
  if (!nnOperand(def, op, "data", &x) || !int1D(def, op, "shape", &s) ||
      !nnAttrInt(op, "allowzero", 0, &allowZero))
    return fail();
  if (s.dims[0] == -1 || s.dims[0] > STRATA_MAX_RANK) {
    nnError(op, "operand 'shape' must have a static length <= %d", STRATA_MAX_RANK);
    return fail();
  }
  res->rank = (int)s.dims[0];
  res->elementType = x.elementType;
  if (!constOperand(def, op, "shape", shape, STRATA_MAX_RANK, &n)) {
    for (int i = 0; i < res->rank; i++) res->dims[i] = -1;
    return ok();
  }
  return nnReshapeDims(op, x.dims, x.rank, shape, n, allowZero != 0, res->dims) ? ok() : fail();
}

/* ---- Flatten / Squeeze / Unsqueeze ---- */

static MlirLogicalResult inferFlatten(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axis;
  if (!nnOperand(def, op, "input", &x) || !nnAttrInt(op, "axis", 1, &axis)) return fail();
  if (axis < -x.rank || axis > x.rank) {
    nnError(op, "axis %lld is out of range [%d, %d]", (long long)axis, -x.rank, x.rank);
    return fail();
  }
  if (axis < 0) axis += x.rank;
  int64_t out[2];
  if (!nnDimProduct(op, x.dims, (int)axis, &out[0]) ||
      !nnDimProduct(op, x.dims + axis, x.rank - (int)axis, &out[1]))
    return fail();
  nnSetShape(res, 2, out, x.elementType);
  return ok();
}

static MlirLogicalResult inferSqueeze(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axes[STRATA_MAX_RANK];
  int n;
  bool drop[STRATA_MAX_RANK] = {false};
  if (!nnOperand(def, op, "data", &x) || !nnAttrInts(op, "axes", axes, STRATA_MAX_RANK, &n)) return fail();
  if (n < 0)
    for (int i = 0; i < x.rank; i++) drop[i] = x.dims[i] == 1;
  for (int i = 0; i < n; i++) {
    if (!nnNormalizeAxis(op, "axis", &axes[i], x.rank)) return fail();
    if (x.dims[axes[i]] != 1 && x.dims[axes[i]] != -1) {
      nnError(op, "cannot squeeze axis %lld of size %lld", (long long)axes[i], (long long)x.dims[axes[i]]);
      return fail();
    }
    drop[axes[i]] = true;
  }
  res->rank = 0;
  res->elementType = x.elementType;
  for (int i = 0; i < x.rank; i++)
    if (!drop[i]) res->dims[res->rank++] = x.dims[i];
  return ok();
}

static MlirLogicalResult inferUnsqueeze(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axes[STRATA_MAX_RANK];
  int n;
  if (!nnOperand(def, op, "data", &x) || !nnAttrInts(op, "axes", axes, STRATA_MAX_RANK, &n)) return fail();
  if (n < 1) {
    nnError(op, "attribute 'axes' is required");
    return fail();
  }
  int rank = x.rank + n;
  if (rank > STRATA_MAX_RANK) {
    nnError(op, "the result would have rank %d > %d", rank, STRATA_MAX_RANK);
    return fail();
  }
  bool ins[STRATA_MAX_RANK] = {false};
  for (int i = 0; i < n; i++) {
    if (!nnNormalizeAxis(op, "axis", &axes[i], rank)) return fail();
    if (ins[axes[i]]) {
      nnError(op, "attribute 'axes' repeats axis %lld", (long long)axes[i]);
      return fail();
    }
    ins[axes[i]] = true;
  }
  res->rank = rank;
  res->elementType = x.elementType;
  for (int i = 0, j = 0; i < rank; i++) res->dims[i] = ins[i] ? 1 : x.dims[j++];
  return ok();
}

/* Pure reshapes: the data is copied in row-major order. */
static MlirLogicalResult interpCopy(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  if (!y[0]) {
    /* Reshape with a computed shape: the shape operand's values decide. */
    int64_t dims[STRATA_MAX_RANK], allowZero = 0;
    int n = (int)x[1]->dims[0];
    for (int i = 0; i < n; i++) dims[i] = nnGetInt(x[1], i);
    nnAttrInt(op, "allowzero", 0, &allowZero);
    int64_t out[STRATA_MAX_RANK];
    if (!nnReshapeDims(op, x[0]->dims, x[0]->rank, dims, n, allowZero != 0, out)) return fail();
    y[0] = strataTensorCreate(x[0]->dtype, n, out);
    if (!y[0]) return nnInterpError(op, "cannot allocate the result");
  }
  if (strataTensorNumElements(y[0]) != strataTensorNumElements(x[0]))
    return nnInterpError(op, "element counts differ (%lld vs %lld)", (long long)strataTensorNumElements(x[0]),
                         (long long)strataTensorNumElements(y[0]));
  memcpy(y[0]->data, x[0]->data, strataTensorNumBytes(x[0]));
  return ok();
}

/* ---- Transpose ---- */

bool nnTransposePerm(MlirOperation op, int rank, int64_t *perm) {
  int n;
  if (!nnAttrInts(op, "perm", perm, STRATA_MAX_RANK, &n)) return false;
  if (n < 0) {
    for (int i = 0; i < rank; i++) perm[i] = rank - 1 - i;
    return true;
  }
  bool seen[STRATA_MAX_RANK] = {false};
  if (n != rank) {
    nnError(op, "attribute 'perm' has %d values for rank %d", n, rank);
    return false;
  }
  for (int i = 0; i < n; i++) {
    if (perm[i] < 0 || perm[i] >= rank || seen[perm[i]]) {
      nnError(op, "attribute 'perm' is not a permutation of 0..%d", rank - 1);
      return false;
    }
    seen[perm[i]] = true;
  }
  return true;
}

static MlirLogicalResult inferTranspose(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t perm[STRATA_MAX_RANK];
  if (!nnOperand(def, op, "data", &x) || !nnTransposePerm(op, x.rank, perm)) return fail();
  *res = x;
  for (int i = 0; i < x.rank; i++) res->dims[i] = x.dims[perm[i]];
  return ok();
}

/* ---- Concat (binary) ---- */

static MlirLogicalResult inferConcat(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape a, b;
  int64_t axis;
  if (!nnOperand(def, op, "a", &a) || !nnOperand(def, op, "b", &b) || !nnSameType(op, "a", &a, "b", &b) ||
      !nnAttrInt(op, "axis", 0, &axis))
    return fail();
  if (a.rank == 0) { /* ONNX Concat: rank >= 1 */
    char da[300];
    nnError(op, "%s is a scalar; concat needs rank >= 1", nnDescribe("a", &a, da, sizeof da));
    return fail();
  }
  if (!nnNormalizeAxis(op, "axis", &axis, a.rank)) return fail();
  bool fits = a.rank == b.rank;
  for (int i = 0; fits && i < a.rank; i++)
    fits = i == axis || a.dims[i] == b.dims[i] || a.dims[i] == -1 || b.dims[i] == -1;
  if (!fits) {
    char da[300], db[300];
    nnError(op, "%s and %s must agree on every dim but axis %lld", nnDescribe("a", &a, da, sizeof da),
            nnDescribe("b", &b, db, sizeof db), (long long)axis);
    return fail();
  }
  *res = a;
  if (a.dims[axis] == -1 || b.dims[axis] == -1) res->dims[axis] = -1;
  else if (!nnDimAdd(op, a.dims[axis], b.dims[axis], &res->dims[axis])) return fail();
  for (int i = 0; i < a.rank; i++)
    if (res->dims[i] == -1 && i != axis) res->dims[i] = b.dims[i];
  return ok();
}

/* ---- Split ---- */

bool nnSplitSizes(MlirOperation op, int64_t dim, int outputs, int64_t *sizes) {
  int n;
  if (!nnAttrInts(op, "split", sizes, 64, &n)) return false;
  if (outputs < 1) {
    nnError(op, "needs at least one result");
    return false;
  }
  if (n >= 0) {
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
      if (sizes[i] < 0) {
        nnError(op, "attribute 'split' has a negative size %lld", (long long)sizes[i]);
        return false;
      }
      if (!nnDimAdd(op, sum, sizes[i], &sum)) return false;
    }
    if (n != outputs || (dim != -1 && sum != dim)) {
      nnError(op, "attribute 'split' has %d sizes summing to %lld; expected %d sizes summing to %lld",
              n, (long long)sum, outputs, (long long)dim);
      return false;
    }
    return true;
  }
  /* Chunks of ceil(dim / outputs), the last ones smaller (written so that
   * nothing overflows for any dim). */
  int64_t chunk = dim == -1 ? -1 : dim / outputs + (dim % outputs != 0), start = 0;
  for (int i = 0; i < outputs; i++) {
    sizes[i] = chunk == -1 ? -1 : dim - start < chunk ? dim - start : chunk;
    if (chunk != -1) start += sizes[i];
  }
  return true;
}

static MlirLogicalResult inferSplit(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axis, sizes[64];
  int outputs = (int)mlirOperationGetNumResults(op);
  if (!nnOperand(def, op, "input", &x) || !nnAttrInt(op, "axis", 0, &axis) ||
      !nnNormalizeAxis(op, "axis", &axis, x.rank))
    return fail();
  if (outputs > 64 || !nnSplitSizes(op, x.dims[axis], outputs, sizes)) return fail();
  for (int i = 0; i < outputs; i++) {
    res[i] = x;
    res[i].dims[axis] = sizes[i];
  }
  return ok();
}

/* ---- Slice ---- */

/* Resolves ONNX slice parameters for one axis of size `dim` into start,
 * step and count (clamping as the spec says). Starts, ends and steps are
 * often INT64_MIN/MAX ("to the end"), so the counts are computed without
 * ever forming end - start + step. */
void nnSliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t *first, int64_t *count) {
  if (start < 0) start += dim;
  if (end < 0) end += dim;
  if (step > 0) {
    start = start < 0 ? 0 : start > dim ? dim : start;
    end = end < 0 ? 0 : end > dim ? dim : end;
    *count = end > start ? (end - start - 1) / step + 1 : 0;
  } else {
    start = start < 0 ? 0 : start > dim - 1 ? dim - 1 : start;
    end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
    *count = start > end ? 1 - (start - end - 1) / step : 0; /* step < 0 */
  }
  *first = start;
}

/* Per-axis (first, step, count) of a slice; false after an error. Values
 * not known (non-constant operands) leave count = -1. */
bool nnSliceParams(const StrataOpDef *def, MlirOperation op, const int64_t *dims, int rank,
                   int64_t *first, int64_t *step, int64_t *count) {
  int64_t starts[STRATA_MAX_RANK], ends[STRATA_MAX_RANK], axes[STRATA_MAX_RANK], steps[STRATA_MAX_RANK];
  int ns, ne, na = -1, nt = -1;
  for (int i = 0; i < rank; i++) first[i] = 0, step[i] = 1, count[i] = dims[i];
  bool known = constOperand(def, op, "starts", starts, STRATA_MAX_RANK, &ns) &&
               constOperand(def, op, "ends", ends, STRATA_MAX_RANK, &ne) &&
               (!nnHasOperand(def, op, "axes") || constOperand(def, op, "axes", axes, STRATA_MAX_RANK, &na)) &&
               (!nnHasOperand(def, op, "steps") || constOperand(def, op, "steps", steps, STRATA_MAX_RANK, &nt));
  if (!known) {
    for (int i = 0; i < rank; i++) count[i] = -1;
    return true;
  }
  if (ne != ns || (na >= 0 && na != ns) || (nt >= 0 && nt != ns)) {
    nnError(op, "operands 'starts', 'ends', 'axes' and 'steps' must have the same length");
    return false;
  }
  bool seen[STRATA_MAX_RANK] = {false};
  for (int i = 0; i < ns; i++) {
    int64_t axis = na >= 0 ? axes[i] : i, st = nt >= 0 ? steps[i] : 1;
    if (!nnNormalizeAxis(op, "axis", &axis, rank)) return false;
    if (seen[axis]) {
      nnError(op, "operand 'axes' repeats axis %lld", (long long)axis);
      return false;
    }
    seen[axis] = true;
    if (st == 0) {
      nnError(op, "operand 'steps' has a zero step");
      return false;
    }
    step[axis] = st;
    if (dims[axis] == -1) count[axis] = -1;
    else nnSliceAxis(dims[axis], starts[i], ends[i], st, &first[axis], &count[axis]);
  }
  return true;
}

static MlirLogicalResult inferSlice(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t first[STRATA_MAX_RANK], step[STRATA_MAX_RANK];
  if (!nnOperand(def, op, "data", &x) || !int1D(def, op, "starts", &s) || !int1D(def, op, "ends", &s) ||
      (nnHasOperand(def, op, "axes") && !int1D(def, op, "axes", &s)) ||
      (nnHasOperand(def, op, "steps") && !int1D(def, op, "steps", &s)))
    return fail();
  *res = x;
  return nnSliceParams(def, op, x.dims, x.rank, first, step, res->dims) ? ok() : fail();
}

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

static MlirLogicalResult inferGather(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
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

static MlirLogicalResult inferGatherElements(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, idx;
  int64_t axis;
  if (!gatherOperands(def, op, &x, &idx, &axis)) return fail();
  if (idx.rank != x.rank) {
    char dx[300], di[300];
    nnError(op, "%s must have the rank of %s", nnDescribe("indices", &idx, di, sizeof di), nnDescribe("data", &x, dx, sizeof dx));
    return fail();
  }
  *res = idx;
  res->elementType = x.elementType;
  return ok();
}

static MlirLogicalResult inferScatterElements(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
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
  *res = x;
  return ok();
}

/* ---- Expand / Tile ---- */

static MlirLogicalResult inferExpand(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t shape[STRATA_MAX_RANK];
  int n, bad;
  if (!nnOperand(def, op, "input", &x) || !int1D(def, op, "shape", &s)) return fail();
  if (s.dims[0] == -1 || s.dims[0] > STRATA_MAX_RANK) {
    nnError(op, "operand 'shape' must have a static length <= %d", STRATA_MAX_RANK);
    return fail();
  }
  if (!constOperand(def, op, "shape", shape, STRATA_MAX_RANK, &n))
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

static MlirLogicalResult inferTile(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, r;
  int64_t reps[STRATA_MAX_RANK];
  int n;
  if (!nnOperand(def, op, "input", &x) || !int1D(def, op, "repeats", &r)) return fail();
  if (r.dims[0] != -1 && r.dims[0] != x.rank) {
    nnError(op, "operand 'repeats' has %lld values for rank %d", (long long)r.dims[0], x.rank);
    return fail();
  }
  *res = x;
  bool known = constOperand(def, op, "repeats", reps, STRATA_MAX_RANK, &n);
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

static MlirLogicalResult inferPad(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, p, c;
  int64_t pads[2 * STRATA_MAX_RANK];
  int n;
  char mode[16];
  if (!nnOperand(def, op, "data", &x) || !int1D(def, op, "pads", &p) ||
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
  bool known = constOperand(def, op, "pads", pads, 2 * STRATA_MAX_RANK, &n);
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

bool nnResizeAttrs(MlirOperation op, NnResize *r) {
  int64_t antialias, exclude;
  char policy[24];
  if (!nnAttrString(op, "mode", "nearest", "nearest|linear", r->mode, sizeof r->mode) ||
      !nnAttrString(op, "coordinate_transformation_mode", "half_pixel",
                    "half_pixel|half_pixel_symmetric|pytorch_half_pixel|align_corners|asymmetric",
                    r->coord, sizeof r->coord) ||
      !nnAttrString(op, "nearest_mode", "round_prefer_floor", "round_prefer_floor|round_prefer_ceil|floor|ceil",
                    r->nearest, sizeof r->nearest) ||
      !nnAttrInt(op, "antialias", 0, &antialias) || !nnAttrInt(op, "exclude_outside", 0, &exclude) ||
      !nnAttrString(op, "keep_aspect_ratio_policy", "stretch", "stretch", policy, sizeof policy))
    return false;
  if (antialias || exclude) {
    nnError(op, "antialias and exclude_outside are not supported");
    return false;
  }
  return true;
}

static MlirLogicalResult inferResize(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  NnResize r;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_FLOAT) || !nnResizeAttrs(op, &r))
    return fail();
  bool hasScales = nnHasOperand(def, op, "scales"), hasSizes = nnHasOperand(def, op, "sizes");
  if (hasScales == hasSizes) {
    nnError(op, "exactly one of operands 'scales' and 'sizes' must be given");
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

static MlirLogicalResult inferDepthSpace(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
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

/* ---- Interpretation through source indices (nn_movement.h) ---- */

static MlirLogicalResult interpGathered(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                        StrataTensor **y) {
  (void)in;
  NnSource src;
  if (!nnSourceInit(op, x, y, &src)) return fail();
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(y[0]);
  bool isFloat = nnIsFloatDType(y[0]->dtype);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, y[0]->dims, y[0]->rank)) {
    const StrataTensor *from;
    int64_t at;
    NnSourceKind k = nnSourceOf(&src, idx, &from, &at);
    if (k == NN_SOURCE_ERROR) return fail();
    if (k == NN_SOURCE_PAD) {
      if (isFloat) strataTensorSetDouble(y[0], e, src.padValue);
      else nnSetInt(y[0], e, strataDoubleToInt64Saturated(src.padValue));
    } else if (isFloat) {
      strataTensorSetDouble(y[0], e, strataTensorGetDouble(from, at));
    } else {
      nnSetInt(y[0], e, nnGetInt(from, at));
    }
  }
  return ok();
}

static MlirLogicalResult interpSplit(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                     StrataTensor **y) {
  (void)in;
  int64_t axis, sizes[64], outer = 1, inner = 1;
  int outputs = (int)mlirOperationGetNumResults(op);
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  if (!nnSplitSizes(op, x[0]->dims[axis], outputs, sizes)) return fail();
  for (int d = 0; d < axis; d++) outer *= x[0]->dims[d];
  for (int d = (int)axis + 1; d < x[0]->rank; d++) inner *= x[0]->dims[d];
  size_t es = strataDTypeSize(x[0]->dtype);
  int64_t offset = 0, len = x[0]->dims[axis];
  for (int k = 0; k < outputs; k++) {
    for (int64_t o = 0; o < outer; o++)
      memcpy((char *)y[k]->data + (size_t)(o * sizes[k] * inner) * es,
             (char *)x[0]->data + (size_t)((o * len + offset) * inner) * es, (size_t)(sizes[k] * inner) * es);
    offset += sizes[k];
  }
  return ok();
}

static MlirLogicalResult interpScatter(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  int64_t axis;
  char red[8];
  nnAttrInt(op, "axis", 0, &axis);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  nnAttrString(op, "reduction", "none", NULL, red, sizeof red);
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

/* Resize: nearest copies one element; linear blends the 2^k neighbours of
 * the source coordinate (edge-clamped) in the k dims that change size. */
static MlirLogicalResult interpResize(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  NnSource src;
  if (!nnSourceInit(op, x, y, &src)) return fail();
  if (strcmp(src.resize.mode, "linear") != 0) return interpGathered(in, op, x, y);
  const StrataTensor *X = x[0];
  int rank = X->rank;
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(y[0]);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, y[0]->dims, rank)) {
    int64_t lo[STRATA_MAX_RANK], hi[STRATA_MAX_RANK];
    double w[STRATA_MAX_RANK];
    for (int d = 0; d < rank; d++) {
      bool same = X->dims[d] == y[0]->dims[d] && src.scales[d] == 1.0;
      double c = same ? (double)idx[d] : nnResizeCoord(&src.resize, idx[d], X->dims[d], y[0]->dims[d], src.scales[d]);
      double f = floor(c);
      int64_t i = strataDoubleToInt64Saturated(f);
      w[d] = c - f;
      lo[d] = i < 0 ? 0 : i >= X->dims[d] ? X->dims[d] - 1 : i;
      hi[d] = i < 0 ? 0 : i >= X->dims[d] - 1 ? X->dims[d] - 1 : i + 1;
    }
    double acc = 0;
    for (int corner = 0; corner < (1 << rank); corner++) {
      double weight = 1;
      int64_t flat = 0;
      for (int d = 0; d < rank; d++) {
        bool up = (corner >> d) & 1;
        weight *= up ? w[d] : 1 - w[d];
        flat = flat * X->dims[d] + (up ? hi[d] : lo[d]);
      }
      if (weight != 0) acc += weight * strataTensorGetDouble(X, flat);
    }
    strataTensorSetDouble(y[0], e, acc);
  }
  return ok();
}

#define ANY "f16 f32 f64 i1 i8 ui8 i32 i64"
#define MOVE(n, summary, operands, results, infer, interp, map, dyn)                           \
  {"nn." n, summary, operands, results, STRATA_OP_PURE, infer, interp, map, dyn, NULL, ANY}
static const StrataOpDef kOps[] = {
    MOVE("reshape", "new shape from the 1-D i64 `shape` operand (0 copies a dim unless allowzero; "
         "one -1 is inferred)", "data, shape", "reshaped", inferReshape, interpCopy, nnMapReorganize, STRATA_DYN_ISVDOS),
    MOVE("flatten", "2-D [prod(dims[:axis]), prod(dims[axis:])] (axis default 1)", "input", "output",
         inferFlatten, interpCopy, nnMapReorganize, STRATA_DYN_ISDOS),
    MOVE("squeeze", "remove size-1 dims (`axes` attribute; default all size-1 dims)", "data",
         "squeezed", inferSqueeze, interpCopy, nnMapReorganize, STRATA_DYN_ISDOS),
    MOVE("unsqueeze", "insert size-1 dims at `axes` (attribute, positions in the result)", "data",
         "expanded", inferUnsqueeze, interpCopy, nnMapReorganize, STRATA_DYN_ISDOS),
    MOVE("transpose", "permute dims by `perm` (default: reverse)", "data", "transposed",
         inferTranspose, interpGathered, nnMapShuffle, STRATA_DYN_ISDOS),
    MOVE("concat", "join two tensors along `axis` (ONNX's N-ary Concat is a chain of these)",
         "a, b", "concat_result", inferConcat, interpGathered, nnMapOneToOne, STRATA_DYN_ISDOS),
    MOVE("split", "split along `axis` into the results, by `split` sizes or evenly (results must "
         "share one type: uneven splits are slices)", "input", "outputs*", inferSplit, interpSplit,
         nnMapOneToOne, STRATA_DYN_ISDOS),
    MOVE("slice", "elements start:end:step per axis (ONNX clamping, negative indices and steps)",
         "data, starts, ends, axes?, steps?", "output", inferSlice, interpGathered, nnMapOneToOne,
         STRATA_DYN_ISVDOS),
    MOVE("gather", "data indexed along `axis` by an index tensor (negative indices count from the end)",
         "data, indices", "output", inferGather, interpGathered, nnMapOneToMany, STRATA_DYN_ISDOS),
    MOVE("gather_elements", "data[.., indices[i], ..] elementwise along `axis`", "data, indices",
         "output", inferGatherElements, interpGathered, nnMapOneToMany, STRATA_DYN_ISDOS),
    MOVE("scatter_elements", "data with `updates` written at `indices` along `axis` (reduction "
         "none|add|mul|max|min)", "data, indices, updates", "output", inferScatterElements,
         interpScatter, nnMapManyToMany, STRATA_DYN_ISDOS),
    MOVE("expand", "broadcast to the 1-D i64 `shape` operand (numpy rules, both directions)",
         "input, shape", "output", inferExpand, interpGathered, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("tile", "repeat the input `repeats[i]` times along each dim", "input, repeats", "output",
         inferTile, interpGathered, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("pad", "pad by `pads` [begin..., end...] (negative crops); mode constant|reflect|edge|wrap",
         "data, pads, constant_value?", "output", inferPad, interpGathered, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("resize", "resize by `scales` or `sizes`: mode nearest|linear, the common coordinate "
         "transformation modes and nearest modes", "x, roi?, scales?, sizes?", "y", inferResize,
         interpResize, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("depth_to_space", "move channel blocks into HxW blocks (blocksize, mode DCR|CRD)", "input",
         "output", inferDepthSpace, interpGathered, nnMapShuffle, STRATA_DYN_ISDOS),
    MOVE("space_to_depth", "move HxW blocks into channels (blocksize)", "input", "output",
         inferDepthSpace, interpGathered, nnMapShuffle, STRATA_DYN_ISDOS),
};

const StrataOpTable nnMovementTable = {kOps, sizeof kOps / sizeof kOps[0]};
