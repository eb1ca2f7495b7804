/* --sparse-detect: the path for models pattern-pruned in training. An
 * nn.conv with constant f32 3x3 weights becomes sparse.pattern_conv, with
 * the same weights operand and bias, when its weights already follow a
 * small pattern set:
 *   - the supports (nonzero masks) of its nonzero kernels, less those that
 *     are a proper subset of another present support, number at most
 *     max-patterns; they are the op's `patterns`, in increasing mask order;
 *   - the weights those patterns keep (popcount of each nonzero kernel's
 *     pattern) are at most max-density of the dense weights (a dense conv
 *     has one 9-entry "pattern" and stays nn.conv).
 * The window is written out (auto_pad resolved into pads). Nothing changes
 * numerically: every kernel's nonzeros lie inside its pattern. With
 * `explain`, a remark at each nn.conv says what happened to it and why. */
#include <stdio.h>
#include <stdlib.h>
#include "sparse_xform.h"

typedef struct {
  int64_t maxPatterns;
  double maxDensity;
  bool explain;
} Detect;

typedef struct {
  SparseWindow window;
  int64_t masks[512];
  int P;
  int64_t kept, total; /* nonzero kernels, all kernels */
} Found;

/* Whether c's weights follow a pattern set; if not, `why`. */
static bool findPatterns(const Detect *d, const SparseConv *c, Found *f, char *why, size_t whySize) {
  if (c->kh != 3 || c->kw != 3) {
    snprintf(why, whySize, "its kernels are %lldx%lld, not 3x3", (long long)c->kh, (long long)c->kw);
    return false;
  }
  if (!sparsePassConvWindow(c->op, &f->window, why, whySize)) return false;
  f->total = c->M * c->C;
  f->P = sparsePassMaximalSupports(c->w, f->total, f->masks);
  if (f->P == 0) {
    snprintf(why, whySize, "all its weights are zero");
    return false;
  }
  if (f->P > d->maxPatterns) {
    snprintf(why, whySize, "its nonzero kernels have %d distinct supports (subsets merged), more than max-patterns=%lld",
             f->P, (long long)d->maxPatterns);
    return false;
  }
  /* Every support is inside a maximal one, so each nonzero kernel gets a pattern. */
  int64_t stored = 0;
  f->kept = 0;
  for (int64_t k = 0; k < f->total; k++) {
    int p = sparseKernelPattern(c->w + k * SPARSE_KERNEL, f->masks, f->P);
    if (p < 0) continue;
    f->kept++;
    stored += sparsePopcount(f->masks[p]);
  }
  double density = (double)stored / (double)(f->total * SPARSE_KERNEL);
  if (density > d->maxDensity) {
    snprintf(why, whySize, "its %d patterns keep %.3f of the dense weights, more than max-density=%g", f->P, density,
             d->maxDensity);
    return false;
  }
  return true;
}

static MlirLogicalResult detect(StrataRewrite *rw, MlirOperation op, void *user) {
  const Detect *d = user;
  SparseConv c;
  Found f;
  char why[256];
  bool found = sparsePassReadConv(op, &c, why, sizeof why) && findPatterns(d, &c, &f, why, sizeof why);
  sparsePassFreeConv(&c);
  if (!found) {
    if (d->explain) sparsePassRemark(op, "sparse-detect: stays nn.conv: %s", why);
    return mlirLogicalResultFailure();
  }
  MlirContext ctx = mlirOperationGetContext(op);
  StrataNamedAttr attrs[5];
  attrs[0] = (StrataNamedAttr){"patterns", sparsePassI64Array(ctx, f.masks, f.P)};
  sparsePassWindowAttrs(ctx, &f.window, attrs + 1);
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  MlirValue operands[3];
  for (intptr_t i = 0; i < numOperands && i < 3; i++) operands[i] = mlirOperationGetOperand(op, i);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirOperation pc = strataCreateOp(&rw->builder, "sparse.pattern_conv", mlirOperationGetLocation(op),
                                    .operands = {operands, numOperands < 3 ? numOperands : 3},
                                    .results = STRATA_TYPES(rt), .attrs = {attrs, 5});
  if (d->explain) {
    char text[SPARSE_MAX_PATTERNS * 8 + 1];
    int at = 0;
    for (int p = 0; p < f.P; p++)
      at += snprintf(text + at, sizeof text - (size_t)at, "%s0x%03llx", p ? "," : "", (unsigned long long)f.masks[p]);
    sparsePassRemark(op, "sparse-detect: sparse.pattern_conv with %d patterns [%s], %lld of %lld kernels nonzero", f.P,
                     text, (long long)f.kept, (long long)f.total);
  }
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(pc, 0)));
  return mlirLogicalResultSuccess();
}

static void runDetect(StrataPassRun *run, MlirOperation module) {
  Detect d = {strataPassGetInt(run, "max-patterns"), strataPassGetDouble(run, "max-density"),
              strataPassGetBool(run, "explain")};
  if (d.maxPatterns < 1 || d.maxPatterns > SPARSE_MAX_PATTERNS || !(d.maxDensity > 0 && d.maxDensity <= 1)) {
    strataEmitError(mlirOperationGetLocation(module),
                    "sparse-detect: max-patterns must be 1 to %d and max-density in (0, 1] (got %lld and %g)",
                    SPARSE_MAX_PATTERNS, (long long)d.maxPatterns, d.maxDensity);
    strataPassSignalFailure(run);
    return;
  }
  static const char *const kConv[] = {"nn.conv"};
  sparsePassApply(module, kConv, 1, detect, &d);
}

static const StrataPassOptionDef kOptions[] = {
    {"max-patterns", STRATA_OPTION_INT, "8", "Most distinct kernel patterns a convolution may use (1 to 64)"},
    {"max-density", STRATA_OPTION_DOUBLE, "0.5", "Largest fraction of the dense weights the patterns may keep"},
    {"explain", STRATA_OPTION_BOOL, "false", "Remark at each nn.conv what was detected, or why not"},
};

const StrataPassDef sparseDetectPass = {
    .name = "sparse-detect",
    .summary = "Turn nn.conv whose constant 3x3 weights follow a small pattern set into sparse.pattern_conv",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = SPARSE_COUNT(kOptions),
    .run = runDetect,
};
