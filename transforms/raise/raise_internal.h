/* The patterns of --nn-raise, one file per operator family. */
#ifndef STRATA_TRANSFORMS_RAISE_INTERNAL_H
#define STRATA_TRANSFORMS_RAISE_INTERNAL_H

#include <stdbool.h>
#include "strata/pattern.h"
#include "strata/support.h"

/* The op defining `v`, or a null op for a block argument. */
static inline MlirOperation raiseProducer(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

/* True if `op` is not null and named `name`. */
static inline bool raiseIsOp(MlirOperation op, const char *name) {
  return !mlirOperationIsNull(op) && strataOpIsNamed(op, name);
}

/* The first result of `op`. */
static inline MlirValue raiseResult(MlirOperation op) { return mlirOperationGetResult(op, 0); }

/* GELU's erf and tanh forms -> nn.gelu (gelu.c). */
void strataNnRaiseAddGelu(StrataPatternSet *set);

#endif
