/* Shared by the sparse dialect's transforms (transforms/sparse/): reading the
 * convolutions they work on, replacing their weights, the window and
 * pattern-set attributes they write, and how they say what they did. */
#ifndef STRATA_TRANSFORMS_SPARSE_XFORM_H
#define STRATA_TRANSFORMS_SPARSE_XFORM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "sparse.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

/* A 2-D convolution with constant f32 weights: nn.conv or sparse.pattern_conv
 * (both have operands x, w, b?), x a 4-D f32 tensor, w a constant
 * [M][C][kh][kw] f32 tensor (C: input channels per group). */
typedef struct {
  MlirOperation op;
  StrataTensor *t; /* a copy of the weights (owned) */
  float *w;        /* t's data */
  int64_t M, C, kh, kw;
} SparseConv;

/* Reads `op` as a SparseConv; false (nothing held) if it is none, with the
 * reason in `why` ("the weights are not a constant", ...). */
bool sparsePassReadConv(MlirOperation op, SparseConv *c, char *why, size_t whySize);
void sparsePassFreeConv(SparseConv *c);
/* Replaces the weights operand of c->op with a copy of its constant holding
 * c->w, through the rewriter; the old constant goes into `dead` for
 * sparsePassEraseDead (another op sharing it keeps its weights). */
void sparsePassWriteWeights(StrataRewrite *rw, SparseConv *c, StrataOpList *dead);
/* Remembers the constant defining `op`'s weights (operand 1) in `l`, once,
 * before a rewrite stops using it; sparsePassEraseDead then erases those
 * left without uses. (A walk-driven pattern may erase only the op it
 * matched, so the weights go after the walk.) */
void sparsePassNoteWeights(StrataOpList *l, MlirOperation op);
void sparsePassEraseDead(StrataOpList *l);

/* The window of a conv: nn.conv's attributes (auto_pad resolved into pads,
 * which needs the input's spatial dims when auto_pad is SAME_*) or a sparse
 * op's. False with `why` if it cannot be written out. */
bool sparsePassConvWindow(MlirOperation op, SparseWindow *w, char *why, size_t whySize);
/* strides, pads, dilations, group as attributes (4 entries of `out`). */
void sparsePassWindowAttrs(MlirContext ctx, const SparseWindow *w, StrataNamedAttr out[4]);
MlirAttribute sparsePassI64Array(MlirContext ctx, const int64_t *v, int64_t n);

/* The distinct supports of the nonzero 3x3 kernels of w[numKernels][9],
 * less those that are a proper subset of another present support, in
 * increasing mask order, into masks[0..512); returns how many. */
int sparsePassMaximalSupports(const float *w, int64_t numKernels, int64_t *masks);

/* Parses a pattern-set option: comma-separated masks, decimal or 0x hex.
 * False with `why` on a malformed entry or more than `max` of them (the
 * set's validity is sparsePatternSetValid's). */
bool sparsePassParseMasks(const char *text, int64_t *masks, int64_t *n, int64_t max, char *why,
                          size_t whySize);
/* The module attribute `sparse.patterns` (what sparse-pattern-select
 * writes): NULL if absent (malloc'd otherwise; *n its length). */
int64_t *sparsePassModulePatterns(MlirOperation module, int64_t *n);
void sparsePassSetModulePatterns(MlirOperation module, const int64_t *masks, int64_t n);

/* Appends the ops under `root` named one of names[0..numNames), in program
 * order (pre-order). False if memory runs out. */
bool sparsePassCollect(MlirOperation root, const char *const *names, size_t numNames,
                       StrataOpList *out);

/* A remark at the op's location through the context's diagnostic callback
 * (strataEmitDiagnostic): the passes that change weights say so, and
 * detection explains what it leaves alone. Errors: strataEmitOpError. */
void sparsePassRemark(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Runs `fn` as a pattern on every op named names[i] under `root` with one
 * walk: each op is visited once and fn may replace or change only the op it
 * is given (so the passes touch nothing else, unlike the greedy driver,
 * which also erases unrelated dead ops). */
void sparsePassApply(MlirOperation root, const char *const *names, size_t numNames,
                     StrataMatchAndRewriteFn fn, void *user);

#define SPARSE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* The passes (rows of strataSparseTransformPasses). */
extern const StrataPassDef sparsePatternSelectPass, sparsePatternPrunePass,
    sparseConnectivityPrunePass, sparseDetectPass, sparseFkrPass, sparseFkwPass, sparseToCsrPass,
    sparseReportPass;

#endif /* STRATA_TRANSFORMS_SPARSE_XFORM_H */
