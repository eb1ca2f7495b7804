/* What the sparse dialect's own files share (not for the layers above,
 * which use sparse.h): the op table (sparse_ops.c) names the verifiers of
 * sparse_verify.c and the interpreter kernels of sparse_interp.c, and all
 * three compute a window's output extent the same way. */
#ifndef STRATA_SPARSE_INTERNAL_H
#define STRATA_SPARSE_INTERNAL_H

#include "strata/dialect.h"
#include "sparse.h"

/* ---- The window (sparse_attrs.c) ----
 * Output extent along spatial dim d (0 rows, 1 columns) of the window over
 * an input extent `in` >= 0: (in + pads - span) / stride + 1, where span =
 * (kernel - 1) * dilation + 1. False with the reason in `why` (>= 128
 * bytes) if the arithmetic overflows int64 or the window does not fit. */
bool sparseWindowOutDim(const SparseWindow *w, int d, int64_t in, int64_t *out, char *why, size_t whySize);
/* Input channels per group of the op's input type (operand 0): -1 unless it
 * is a ranked 4-D tensor with a static channel count dividing by `group`. */
int64_t sparseChannelsPerGroup(MlirOperation op);

/* ---- Attributes (sparse_attrs.c) ----
 * An array<i64> attribute, copied (*n entries): false after a located
 * error if it is absent (required) or of another kind (both). */
bool sparseRequiredArray(MlirOperation op, const char *name, int64_t **out, int64_t *n);
bool sparseOptionalArray(MlirOperation op, const char *name, int64_t **out, int64_t *n); /* absent: NULL, -1 */
/* strataGetI64Array's reading of a short integer array ([2] or [4]:
 * array<i64> or [a, b]), with an integer wider than 64 bits refused (-2):
 * it would read as its low 64 bits, silently another value. */
int sparseSmallI64Array(MlirOperation op, const char *name, int64_t *out, int max);
/* The op's `patterns`, validated (masks has SPARSE_MAX_PATTERNS room). */
bool sparsePatternSetOf(MlirOperation op, int64_t *masks, int64_t *P);

/* ---- Verifiers (sparse_verify.c), run after the table's generic checks
 * and shape inference ---- */
MlirLogicalResult sparseVerifyPattern(const StrataOpDef *def, MlirOperation op);
MlirLogicalResult sparseVerifyFkw(const StrataOpDef *def, MlirOperation op);
MlirLogicalResult sparseVerifyCsr(const StrataOpDef *def, MlirOperation op);

/* ---- Interpreter kernels (sparse_interp.c) ---- */
MlirLogicalResult sparseInterpPattern(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);
MlirLogicalResult sparseInterpFkw(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);
MlirLogicalResult sparseInterpCsr(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);

#endif /* STRATA_SPARSE_INTERNAL_H */
