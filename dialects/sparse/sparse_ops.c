/* The sparse dialect (PatDNN): pattern-pruned 3x3 convolutions, as dense
 * weights with a pattern set (sparse.pattern_conv, what detection and
 * pruning produce), in FKW form (sparse.fkw_conv, what the lowerings
 * compile) and the CSR baseline (sparse.csr_conv). Each op is a
 * convolution, NCHW f32, with ONNX's window attributes written out; the
 * interpreter decodes the weights into a dense [M, C/group, kh, kw] array
 * and convolves, so it checks the formats as well as the code. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/dialect.h"
#include "strata/support.h"
#include "strata/sparse.h"
#include "sparse.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

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

/* ---- Window ---- */

static bool fixedArray(MlirOperation op, const char *name, int64_t *out, int n, bool required) {
  int got = strataGetI64Array(op, name, out, n);
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
  if (!fixedArray(op, "strides", w->strides, 2, true) || !fixedArray(op, "pads", w->pads, 4, true) ||
      !fixedArray(op, "dilations", w->dilations, 2, true) ||
      !fixedArray(op, "kernel_shape", w->kernel, 2, false))
    return false;
  strataGetI64(op, "group", &w->group);
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

/* ---- The FKW arrays ---- */

static bool patternSet(MlirOperation op, int64_t *masks, int64_t *P) {
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

/* Checks the arrays against each other (C = input channels per group). */
static bool fkwConsistent(MlirOperation op, const SparseFkw *f, int64_t C, int64_t numIndex,
                          int64_t numStride, int64_t numGroupBounds) {
  int64_t M = f->M, P = f->P;
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
  if (numStride != M * (P + 1))
    return strataEmitOpError(op, "stride has %lld entries, expected %lld (%lld filters x (%lld patterns + 1))",
                   (long long)numStride, (long long)(M * (P + 1)), (long long)M, (long long)P),
           false;
  bool *seen = calloc((size_t)(M + C + 1), 1);
  if (!seen) return strataEmitOpError(op, "out of memory"), false;
  bool good = true;
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
    for (int64_t p = 0; p < P && good; p++) {
      if (st[p + 1] < st[p]) {
        strataEmitOpError(op, "stride of filter %lld must be non-decreasing", (long long)s);
        good = false;
      }
      weights += (st[p + 1] - st[p]) * sparsePopcount(f->masks[p]);
    }
    bool *used = seen + M;
    memset(used, 0, (size_t)C);
    for (int64_t k = f->offset[s]; k < f->offset[s + 1] && good; k++) {
      int64_t c = f->index[k];
      if (c < 0 || c >= C || used[c]) {
        strataEmitOpError(op, "index[%lld] = %lld: filter %lld's kernels need distinct input channels in 0..%lld",
                (long long)k, (long long)c, (long long)s, (long long)(C - 1));
        good = false;
      } else
        used[c] = true;
    }
  }
  free(seen);
  if (good && weights != f->numWeights) {
    strataEmitOpError(op, "weight has %lld values, but the kernels' patterns hold %lld", (long long)f->numWeights,
            (long long)weights);
    good = false;
  }
  if (good) {
    bool g = numGroupBounds >= 2 && f->groups[0] == 0 && f->groups[numGroupBounds - 1] == M;
    for (int64_t i = 0; g && i + 1 < numGroupBounds; i++) g = f->groups[i] < f->groups[i + 1];
    if (!g) {
      strataEmitOpError(op, "groups must be increasing group boundaries from 0 to %lld", (long long)M);
      good = false;
    }
  }
  return good;
}

/* The f32 values of a dense elements attribute (copied). */
static float *f32Values(MlirAttribute a, int64_t *n) {
  *n = -1;
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a)) return NULL;
  MlirType t = mlirAttributeGetType(a);
  if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) || mlirShapedTypeGetRank(t) != 1) return NULL;
  int64_t len = mlirShapedTypeGetDimSize(t, 0);
  float *v = malloc(sizeof *v * (size_t)(len ? len : 1));
  if (!v) return NULL;
  bool splat = mlirDenseElementsAttrIsSplat(a);
  for (int64_t i = 0; i < len; i++) v[i] = mlirDenseElementsAttrGetFloatValue(a, splat ? 0 : i);
  *n = len;
  return v;
}

static int64_t channelsPerGroup(MlirOperation op) {
  int64_t g = 1;
  strataGetI64(op, "group", &g);
  MlirType x = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(x) || mlirShapedTypeGetRank(x) != 4 || g < 1) return -1;
  int64_t C = mlirShapedTypeGetDimSize(x, 1);
  return C < 0 || C % g ? -1 : C / g;
}

bool sparseFkwFromOp(MlirOperation op, SparseFkw *f) {
  memset(f, 0, sizeof *f);
  if (!patternSet(op, f->masks, &f->P)) return false;
  int64_t nOff, nRe, nIdx, nStr, nGr;
  f->offset = sparseI64Array(op, "offset", &nOff);
  f->reorder = sparseI64Array(op, "reorder", &nRe);
  f->index = sparseI64Array(op, "index", &nIdx);
  f->stride = sparseI64Array(op, "stride", &nStr);
  f->groups = sparseI64Array(op, "groups", &nGr);
  f->weight = f32Values(strataOpAttr(op, "weight"), &f->numWeights);
  int64_t C = channelsPerGroup(op);
  bool good = f->offset && f->reorder && f->index && f->stride && f->groups && f->weight;
  if (!good) strataEmitOpError(op, "needs i64 arrays offset, reorder, index, stride, groups and an f32 1-D 'weight'");
  else if (C < 0) strataEmitOpError(op, "needs a static NCHW input whose channels divide by group"), good = false;
  else if (nRe < 1 || nOff != nRe + 1)
    strataEmitOpError(op, "reorder has %lld entries and offset %lld: offset needs one more", (long long)nRe,
            (long long)nOff),
        good = false;
  if (good) {
    f->M = nRe, f->C = C, f->numGroups = nGr - 1;
    good = fkwConsistent(op, f, C, nIdx, nStr, nGr);
  }
  if (!good) sparseFkwFree(f);
  return good;
}

static MlirAttribute i64ArrayAttr(MlirContext ctx, const int64_t *v, int64_t n) {
  return mlirDenseI64ArrayGet(ctx, (intptr_t)n, v);
}

static void setAttr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
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

bool sparseCsrFromOp(MlirOperation op, SparseCsr *c) {
  memset(c, 0, sizeof *c);
  SparseWindow w;
  if (!sparseWindowGet(op, &w)) return false;
  int64_t nRow, nCol, nVal, C = channelsPerGroup(op);
  c->rowPtr = sparseI64Array(op, "row_ptr", &nRow);
  c->col = sparseI64Array(op, "col_index", &nCol);
  c->val = f32Values(strataOpAttr(op, "values"), &nVal);
  bool good = c->rowPtr && c->col && c->val;
  if (!good) strataEmitOpError(op, "needs i64 arrays row_ptr, col_index and an f32 1-D 'values'");
  else if (C < 0) strataEmitOpError(op, "needs a static NCHW input whose channels divide by group"), good = false;
  else if (nRow < 2 || nCol != nVal || c->rowPtr[0] != 0 || c->rowPtr[nRow - 1] != nCol)
    strataEmitOpError(op, "row_ptr must run from 0 to the %lld entries of col_index and values", (long long)nCol),
        good = false;
  if (good) {
    c->M = nRow - 1, c->K = C * w.kernel[0] * w.kernel[1];
    for (int64_t m = 0; m < c->M && good; m++) {
      if (c->rowPtr[m + 1] < c->rowPtr[m]) strataEmitOpError(op, "row_ptr must be non-decreasing"), good = false;
      for (int64_t j = c->rowPtr[m]; j < c->rowPtr[m + 1] && good; j++)
        if (c->col[j] < 0 || c->col[j] >= c->K || (j > c->rowPtr[m] && c->col[j] <= c->col[j - 1]))
          strataEmitOpError(op, "col_index[%lld] = %lld: a row's columns increase within 0..%lld", (long long)j,
                  (long long)c->col[j], (long long)(c->K - 1)),
              good = false;
    }
  }
  if (!good) sparseCsrFree(c);
  return good;
}

/* ---- Shapes ---- */

static bool inputShape(MlirOperation op, int64_t *dims, MlirType *et) {
  int rank;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!strataGetShape(t, &rank, dims) || rank != 4 || !mlirTypeIsAF32(mlirShapedTypeGetElementType(t))) {
    char s[200];
    strataTypeToString(t, s, sizeof s);
    strataEmitOpError(op, "operand 'x' must be an NCHW tensor of f32, not %s", s);
    return false;
  }
  *et = mlirShapedTypeGetElementType(t);
  return true;
}

/* The result shape [N, M, OH, OW] of a window over x; checks the bias. */
static MlirLogicalResult inferWindow(MlirOperation op, int64_t M, intptr_t biasOperand, StrataShape *res) {
  int64_t x[STRATA_MAX_RANK];
  MlirType et;
  SparseWindow w;
  if (!inputShape(op, x, &et) || !sparseWindowGet(op, &w)) return fail();
  if (x[1] >= 0 && x[1] % w.group) {
    strataEmitOpError(op, "input channels (%lld) do not divide by group %lld", (long long)x[1], (long long)w.group);
    return fail();
  }
  if (M % w.group) {
    strataEmitOpError(op, "output channels (%lld) do not divide by group %lld", (long long)M, (long long)w.group);
    return fail();
  }
  if (mlirOperationGetNumOperands(op) > biasOperand) {
    int rank;
    int64_t b[STRATA_MAX_RANK];
    MlirType bt = mlirValueGetType(mlirOperationGetOperand(op, biasOperand));
    if (!strataGetShape(bt, &rank, b) || rank != 1 || (b[0] >= 0 && b[0] != M) ||
        !mlirTypeIsAF32(mlirShapedTypeGetElementType(bt))) {
      strataEmitOpError(op, "operand 'b' must be a tensor<%lldxf32> (one value per output channel)", (long long)M);
      return fail();
    }
  }
  res->rank = 4;
  res->elementType = et;
  res->dims[0] = x[0];
  res->dims[1] = M;
  for (int d = 0; d < 2; d++) {
    if (x[2 + d] < 0) {
      res->dims[2 + d] = -1;
      continue;
    }
    int64_t span = w.dilations[d] * (w.kernel[d] - 1) + 1, padded = x[2 + d] + w.pads[d] + w.pads[d + 2];
    if (padded < span) {
      strataEmitOpError(op, "the %lld-wide window does not fit input dim %d of %lld (padded to %lld)", (long long)span,
              2 + d, (long long)x[2 + d], (long long)padded);
      return fail();
    }
    res->dims[2 + d] = (padded - span) / w.strides[d] + 1;
  }
  return ok();
}

static MlirLogicalResult inferPattern(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int rank;
  int64_t wd[STRATA_MAX_RANK], x[STRATA_MAX_RANK];
  MlirType wt = mlirValueGetType(mlirOperationGetOperand(op, 1)), et;
  SparseWindow win;
  if (!inputShape(op, x, &et) || !sparseWindowGet(op, &win)) return fail();
  if (!strataGetShape(wt, &rank, wd) || rank != 4 || wd[0] < 0 || wd[2] != 3 || wd[3] != 3 ||
      !mlirTypeIsAF32(mlirShapedTypeGetElementType(wt)) ||
      (x[1] >= 0 && wd[1] * win.group != x[1])) {
    char s[200];
    strataTypeToString(wt, s, sizeof s);
    strataEmitOpError(op, "operand 'w' must be tensor<Mx(C/group)x3x3xf32> for %lld input channels and group %lld, not %s",
            (long long)x[1], (long long)win.group, s);
    return fail();
  }
  return inferWindow(op, wd[0], 2, res);
}

static MlirLogicalResult inferFkw(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  MlirAttribute r = strataOpAttr(op, "reorder");
  if (mlirAttributeIsNull(r) || !mlirAttributeIsADenseI64Array(r) || mlirDenseArrayGetNumElements(r) < 1) {
    strataEmitOpError(op, "needs attribute 'reorder': a non-empty array<i64>");
    return fail();
  }
  return inferWindow(op, mlirDenseArrayGetNumElements(r), 1, res);
}

static MlirLogicalResult inferCsr(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  MlirAttribute r = strataOpAttr(op, "row_ptr");
  if (mlirAttributeIsNull(r) || !mlirAttributeIsADenseI64Array(r) || mlirDenseArrayGetNumElements(r) < 2) {
    strataEmitOpError(op, "needs attribute 'row_ptr': an array<i64> of at least 2 entries");
    return fail();
  }
  return inferWindow(op, mlirDenseArrayGetNumElements(r) - 1, 1, res);
}

/* ---- Verifiers (after the generic checks and shape inference) ---- */

/* The constant a value holds (nn.constant or arith.constant), or null. */
MlirAttribute sparseConstantValue(MlirValue v) {
  if (!mlirValueIsAOpResult(v)) return mlirAttributeGetNull();
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(def, "nn.constant") && !strataOpIsNamed(def, "arith.constant"))
    return mlirAttributeGetNull();
  return strataOpAttr(def, "value");
}

static MlirLogicalResult verifyPattern(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  int64_t masks[SPARSE_MAX_PATTERNS], P;
  if (!patternSet(op, masks, &P)) return fail();
  int64_t no, ng;
  int64_t *order = sparseI64Array(op, "filter_order", &no), *groups = sparseI64Array(op, "filter_groups", &ng);
  MlirType wt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t M = mlirShapedTypeGetDimSize(wt, 0), C = mlirShapedTypeGetDimSize(wt, 1);
  bool good = true;
  if ((order == NULL) != (groups == NULL) || (order && no != M)) {
    strataEmitOpError(op, "filter_order (a permutation of the %lld filters) and filter_groups come together", (long long)M);
    good = false;
  }
  if (good && order) {
    bool *seen = calloc((size_t)M, 1);
    for (int64_t s = 0; seen && s < M && good; s++) {
      if (order[s] < 0 || order[s] >= M || seen[order[s]])
        strataEmitOpError(op, "filter_order must be a permutation of 0..%lld", (long long)(M - 1)), good = false;
      else
        seen[order[s]] = true;
    }
    free(seen);
    bool g = ng >= 2 && groups[0] == 0 && groups[ng - 1] == M;
    for (int64_t i = 0; g && i + 1 < ng; i++) g = groups[i] < groups[i + 1];
    if (good && !g) strataEmitOpError(op, "filter_groups must increase from 0 to %lld", (long long)M), good = false;
  }
  free(order), free(groups);
  /* Constant weights must follow the set: every kernel zero or inside a mask. */
  StrataTensor *w = good ? strataTensorFromAttr(sparseConstantValue(mlirOperationGetOperand(op, 1))) : NULL;
  if (w && w->dtype == STRATA_DTYPE_F32) {
    int *pat = malloc(sizeof *pat * (size_t)(M * C > 0 ? M * C : 1));
    int64_t bm, bc;
    if (pat && !sparseAssignPatterns(w->data, M, C, masks, (int)P, pat, &bm, &bc)) {
      char k[96];
      int n = 0;
      for (int b = 0; b < 9; b++) n += snprintf(k + n, sizeof k - (size_t)n, "%s%g", b ? "," : "", (double)((const float *)w->data)[(bm * C + bc) * 9 + b]);
      strataEmitOpError(op, "the kernel of filter %lld, input channel %lld [%s] (support 0x%03llx) fits no pattern of the set",
              (long long)bm, (long long)bc, k,
              (unsigned long long)sparseSupport((const float *)w->data + (bm * C + bc) * 9));
      good = false;
    }
    free(pat);
  }
  strataTensorDestroy(w);
  return good ? ok() : fail();
}

static MlirLogicalResult verifyFkw(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  SparseFkw f;
  if (!sparseFkwFromOp(op, &f)) return fail();
  sparseFkwFree(&f);
  int64_t t[4];
  int nt = strataGetI64Array(op, "tile", t, 4), nu = strataGetI64Array(op, "unroll", t, 4);
  if (nt != -1 && nt != 2) return strataEmitOpError(op, "tile is [output rows, output column vectors]"), fail();
  if (nt == 2) {
    strataGetI64Array(op, "tile", t, 2);
    if (t[0] < 1 || t[0] > 16 || t[1] < 1 || t[1] > 16)
      return strataEmitOpError(op, "tile entries must be 1 to 16"), fail();
  }
  if (nu != -1 && nu != 1) return strataEmitOpError(op, "unroll is [filters]"), fail();
  if (nu == 1) {
    strataGetI64Array(op, "unroll", t, 1);
    if (t[0] < 1 || t[0] > 8) return strataEmitOpError(op, "unroll must be 1 to 8 filters"), fail();
  }
  return ok();
}

static MlirLogicalResult verifyCsr(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  SparseCsr c;
  if (!sparseCsrFromOp(op, &c)) return fail();
  sparseCsrFree(&c);
  return ok();
}

/* ---- Interpreter: decode to dense weights, then convolve ---- */

static void convolve(const StrataTensor *X, const float *W, int64_t M, const SparseWindow *w,
                     const StrataTensor *B, StrataTensor *Y) {
  int64_t N = X->dims[0], C = X->dims[1], H = X->dims[2], Wd = X->dims[3];
  int64_t OH = Y->dims[2], OW = Y->dims[3], kh = w->kernel[0], kw = w->kernel[1];
  int64_t Cg = C / w->group, Mg = M / w->group;
  const float *x = X->data;
  float *y = Y->data;
  for (int64_t n = 0; n < N; n++)
    for (int64_t m = 0; m < M; m++) {
      int64_t g = m / Mg;
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          double acc = B ? ((const float *)B->data)[m] : 0.0;
          for (int64_t c = 0; c < Cg; c++)
            for (int64_t r = 0; r < kh; r++) {
              int64_t ih = oh * w->strides[0] + r * w->dilations[0] - w->pads[0];
              if (ih < 0 || ih >= H) continue;
              for (int64_t q = 0; q < kw; q++) {
                int64_t iw = ow * w->strides[1] + q * w->dilations[1] - w->pads[1];
                if (iw < 0 || iw >= Wd) continue;
                acc += (double)x[((n * C + g * Cg + c) * H + ih) * Wd + iw] *
                       (double)W[((m * Cg + c) * kh + r) * kw + q];
              }
            }
          y[((n * M + m) * OH + oh) * OW + ow] = (float)acc;
        }
    }
}

static MlirLogicalResult interpPattern(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  SparseWindow w;
  if (!sparseWindowGet(op, &w) || !y[0]) return fail();
  convolve(x[0], x[1]->data, x[1]->dims[0], &w, mlirOperationGetNumOperands(op) > 2 ? x[2] : NULL, y[0]);
  return ok();
}

static MlirLogicalResult interpFkw(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                   StrataTensor **y) {
  (void)in;
  SparseWindow w;
  SparseFkw f;
  if (!sparseWindowGet(op, &w) || !y[0] || !sparseFkwFromOp(op, &f)) return fail();
  float *dense = malloc(sizeof *dense * (size_t)(f.M * f.C * SPARSE_KERNEL));
  if (!dense) {
    sparseFkwFree(&f);
    strataEmitOpError(op, "out of memory");
    return fail();
  }
  sparseFkwToDense(&f, dense);
  convolve(x[0], dense, f.M, &w, mlirOperationGetNumOperands(op) > 1 ? x[1] : NULL, y[0]);
  free(dense);
  sparseFkwFree(&f);
  return ok();
}

static MlirLogicalResult interpCsr(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                   StrataTensor **y) {
  (void)in;
  SparseWindow w;
  SparseCsr c;
  if (!sparseWindowGet(op, &w) || !y[0] || !sparseCsrFromOp(op, &c)) return fail();
  float *dense = calloc((size_t)(c.M * c.K > 0 ? c.M * c.K : 1), sizeof *dense);
  if (!dense) {
    sparseCsrFree(&c);
    strataEmitOpError(op, "out of memory");
    return fail();
  }
  for (int64_t m = 0; m < c.M; m++)
    for (int64_t j = c.rowPtr[m]; j < c.rowPtr[m + 1]; j++) dense[m * c.K + c.col[j]] = c.val[j];
  convolve(x[0], dense, c.M, &w, mlirOperationGetNumOperands(op) > 1 ? x[1] : NULL, y[0]);
  free(dense);
  sparseCsrFree(&c);
  return ok();
}

/* ---- FLOPs: 2 per multiply-add actually performed ---- */

static double outPixels(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return 0;
  return (double)(mlirShapedTypeGetDimSize(t, 0) * mlirShapedTypeGetDimSize(t, 2) * mlirShapedTypeGetDimSize(t, 3));
}

static double flopsPattern(MlirOperation op) {
  StrataTensor *w = strataTensorFromAttr(sparseConstantValue(mlirOperationGetOperand(op, 1)));
  double nz = 0;
  if (w && w->dtype == STRATA_DTYPE_F32)
    for (int64_t i = 0; i < strataTensorNumElements(w); i++) nz += ((const float *)w->data)[i] != 0.0f;
  strataTensorDestroy(w);
  return 2.0 * nz * outPixels(op);
}

static double flopsFkw(MlirOperation op) {
  MlirAttribute a = strataOpAttr(op, "weight");
  return mlirAttributeIsNull(a) ? 0 : 2.0 * (double)mlirElementsAttrGetNumElements(a) * outPixels(op);
}

static double flopsCsr(MlirOperation op) {
  MlirAttribute a = strataOpAttr(op, "values");
  return mlirAttributeIsNull(a) ? 0 : 2.0 * (double)mlirElementsAttrGetNumElements(a) * outPixels(op);
}

/* ---- The table ---- */

#define WINDOW_ATTRS                                                                                   \
  {"strides", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL, "[stride_h, stride_w]"},             \
      {"pads", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL, "[top, left, bottom, right]"},      \
      {"dilations", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL, "[dilation_h, dilation_w]"},   \
      {"group", STRATA_ATTR_INT, STRATA_ATTR_NON_NEGATIVE, NULL, "convolution groups (ONNX `group`)"}
#define PATTERN_ATTR                                                                                   \
  {"patterns", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL,                                     \
   "the pattern set: distinct 9-bit masks over the 3x3 kernel, bit 3*row+col"}

static const StrataAttrDef kPatternAttrs[] = {
    PATTERN_ATTR,
    WINDOW_ATTRS,
    {"filter_order", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_OPTIONAL, NULL,
     "FKR: the original filter at each stored position (with filter_groups)"},
    {"filter_groups", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_OPTIONAL, NULL,
     "FKR: boundaries of the equal-length filter groups over stored positions"},
};

static const StrataAttrDef kFkwAttrs[] = {
    PATTERN_ATTR,
    WINDOW_ATTRS,
    {"offset", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL,
     "per stored filter, the prefix count of its kernels (M + 1 entries)"},
    {"reorder", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL, "stored filter -> output channel"},
    {"index", STRATA_ATTR_INT_ARRAY, 0, NULL, "each kernel's input channel (within its group)"},
    {"stride", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL,
     "per stored filter, P + 1 cumulative kernel counts by pattern id"},
    {"weight", STRATA_ATTR_ELEMENTS, 0, NULL, "popcount(mask) f32 values per kernel, in kernel order"},
    {"groups", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL,
     "FKR group boundaries over stored filters ([0, M]: one group)"},
    {"tile", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_OPTIONAL, NULL,
     "tuning: [output rows, output column vectors] per register tile"},
    {"unroll", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_OPTIONAL, NULL,
     "tuning: [filters] computed together where they share (pattern, channel)"},
    {"permute", STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, "co_oh_ow_ci|oh_co_ow_ci",
     "tuning: loop order (output channel, output row, output column, input channel)"},
};

static const StrataAttrDef kCsrAttrs[] = {
    {"kernel_shape", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL, "[kh, kw]"},
    WINDOW_ATTRS,
    {"row_ptr", STRATA_ATTR_INT_ARRAY, STRATA_ATTR_NON_EMPTY, NULL, "per output channel, CSR row start (M + 1)"},
    {"col_index", STRATA_ATTR_INT_ARRAY, 0, NULL, "column of each value: (c*kh + r)*kw + q"},
    {"values", STRATA_ATTR_ELEMENTS, 0, NULL, "the nonzero weights, f32"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

static const StrataOpDef kOps[] = {
    {.name = "sparse.pattern_conv",
     .summary = "3x3 convolution whose weights `w` follow a pattern set: each kernel is zero "
                "(connectivity-pruned) or nonzero only inside one of `patterns`' masks; FKR's "
                "filter order may be attached",
     .operands = "x, w, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferPattern,
     .interpret = interpPattern,
     .verify = verifyPattern,
     .flops = flopsPattern,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f32",
     .attrs = kPatternAttrs,
     .numAttrs = COUNT(kPatternAttrs)},
    {.name = "sparse.fkw_conv",
     .summary = "pattern-pruned 3x3 convolution with its weights in FKW form (offset, reorder, "
                "index, stride, weight) and the layerwise representation's tuning (tile, unroll, "
                "permute)",
     .operands = "x, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferFkw,
     .interpret = interpFkw,
     .verify = verifyFkw,
     .flops = flopsFkw,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f32",
     .attrs = kFkwAttrs,
     .numAttrs = COUNT(kFkwAttrs)},
    {.name = "sparse.csr_conv",
     .summary = "convolution with its weights in CSR form (rows: output channels; columns: "
                "input channel x kernel position): the sparse baseline",
     .operands = "x, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferCsr,
     .interpret = interpCsr,
     .verify = verifyCsr,
     .flops = flopsCsr,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f32",
     .attrs = kCsrAttrs,
     .numAttrs = COUNT(kCsrAttrs)},
};

static const StrataOpTable kTable = {kOps, COUNT(kOps)};
static const StrataOpTable *const kTables[] = {&kTable};

const StrataDialectDef strataSparseDialect = {
    .name = "sparse",
    /* Generated from the table when registered; dialects/sparse/sparse.irdl.mlir
     * is the same text, checked in for upstream mlir-opt (a test diffs them). */
    .irdlName = "sparse.irdl.mlir",
    .tables = kTables,
    .numTables = COUNT(kTables),
    .summary = "pattern-based sparsity (issue 17, PatDNN): pattern-pruned and CSR convolutions.",
    .opFlags = STRATA_OP_OBSERVABLE,
    .irdlComment = "GENERATED by strata-gen-irdl from the op table in dialects/sparse/sparse_ops.c;\n"
                   "do not edit. IRDL states the structure and the attributes' kinds; the\n"
                   "arrays' lengths and their agreement (FKW, CSR, pattern sets) are checked\n"
                   "in C, which names the array at fault.",
};
