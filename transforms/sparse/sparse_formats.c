/* The storage formats of sparse convolutions:
 *   --sparse-fkr: Filter Kernel Reorder on sparse.pattern_conv: the filter
 *     order and its equal-length groups (sparseFkrOrder) as the attributes
 *     filter_order / filter_groups (an annotation, no rewrite);
 *   --sparse-fkw: sparse.pattern_conv -> sparse.fkw_conv, the weights in
 *     FKW form in the FKR order when the op has one (else the original
 *     order, one group);
 *   --sparse-to-csr: nn.conv or sparse.pattern_conv -> sparse.csr_conv, the
 *     CSR baseline (any kernel size).
 * Only ops with constant f32 weights are converted; others stay as they
 * are. A kernel that fits none of a pattern_conv's patterns is a located
 * error (the verifier refuses such an op too, but the IR may be unverified
 * between passes). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "sparse_xform.h"

typedef struct {
  const char *pass;
  bool failed;
  StrataOpList weights; /* constants of replaced ops, erased when dead */
} Formats;

static const char *const kPatternConv[] = {"sparse.pattern_conv"};

/* The op's pattern set and the kernel-pattern id of each kernel of c
 * (malloc'd); NULL after a located error. */
static int *assignPatterns(Formats *fm, const SparseConv *c, int64_t *masks, int *P) {
  int64_t n, bm, bc;
  int64_t *v = sparseI64Array(c->op, "patterns", &n);
  char why[160];
  if (!v || !sparsePatternSetValid(v, n, why, sizeof why)) {
    strataEmitOpError(c->op, "%s: attribute 'patterns': %s", fm->pass, v ? why : "missing or not an array<i64>");
    free(v);
    fm->failed = true;
    return NULL;
  }
  memcpy(masks, v, sizeof *v * (size_t)n);
  *P = (int)n;
  free(v);
  int *pat = malloc(sizeof *pat * (size_t)(c->M * c->C > 0 ? c->M * c->C : 1));
  if (!pat) {
    strataEmitOpError(c->op, "%s: out of memory", fm->pass);
  } else if (!sparseAssignPatterns(c->w, c->M, c->C, masks, *P, pat, &bm, &bc)) {
    strataEmitOpError(c->op, "%s: the kernel of filter %lld, input channel %lld (support 0x%03llx) fits no pattern of the set",
                    fm->pass, (long long)bm, (long long)bc,
                    (unsigned long long)sparseSupport(c->w + (bm * c->C + bc) * SPARSE_KERNEL));
    free(pat);
    pat = NULL;
  }
  if (!pat) fm->failed = true;
  return pat;
}

/* ---- FKR ---- */

static MlirLogicalResult annotateFkr(StrataRewrite *rw, MlirOperation op, void *user) {
  Formats *fm = user;
  SparseConv c;
  char why[160];
  int64_t masks[SPARSE_MAX_PATTERNS], numGroups;
  int P;
  if (!sparsePassReadConv(op, &c, why, sizeof why)) return mlirLogicalResultFailure();
  int *pat = assignPatterns(fm, &c, masks, &P);
  int64_t *order = malloc(sizeof *order * (size_t)(c.M ? c.M : 1)), *groups = malloc(sizeof *groups * (size_t)(c.M + 1));
  bool done = pat && order && groups;
  if (done) {
    sparseFkrOrder(pat, c.M, c.C, P, order, groups, &numGroups);
    MlirContext ctx = mlirOperationGetContext(op);
    mlirRewriterBaseStartOpModification(rw->rewriter, op);
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("filter_order"), sparsePassI64Array(ctx, order, c.M));
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("filter_groups"),
                                    sparsePassI64Array(ctx, groups, numGroups + 1));
    mlirRewriterBaseFinalizeOpModification(rw->rewriter, op);
  } else if (pat) {
    strataEmitOpError(op, "%s: out of memory", fm->pass);
    fm->failed = true;
  }
  free(pat), free(order), free(groups);
  sparsePassFreeConv(&c);
  return done ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* ---- Op replacement: x and the bias carry over ---- */

static MlirOperation replaceConv(Formats *fm, StrataRewrite *rw, MlirOperation op, intptr_t biasOperand,
                                 const char *name, StrataNamedAttr *attrs, intptr_t numAttrs) {
  sparsePassNoteWeights(&fm->weights, op);
  MlirValue operands[2] = {mlirOperationGetOperand(op, 0)};
  intptr_t n = 1;
  if (mlirOperationGetNumOperands(op) > biasOperand) operands[n++] = mlirOperationGetOperand(op, biasOperand);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirOperation repl = strataCreateOp(&rw->builder, name, mlirOperationGetLocation(op), .operands = {operands, n},
                                      .results = STRATA_TYPES(rt), .attrs = {attrs, numAttrs});
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(repl, 0)));
  return repl;
}

/* ---- FKW ---- */

static MlirLogicalResult toFkw(StrataRewrite *rw, MlirOperation op, void *user) {
  Formats *fm = user;
  SparseConv c;
  SparseWindow win;
  char why[160];
  int64_t masks[SPARSE_MAX_PATTERNS], no, ng;
  int P;
  if (!sparsePassReadConv(op, &c, why, sizeof why)) return mlirLogicalResultFailure();
  int *pat = sparseWindowGet(op, &win) ? assignPatterns(fm, &c, masks, &P) : NULL;
  /* The verifier checked filter_order / filter_groups: a permutation and
   * increasing bounds, both or neither. */
  int64_t *order = sparseI64Array(op, "filter_order", &no), *groups = sparseI64Array(op, "filter_groups", &ng);
  SparseFkw f;
  bool built = pat && sparseFkwBuild(c.w, pat, c.M, c.C, masks, P, order, groups, groups ? ng - 1 : 1, &f);
  if (pat && !built) {
    strataEmitOpError(op, "%s: out of memory", fm->pass);
    fm->failed = true;
  }
  if (built) {
    StrataNamedAttr attrs[4];
    sparsePassWindowAttrs(mlirOperationGetContext(op), &win, attrs);
    sparseFkwSetAttrs(replaceConv(fm, rw, op, 2, "sparse.fkw_conv", attrs, 4), &f);
    sparseFkwFree(&f);
  }
  free(pat), free(order), free(groups);
  sparsePassFreeConv(&c);
  return built ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* ---- CSR ---- */

static MlirLogicalResult toCsr(StrataRewrite *rw, MlirOperation op, void *user) {
  Formats *fm = user;
  SparseConv c;
  SparseWindow win;
  SparseCsr csr;
  char why[160];
  if (!sparsePassReadConv(op, &c, why, sizeof why)) return mlirLogicalResultFailure();
  bool built = sparsePassConvWindow(op, &win, why, sizeof why);
  if (built && !sparseCsrBuild(c.w, c.M, c.C * c.kh * c.kw, &csr)) {
    strataEmitOpError(op, "%s: out of memory", fm->pass);
    fm->failed = true;
    built = false;
  }
  if (built) {
    MlirContext ctx = mlirOperationGetContext(op);
    int64_t nnz = csr.rowPtr[csr.M], kernel[2] = {c.kh, c.kw};
    MlirType vt = mlirRankedTensorTypeGet(1, &nnz, mlirF32TypeGet(ctx), mlirAttributeGetNull());
    StrataNamedAttr attrs[8];
    sparsePassWindowAttrs(ctx, &win, attrs);
    attrs[4] = (StrataNamedAttr){"kernel_shape", sparsePassI64Array(ctx, kernel, 2)};
    attrs[5] = (StrataNamedAttr){"row_ptr", sparsePassI64Array(ctx, csr.rowPtr, csr.M + 1)};
    attrs[6] = (StrataNamedAttr){"col_index", sparsePassI64Array(ctx, csr.col, nnz)};
    attrs[7] = (StrataNamedAttr){"values", mlirDenseElementsAttrFloatGet(vt, (intptr_t)nnz, csr.val)};
    replaceConv(fm, rw, op, 2, "sparse.csr_conv", attrs, 8);
    sparseCsrFree(&csr);
  }
  sparsePassFreeConv(&c);
  return built ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* ---- The passes ---- */

static void runFormat(StrataPassRun *run, MlirOperation module, const char *const *names, size_t numNames,
                      StrataMatchAndRewriteFn fn) {
  Formats fm = {strataPassGetDef(run)->name, false, {0}};
  sparsePassApply(module, names, numNames, fn, &fm);
  sparsePassEraseDead(&fm.weights);
  if (fm.failed) strataPassSignalFailure(run);
}

static void runFkr(StrataPassRun *run, MlirOperation module) {
  runFormat(run, module, kPatternConv, 1, annotateFkr);
}

static void runFkw(StrataPassRun *run, MlirOperation module) {
  runFormat(run, module, kPatternConv, 1, toFkw);
}

static void runToCsr(StrataPassRun *run, MlirOperation module) {
  static const char *const kConvs[] = {"nn.conv", "sparse.pattern_conv"};
  runFormat(run, module, kConvs, 2, toCsr);
}

const StrataPassDef sparseFkrPass = {
    .name = "sparse-fkr",
    .summary = "Filter Kernel Reorder: group sparse.pattern_conv filters by length and similarity (filter_order/groups)",
    .anchor = "builtin.module",
    .run = runFkr,
};

const StrataPassDef sparseFkwPass = {
    .name = "sparse-fkw",
    .summary = "Store sparse.pattern_conv weights in FKW form (sparse.fkw_conv), in the FKR order when present",
    .anchor = "builtin.module",
    .run = runFkw,
};

const StrataPassDef sparseToCsrPass = {
    .name = "sparse-to-csr",
    .summary = "Store the constant weights of nn.conv / sparse.pattern_conv in CSR form (sparse.csr_conv)",
    .anchor = "builtin.module",
    .run = runToCsr,
};
