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
/* nn.slice with dynamic dims or run-time starts/ends (lower_slice_dynamic.c). */
bool lowerSliceIsDynamic(const StrataOpDef *def, MlirOperation op);
MlirLogicalResult lowerSliceDynamicPattern(StrataRewrite *rw, MlirOperation op, const StrataOpDef *def);
/* nn.concat and nn.tile with dynamic dims (lower_movement_dynamic.c): the
 * result, or null after a located error. */
MlirValue lowerConcatDynamic(StrataBuilder *b, MlirOperation op);
MlirValue lowerTileDynamic(StrataBuilder *b, MlirOperation op);
/* nn.resize with dynamic dims (run-time scales or sizes;
 * lower_resize_dynamic.c): the result, or null after a located error. */
MlirValue lowerResizeDynamic(StrataBuilder *b, MlirOperation op, const StrataOpDef *def);
/* nn.split with dynamic dims: replaces op, or fails after a located error. */
MlirLogicalResult lowerSplitDynamic(StrataRewrite *rw, MlirOperation op);
/* Result i of a split: its offset and extent along the axis as index
 * values (lower_dims.c; checks the given sizes against the extent). */
bool lowerSplitChunk(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *offset, MlirValue *extent);

/* Reports run-time error `kind` (strata_rt_shape_error; kinds listed in
 * lower_dims.c) located at op when `bad` holds; *site (start NULL) holds
 * the op's location string once made. False after a located error. */
bool lowerCheck(StrataBuilder *b, MlirOperation op, MlirValue *site, MlirValue bad, int kind, int operand, int dim,
                MlirValue got, MlirValue want);

/* ---- Axes known at run time (lower_axes_dynamic.c) ---- */
/* Element i of the 1-D integer `axes`, checked in [-rank, rank) and made
 * non-negative (an index); null after a located error. */
MlirValue lowerRuntimeAxis(StrataBuilder *b, MlirOperation op, MlirValue *site, MlirValue axes, int i, int rank);
/* isAxis[d] (i1) for d < rank: whether operand #1's run-time axes hold d;
 * each axis checked in range and not repeated. */
bool lowerRuntimeAxes(StrataBuilder *b, MlirOperation op, MlirValue *site, int rank, MlirValue *isAxis);
/* The result extents of a squeeze or unsqueeze whose axes (operand #1)
 * are run-time values. */
bool lowerRuntimeSqueezeDims(StrataBuilder *b, MlirOperation op, MlirValue *site, bool unsqueeze, MlirValue *out);
/* The same from flags: x's extents with the flagged dims removed (checked
 * to be 1) or inserted as 1s, into out[0..r). */
bool lowerSqueezeByFlags(StrataBuilder *b, MlirOperation op, MlirValue *site, bool unsqueeze, MlirValue x,
                         const MlirValue *isAxis, int r, MlirValue *out);

#endif
