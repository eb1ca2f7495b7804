/* The sparse dialect (PatDNN): pattern-pruned 3x3 convolutions, as dense
 * weights with a pattern set (sparse.pattern_conv, what detection and
 * pruning produce), in FKW form (sparse.fkw_conv, what the lowerings
 * compile) and the CSR baseline (sparse.csr_conv). Each op is a
 * convolution, NCHW f32, with ONNX's window attributes written out. This
 * file holds the op table, shape inference and FLOP counts; the attribute
 * readers are in sparse_attrs.c, the verifiers in sparse_verify.c, the
 * interpreter kernels in sparse_interp.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/dialect.h"
#include "strata/support.h"
#include "strata/sparse.h"
#include "sparse_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

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
    char why[160];
    res->dims[2 + d] = -1;
    if (x[2 + d] >= 0 && !sparseWindowOutDim(&w, d, x[2 + d], &res->dims[2 + d], why, sizeof why)) {
      strataEmitOpError(op, "%s", why);
      return fail();
    }
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
  /* C/group compared as a quotient: wd[1] * group can overflow. A '?' in
   * w's dim 1 fits only a '?' in x's. */
  bool good = strataGetShape(wt, &rank, wd) && rank == 4 && wd[0] >= 0 && wd[2] == 3 && wd[3] == 3 &&
              mlirTypeIsAF32(mlirShapedTypeGetElementType(wt)) &&
              (x[1] < 0 || (x[1] % win.group == 0 && wd[1] == x[1] / win.group));
  if (!good) {
    char s[200];
    strataTypeToString(wt, s, sizeof s);
    strataEmitOpError(op,
                      "operand 'w' must be tensor<Mx(C/group)x3x3xf32> for %lld input channels and group %lld, not %s",
                      (long long)x[1], (long long)win.group, s);
    return fail();
  }
  /* sparse.fkw_conv and sparse.csr_conv hold at least one filter (reorder
   * and row_ptr are never empty): a pattern convolution of none would
   * become invalid IR in sparse-fkw and sparse-to-csr. */
  if (wd[0] == 0) {
    strataEmitOpError(op, "operand 'w' must hold at least one filter (M >= 1)");
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

/* ---- FLOPs: 2 per multiply-add actually performed ---- */

static double outPixels(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return 0;
  /* In double: the product of three static dims may overflow int64. */
  return (double)mlirShapedTypeGetDimSize(t, 0) * (double)mlirShapedTypeGetDimSize(t, 2) *
         (double)mlirShapedTypeGetDimSize(t, 3);
}

/* Nonzero weights of a constant, counted in place for dense elements (a
 * splat states any size it likes; copying it could take terabytes). */
static double nonzeros(MlirAttribute a) {
  if (mlirAttributeIsNull(a)) return 0;
  if (mlirAttributeIsADenseElements(a)) {
    if (!mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirAttributeGetType(a)))) return 0;
    int64_t n = mlirElementsAttrGetNumElements(a);
    if (mlirDenseElementsAttrIsSplat(a)) return mlirDenseElementsAttrGetFloatValue(a, 0) != 0.0f ? (double)n : 0;
    double nz = 0;
    for (int64_t i = 0; i < n; i++) nz += mlirDenseElementsAttrGetFloatValue(a, (intptr_t)i) != 0.0f;
    return nz;
  }
  StrataTensor *w = strataTensorFromAttr(a);
  double nz = 0;
  if (w && w->dtype == STRATA_DTYPE_F32)
    for (int64_t i = 0; i < strataTensorNumElements(w); i++) nz += ((const float *)w->data)[i] != 0.0f;
  strataTensorDestroy(w);
  return nz;
}

static double flopsPattern(MlirOperation op) {
  return 2.0 * nonzeros(sparseConstantValue(mlirOperationGetOperand(op, 1))) * outPixels(op);
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
    {"permute", STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, "oh_co_ow_ci|oh_ow_co_ci",
     "tuning: loop order inside a row tile (oh): filters (co) outside column tiles (ow), or inside; input channels (ci) innermost"},
    {"layout", STRATA_ATTR_ENUM, STRATA_ATTR_OPTIONAL, "phases|views|sums",
     "tuning: the row tile's input copy: one per column-stride phase (shifted loads), one per kernel column (aligned loads), or phases read aligned into one set of sums per column offset, shifted once at the store (rows with room in their last vector)"},
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
     .interpret = sparseInterpPattern,
     .verify = sparseVerifyPattern,
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
     .interpret = sparseInterpFkw,
     .verify = sparseVerifyFkw,
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
     .interpret = sparseInterpCsr,
     .verify = sparseVerifyCsr,
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
