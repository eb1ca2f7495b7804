/* Readers of the sparse ops' attributes (sparse.h, "The ops' attributes"):
 * the window, the FKW arrays and the CSR arrays. They are the verifiers'
 * checks as well as the lowerings' and passes' readers, so every array
 * length is checked against every use before the use, every sum and
 * product of attribute values is checked for overflow, and nothing is
 * allocated in proportion to a number the IR merely states (a dim, an
 * attribute value): only to the length of an array the IR holds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/support.h"
#include "sparse_internal.h"

int64_t *sparseI64Array(MlirOperation op, const char *name, int64_t *n) {
  MlirAttribute a = strataOpAttr(op, name);
  *n = -1;
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a)) return NULL;
  intptr_t len = mlirDenseArrayGetNumElements(a);
  int64_t *v = malloc(sizeof *v * (size_t)(len ? len : 1));
  if (!v) return NULL;
  for (intptr_t i = 0; i < len; i++) v[i] = mlirDenseI64ArrayGetElement(a, i);
  *n = len;
  return v;
}

/* An array<i64> attribute the op needs: false after a located error naming
 * it when absent or of another kind. The table also admits array<i32> and
 * [1, 2] for integer arrays; the FKW and CSR readers take only array<i64>,
 * and every pass reads them with sparseI64Array, so refusing the others
 * here keeps a pass from silently seeing no array. */
bool sparseRequiredArray(MlirOperation op, const char *name, int64_t **out, int64_t *n) {
  *out = sparseI64Array(op, name, n);
  if (*out) return true;
  MlirAttribute a = strataOpAttr(op, name);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsADenseI64Array(a)) strataEmitOpError(op, "out of memory");
  else strataEmitOpError(op, "needs attribute '%s': an array<i64>", name);
  return false;
}

bool sparseOptionalArray(MlirOperation op, const char *name, int64_t **out, int64_t *n) {
  *out = NULL, *n = -1;
  return mlirAttributeIsNull(strataOpAttr(op, name)) || sparseRequiredArray(op, name, out, n);
}

/* ---- Window ---- */

int sparseSmallI64Array(MlirOperation op, const char *name, int64_t *out, int max) {
  MlirAttribute a = strataOpAttr(op, name);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAArray(a)) /* [1, 2]: each element must fit */
    for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(a); i++) {
      MlirAttribute e = mlirArrayAttrGetElement(a, i);
      MlirType t = mlirAttributeGetType(e);
      if (!mlirAttributeIsAInteger(e) || (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) > 64)) return -2;
    }
  return strataGetI64Array(op, name, out, max);
}

static bool fixedArray(MlirOperation op, const char *name, int64_t *out, int n, bool required) {
  int got = sparseSmallI64Array(op, name, out, n);
  if (got == -1 && !required) return true;
  if (got != n) {
    strataEmitOpError(op, "needs attribute '%s' with %d integers", name, n);
    return false;
  }
  return true;
}

bool sparseWindowGet(MlirOperation op, SparseWindow *w) {
  w->strides[0] = w->strides[1] = 1;
  w->dilations[0] = w->dilations[1] = 1;
  memset(w->pads, 0, sizeof w->pads);
  w->kernel[0] = w->kernel[1] = 3;
  w->group = 1;
  /* Only the CSR baseline has a kernel size of its own; the pattern ops are
   * 3x3 by definition, and a kernel_shape saying otherwise would make the
   * interpreter and the lowerings walk 3x3 weights with another size. */
  bool csr = strataOpIsNamed(op, "sparse.csr_conv");
  if (!fixedArray(op, "strides", w->strides, 2, true) || !fixedArray(op, "pads", w->pads, 4, true) ||
      !fixedArray(op, "dilations", w->dilations, 2, true) || !fixedArray(op, "kernel_shape", w->kernel, 2, csr))
    return false;
  if (!csr && (w->kernel[0] != 3 || w->kernel[1] != 3)) {
    strataEmitOpError(op, "convolves 3x3 kernels: attribute 'kernel_shape' may only be [3, 3], not [%lld, %lld]",
                      (long long)w->kernel[0], (long long)w->kernel[1]);
    return false;
  }
  /* An integer wider than 64 bits reads as its low 64 bits: group = 2^64 + 1
   * would silently be 1. */
  MlirAttribute g = strataOpAttr(op, "group");
  MlirType gt = mlirAttributeIsNull(g) ? (MlirType){NULL} : mlirAttributeGetType(g);
  if (!strataGetI64(op, "group", &w->group) || (mlirTypeIsAInteger(gt) && mlirIntegerTypeGetWidth(gt) > 64)) {
    strataEmitOpError(op, "needs attribute 'group': a positive integer of at most 64 bits");
    return false;
  }
  for (int i = 0; i < 2; i++)
    if (w->strides[i] < 1 || w->dilations[i] < 1 || w->kernel[i] < 1) {
      strataEmitOpError(op, "strides, dilations and kernel_shape must be positive");
      return false;
    }
  for (int i = 0; i < 4; i++)
    if (w->pads[i] < 0) {
      strataEmitOpError(op, "pads must be non-negative");
      return false;
    }
  if (w->group < 1) {
    strataEmitOpError(op, "group must be positive, not %lld", (long long)w->group);
    return false;
  }
  return true;
}

bool sparseWindowOutDim(const SparseWindow *w, int d, int64_t in, int64_t *out, char *why, size_t whySize) {
  int64_t span, padded;
  if (!strataCheckedMul(w->kernel[d] - 1, w->dilations[d], &span) || !strataCheckedAdd(span, 1, &span) ||
      !strataCheckedAdd(in, w->pads[d], &padded) || !strataCheckedAdd(padded, w->pads[d + 2], &padded)) {
    snprintf(why, whySize, "the window arithmetic of input dim %d overflows int64", 2 + d);
    return false;
  }
  if (padded < span) {
    snprintf(why, whySize, "the %lld-wide window does not fit input dim %d of %lld (padded to %lld)", (long long)span,
             2 + d, (long long)in, (long long)padded);
    return false;
  }
  /* (padded - span) / stride <= padded - span: every index the
   * interpreter and the lowerings form from it stays below `padded`. */
  *out = (padded - span) / w->strides[d] + 1;
  return true;
}

int64_t sparseChannelsPerGroup(MlirOperation op) {
  int64_t g = 1;
  strataGetI64(op, "group", &g);
  MlirType x = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(x) || mlirShapedTypeGetRank(x) != 4 || g < 1) return -1;
  int64_t C = mlirShapedTypeGetDimSize(x, 1);
  return C < 0 || C % g ? -1 : C / g;
}

/* ---- Weights ---- */

/* The element count of a 1-D f32 dense elements attribute, -1 for anything
 * else. Counted, not copied: a splat states any length it likes. */
static int64_t f32Count(MlirAttribute a) {
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a)) return -1;
  MlirType t = mlirAttributeGetType(a);
  if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) || mlirShapedTypeGetRank(t) != 1) return -1;
  return mlirShapedTypeGetDimSize(t, 0);
}

/* Its values, once the count has been checked against the arrays. */
static float *f32Values(MlirAttribute a, int64_t n) {
  float *v = malloc(sizeof *v * (size_t)(n ? n : 1));
  if (!v) return NULL;
  bool splat = mlirDenseElementsAttrIsSplat(a);
  for (int64_t i = 0; i < n; i++) v[i] = mlirDenseElementsAttrGetFloatValue(a, splat ? 0 : (intptr_t)i);
  return v;
}

/* ---- FKW ---- */

bool sparsePatternSetOf(MlirOperation op, int64_t *masks, int64_t *P) {
  int64_t n;
  int64_t *v = sparseI64Array(op, "patterns", &n);
  char why[160];
  if (!v) {
    strataEmitOpError(op, "needs attribute 'patterns': an array<i64> of 9-bit masks");
    return false;
  }
  bool good = sparsePatternSetValid(v, n, why, sizeof why);
  if (good) memcpy(masks, v, sizeof *v * (size_t)n), *P = n;
  else strataEmitOpError(op, "attribute 'patterns': %s", why);
  free(v);
  return good;
}

static int compareChannelAt(const void *a, const void *b) {
  const int64_t *x = a, *y = b; /* (channel, position) pairs */
  return x[0] != y[0] ? (x[0] > y[0]) - (x[0] < y[0]) : (x[1] > y[1]) - (x[1] < y[1]);
}

/* Filter s's kernels index[lo..hi) name distinct channels in 0..C-1; false
 * after an error naming the first kernel that does not. Sorting (channel,
 * position) pairs instead of marking channels keeps the memory and time
 * in proportion to the kernels, not to C (a type may state 2^40 channels). */
static bool filterChannels(MlirOperation op, const SparseFkw *f, int64_t s, int64_t C, int64_t *pairs) {
  int64_t lo = f->offset[s], hi = f->offset[s + 1], bad = hi;
  for (int64_t k = lo; k < hi; k++) {
    if (f->index[k] < 0 || f->index[k] >= C) {
      bad = k;
      break;
    }
    pairs[2 * (k - lo)] = f->index[k], pairs[2 * (k - lo) + 1] = k;
  }
  int64_t n = bad - lo;
  qsort(pairs, (size_t)n, 2 * sizeof *pairs, compareChannelAt);
  for (int64_t i = 1; i < n; i++) /* a repeat: the later position of an equal pair */
    if (pairs[2 * i] == pairs[2 * i - 2] && pairs[2 * i + 1] < bad) bad = pairs[2 * i + 1];
  if (bad == hi) return true;
  strataEmitOpError(op, "index[%lld] = %lld: filter %lld's kernels need distinct input channels in 0..%lld",
                    (long long)bad, (long long)f->index[bad], (long long)s, (long long)(C - 1));
  return false;
}

/* Checks the arrays against each other (C = input channels per group), in
 * the order that makes each check's reads safe: offset bounds index, stride
 * is checked whole before its differences are summed, and the weight count
 * follows from both. *numWeights receives the count the patterns hold. */
static bool fkwConsistent(MlirOperation op, const SparseFkw *f, int64_t C, int64_t numIndex, int64_t numStride,
                          int64_t numGroupBounds, int64_t *numWeights) {
  int64_t M = f->M, P = f->P, expect;
  if (f->offset[0] != 0) return strataEmitOpError(op, "offset[0] must be 0"), false;
  for (int64_t s = 0; s < M; s++)
    if (f->offset[s + 1] < f->offset[s])
      return strataEmitOpError(op, "offset must be non-decreasing (offset[%lld] > offset[%lld])", (long long)s,
                               (long long)(s + 1)),
             false;
  if (numIndex != f->offset[M])
    return strataEmitOpError(op, "index has %lld entries but offset ends at %lld", (long long)numIndex,
                             (long long)f->offset[M]),
           false;
  if (!strataCheckedMul(M, P + 1, &expect) || numStride != expect)
    return strataEmitOpError(op, "stride has %lld entries, expected %lld (%lld filters x (%lld patterns + 1))",
                             (long long)numStride, (long long)expect, (long long)M, (long long)P),
           false;
  bool *seen = calloc((size_t)M, 1);
  int64_t *pairs = malloc(sizeof *pairs * 2 * (size_t)(numIndex ? numIndex : 1));
  bool good = seen && pairs;
  if (!good) strataEmitOpError(op, "out of memory");
  for (int64_t s = 0; s < M && good; s++) {
    int64_t r = f->reorder[s];
    if (r < 0 || r >= M || seen[r]) {
      strataEmitOpError(op, "reorder must be a permutation of 0..%lld (entry %lld is %lld)", (long long)(M - 1),
                        (long long)s, (long long)r);
      good = false;
    } else
      seen[r] = true;
  }
  int64_t weights = 0;
  for (int64_t s = 0; s < M && good; s++) {
    const int64_t *st = f->stride + s * (P + 1);
    int64_t len = f->offset[s + 1] - f->offset[s];
    if (st[0] != 0 || st[P] != len) {
      strataEmitOpError(op, "stride of filter %lld must run from 0 to its %lld kernels", (long long)s, (long long)len);
      good = false;
      break;
    }
    for (int64_t p = 0; p < P && good; p++)
      if (st[p + 1] < st[p]) {
        strataEmitOpError(op, "stride of filter %lld must be non-decreasing", (long long)s);
        good = false;
      }
    /* 0 = st[0] <= ... <= st[P] = len: the sum is at most 9 * numIndex. */
    for (int64_t p = 0; p < P && good; p++) weights += (st[p + 1] - st[p]) * sparsePopcount(f->masks[p]);
    good = good && filterChannels(op, f, s, C, pairs);
  }
  free(seen), free(pairs);
  if (good) {
    bool g = numGroupBounds >= 2 && f->groups[0] == 0 && f->groups[numGroupBounds - 1] == M;
    for (int64_t i = 0; g && i + 1 < numGroupBounds; i++) g = f->groups[i] < f->groups[i + 1];
    if (!g) {
      strataEmitOpError(op, "groups must be increasing group boundaries from 0 to %lld", (long long)M);
      good = false;
    }
  }
  *numWeights = weights;
  return good;
}

bool sparseFkwFromOp(MlirOperation op, SparseFkw *f) {
  memset(f, 0, sizeof *f);
  if (!sparsePatternSetOf(op, f->masks, &f->P)) return false;
  int64_t nOff, nRe, nIdx, nStr, nGr, weights = 0;
  MlirAttribute weightAttr = strataOpAttr(op, "weight");
  int64_t nW = f32Count(weightAttr), C = sparseChannelsPerGroup(op);
  bool good = sparseRequiredArray(op, "offset", &f->offset, &nOff) &&
              sparseRequiredArray(op, "reorder", &f->reorder, &nRe) &&
              sparseRequiredArray(op, "index", &f->index, &nIdx) &&
              sparseRequiredArray(op, "stride", &f->stride, &nStr) &&
              sparseRequiredArray(op, "groups", &f->groups, &nGr);
  if (good && nW < 0) strataEmitOpError(op, "needs attribute 'weight': 1-D dense f32 elements"), good = false;
  else if (good && C < 0)
    strataEmitOpError(op, "needs a static NCHW input whose channels divide by group"), good = false;
  else if (good && (nRe < 1 || nOff != nRe + 1))
    strataEmitOpError(op, "reorder has %lld entries and offset %lld: offset needs one more", (long long)nRe,
                      (long long)nOff),
        good = false;
  if (good) {
    f->M = nRe, f->C = C, f->numGroups = nGr - 1;
    good = fkwConsistent(op, f, C, nIdx, nStr, nGr, &weights);
  }
  if (good && weights != nW)
    strataEmitOpError(op, "weight has %lld values, but the kernels' patterns hold %lld", (long long)nW,
                      (long long)weights),
        good = false;
  if (good) {
    f->numWeights = nW;
    f->weight = f32Values(weightAttr, nW);
    if (!f->weight) strataEmitOpError(op, "out of memory"), good = false;
  }
  if (!good) sparseFkwFree(f);
  return good;
}

static void setAttr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

static MlirAttribute i64ArrayAttr(MlirContext ctx, const int64_t *v, int64_t n) {
  return mlirDenseI64ArrayGet(ctx, (intptr_t)n, v);
}

void sparseFkwSetAttrs(MlirOperation op, const SparseFkw *f) {
  MlirContext ctx = mlirOperationGetContext(op);
  setAttr(op, "patterns", i64ArrayAttr(ctx, f->masks, f->P));
  setAttr(op, "offset", i64ArrayAttr(ctx, f->offset, f->M + 1));
  setAttr(op, "reorder", i64ArrayAttr(ctx, f->reorder, f->M));
  setAttr(op, "index", i64ArrayAttr(ctx, f->index, f->offset[f->M]));
  setAttr(op, "stride", i64ArrayAttr(ctx, f->stride, f->M * (f->P + 1)));
  setAttr(op, "groups", i64ArrayAttr(ctx, f->groups, f->numGroups + 1));
  int64_t n = f->numWeights;
  MlirType t = mlirRankedTensorTypeGet(1, &n, mlirF32TypeGet(ctx), mlirAttributeGetNull());
  setAttr(op, "weight", mlirDenseElementsAttrFloatGet(t, (intptr_t)n, f->weight));
}

/* ---- CSR ---- */

bool sparseCsrFromOp(MlirOperation op, SparseCsr *c) {
  memset(c, 0, sizeof *c);
  SparseWindow w;
  if (!sparseWindowGet(op, &w)) return false;
  int64_t nRow, nCol, C = sparseChannelsPerGroup(op), K = -1;
  MlirAttribute valueAttr = strataOpAttr(op, "values");
  int64_t nVal = f32Count(valueAttr);
  bool good = sparseRequiredArray(op, "row_ptr", &c->rowPtr, &nRow) &&
              sparseRequiredArray(op, "col_index", &c->col, &nCol);
  if (good && nVal < 0) strataEmitOpError(op, "needs attribute 'values': 1-D dense f32 elements"), good = false;
  else if (good && C < 0)
    strataEmitOpError(op, "needs a static NCHW input whose channels divide by group"), good = false;
  else if (good && (!strataCheckedMul(C, w.kernel[0], &K) || !strataCheckedMul(K, w.kernel[1], &K)))
    strataEmitOpError(op, "a filter of %lld channels x %lld x %lld taps has more columns than int64 counts",
                      (long long)C, (long long)w.kernel[0], (long long)w.kernel[1]),
        good = false;
  else if (good && (nRow < 2 || nCol != nVal || c->rowPtr[0] != 0 || c->rowPtr[nRow - 1] != nCol))
    strataEmitOpError(op, "row_ptr must run from 0 to the %lld entries of col_index and values", (long long)nCol),
        good = false;
  if (good) {
    c->M = nRow - 1, c->K = K;
    /* Monotone first: then every row's entries lie inside col_index. */
    for (int64_t m = 0; m < c->M && good; m++)
      if (c->rowPtr[m + 1] < c->rowPtr[m])
        strataEmitOpError(op, "row_ptr must be non-decreasing (row_ptr[%lld] > row_ptr[%lld])", (long long)m,
                          (long long)(m + 1)),
            good = false;
    for (int64_t m = 0; m < c->M && good; m++)
      for (int64_t j = c->rowPtr[m]; j < c->rowPtr[m + 1] && good; j++)
        if (c->col[j] < 0 || c->col[j] >= K || (j > c->rowPtr[m] && c->col[j] <= c->col[j - 1]))
          strataEmitOpError(op, "col_index[%lld] = %lld: a row's columns increase within 0..%lld", (long long)j,
                            (long long)c->col[j], (long long)(K - 1)),
              good = false;
  }
  if (good) {
    c->val = f32Values(valueAttr, nVal);
    if (!c->val) strataEmitOpError(op, "out of memory"), good = false;
  }
  if (!good) sparseCsrFree(c);
  return good;
}

void sparseDefaultTile(int64_t OH, int64_t vectors, int64_t tile[2]) {
  static const int64_t kRows[] = {4, 7, 6, 5, 3};
  tile[1] = vectors < 1 ? 1 : vectors < 4 ? vectors : 4;
  tile[0] = OH < 4 ? (OH < 1 ? 1 : OH) : 4;
  for (size_t i = 0; OH >= 4 && i < sizeof kRows / sizeof kRows[0]; i++)
    if (OH % kRows[i] == 0 && kRows[i] * tile[1] <= 24) {
      tile[0] = kRows[i];
      break;
    }
}

int64_t sparseColumnOffsets(const SparseWindow *w, int64_t *largest) {
  int64_t n = 1, last = 0;
  *largest = 0;
  if (w->strides[1] > w->kernel[1]) return 1;
  for (int64_t q = 1; q < w->kernel[1]; q++) /* non-decreasing in q */
    if (q * w->dilations[1] / w->strides[1] != last) last = q * w->dilations[1] / w->strides[1], n++;
  *largest = last;
  return n;
}

bool sparseDefaultSums(const SparseWindow *w, int64_t OH, int64_t OW, int64_t lanes, int64_t tile[2]) {
  int64_t largest, width = tile[1] * lanes, rest = width > 0 ? OW % width : 0;
  int64_t last = rest % lanes ? rest % lanes : lanes;
  int64_t sets = sparseColumnOffsets(w, &largest);
  if (sets < 2 || largest >= lanes) return false;
  /* a row whose last vector has no room for the offsets: its tiles pass
   * their last vector on (full tiles); keep the rows, cut the vectors
   * (to 2: measured faster than fewer rows on 112- and 224-wide rows) */
  if (rest == 0 || last + largest > lanes)
    while (tile[1] > 2 && tile[0] * tile[1] * sets > 24) tile[1]--;
  int64_t fit = tile[0];
  while (fit > 1 && fit * tile[1] * sets > 24) fit--;
  tile[0] = fit;
  for (int64_t r = fit; r > 1 && OH % fit; r--)
    if (OH % r == 0) tile[0] = r, fit = r;
  return true;
}
