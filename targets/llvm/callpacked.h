/* A call of compiled code's packed entry point (_mlir__mlir_ciface_<f>:
 * void f(void **args)) on host tensors, in plain C: the JIT (jit.c) and
 * the launcher (tools/strata-run/launcher/) call code this way. */
#ifndef STRATA_CPU_CALLPACKED_H
#define STRATA_CPU_CALLPACKED_H

#include <stdbool.h>
#include <stddef.h>
#include "status.h"
#include "strata/tensor.h"

enum { STRATA_CALL_OK = 0, STRATA_CALL_FAILED = -1, STRATA_CALL_NO_MEMORY = -2 };

/* Calls `fn` in `env` with memref descriptors of the inputs and of the
 * outputs that `isRuntime` does not mark; the marked ones take the buffers
 * the runtime delivers (runtime/results.h). Returns STRATA_CALL_OK;
 * STRATA_CALL_FAILED with the code's error in `err` (a location, a tab and
 * the message, or the message alone); STRATA_CALL_NO_MEMORY; or 1 + i when
 * output i came back with another rank or element type. */
int strataCpuCallPacked(StrataRtEnv *env, void (*fn)(void **), StrataTensor *const *inputs, size_t numInputs,
                        StrataTensor *const *outputs, size_t numOutputs, const bool *isRuntime, char *err,
                        size_t errSize);

#endif /* STRATA_CPU_CALLPACKED_H */
