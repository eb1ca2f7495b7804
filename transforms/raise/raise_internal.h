/* The patterns of --nn-raise, one file per operator family. */
#ifndef STRATA_TRANSFORMS_RAISE_INTERNAL_H
#define STRATA_TRANSFORMS_RAISE_INTERNAL_H

#include "strata/pattern.h"

/* GELU's erf and tanh forms -> nn.gelu (gelu.c). */
void strataNnRaiseAddGelu(StrataPatternSet *set);

#endif
