/* Reference semantics of the data-dependent ops (ops_datadep.c). Their
 * results have `?` dims, so each kernel counts first and allocates them
 * (y[i] is NULL on entry; a result the interpreter could size, such as
 * Unique's inverse_indices, is checked instead). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nn_datadep.h"

static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* Result slot `*y` of the given dtype and dims: allocated when NULL, else
 * checked to have those dims. False after a located error. */
static bool result(MlirOperation op, StrataTensor **y, StrataDType dt, int rank, const int64_t *dims) {
  if (!*y) {
    *y = strataTensorCreate(dt, rank, dims);
    if (!*y) nnInterpError(op, "cannot allocate the result");
    return *y != NULL;
  }
  bool same = (*y)->rank == rank;
  for (int d = 0; same && d < rank; d++) same = (*y)->dims[d] == dims[d];
  if (!same) nnInterpError(op, "a result's declared shape disagrees with the computed one");
  return same;
}

static bool nonZero(const StrataTensor *t, int64_t e) {
  return nnIsFloatDType(t->dtype) ? strataTensorGetDouble(t, e) != 0 : nnGetInt(t, e) != 0;
}

/* ---- NonZero ---- */

MlirLogicalResult nnInterpNonZero(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t n = strataTensorNumElements(x[0]), count = 0;
  for (int64_t e = 0; e < n; e++) count += nonZero(x[0], e);
  int64_t dims[2] = {x[0]->rank, count}, idx[STRATA_MAX_RANK] = {0}, at = 0;
  if (!result(op, &y[0], STRATA_DTYPE_I64, 2, dims)) return mlirLogicalResultFailure();
  for (int64_t e = 0; e < n; e++, nnNextIndex(idx, x[0]->dims, x[0]->rank)) {
    if (!nonZero(x[0], e)) continue;
    for (int d = 0; d < x[0]->rank; d++) nnSetInt(y[0], d * count + at, idx[d]);
    at++;
  }
  return ok();
}

/* ---- Slices along an axis (Compress and Unique) ----
 * The input as [outer, extent, inner]: slice k is every x[o, k, i]; with
 * no axis, every element is a slice (outer = inner = 1). */
typedef struct {
  const StrataTensor *x;
  int64_t outer, extent, inner;
} Slices;

static Slices slicesOf(const StrataTensor *x, bool hasAxis, int64_t axis) {
  Slices s = {x, 1, strataTensorNumElements(x), 1};
  if (!hasAxis) return s;
  s.extent = x->dims[axis];
  for (int d = 0; d < axis; d++) s.outer *= x->dims[d];
  for (int d = (int)axis + 1; d < x->rank; d++) s.inner *= x->dims[d];
  return s;
}

/* Flat index of element j (in row-major order over [outer, inner]) of slice k. */
static int64_t sliceElement(const Slices *s, int64_t k, int64_t j) {
  return ((j / s->inner) * s->extent + k) * s->inner + j % s->inner;
}

/* Copies slice k of s into slot `to` of y, a tensor of s's layout with `slots` slices. */
static void copySlice(const Slices *s, int64_t k, StrataTensor *y, int64_t slots, int64_t to) {
  size_t es = strataDTypeSize(s->x->dtype), row = (size_t)s->inner * es;
  for (int64_t o = 0; o < s->outer; o++)
    memcpy((char *)y->data + (size_t)(o * slots + to) * row, (const char *)s->x->data + (size_t)(o * s->extent + k) * row,
           row);
}

MlirLogicalResult nnInterpCompress(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  bool hasAxis = !mlirAttributeIsNull(strataOpAttr(op, "axis"));
  int64_t axis = 0, len = x[1]->dims[0], count = 0;
  if (hasAxis && (!nnAttrInt(op, "axis", 0, &axis) || !nnNormalizeAxis(op, "axis", &axis, x[0]->rank)))
    return mlirLogicalResultFailure();
  Slices s = slicesOf(x[0], hasAxis, axis);
  if (len > s.extent)
    return nnInterpError(op, "operand 'condition' has %lld elements, more than the %lld %s", (long long)len,
                         (long long)s.extent, hasAxis ? "slices along 'axis'" : "elements of the flattened input");
  for (int64_t k = 0; k < len; k++) count += nnGetInt(x[1], k) != 0;
  int64_t dims[STRATA_MAX_RANK];
  memcpy(dims, x[0]->dims, sizeof dims);
  dims[hasAxis ? axis : 0] = count;
  if (!result(op, &y[0], x[0]->dtype, hasAxis ? x[0]->rank : 1, dims)) return mlirLogicalResultFailure();
  for (int64_t k = 0, at = 0; k < len; k++)
    if (nnGetInt(x[1], k)) copySlice(&s, k, y[0], count, at++);
  return ok();
}

/* ---- Unique ---- */

/* Total order on elements: numbers as usual, NaN equal to NaN and above
 * everything (numpy's unique puts NaNs last). */
static int compareElements(const StrataTensor *x, int64_t a, int64_t b) {
  if (!nnIsFloatDType(x->dtype)) {
    int64_t u = nnGetInt(x, a), v = nnGetInt(x, b);
    if (nnIsUnsignedDType(x->dtype)) return ((uint64_t)u > (uint64_t)v) - ((uint64_t)u < (uint64_t)v);
    return (u > v) - (u < v);
  }
  double u = strataTensorGetDouble(x, a), v = strataTensorGetDouble(x, b);
  if (isnan(u) || isnan(v)) return isnan(u) - isnan(v);
  return (u > v) - (u < v);
}

/* Lexicographic order of slices (numpy's unique along an axis). */
static int compareSlices(const Slices *s, int64_t a, int64_t b) {
  int64_t n = s->outer * s->inner;
  for (int64_t j = 0; j < n; j++) {
    int c = compareElements(s->x, sliceElement(s, a, j), sliceElement(s, b, j));
    if (c) return c;
  }
  return 0;
}

/* Stable merge sort of v[0..n) (tmp: scratch of n) by cmp(ctx, a, b) < 0. */
typedef int (*CompareFn)(const void *ctx, int64_t a, int64_t b);
static void mergeSort(int64_t *v, int64_t *tmp, int64_t n, CompareFn cmp, const void *ctx) {
  if (n < 2) return;
  int64_t h = n / 2, i = 0, j = h, k = 0;
  mergeSort(v, tmp, h, cmp, ctx);
  mergeSort(v + h, tmp, n - h, cmp, ctx);
  while (i < h && j < n) tmp[k++] = cmp(ctx, v[j], v[i]) < 0 ? v[j++] : v[i++];
  while (i < h) tmp[k++] = v[i++];
  while (j < n) tmp[k++] = v[j++];
  memcpy(v, tmp, (size_t)n * sizeof *v);
}

static int bySlice(const void *ctx, int64_t a, int64_t b) { return compareSlices(ctx, a, b); }

MlirLogicalResult nnInterpUnique(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  bool hasAxis = !mlirAttributeIsNull(strataOpAttr(op, "axis"));
  int64_t axis = 0, sorted;
  nnAttrInt(op, "sorted", 1, &sorted);
  if (hasAxis && (!nnAttrInt(op, "axis", 0, &axis) || !nnNormalizeAxis(op, "axis", &axis, x[0]->rank)))
    return mlirLogicalResultFailure();
  Slices s = slicesOf(x[0], hasAxis, axis);
  int64_t K = s.extent, *order = malloc((size_t)(4 * K + 1) * sizeof *order);
  if (!order) return nnInterpError(op, "cannot allocate %lld slices", (long long)K);
  int64_t *tmp = order + K, *group = tmp + K, *firsts = group + K, groups = 0;
  for (int64_t k = 0; k < K; k++) order[k] = k;
  mergeSort(order, tmp, K, bySlice, &s);
  /* groups of equal slices in sorted order; the first of each is its lowest index (the sort is stable) */
  for (int64_t i = 0; i < K; i++) {
    if (i == 0 || compareSlices(&s, order[i - 1], order[i])) firsts[groups++] = order[i];
    group[order[i]] = groups - 1;
  }
  /* sorted=0: groups in order of first occurrence; rank[g] is the output slot of group g */
  int64_t *rank = tmp;
  for (int64_t g = 0; g < groups; g++) rank[g] = g;
  if (!sorted)
    for (int64_t k = 0, at = 0; k < K; k++)
      if (firsts[group[k]] == k) rank[group[k]] = at++;
  int64_t dims[STRATA_MAX_RANK];
  memcpy(dims, x[0]->dims, sizeof dims);
  dims[hasAxis ? axis : 0] = groups;
  bool good = result(op, &y[0], x[0]->dtype, hasAxis ? x[0]->rank : 1, dims) &&
              result(op, &y[1], STRATA_DTYPE_I64, 1, &groups) && result(op, &y[2], STRATA_DTYPE_I64, 1, &K) &&
              result(op, &y[3], STRATA_DTYPE_I64, 1, &groups);
  if (good) {
    for (int64_t g = 0; g < groups; g++) {
      copySlice(&s, firsts[g], y[0], groups, rank[g]);
      nnSetInt(y[1], rank[g], firsts[g]);
      nnSetInt(y[3], rank[g], 0);
    }
    for (int64_t k = 0; k < K; k++) {
      int64_t slot = rank[group[k]];
      nnSetInt(y[2], k, slot);
      nnSetInt(y[3], slot, nnGetInt(y[3], slot) + 1);
    }
  }
  free(order);
  return good ? ok() : mlirLogicalResultFailure();
}

/* ---- NonMaxSuppression ---- */

typedef struct {
  bool narrow; /* f32/f16 boxes: ONNX Runtime computes in float; each step is rounded to it */
  bool center; /* center_point_box = 1: [x_center, y_center, width, height] */
  double iou;
} NmsParams;

static double rnd(const NmsParams *p, double v) { return p->narrow ? (double)(float)v : v; }

/* Box extents [ymin, xmin, ymax, xmax] of box `at` (element offset of its 4 values). */
static void boxExtents(const NmsParams *p, const StrataTensor *boxes, int64_t at, double *e) {
  double v[4];
  for (int i = 0; i < 4; i++) v[i] = strataTensorGetDouble(boxes, at + i);
  if (p->center) {
    double hw = rnd(p, v[2] / 2), hh = rnd(p, v[3] / 2);
    e[0] = rnd(p, v[1] - hh), e[1] = rnd(p, v[0] - hw), e[2] = rnd(p, v[1] + hh), e[3] = rnd(p, v[0] + hw);
    return;
  }
  e[0] = fmin(v[0], v[2]), e[1] = fmin(v[1], v[3]), e[2] = fmax(v[0], v[2]), e[3] = fmax(v[1], v[3]);
}

/* ONNX Runtime's SuppressByIOU: true when the IoU of boxes a and b exceeds the threshold. */
static bool suppresses(const NmsParams *p, const StrataTensor *boxes, int64_t a, int64_t b) {
  double u[4], v[4];
  boxExtents(p, boxes, a, u);
  boxExtents(p, boxes, b, v);
  double ymin = fmax(u[0], v[0]), xmin = fmax(u[1], v[1]), ymax = fmin(u[2], v[2]), xmax = fmin(u[3], v[3]);
  if (xmax <= xmin || ymax <= ymin) return false;
  double inter = rnd(p, rnd(p, xmax - xmin) * rnd(p, ymax - ymin));
  double areaA = rnd(p, rnd(p, u[3] - u[1]) * rnd(p, u[2] - u[0]));
  double areaB = rnd(p, rnd(p, v[3] - v[1]) * rnd(p, v[2] - v[0]));
  double uni = rnd(p, rnd(p, areaA + areaB) - inter);
  if (inter <= 0 || areaA <= 0 || areaB <= 0 || uni <= 0) return false;
  return rnd(p, inter / uni) > p->iou;
}

/* Candidates of one class by descending score (ties keep the lower index:
 * the sort is stable). */
typedef struct {
  const StrataTensor *scores;
  int64_t base;
} ClassScores;

static int byScore(const void *ctx, int64_t a, int64_t b) {
  const ClassScores *c = ctx;
  double u = strataTensorGetDouble(c->scores, c->base + a), v = strataTensorGetDouble(c->scores, c->base + b);
  return (u < v) - (u > v);
}

MlirLogicalResult nnInterpNms(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  const StrataOpDef *def = nnDataDepDef(op);
  MlirValue maxV = strataNamedOperand(def, op, "max_output_boxes_per_class"),
            iouV = strataNamedOperand(def, op, "iou_threshold"), scoreV = strataNamedOperand(def, op, "score_threshold");
  /* operands are numbered as present: boxes, scores, then the given ones */
  for (intptr_t i = 2; i < mlirOperationGetNumOperands(op); i++)
    if (strataTensorNumElements(x[i]) != 1)
      return nnInterpError(op, "operand #%d has %lld elements; a threshold or count holds one", (int)i,
                           (long long)strataTensorNumElements(x[i]));
  int at = 2;
  int64_t maxOut = mlirValueIsNull(maxV) ? 0 : nnGetInt(x[at++], 0), center;
  NmsParams p = {x[0]->dtype != STRATA_DTYPE_F64, false, mlirValueIsNull(iouV) ? 0 : strataTensorGetDouble(x[at++], 0)};
  bool hasScore = !mlirValueIsNull(scoreV);
  double scoreMin = hasScore ? strataTensorGetDouble(x[at], 0) : 0;
  nnAttrInt(op, "center_point_box", 0, &center);
  p.center = center;
  if (!(p.iou >= 0 && p.iou <= 1)) return nnInterpError(op, "iou_threshold %g is not in [0, 1]", p.iou);
  int64_t B = x[1]->dims[0], C = x[1]->dims[1], N = x[1]->dims[2];
  if (x[0]->dims[0] != B || x[0]->dims[1] != N)
    return nnInterpError(op, "operands 'boxes' and 'scores' disagree on the number of batches or boxes");
  if (maxOut < 0) maxOut = 0;
  int64_t perClass = maxOut < N ? maxOut : N, cap = B * C * perClass;
  int64_t *sel = malloc((size_t)(3 * cap + 2 * N + 1) * sizeof *sel), count = 0;
  if (!sel) return nnInterpError(op, "cannot allocate the selection");
  int64_t *cand = sel + 3 * cap, *tmp = cand + N;
  for (int64_t b = 0; b < B; b++)
    for (int64_t c = 0; c < C; c++) {
      int64_t base = (b * C + c) * N, n = 0, kept = 0, first = count;
      for (int64_t i = 0; i < N; i++)
        if (!isnan(strataTensorGetDouble(x[1], base + i)) && (!hasScore || strataTensorGetDouble(x[1], base + i) > scoreMin))
          cand[n++] = i; /* a NaN score is never a candidate */
      ClassScores cs = {x[1], base};
      mergeSort(cand, tmp, n, byScore, &cs);
      for (int64_t i = 0; i < n && kept < perClass; i++) {
        bool keep = true;
        for (int64_t j = first; j < count && keep; j++)
          keep = !suppresses(&p, x[0], (b * N + cand[i]) * 4, (b * N + sel[3 * j + 2]) * 4);
        if (!keep) continue;
        sel[3 * count] = b, sel[3 * count + 1] = c, sel[3 * count + 2] = cand[i];
        count++, kept++;
      }
    }
  int64_t dims[2] = {count, 3};
  bool good = result(op, &y[0], STRATA_DTYPE_I64, 2, dims);
  for (int64_t i = 0; good && i < 3 * count; i++) nnSetInt(y[0], i, sel[i]);
  free(sel);
  return good ? ok() : mlirLogicalResultFailure();
}
