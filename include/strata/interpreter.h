/* The reference interpreter: runs a func.func of Strata ops with naive loops,
 * accumulating in double. It is the numerics oracle every lowering is checked
 * against (strata-run --interpret / --compare). */
#ifndef STRATA_INTERPRETER_H
#define STRATA_INTERPRETER_H

#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Finds func.func @name in module (NULL name: the first public function). */
MlirOperation strataLookupFunc(MlirModule module, const char *name);

/* A func.func's function type; its name is copied into `name` (cut to
 * nameSize - 1 characters). */
MlirType strataFuncSignature(MlirOperation func, char *name, size_t nameSize);

/* Runs `func` on `inputs` (one per argument, matching the argument types).
 * On success *outputs receives a malloc'ed array of *numOutputs tensors and
 * ownership of both transfers to the caller: destroy each tensor with
 * strataTensorDestroy and free the array with free(). Unsupported ops and
 * shape mismatches are located errors. */
MlirLogicalResult strataInterpret(StrataContext *ctx, MlirOperation func,
                                  StrataTensor *const *inputs, size_t numInputs,
                                  StrataTensor ***outputs, size_t *numOutputs);

/* Called after each op the interpreter runs, with its results (owned by
 * the interpreter: copy what you keep). */
typedef void (*StrataInterpObserver)(MlirOperation op, const StrataTensor *const *results,
                                     intptr_t numResults, void *user);
/* strataInterpret, calling `observer` after each op. */
MlirLogicalResult strataInterpretObserved(StrataContext *ctx, MlirOperation func,
                                          StrataTensor *const *inputs, size_t numInputs,
                                          StrataTensor ***outputs, size_t *numOutputs,
                                          StrataInterpObserver observer, void *user);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_INTERPRETER_H */
