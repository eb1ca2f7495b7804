/* The dsp passes (issue 21, GCD²), registered as one list. */
#include <stddef.h>
#include "strata/pass.h"

extern const StrataPassDef strataDspSelectLayoutsPass;
extern const StrataPassDef strataDspFoldConvertsPass;
extern const StrataPassDef strataDspPackPass;

const StrataPassDef *const strataDspPasses[] = {&strataDspSelectLayoutsPass, &strataDspFoldConvertsPass,
                                                &strataDspPackPass, NULL};
