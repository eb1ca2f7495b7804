/* pred-lower's pieces, shared between its files. */
#ifndef STRATA_PRED_LOWER_H
#define STRATA_PRED_LOWER_H

#include "strata/pattern.h"

/* True if `inner` is `outer` or nested in it. */
bool predIsInside(MlirOperation inner, MlirOperation outer);
/* Replaces `guard` by `scf.if %pred { body } else { inits }` (skip form). */
void predLowerSkip(StrataRewrite *rw, MlirOperation guard);
/* Replaces an unlikely `guard` by `scf.if %pred { func.call @outlined }`,
 * its body moved into a new private function of the module taking the
 * values it uses from above. */
MlirLogicalResult predLowerUnlikely(StrataRewrite *rw, MlirOperation guard);
/* The select folds that merge a guard pair's selects into one (T12). */
void predAddSelectFolds(StrataPatternSet *set);

#endif
