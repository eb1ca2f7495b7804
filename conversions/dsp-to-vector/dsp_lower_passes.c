/* The dsp conversions (issue 21), registered as one list. */
#include <stddef.h>
#include "strata/pass.h"

extern const StrataPassDef strataDspToVectorPass;
extern const StrataPassDef strataDspToHexagonPass;
extern const StrataPassDef strataNnToDspPass;
extern const StrataPassDef strataDspLowerOperatorsPass;

const StrataPassDef *const strataDspLowerPasses[] = {&strataDspToVectorPass, &strataDspToHexagonPass,
                                                     &strataNnToDspPass, &strataDspLowerOperatorsPass, NULL};
