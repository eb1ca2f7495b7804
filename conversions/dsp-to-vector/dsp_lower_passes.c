/* The dsp lowerings (issue 21), registered as one list. */
#include <stddef.h>
#include "strata/pass.h"

extern const StrataPassDef strataDspToVectorPass;
extern const StrataPassDef strataDspToHexagonPass;

const StrataPassDef *const strataDspLowerPasses[] = {&strataDspToVectorPass, &strataDspToHexagonPass, NULL};
