/* The predication transforms (issue 20, Grape), registered as one list. */
#include <stddef.h>
#include "strata/pass.h"

extern const StrataPassDef strataPredIfToGuardPass;
extern const StrataPassDef strataPredLoopToGuardPass;

const StrataPassDef *const strataPredTransformPasses[] = {&strataPredIfToGuardPass, &strataPredLoopToGuardPass,
                                                          NULL};
