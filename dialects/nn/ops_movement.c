/* Data movement: Reshape, Flatten, Squeeze, Unsqueeze, Transpose, Concat,
 * Split, Slice, Gather, GatherElements, ScatterElements, Expand, Tile, Pad,
 * Resize, DepthToSpace, SpaceToDepth -- the op table, the shape inference
 * of the ops that keep or reorder dims (the others: ops_movement_index.c),
 * and interpretation. Value operands that decide a shape (Reshape's shape,
 * Slice's starts, ...) are read when constant (movement_params.c);
 * otherwise the affected dims are '?'. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nn_movement.h"
#include "ops_movement.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* ---- Reshape ---- */

static MlirLogicalResult inferReshape(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t allowZero, shape[STRATA_MAX_RANK];
  int n;
  if (!nnOperand(def, op, "data", &x) || !nnInt1DOperand(def, op, "shape", &s) ||
      !nnAttrInt(op, "allowzero", 0, &allowZero))
    return fail();
  if (s.dims[0] == -1 || s.dims[0] > STRATA_MAX_RANK) {
    nnError(op, "operand 'shape' must have a static length <= %d", STRATA_MAX_RANK);
    return fail();
  }
  res->rank = (int)s.dims[0];
  res->elementType = x.elementType;
  if (!nnConstOperand(def, op, "shape", shape, STRATA_MAX_RANK, &n)) {
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

/* Squeeze / unsqueeze with run-time axes: the result's rank follows from
 * the axes' static count; which dims go where is known at run time only. */
static MlirLogicalResult runtimeAxesRank(const StrataOpDef *def, MlirOperation op, const StrataShape *x, int sign,
                                         StrataShape *res) {
  StrataShape a;
  if (!nnOperand(def, op, "axes", &a) || !nnCheckType(op, "axes", &a, NN_INDEX)) return fail();
  int rank = a.rank == 1 && a.dims[0] >= 0 ? x->rank + sign * (int)a.dims[0] : -1;
  if (rank < 0 || rank > STRATA_MAX_RANK) {
    nnError(op, "operand 'axes' must be 1-D with a static length that gives a rank in [0, %d]", STRATA_MAX_RANK);
    return fail();
  }
  bool ones = true;
  for (int i = 0; i < x->rank; i++) ones &= x->dims[i] == 1;
  res->rank = rank;
  res->elementType = x->elementType;
  for (int i = 0; i < rank; i++) res->dims[i] = ones ? 1 : -1;
  return ok();
}

static MlirLogicalResult inferSqueeze(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axes[STRATA_MAX_RANK];
  int n, known;
  bool drop[STRATA_MAX_RANK] = {false};
  if (!nnOperand(def, op, "data", &x) || (known = nnIntsArg(op, 1, NULL, "axes", axes, STRATA_MAX_RANK, &n)) < 0)
    return fail();
  if (!known) return runtimeAxesRank(def, op, &x, -1, res);
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
  int n, known;
  if (!nnOperand(def, op, "data", &x) || (known = nnIntsArg(op, 1, NULL, "axes", axes, STRATA_MAX_RANK, &n)) < 0)
    return fail();
  if (!known) return runtimeAxesRank(def, op, &x, 1, res);
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
      nnError(op, "'axes' repeats axis %lld", (long long)axes[i]);
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

static MlirLogicalResult inferSplit(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axis, sizes[64];
  int outputs = (int)mlirOperationGetNumResults(op);
  if (!nnOperand(def, op, "input", &x) || !nnAttrInt(op, "axis", 0, &axis) ||
      !nnNormalizeAxis(op, "axis", &axis, x.rank))
    return fail();
  if (outputs > 64 || !nnSplitSizes(op, NULL, x.dims[axis], outputs, sizes)) return fail();
  for (int i = 0; i < outputs; i++) {
    res[i] = x;
    res[i].dims[axis] = sizes[i];
  }
  return ok();
}

/* ---- Slice ---- */

static MlirLogicalResult inferSlice(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, s;
  int64_t first[STRATA_MAX_RANK], step[STRATA_MAX_RANK];
  if (!nnOperand(def, op, "data", &x) || !nnInt1DOperand(def, op, "starts", &s) || !nnInt1DOperand(def, op, "ends", &s) ||
      (nnHasOperand(def, op, "axes") && !nnInt1DOperand(def, op, "axes", &s)) ||
      (nnHasOperand(def, op, "steps") && !nnInt1DOperand(def, op, "steps", &s)))
    return fail();
  *res = x;
  return nnSliceParams(def, op, x.dims, x.rank, first, step, res->dims) ? ok() : fail();
}

/* ---- Interpretation through source indices (nn_movement.h) ---- */

static const StrataOpDef *movementDef(MlirOperation op);

static MlirLogicalResult interpGathered(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                        StrataTensor **y) {
  (void)in;
  NnSource src;
  if (!nnSourceInit(movementDef(op), op, x, y, &src)) return fail();
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
  if (!nnSplitSizes(op, mlirOperationGetNumOperands(op) > 1 ? x[1] : NULL, x[0]->dims[axis], outputs, sizes))
    return fail();
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

/* Resize: each output element blends the taps of its coordinate in every
 * dim (nnResizeTaps: 1 nearest, 2 linear, 4 cubic), the product of their
 * weights; zero weights are skipped, so an infinite element a coordinate
 * does not reach stays out. Scales and roi are the run-time values. */
static MlirLogicalResult interpResize(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  const StrataOpDef *def = movementDef(op);
  const StrataTensor *X = x[0];
  int rank = X->rank;
  NnResize r;
  intptr_t st, sz;
  if (!nnResizeAttrs(op, &r)) return fail();
  if (!y[0]) return nnInterpError(op, "the result shape must be static for the interpreter");
  double scales[STRATA_MAX_RANK], roi[2 * STRATA_MAX_RANK];
  bool hasScales = strataOperandGroup(def, op, 2, &st, &sz) && sz;
  for (int d = 0; d < rank; d++)
    scales[d] = hasScales ? strataTensorGetDouble(x[st], d) : (double)y[0]->dims[d] / (double)X->dims[d];
  bool crop = !strcmp(r.coord, "tf_crop_and_resize");
  if (crop) {
    if (!strataOperandGroup(def, op, 1, &st, &sz) || !sz || strataTensorNumElements(x[st]) != 2 * rank)
      return nnInterpError(op, "tf_crop_and_resize needs 'roi' with %d values", 2 * rank);
    for (int d = 0; d < 2 * rank; d++) roi[d] = strataTensorGetDouble(x[st], d);
  }
  /* per dim, the taps of every output index; outside[] marks extrapolation */
  int64_t total = 0, offset[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) offset[d] = total, total += y[0]->dims[d];
  NnTaps *taps = malloc(sizeof(NnTaps) * (size_t)(total ? total : 1));
  bool *outside = malloc((size_t)(total ? total : 1));
  if (!taps || !outside) {
    free(taps), free(outside);
    return nnInterpError(op, "out of memory");
  }
  for (int d = 0; d < rank; d++)
    for (int64_t o = 0; o < y[0]->dims[d]; o++) {
      double dimRoi[2] = {crop ? roi[d] : 0, crop ? roi[rank + d] : 1};
      double c = nnResizeCoord(&r, o, X->dims[d], y[0]->dims[d], scales[d], dimRoi);
      outside[offset[d] + o] = nnResizeOutside(&r, c, X->dims[d]);
      nnResizeTaps(&r, c, X->dims[d], &taps[offset[d] + o]);
    }
  int64_t idx[STRATA_MAX_RANK] = {0}, n = strataTensorNumElements(y[0]);
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, y[0]->dims, rank)) {
    const NnTaps *t[STRATA_MAX_RANK];
    bool out = false;
    int corners = 1, k[STRATA_MAX_RANK] = {0};
    for (int d = 0; d < rank; d++) {
      t[d] = &taps[offset[d] + idx[d]];
      out |= outside[offset[d] + idx[d]];
      corners *= t[d]->n;
    }
    double acc = 0;
    for (int c = 0; c < corners && !out; c++) {
      double weight = 1;
      int64_t flat = 0;
      for (int d = 0, rest = c; d < rank; d++) {
        k[d] = rest % t[d]->n, rest /= t[d]->n;
        weight *= t[d]->w[k[d]];
        flat = flat * X->dims[d] + t[d]->idx[k[d]];
      }
      if (weight != 0) acc += weight * strataTensorGetDouble(X, flat);
    }
    strataTensorSetDouble(y[0], e, out ? r.extrapolation : acc);
  }
  free(taps), free(outside);
  return ok();
}

#define ANY "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"
#define MOVE(n, sum, ins, outs, inf, run, map, dyn)                                            \
  {.name = "nn." n, .summary = sum, .operands = ins, .results = outs, .flags = STRATA_OP_PURE, \
   .infer = inf, .interpret = run, .mapping = map, .dynamism = dyn, .types = ANY}
static const StrataOpDef kOps[] = {
    MOVE("reshape", "new shape from the 1-D i64 `shape` operand (0 copies a dim unless allowzero; "
         "one -1 is inferred)", "data, shape", "reshaped", inferReshape, interpCopy, nnMapReorganize, STRATA_DYN_ISVDOS),
    MOVE("flatten", "2-D [prod(dims[:axis]), prod(dims[axis:])] (axis default 1)", "input", "output",
         inferFlatten, interpCopy, nnMapReorganize, STRATA_DYN_ISDOS),
    MOVE("squeeze", "remove size-1 dims (`axes` attribute or operand; default all size-1 dims)", "data, axes?",
         "squeezed", inferSqueeze, interpCopy, nnMapReorganize, STRATA_DYN_ISDOS),
    MOVE("unsqueeze", "insert size-1 dims at `axes` (attribute or operand, positions in the result)",
         "data, axes?", "expanded", inferUnsqueeze, interpCopy, nnMapReorganize, STRATA_DYN_ISDOS),
    MOVE("transpose", "permute dims by `perm` (default: reverse)", "data", "transposed",
         inferTranspose, interpGathered, nnMapShuffle, STRATA_DYN_ISDOS),
    MOVE("concat", "join two tensors along `axis` (ONNX's N-ary Concat is a chain of these)",
         "a, b", "concat_result", inferConcat, interpGathered, nnMapOneToOne, STRATA_DYN_ISDOS),
    MOVE("split", "split along `axis` into the results, by `split` sizes (attribute or operand) or evenly "
         "(results must share one type: uneven constant splits are slices)", "input, split?", "outputs*", inferSplit, interpSplit,
         nnMapOneToOne, STRATA_DYN_ISDOS),
    MOVE("slice", "elements start:end:step per axis (ONNX clamping, negative indices and steps)",
         "data, starts, ends, axes?, steps?", "output", inferSlice, interpGathered, nnMapOneToOne,
         STRATA_DYN_ISVDOS),
    MOVE("gather", "data indexed along `axis` by an index tensor (negative indices count from the end)",
         "data, indices", "output", nnInferGather, interpGathered, nnMapOneToMany, STRATA_DYN_ISDOS),
    MOVE("gather_elements", "data[.., indices[i], ..] elementwise along `axis`", "data, indices",
         "output", nnInferGatherElements, interpGathered, nnMapOneToMany, STRATA_DYN_ISDOS),
    MOVE("scatter_elements", "data with `updates` written at `indices` along `axis` (reduction "
         "none|add|mul|max|min)", "data, indices, updates", "output", nnInferScatterElements,
         nnInterpScatter, nnMapManyToMany, STRATA_DYN_ISDOS),
    MOVE("expand", "broadcast to the 1-D i64 `shape` operand (numpy rules, both directions)",
         "input, shape", "output", nnInferExpand, interpGathered, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("tile", "repeat the input `repeats[i]` times along each dim", "input, repeats", "output",
         nnInferTile, interpGathered, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("pad", "pad by `pads` [begin..., end...] (negative crops); mode constant|reflect|edge|wrap",
         "data, pads, constant_value?", "output", nnInferPad, interpGathered, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("resize", "resize by `scales` or `sizes`: mode nearest|linear|cubic (cubic_coeff_a, "
         "exclude_outside), every coordinate transformation mode (tf_crop_and_resize: `roi`, "
         "extrapolation_value) and nearest mode; no antialias", "x, roi?, scales?, sizes?", "y", nnInferResize,
         interpResize, nnMapOneToMany, STRATA_DYN_ISVDOS),
    MOVE("depth_to_space", "move channel blocks into HxW blocks (blocksize, mode DCR|CRD)", "input",
         "output", nnInferDepthSpace, interpGathered, nnMapShuffle, STRATA_DYN_ISDOS),
    MOVE("space_to_depth", "move HxW blocks into channels (blocksize)", "input", "output",
         nnInferDepthSpace, interpGathered, nnMapShuffle, STRATA_DYN_ISDOS),
};

const StrataOpTable nnMovementTable = {kOps, sizeof kOps / sizeof kOps[0]};

static const StrataOpDef *movementDef(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++)
    if (strlen(kOps[i].name) == name.length && !strncmp(kOps[i].name, name.data, name.length)) return &kOps[i];
  return NULL;
}
