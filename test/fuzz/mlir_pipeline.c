/* libFuzzer target: MLIR text (or bytecode) -> strataParseModule ->
 * strataVerify -> nn-fold -> strata-cpu-pipeline. Malformed or unsupported
 * IR must end in a diagnostic; a crash, leak or sanitizer report is a bug. */
#include <stdint.h>
#include <stdlib.h>
#include "fuzz_common.h"

/* Bounds that keep the rate of executions useful: the parser is linear, but
 * the CPU pipeline costs milliseconds per op, and the seeds (split test
 * files) are all below these sizes. */
enum { kMaxInput = 64 * 1024, kMaxCpuPipelineInput = 8 * 1024 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput) return 0;
  StrataContext *ctx = fuzzContext();
  char *text = fuzzCopyString(data, size);
  if (!text) return 0;
  MlirModule module = strataParseModule(ctx, mlirStringRefCreate(text, size), "fuzz.mlir");
  free(text);
  if (mlirModuleIsNull(module)) return 0;
  MlirOperation op = mlirModuleGetOperation(module);
  /* Each stage runs only on what the previous one accepted, as strata-opt
   * and strata-run do: passes may assume verified input. */
  if (mlirLogicalResultIsSuccess(strataVerify(ctx, op)) &&
      mlirLogicalResultIsSuccess(strataRunPipeline(ctx, op, "builtin.module(func.func(nn-fold))")) &&
      mlirLogicalResultIsSuccess(strataVerify(ctx, op)) && size <= kMaxCpuPipelineInput &&
      mlirLogicalResultIsSuccess(strataRunPipeline(ctx, op, "builtin.module(strata-cpu-pipeline)")))
    (void)strataVerify(ctx, op);
  mlirModuleDestroy(module);
  return 0;
}
