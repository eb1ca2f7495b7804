/* libFuzzer target: text -> strataParsePipeline into a pass manager on
 * builtin.module. Parse only: running arbitrary pipelines would mostly
 * exercise upstream MLIR passes, and some Strata options name files
 * (nn-fuse{profile-db=...}) that a fuzzer must not write. */
#include <stdint.h>
#include <stdlib.h>
#include "fuzz_common.h"

/* Pipelines are short; long inputs only slow the near-match search. */
enum { kMaxInput = 4096 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > kMaxInput) return 0;
  StrataContext *ctx = fuzzContext();
  char *text = fuzzCopyString(data, size);
  if (!text) return 0;
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      strataContextGetMlir(ctx), mlirStringRefCreateFromCString("builtin.module"));
  (void)strataParsePipeline(ctx, mlirPassManagerGetAsOpPassManager(pm), text);
  mlirPassManagerDestroy(pm);
  free(text);
  return 0;
}
