/* The dsp lowerings (issue 21), registered as one list. */
#include <stddef.h>
#include "strata/pass.h"

extern const StrataPassDef strataDspToVectorPass;

const StrataPassDef *const strataDspLowerPasses[] = {&strataDspToVectorPass, NULL};
