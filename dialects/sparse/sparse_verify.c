/* The sparse ops' verifiers, run after the table's generic checks (kinds
 * and presence of attributes, operand types) and shape inference. The FKW
 * and CSR arrays are checked by their readers (sparse_attrs.c); here are
 * the pattern convolution's FKR attributes and constant weights, and the
 * FKW tuning. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/support.h"
#include "sparse_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* The constant a value holds (nn.constant or arith.constant), or null. */
MlirAttribute sparseConstantValue(MlirValue v) {
  if (!mlirValueIsAOpResult(v)) return mlirAttributeGetNull();
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(def, "nn.constant") && !strataOpIsNamed(def, "arith.constant"))
    return mlirAttributeGetNull();
  return strataOpAttr(def, "value");
}

/* ---- sparse.pattern_conv ---- */

/* FKR's filter_order (a permutation of the M filters) and filter_groups
 * (increasing boundaries from 0 to M), both or neither. */
static bool fkrAttrs(MlirOperation op, int64_t M) {
  int64_t no, ng, *order, *groups = NULL;
  if (!sparseOptionalArray(op, "filter_order", &order, &no) ||
      !sparseOptionalArray(op, "filter_groups", &groups, &ng)) {
    free(order);
    return false;
  }
  bool good = true;
  if ((order == NULL) != (groups == NULL) || (order && no != M)) {
    strataEmitOpError(op, "filter_order (a permutation of the %lld filters) and filter_groups come together",
                      (long long)M);
    good = false;
  }
  if (good && order) {
    /* no == M: the mark array is as long as an array the IR holds. */
    bool *seen = calloc((size_t)(M ? M : 1), 1);
    if (!seen) strataEmitOpError(op, "out of memory"), good = false;
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
  return good;
}

/* Constant weights [M][C][3][3], read in place: a dense attribute's values
 * one by one (a splat is one value, whatever its type states), anything
 * else (dense_resource) through a tensor. */
typedef struct {
  MlirAttribute dense;
  bool splat;
  StrataTensor *t;
} ConstWeights;

/* 1 if `a` holds the weights (opened), 0 if it is no f32 elements
 * attribute of `count` values (not this op's constant weights), -1 if it is
 * but cannot be read (out of memory, or sparse<...> elements). */
static int constWeightsOpen(ConstWeights *w, MlirAttribute a, int64_t count) {
  memset(w, 0, sizeof *w);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAElements(a)) return 0;
  MlirType t = mlirAttributeGetType(a);
  if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) || mlirElementsAttrGetNumElements(a) != count) return 0;
  if (mlirAttributeIsADenseElements(a)) {
    w->dense = a, w->splat = mlirDenseElementsAttrIsSplat(a);
    return 1;
  }
  w->t = strataTensorFromAttr(a);
  return w->t && w->t->dtype == STRATA_DTYPE_F32 && strataTensorNumElements(w->t) == count ? 1 : -1;
}

static void constWeightsKernel(const ConstWeights *w, int64_t kernel, float *k9) {
  for (int b = 0; b < SPARSE_KERNEL; b++) {
    int64_t i = kernel * SPARSE_KERNEL + b;
    k9[b] = w->t ? ((const float *)w->t->data)[i]
                 : mlirDenseElementsAttrGetFloatValue(w->dense, w->splat ? 0 : (intptr_t)i);
  }
}

/* "v0,v1,...,v8" into buf, cut short (never overrun) if it does not fit. */
static void formatKernel(const float *k9, char *buf, size_t size) {
  size_t n = 0;
  buf[0] = '\0';
  for (int b = 0; b < SPARSE_KERNEL && n < size; b++) {
    int w = snprintf(buf + n, size - n, "%s%g", b ? "," : "", (double)k9[b]);
    if (w < 0) break;
    n += (size_t)w;
  }
}

/* Every kernel of constant weights is zero or inside a mask of the set. A
 * splat is one kernel repeated: it is checked once. */
static bool constWeightsFollow(MlirOperation op, MlirAttribute value, int64_t M, int64_t C, const int64_t *masks,
                               int64_t P) {
  int64_t kernels, count;
  ConstWeights w = {0};
  int opened = strataCheckedMul(M, C, &kernels) && strataCheckedMul(kernels, SPARSE_KERNEL, &count)
                   ? constWeightsOpen(&w, value, count)
                   : 0;
  if (opened <= 0) {
    /* Accepting weights that could not be read would leave them unchecked. */
    if (opened < 0)
      strataEmitOpError(op, "cannot read its %lld constant weights to check them against the pattern set (out of "
                            "memory, or elements other than dense and dense_resource)",
                        (long long)count);
    strataTensorDestroy(w.t);
    return opened == 0;
  }
  bool good = true;
  for (int64_t i = 0; i < (w.splat ? (kernels > 0) : kernels) && good; i++) {
    float k9[SPARSE_KERNEL];
    constWeightsKernel(&w, i, k9);
    if (sparseKernelPattern(k9, masks, (int)P) != SPARSE_NO_PATTERN) continue;
    char k[9 * 16];
    formatKernel(k9, k, sizeof k);
    strataEmitOpError(op, "the kernel of filter %lld, input channel %lld [%s] (support 0x%03llx) fits no pattern "
                          "of the set",
                      (long long)(i / C), (long long)(i % C), k, (unsigned long long)sparseSupport(k9));
    good = false;
  }
  strataTensorDestroy(w.t);
  return good;
}

MlirLogicalResult sparseVerifyPattern(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  int64_t masks[SPARSE_MAX_PATTERNS], P;
  if (!sparsePatternSetOf(op, masks, &P)) return fail();
  /* Shape inference has checked w: a ranked f32 [M, C/group, 3, 3], M static. */
  MlirValue wv = mlirOperationGetOperand(op, 1);
  MlirType wt = mlirValueGetType(wv);
  int64_t M = mlirShapedTypeGetDimSize(wt, 0), C = mlirShapedTypeGetDimSize(wt, 1);
  if (!fkrAttrs(op, M)) return fail();
  /* A constant has a static type, so C is known when the weights are. */
  if (!mlirShapedTypeIsDynamicSize(C) && !constWeightsFollow(op, sparseConstantValue(wv), M, C, masks, P))
    return fail();
  return ok();
}

/* ---- sparse.fkw_conv, sparse.csr_conv ---- */

MlirLogicalResult sparseVerifyFkw(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  SparseFkw f;
  if (!sparseFkwFromOp(op, &f)) return fail();
  sparseFkwFree(&f);
  /* The lowerings size their register tiles from these bounds. */
  int64_t t[4];
  int nt = sparseSmallI64Array(op, "tile", t, 4), nu = sparseSmallI64Array(op, "unroll", t, 4);
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

MlirLogicalResult sparseVerifyCsr(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  SparseCsr c;
  if (!sparseCsrFromOp(op, &c)) return fail();
  sparseCsrFree(&c);
  return ok();
}
