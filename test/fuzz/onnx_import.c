/* libFuzzer target: bytes -> the ONNX importer (from a buffer, no external
 * data) -> Strata's verifier. Any crash, leak or sanitizer report is a bug:
 * a corrupt model must only produce an error. */
#include <stdint.h>
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StrataContext *ctx = fuzzContext();
  /* baseDir NULL: a model that names external data is refused rather than
   * letting the fuzzer open arbitrary files. */
  MlirModule module = strataImportOnnx(ctx, data, size, "fuzz.onnx", NULL, NULL);
  if (mlirModuleIsNull(module)) return 0;
  (void)strataVerify(ctx, mlirModuleGetOperation(module));
  mlirModuleDestroy(module);
  return 0;
}
