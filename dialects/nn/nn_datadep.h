/* The data-dependent ops (ops_datadep.c): their parameters, which the
 * interpreter kernels (datadep_interp.c) and the lowerings read too, and the
 * kernels. */
#ifndef STRATA_NN_DATADEP_H
#define STRATA_NN_DATADEP_H

#include "nn_internal.h"

/* The table row of a data-dependent op (NULL for any other op). */
const StrataOpDef *nnDataDepDef(MlirOperation op);
/* Compress: whether `axis` is given, and it normalized; false after a
 * located error. */
bool nnCompressParams(const StrataOpDef *def, MlirOperation op, bool *hasAxis, int64_t *axis);
/* Unique: whether `axis` is given (normalized), and `sorted`. */
bool nnUniqueParams(const StrataOpDef *def, MlirOperation op, bool *hasAxis, int64_t *axis, bool *sorted);

MlirLogicalResult nnInterpNonZero(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);
MlirLogicalResult nnInterpCompress(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);
MlirLogicalResult nnInterpUnique(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);
MlirLogicalResult nnInterpNms(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);

#endif
