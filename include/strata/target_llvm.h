/* The host-CPU target through LLVM: the named CPU pipeline and a JIT that
 * runs lowered functions on host tensors. */
#ifndef STRATA_TARGET_LLVM_H
#define STRATA_TARGET_LLVM_H

#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The textual pipeline `strata-cpu-pipeline` stands for: nn down to the
 * LLVM dialect, with function results turned into out-parameters and a C
 * interface (`_mlir_ciface_<name>`) on every public function. */
const char *strataCpuPipeline(void);

typedef struct StrataJit StrataJit;

/* Lowers a clone of `module` (nn level or below) through the CPU pipeline and
 * JIT-compiles it at LLVM `optLevel` (0-3). NULL on failure, with
 * diagnostics. `module` is left untouched. */
StrataJit *strataJitCreate(StrataContext *ctx, MlirModule module, int optLevel);
void strataJitDestroy(StrataJit *jit);

/* Calls compiled function `name` with `inputs`, writing into `outputs`, which
 * the caller allocates with the shapes of the original function's results. */
MlirLogicalResult strataJitInvoke(StrataJit *jit, const char *name, StrataTensor *const *inputs,
                                  size_t numInputs, StrataTensor *const *outputs,
                                  size_t numOutputs);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_TARGET_LLVM_H */
