/* conversions/nn-to-linalg internals: each category's pattern registration.
 * The helpers the lowering files share (with other conversions too) are in
 * conversions/common/lower_helpers.h. */
#ifndef STRATA_NN_TO_LINALG_INTERNAL_H
#define STRATA_NN_TO_LINALG_INTERNAL_H

#include "lower_helpers.h"
#include "strata/dialect.h"
#include "strata/nn.h"
#include "strata/pattern.h"
#include "strata/support.h"

/* ---- Category registration ----
 * Each category registers its patterns through a LowerRegistry, which fills
 * a pattern set or answers whether an op is covered (for docs/ops.md). */
typedef struct {
  StrataPatternSet *set; /* may be NULL */
  const char *query;     /* if non-NULL: `found` says whether it was registered */
  bool found;
} LowerRegistry;
void lowerRegister(LowerRegistry *r, const char *opName, StrataMatchAndRewriteFn fn, void *user);

void nnToLinalgElementwise(LowerRegistry *r);
void nnToLinalgLinear(LowerRegistry *r);
void nnToLinalgShape(LowerRegistry *r);
void nnToLinalgReduce(LowerRegistry *r);
void nnToLinalgPoolNorm(LowerRegistry *r);
void nnToLinalgMovement(LowerRegistry *r);
void nnToLinalgQuant(LowerRegistry *r);
void nnToLinalgRnn(LowerRegistry *r); /* nn.rnn, nn.gru, nn.lstm (lower_rnn.c) */
void nnToLinalgSequence(LowerRegistry *r); /* nn.reverse_sequence (lower_sequence.c) */
/* nn.slice with dynamic dims or run-time starts/ends (lower_slice_dynamic.c). */
bool lowerSliceIsDynamic(const StrataOpDef *def, MlirOperation op);
MlirLogicalResult lowerSliceDynamicPattern(StrataRewrite *rw, MlirOperation op, const StrataOpDef *def);
/* nn.concat and nn.tile with dynamic dims (lower_movement_dynamic.c): the
 * result, or null after a located error. */
MlirValue lowerConcatDynamic(StrataBuilder *b, MlirOperation op);
MlirValue lowerTileDynamic(StrataBuilder *b, MlirOperation op);
/* nn.split with dynamic dims: replaces op, or fails after a located error. */
MlirLogicalResult lowerSplitDynamic(StrataRewrite *rw, MlirOperation op);
/* Result i of a split: its offset and extent along the axis as index
 * values (lower_dims.c; checks the given sizes against the extent). */
bool lowerSplitChunk(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *offset, MlirValue *extent);

/* Reports `kind` through strata_rt_shape_error (runtime/status.c: its
 * kinds) with the site text `site` when `bad` holds at run time; got and
 * want are index values (lower_dims.c). */
#define SHAPE_ERROR_FN "strata_rt_shape_error"
void lowerShapeCheckAt(StrataBuilder *b, MlirLocation loc, MlirValue site, MlirValue bad, int kind, int operand,
                       int dim, MlirValue got, MlirValue want);

#endif
