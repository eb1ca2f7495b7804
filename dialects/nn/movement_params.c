/* Parameter readers of the data-movement ops -- shape-deciding operands
 * and attributes, checked as ONNX says -- and the resize coordinate math.
 * Shape inference (ops_movement*.c), the interpreter's source indices
 * (nn_movement.c) and the lowering (conversions/nn-to-linalg) share them,
 * so all three agree. */
#include <math.h>
#include <string.h>
#include "nn_movement_params.h"

bool nnConstOperand(const StrataOpDef *def, MlirOperation op, const char *name, int64_t *out, int max, int *n) {
  *n = nnConstInts(strataNamedOperand(def, op, name), out, max);
  return *n >= 0;
}

bool nnInt1DOperand(const StrataOpDef *def, MlirOperation op, const char *name, StrataShape *s) {
  if (!nnOperand(def, op, name, s) || !nnCheckType(op, name, s, NN_INDEX)) return false;
  if (s->rank != 1) {
    nnError(op, "operand '%s' must be 1-D", name);
    return false;
  }
  return true;
}

/* ---- Reshape, Transpose, Split ---- */

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

bool nnSplitSizes(MlirOperation op, const StrataTensor *value, int64_t dim, int outputs, int64_t *sizes) {
  int n, known = nnIntsArg(op, 1, value, "split", sizes, 64, &n);
  if (known < 0) return false;
  if (outputs < 1) {
    nnError(op, "needs at least one result");
    return false;
  }
  if (!known) { /* run-time sizes: the lowering checks them */
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 1));
    if (!mlirShapedTypeHasRank(t) || mlirShapedTypeGetRank(t) != 1 || mlirShapedTypeGetDimSize(t, 0) != outputs) {
      nnError(op, "operand 'split' must be 1-D with one size per result (%d)", outputs);
      return false;
    }
    for (int i = 0; i < outputs; i++) sizes[i] = -1;
    return true;
  }
  if (n >= 0) {
    int64_t sum = 0;
    for (int i = 0; i < n; i++) {
      if (sizes[i] < 0) {
        nnError(op, "'split' has a negative size %lld", (long long)sizes[i]);
        return false;
      }
      if (!nnDimAdd(op, sum, sizes[i], &sum)) return false;
    }
    if (n != outputs || (dim != -1 && sum != dim)) {
      nnError(op, "'split' has %d sizes summing to %lld; expected %d sizes summing to %lld",
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
  bool known = nnConstOperand(def, op, "starts", starts, STRATA_MAX_RANK, &ns) &&
               nnConstOperand(def, op, "ends", ends, STRATA_MAX_RANK, &ne) &&
               (!nnHasOperand(def, op, "axes") || nnConstOperand(def, op, "axes", axes, STRATA_MAX_RANK, &na)) &&
               (!nnHasOperand(def, op, "steps") || nnConstOperand(def, op, "steps", steps, STRATA_MAX_RANK, &nt));
  if (!known) {
    /* Bounds known only at run time: the sliced axes are '?', the others
     * keep their extent, when it is known which axes are sliced (constant
     * axes, or the first len(starts) when there are none). */
    int n = -1;
    if (nnHasOperand(def, op, "axes")) {
      if (!nnConstOperand(def, op, "axes", axes, STRATA_MAX_RANK, &n)) n = -1;
    } else {
      MlirType st = mlirValueGetType(strataNamedOperand(def, op, "starts"));
      n = mlirShapedTypeHasStaticShape(st) && mlirShapedTypeGetDimSize(st, 0) <= rank ? (int)mlirShapedTypeGetDimSize(st, 0) : -1;
      for (int i = 0; i < n; i++) axes[i] = i;
    }
    for (int i = 0; i < n; i++)
      if (axes[i] < -rank || axes[i] >= rank) n = -1; /* an error the run-time checks report */
    for (int i = 0; i < rank; i++) count[i] = n < 0 ? -1 : dims[i];
    for (int i = 0; i < n; i++) count[axes[i] < 0 ? axes[i] + rank : axes[i]] = -1;
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

/* ---- Resize ---- */

bool nnResizeAttrs(MlirOperation op, NnResize *r) {
  int64_t antialias, exclude;
  char policy[24];
  if (!nnAttrString(op, "mode", "nearest", "nearest|linear|cubic", r->mode, sizeof r->mode) ||
      !nnAttrString(op, "coordinate_transformation_mode", "half_pixel",
                    "half_pixel|half_pixel_symmetric|pytorch_half_pixel|align_corners|asymmetric|tf_crop_and_resize",
                    r->coord, sizeof r->coord) ||
      !nnAttrString(op, "nearest_mode", "round_prefer_floor", "round_prefer_floor|round_prefer_ceil|floor|ceil",
                    r->nearest, sizeof r->nearest) ||
      !nnAttrInt(op, "antialias", 0, &antialias) || !nnAttrInt(op, "exclude_outside", 0, &exclude) ||
      !nnAttrFloat(op, "cubic_coeff_a", -0.75, &r->cubicA) ||
      !nnAttrFloat(op, "extrapolation_value", 0, &r->extrapolation) ||
      !nnAttrString(op, "keep_aspect_ratio_policy", "stretch", "stretch", policy, sizeof policy))
    return false;
  if (antialias) {
    nnError(op, "antialias is not supported");
    return false;
  }
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("axes")))) {
    nnError(op, "attribute 'axes' is not supported (give scales or sizes for every dim)");
    return false;
  }
  if (exclude != 0 && exclude != 1) {
    nnError(op, "attribute 'exclude_outside' must be 0 or 1");
    return false;
  }
  r->exclude = exclude;
  return true;
}

double nnResizeCoord(const NnResize *r, int64_t o, int64_t in, int64_t out, double scale, const double *roi) {
  /* ONNX's resized length is in * scale, not floored: it differs from the
   * output extent out when the scale does not divide evenly */
  double x = (double)o, width = scale * (double)in;
  bool crop = !strcmp(r->coord, "tf_crop_and_resize");
  if (!crop && in == out && scale == 1.0) return x; /* an unchanged dim: every mode maps o to o */
  if (!strcmp(r->coord, "asymmetric")) return x / scale;
  if (!strcmp(r->coord, "align_corners")) return width == 1 ? 0 : x * (double)(in - 1) / (width - 1);
  if (!strcmp(r->coord, "pytorch_half_pixel")) return width > 1 ? (x + 0.5) / scale - 0.5 : 0;
  if (!strcmp(r->coord, "half_pixel_symmetric")) {
    double outWidth = scale * (double)in, adjustment = floor(outWidth) / outWidth;
    double center = (double)in / 2, offset = center * (1 - adjustment);
    return offset + (x + 0.5) / scale - 0.5;
  }
  if (crop) {
    double span = (double)(in - 1);
    return width == 1 ? 0.5 * (roi[0] + roi[1]) * span : roi[0] * span + x * (roi[1] - roi[0]) * span / (width - 1);
  }
  return (x + 0.5) / scale - 0.5; /* half_pixel */
}

bool nnResizeOutside(const NnResize *r, double x, int64_t in) {
  return !strcmp(r->coord, "tf_crop_and_resize") && !(x >= 0 && x <= (double)(in - 1));
}

void nnCubicWeights(double t, double a, double w[4]) {
  /* Keys' kernel at distances 1 + t, t, 1 - t, 2 - t */
  double s = t + 1, u = 1 - t, v = 2 - t;
  w[0] = ((a * s - 5 * a) * s + 8 * a) * s - 4 * a;
  w[1] = ((a + 2) * t - (a + 3)) * t * t + 1;
  w[2] = ((a + 2) * u - (a + 3)) * u * u + 1;
  w[3] = ((a * v - 5 * a) * v + 8 * a) * v - 4 * a;
}

void nnResizeTaps(const NnResize *r, double x, int64_t in, NnTaps *t) {
  if (!strcmp(r->mode, "nearest")) {
    t->n = 1, t->idx[0] = nnResizeNearest(r, x, in), t->w[0] = 1;
    return;
  }
  double f = floor(x), frac = x - f;
  /* Far-away coordinates only ever reach the edge taps: bound the base so
   * that base - 1 .. base + 2 cannot overflow. */
  int64_t base = strataDoubleToInt64Saturated(f);
  base = base < -4 ? -4 : base > in + 4 ? in + 4 : base;
  if (!strcmp(r->mode, "linear")) {
    t->n = 2, t->idx[0] = base, t->idx[1] = base + 1, t->w[0] = 1 - frac, t->w[1] = frac;
  } else {
    t->n = 4;
    nnCubicWeights(frac, r->cubicA, t->w);
    for (int k = 0; k < 4; k++) t->idx[k] = base - 1 + k;
  }
  double sum = 0;
  for (int k = 0; k < t->n; k++) {
    if (r->exclude && (t->idx[k] < 0 || t->idx[k] >= in)) t->w[k] = 0;
    sum += t->w[k];
  }
  for (int k = 0; k < t->n; k++) {
    if (r->exclude && sum != 0) t->w[k] /= sum;
    t->idx[k] = t->idx[k] < 0 ? 0 : t->idx[k] >= in ? in - 1 : t->idx[k];
  }
}

int64_t nnResizeNearest(const NnResize *r, double x, int64_t in) {
  double f = floor(x);
  int64_t i;
  /* Coordinates of extreme scales can be beyond int64: saturate, then clamp. */
  if (!strcmp(r->nearest, "floor")) i = strataDoubleToInt64Saturated(f);
  else if (!strcmp(r->nearest, "ceil")) i = strataDoubleToInt64Saturated(ceil(x));
  else if (x - f == 0.5) i = strataDoubleToInt64Saturated(!strcmp(r->nearest, "round_prefer_ceil") ? f + 1 : f);
  else i = strataDoubleToInt64Saturated(round(x));
  return i < 0 ? 0 : i >= in ? in - 1 : i;
}

void nnResizeScales(const StrataOpDef *def, MlirOperation op, const int64_t *in, const int64_t *out,
                    int rank, double *scales) {
  if (nnHasOperand(def, op, "scales") &&
      nnConstDoubles(strataNamedOperand(def, op, "scales"), scales, STRATA_MAX_RANK) == rank)
    return;
  for (int i = 0; i < rank; i++) scales[i] = (double)out[i] / (double)in[i];
}

int nnResizeTapCount(const NnResize *r, bool same) {
  return same || !strcmp(r->mode, "nearest") ? 1 : !strcmp(r->mode, "linear") ? 2 : 4;
}

void nnResizeOutputTaps(const NnResize *r, bool same, int64_t o, int64_t in, int64_t out, double scale,
                        const double *roi, NnTaps *t) {
  *t = (NnTaps){1, {o}, {1}};
  if (!same) nnResizeTaps(r, nnResizeCoord(r, o, in, out, scale, roi), in, t);
}

const StrataOpDef *nnMovementDef(MlirOperation op) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < nnMovementTable.numOps; i++)
    if (strlen(nnMovementTable.ops[i].name) == n.length && !strncmp(nnMovementTable.ops[i].name, n.data, n.length))
      return &nnMovementTable.ops[i];
  return NULL;
}
