/* Reductions: ReduceSum/Mean/Max/Min/Prod/L1/L2/SumSquare/LogSum/LogSumExp
 * (axes, keepdims, noop_with_empty_axes), ArgMax/ArgMin, Softmax,
 * LogSoftmax, CumSum, TopK. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* Reduced-axes mask of a reduce_* op; *identity when there is nothing to
 * reduce (noop_with_empty_axes with no axes). False after an error. */
bool nnReduceAxes(MlirOperation op, const StrataTensor *axesValue, int rank, bool *mask, bool *identity) {
  int64_t axes[STRATA_MAX_RANK], noop;
  int n, known = nnIntsArg(op, 1, axesValue, "axes", axes, STRATA_MAX_RANK, &n);
  if (known < 0 || !nnAttrInt(op, "noop_with_empty_axes", 0, &noop)) return false;
  if (!known) return false; /* run-time axes: the caller's case, no error */
  *identity = false;
  for (int i = 0; i < rank; i++) mask[i] = n <= 0 && !(noop && n <= 0);
  if (n <= 0) {
    *identity = noop != 0;
    return true;
  }
  for (int i = 0; i < n; i++) {
    if (!nnNormalizeAxis(op, "axis", &axes[i], rank)) return false;
    if (mask[axes[i]]) {
      nnError(op, "'axes' repeats axis %lld", (long long)axes[i]);
      return false;
    }
    mask[axes[i]] = true;
  }
  return true;
}

/* Run-time axes: with keepdims every dim of x that is not 1 may become 1
 * ('?'); without, the result loses as many dims as there are axes, which
 * ones is open. */
static MlirLogicalResult inferReduceRuntimeAxes(const StrataOpDef *def, MlirOperation op, const StrataShape *x,
                                                bool keep, StrataShape *res) {
  StrataShape a;
  if (!nnOperand(def, op, "axes", &a) || !nnCheckType(op, "axes", &a, NN_INDEX)) return fail();
  if (a.rank != 1 || (!keep && (a.dims[0] < 0 || a.dims[0] > x->rank))) {
    nnError(op, "operand 'axes' must be 1-D%s", keep ? "" : ", of a static length at most the data's rank");
    return fail();
  }
  res->rank = keep ? x->rank : x->rank - (int)a.dims[0];
  res->elementType = x->elementType;
  for (int i = 0; i < res->rank; i++) res->dims[i] = keep && x->dims[i] == 1 ? 1 : -1;
  return ok();
}

static MlirLogicalResult inferReduce(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t keep, axes[STRATA_MAX_RANK];
  int n;
  bool mask[STRATA_MAX_RANK], identity;
  if (!nnOperand(def, op, "data", &x) || !nnCheckType(op, "data", &x, NN_NUMERIC) ||
      !nnAttrInt(op, "keepdims", 1, &keep))
    return fail();
  const char *name = def->name + 3;
  bool floatOnly = !strcmp(name, "reduce_mean") || !strcmp(name, "reduce_l2") ||
                   !strcmp(name, "reduce_log_sum") || !strcmp(name, "reduce_log_sum_exp");
  if (floatOnly && !nnCheckType(op, "data", &x, NN_FLOAT)) return fail();
  int known = nnIntsArg(op, 1, NULL, "axes", axes, STRATA_MAX_RANK, &n);
  if (known < 0) return fail();
  if (!known) return inferReduceRuntimeAxes(def, op, &x, keep != 0, res);
  if (!nnReduceAxes(op, NULL, x.rank, mask, &identity)) return fail();
  res->rank = 0;
  res->elementType = x.elementType;
  for (int i = 0; i < x.rank; i++) {
    if (identity || !mask[i]) res->dims[res->rank++] = x.dims[i];
    else if (keep) res->dims[res->rank++] = 1;
  }
  return ok();
}

typedef enum { R_SUM, R_MEAN, R_MAX, R_MIN, R_PROD, R_L1, R_L2, R_SUMSQ, R_LOGSUM, R_LOGSUMEXP } ReduceKind;

static ReduceKind kindOf(MlirOperation op) {
  static const char *const names[] = {"nn.reduce_sum", "nn.reduce_mean", "nn.reduce_max",
                                      "nn.reduce_min", "nn.reduce_prod", "nn.reduce_l1",
                                      "nn.reduce_l2", "nn.reduce_sum_square", "nn.reduce_log_sum",
                                      "nn.reduce_log_sum_exp"};
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  for (int i = 0; i < 10; i++)
    if (strlen(names[i]) == n.length && !strncmp(names[i], n.data, n.length)) return (ReduceKind)i;
  return R_SUM;
}

/* Flat output index of input multi-index idx: reduced dims dropped. */
static int64_t reducedIndex(const StrataTensor *x, const int64_t *idx, const bool *mask) {
  int64_t flat = 0;
  for (int d = 0; d < x->rank; d++)
    if (!mask[d]) flat = flat * x->dims[d] + idx[d];
  return flat;
}

/* -1, 0 or 1: a against b, signed or as uint64. */
static int compareInts(int64_t a, int64_t b, bool isUnsigned) {
  if (isUnsigned) return ((uint64_t)a > (uint64_t)b) - ((uint64_t)a < (uint64_t)b);
  return (a > b) - (a < b);
}

/* Integer reductions in the element type's own arithmetic: sums and
 * products wrap (as compiled addi/muli do), max/min compare exactly; an
 * empty max/min is the type's lowest/highest value. */
static bool interpReduceInt(ReduceKind k, const StrataTensor *x, StrataTensor *y, const bool *mask) {
  int64_t nOut = strataTensorNumElements(y), nIn = strataTensorNumElements(x);
  bool isUnsigned = nnIsUnsignedDType(x->dtype);
  uint64_t *acc = malloc((size_t)(nOut ? nOut : 1) * sizeof *acc);
  bool *seen = calloc((size_t)(nOut ? nOut : 1), sizeof *seen);
  if (!acc || !seen) {
    free(acc), free(seen);
    return false;
  }
  for (int64_t o = 0; o < nOut; o++) acc[o] = k == R_PROD ? 1 : 0;
  int64_t idx[STRATA_MAX_RANK] = {0};
  for (int64_t i = 0; i < nIn; i++, nnNextIndex(idx, x->dims, x->rank)) {
    int64_t o = reducedIndex(x, idx, mask), v = nnGetInt(x, i);
    uint64_t u = (uint64_t)v;
    switch (k) {
    case R_MAX: if (!seen[o] || compareInts(v, (int64_t)acc[o], isUnsigned) > 0) acc[o] = u; break;
    case R_MIN: if (!seen[o] || compareInts(v, (int64_t)acc[o], isUnsigned) < 0) acc[o] = u; break;
    case R_PROD: acc[o] *= u; break;
    case R_L1: acc[o] += !isUnsigned && v < 0 ? 0 - u : u; break;
    case R_SUMSQ: acc[o] += u * u; break;
    default: acc[o] += u; break;
    }
    seen[o] = true;
  }
  for (int64_t o = 0; o < nOut; o++) {
    if ((k == R_MAX || k == R_MIN) && !seen[o]) strataTensorSetDouble(y, o, k == R_MAX ? -INFINITY : INFINITY);
    else nnSetInt(y, o, (int64_t)acc[o]);
  }
  free(acc), free(seen);
  return true;
}

static MlirLogicalResult interpReduce(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  bool mask[STRATA_MAX_RANK], identity;
  if (!nnReduceAxes(op, mlirOperationGetNumOperands(op) > 1 ? x[1] : NULL, x[0]->rank, mask, &identity)) return fail();
  ReduceKind k = kindOf(op);
  int64_t nOut = strataTensorNumElements(y[0]), nIn = strataTensorNumElements(x[0]);
  if (identity) {
    memcpy(y[0]->data, x[0]->data, strataTensorNumBytes(x[0]));
    return ok();
  }
  if (!nnIsFloatDType(x[0]->dtype)) {
    if (!interpReduceInt(k, x[0], y[0], mask)) return nnInterpError(op, "out of memory");
    return ok();
  }
  double *acc = malloc((size_t)(nOut ? nOut : 1) * sizeof *acc), *mx = malloc((size_t)(nOut ? nOut : 1) * sizeof *mx);
  int64_t *cnt = calloc((size_t)(nOut ? nOut : 1), sizeof *cnt);
  if (!acc || !mx || !cnt) {
    free(acc), free(mx), free(cnt);
    return nnInterpError(op, "out of memory");
  }
  for (int64_t o = 0; o < nOut; o++) {
    acc[o] = k == R_PROD ? 1.0 : k == R_MAX ? -INFINITY : k == R_MIN ? INFINITY : 0.0;
    mx[o] = -INFINITY;
  }
  int64_t idx[STRATA_MAX_RANK] = {0};
  if (k == R_LOGSUMEXP) /* stable: subtract each group's max */
    for (int64_t i = 0; i < nIn; i++, nnNextIndex(idx, x[0]->dims, x[0]->rank)) {
      int64_t o = reducedIndex(x[0], idx, mask);
      mx[o] = fmax(mx[o], strataTensorGetDouble(x[0], i));
    }
  memset(idx, 0, sizeof idx);
  for (int64_t i = 0; i < nIn; i++, nnNextIndex(idx, x[0]->dims, x[0]->rank)) {
    int64_t o = reducedIndex(x[0], idx, mask);
    double v = strataTensorGetDouble(x[0], i);
    cnt[o]++;
    switch (k) {
    case R_SUM: case R_MEAN: case R_LOGSUM: acc[o] += v; break;
    case R_MAX: acc[o] = isnan(v) || isnan(acc[o]) ? NAN : fmax(acc[o], v); break;
    case R_MIN: acc[o] = isnan(v) || isnan(acc[o]) ? NAN : fmin(acc[o], v); break;
    case R_PROD: acc[o] *= v; break;
    case R_L1: acc[o] += fabs(v); break;
    case R_L2: case R_SUMSQ: acc[o] += v * v; break;
    case R_LOGSUMEXP: acc[o] += exp(v - (isinf(mx[o]) ? 0 : mx[o])); break;
    }
  }
  for (int64_t o = 0; o < nOut; o++) {
    double v = acc[o];
    if (k == R_MEAN) v = cnt[o] ? v / (double)cnt[o] : NAN;
    if (k == R_L2) v = sqrt(v);
    if (k == R_LOGSUM) v = log(v);
    if (k == R_LOGSUMEXP) v = log(v) + (isinf(mx[o]) ? 0 : mx[o]);
    strataTensorSetDouble(y[0], o, v);
  }
  free(acc), free(mx), free(cnt);
  return ok();
}

static double flopsReduce(MlirOperation op) {
  int64_t n = nnNumElements(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  return n < 0 ? 0 : (double)n;
}

/* ---- ArgMax / ArgMin ---- */

static MlirLogicalResult inferArg(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axis, keep, last;
  if (!nnOperand(def, op, "data", &x) || !nnCheckType(op, "data", &x, NN_NUMERIC) ||
      !nnAttrInt(op, "axis", 0, &axis) || !nnAttrInt(op, "keepdims", 1, &keep) ||
      !nnAttrInt(op, "select_last_index", 0, &last) || !nnNormalizeAxis(op, "axis", &axis, x.rank))
    return fail();
  res->rank = 0;
  for (int i = 0; i < x.rank; i++)
    if (i != axis) res->dims[res->rank++] = x.dims[i];
    else if (keep) res->dims[res->rank++] = 1;
  res->elementType = mlirIntegerTypeGet(mlirOperationGetContext(op), 64);
  return ok();
}

/* Splits a tensor around `axis` into (outer, len, inner) for axis-wise loops. */
static void around(const StrataTensor *t, int axis, int64_t *outer, int64_t *len, int64_t *inner) {
  *outer = *inner = 1;
  for (int d = 0; d < axis; d++) *outer *= t->dims[d];
  for (int d = axis + 1; d < t->rank; d++) *inner *= t->dims[d];
  *len = t->dims[axis];
}

static MlirLogicalResult interpArg(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                   StrataTensor **y) {
  (void)in;
  int64_t axis, last, outer, len, inner;
  nnAttrInt(op, "axis", 0, &axis);
  nnAttrInt(op, "select_last_index", 0, &last);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool isMax = name.length == 10 && !strncmp(name.data, "nn.arg_max", 10);
  around(x[0], (int)axis, &outer, &len, &inner);
  bool isFloat = nnIsFloatDType(x[0]->dtype), isUnsigned = nnIsUnsignedDType(x[0]->dtype);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      int64_t best = 0, at = o * len * inner + i;
      for (int64_t j = 1; j < len; j++) {
        int64_t e = (o * len + j) * inner + i;
        bool better;
        if (isFloat) { /* a NaN is never better */
          double v = strataTensorGetDouble(x[0], e), bv = strataTensorGetDouble(x[0], at);
          better = isMax ? (last ? v >= bv : v > bv) : (last ? v <= bv : v < bv);
        } else { /* integers compared exactly (as uint64 for unsigned types), not through double */
          int c = compareInts(nnGetInt(x[0], e), nnGetInt(x[0], at), isUnsigned);
          better = isMax ? (last ? c >= 0 : c > 0) : (last ? c <= 0 : c < 0);
        }
        if (better) best = j, at = e;
      }
      nnSetInt(y[0], o * inner + i, best);
    }
  return ok();
}

/* ---- Softmax / LogSoftmax ---- */

static MlirLogicalResult inferSoftmax(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t axis;
  if (!nnOperand(def, op, "input", &x) || !nnCheckType(op, "input", &x, NN_FLOAT) ||
      !nnAttrInt(op, "axis", -1, &axis) || !nnNormalizeAxis(op, "axis", &axis, x.rank))
    return fail();
  *res = x;
  return ok();
}

static MlirLogicalResult interpSoftmax(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  int64_t axis, outer, len, inner;
  nnAttrInt(op, "axis", -1, &axis);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool logForm = name.length == 14 && !strncmp(name.data, "nn.log_softmax", 14);
  around(x[0], (int)axis, &outer, &len, &inner);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      double m = -INFINITY, s = 0;
      for (int64_t j = 0; j < len; j++) m = fmax(m, strataTensorGetDouble(x[0], (o * len + j) * inner + i));
      for (int64_t j = 0; j < len; j++) s += exp(strataTensorGetDouble(x[0], (o * len + j) * inner + i) - m);
      for (int64_t j = 0; j < len; j++) {
        int64_t e = (o * len + j) * inner + i;
        double v = strataTensorGetDouble(x[0], e) - m;
        strataTensorSetDouble(y[0], e, logForm ? v - log(s) : exp(v) / s);
      }
    }
  return ok();
}

static double flopsSoftmax(MlirOperation op) { return 5 * flopsReduce(op); }

/* ---- CumSum ---- */

/* CumSum's axis: the `axis` attribute, or the optional operand (one
 * integer, read when constant; otherwise the lowering picks the axis at
 * run time and checks its range). */
static MlirLogicalResult inferCumSum(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, a;
  int64_t axis, ex, rev;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_NUMERIC) ||
      !nnAttrInt(op, "axis", 0, &axis) || !nnAttrInt(op, "exclusive", 0, &ex) ||
      !nnAttrInt(op, "reverse", 0, &rev))
    return fail();
  if (nnHasOperand(def, op, "axis")) {
    if (!nnOperand(def, op, "axis", &a) || !nnCheckType(op, "axis", &a, NN_INDEX)) return fail();
    if (a.rank > 1 || (a.rank == 1 && a.dims[0] != 1) ||
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("axis")).ptr) {
      nnError(op, "operand 'axis' must hold one integer (and replaces the attribute)");
      return fail();
    }
    int n = nnConstInts(strataNamedOperand(def, op, "axis"), &axis, 1);
    if (n != 1) axis = 0; /* a run-time axis: any in range */
  }
  if (x.rank < 1 || !nnNormalizeAxis(op, "axis", &axis, x.rank)) return fail();
  *res = x;
  return ok();
}

static MlirLogicalResult interpCumSum(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  int64_t axis, ex, rev, outer, len, inner;
  nnAttrInt(op, "axis", 0, &axis);
  nnAttrInt(op, "exclusive", 0, &ex);
  nnAttrInt(op, "reverse", 0, &rev);
  if (mlirOperationGetNumOperands(op) > 1) axis = nnGetInt(x[1], 0);
  if (axis < -x[0]->rank || axis >= x[0]->rank)
    return nnInterpError(op, "axis %lld is out of range for rank %d", (long long)axis, x[0]->rank);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  around(x[0], (int)axis, &outer, &len, &inner);
  bool isFloat = nnIsFloatDType(x[0]->dtype);
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      double s = 0;
      int64_t si = 0;
      for (int64_t t = 0; t < len; t++) {
        int64_t j = rev ? len - 1 - t : t, e = (o * len + j) * inner + i;
        if (ex) {
          if (isFloat) strataTensorSetDouble(y[0], e, s); else nnSetInt(y[0], e, si);
        }
        s += strataTensorGetDouble(x[0], e);
        si += nnGetInt(x[0], e);
        if (!ex) {
          if (isFloat) strataTensorSetDouble(y[0], e, s); else nnSetInt(y[0], e, si);
        }
      }
    }
  return ok();
}

/* ---- TopK ---- */

static MlirLogicalResult inferTopK(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, k;
  int64_t axis, largest, sorted, kv = -1;
  if (!nnOperand(def, op, "x", &x) || !nnOperand(def, op, "k", &k) ||
      !nnCheckType(op, "x", &x, NN_NUMERIC) || !nnCheckType(op, "k", &k, NN_T(STRATA_DTYPE_I64)) ||
      !nnAttrInt(op, "axis", -1, &axis) || !nnAttrInt(op, "largest", 1, &largest) ||
      !nnAttrInt(op, "sorted", 1, &sorted) || !nnNormalizeAxis(op, "axis", &axis, x.rank))
    return fail();
  if (k.rank != 1 || (k.dims[0] != -1 && k.dims[0] != 1)) {
    nnError(op, "operand 'k' must be a 1-D i64 tensor with one element");
    return fail();
  }
  if (nnConstInts(strataNamedOperand(def, op, "k"), &kv, 1) == 1 &&
      (kv < 0 || (x.dims[axis] != -1 && kv > x.dims[axis]))) {
    nnError(op, "k = %lld is outside [0, %lld]", (long long)kv, (long long)x.dims[axis]);
    return fail();
  }
  res[0] = x;
  res[0].dims[axis] = kv;
  res[1] = res[0];
  res[1].elementType = mlirIntegerTypeGet(mlirOperationGetContext(op), 64);
  return ok();
}

/* An element to rank: floats by value, integers exactly (s, compared as
 * unsigned when the type is). */
typedef struct {
  double v;
  int64_t s, i;
  bool largest;
  char kind; /* 'f', 's' or 'u' */
} Ranked;

static int cmpRanked(const void *pa, const void *pb) {
  const Ranked *a = pa, *b = pb;
  bool differ = a->kind == 'f' ? a->v != b->v : a->s != b->s;
  if (differ) {
    bool less = a->kind == 'f' ? a->v < b->v : a->kind == 'u' ? (uint64_t)a->s < (uint64_t)b->s : a->s < b->s;
    return (a->largest ? less : !less) ? 1 : -1;
  }
  return (a->i > b->i) - (a->i < b->i); /* ties: the lower index first */
}

static MlirLogicalResult interpTopK(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                    StrataTensor **y) {
  (void)in;
  int64_t axis, largest, outer, len, inner, k = nnGetInt(x[1], 0);
  nnAttrInt(op, "axis", -1, &axis);
  nnAttrInt(op, "largest", 1, &largest);
  nnNormalizeAxis(op, "axis", &axis, x[0]->rank);
  around(x[0], (int)axis, &outer, &len, &inner);
  if (k < 0 || k > len) return nnInterpError(op, "k = %lld is outside [0, %lld]", (long long)k, (long long)len);
  Ranked *r = malloc((size_t)(len ? len : 1) * sizeof *r);
  if (!r) return nnInterpError(op, "out of memory");
  StrataDType t = x[0]->dtype;
  bool isFloat = nnIsFloatDType(t);
  char kind = isFloat ? 'f' : nnIsUnsignedDType(t) ? 'u' : 's';
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) {
      for (int64_t j = 0; j < len; j++) {
        int64_t e = (o * len + j) * inner + i;
        r[j] = (Ranked){isFloat ? strataTensorGetDouble(x[0], e) : 0, isFloat ? 0 : nnGetInt(x[0], e), j,
                        largest != 0, kind};
      }
      qsort(r, (size_t)len, sizeof *r, cmpRanked);
      for (int64_t j = 0; j < k; j++) {
        int64_t e = (o * k + j) * inner + i;
        if (isFloat)
          strataTensorSetDouble(y[0], e, r[j].v);
        else
          nnSetInt(y[0], e, r[j].s);
        nnSetInt(y[1], e, r[j].i);
      }
    }
  free(r);
  return ok();
}

#define REDUCE(n, sum)                                                                          \
  {.name = "nn." n,                                                                              \
   .summary = sum " over `axes` (attribute or operand; default all; keepdims = 1, "               \
              "noop_with_empty_axes = 0)",                                                       \
   .operands = "data, axes?", .results = "reduced", .flags = STRATA_OP_PURE, .infer = inferReduce,       \
   .interpret = interpReduce, .mapping = nnMapManyToMany, .dynamism = STRATA_DYN_ISDOS,           \
   .flops = flopsReduce, .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"}
static const StrataOpDef kOps[] = {
    REDUCE("reduce_sum", "sum"),
    REDUCE("reduce_mean", "mean"),
    REDUCE("reduce_max", "maximum (NaN propagates)"),
    REDUCE("reduce_min", "minimum (NaN propagates)"),
    REDUCE("reduce_prod", "product"),
    REDUCE("reduce_l1", "sum of |x|"),
    REDUCE("reduce_l2", "sqrt of the sum of squares"),
    REDUCE("reduce_sum_square", "sum of squares"),
    REDUCE("reduce_log_sum", "log of the sum"),
    REDUCE("reduce_log_sum_exp", "log(sum(exp(x))), computed stably"),
    {.name = "nn.arg_max",
     .summary = "index of the maximum along `axis` (keepdims, select_last_index), i64",
     .operands = "data",
     .results = "reduced",
     .flags = STRATA_OP_PURE,
     .infer = inferArg,
     .interpret = interpArg,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsReduce,
     .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"},
    {.name = "nn.arg_min",
     .summary = "index of the minimum along `axis` (keepdims, select_last_index), i64",
     .operands = "data",
     .results = "reduced",
     .flags = STRATA_OP_PURE,
     .infer = inferArg,
     .interpret = interpArg,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsReduce,
     .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"},
    {.name = "nn.softmax",
     .summary = "exp(x - max) / sum along `axis` (default -1)",
     .operands = "input",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferSoftmax,
     .interpret = interpSoftmax,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsSoftmax,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.log_softmax",
     .summary = "log of softmax along `axis` (default -1), computed stably",
     .operands = "input",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferSoftmax,
     .interpret = interpSoftmax,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsSoftmax,
     .types = "f16 bf16 f32 f64"},
    {.name = "nn.cum_sum",
     .summary = "running sum along `axis` (attribute or operand; exclusive, reverse)",
     .operands = "x, axis?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferCumSum,
     .interpret = interpCumSum,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsReduce,
     .types = "f16 bf16 f32 f64 i32 i64"},
    {.name = "nn.top_k",
     .summary = "the k largest (or smallest) along `axis`, sorted, and their i64 indices; ties " "keep the lower index",
     .operands = "x, k",
     .results = "values, indices",
     .flags = STRATA_OP_PURE,
     .infer = inferTopK,
     .interpret = interpTopK,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISVDOS,
     .flops = flopsReduce,
     .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64"},
};

const StrataOpTable nnReduceTable = {kOps, sizeof kOps / sizeof kOps[0]};
