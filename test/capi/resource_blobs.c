/* strataResourceAttrGet / strataResourceData: a weight made as a recorded
 * dense_resource is found again without a copy, and the CPU target's
 * compiled code reads it in place (targets/llvm/params.c): weights changed
 * after compiling (before the first call, which packs them) give the
 * interpreter's answer on the changed weights.
 * RUN: %capi/resource_blobs 2>&1 | FileCheck %s
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

static const char *kModel =
    "func.func @f(%x: tensor<8x64xf32>) -> tensor<8x64xf32> {\n"
    "  %w = \"nn.constant\"() {value = dense<0.0> : tensor<64x64xf32>} : () -> tensor<64x64xf32>\n"
    "  %m = \"nn.matmul\"(%x, %w) : (tensor<8x64xf32>, tensor<64x64xf32>) -> tensor<8x64xf32>\n"
    "  return %m : tensor<8x64xf32>\n"
    "}\n";

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "blobs.mlir");
  MlirOperation f = strataLookupFunc(m, "f");
  MlirOperation w = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0)));
  MlirAttribute dense = mlirOperationGetAttributeByName(w, mlirStringRefCreateFromCString("value"));
  size_t bytes = 64 * 64 * sizeof(float), n = 0;
  float *data = aligned_alloc(64, bytes);
  for (int i = 0; i < 64 * 64; i++) data[i] = (float)((i * 37) % 101) / 101.0f - 0.5f;
  MlirAttribute blob = strataResourceAttrGet(ctx, mlirAttributeGetType(dense), "w", data, bytes, 64, NULL, NULL);
  const void *found = strataResourceData(ctx, blob, &n);
  printf("found: %d, bytes %zu, a dense attribute: %d\n", found == data, n,
         strataResourceData(ctx, dense, &n) != NULL);
  // CHECK: found: 1, bytes 16384, a dense attribute: 0
  mlirOperationSetAttributeByName(w, mlirStringRefCreateFromCString("value"), blob);

  int64_t dims[2] = {8, 64};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 2, dims), *y = strataTensorCreate(STRATA_DTYPE_F32, 2, dims);
  strataTensorFillRandom(x, 1, -1, 1);
  StrataExecutable *exe = strataCompile(ctx, m, "cpu", NULL);
  for (int i = 0; i < 64 * 64; i++) data[i] *= -3.0f; /* after compiling, before the first call */
  bool ran = exe && mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "f", &x, 1, &y, 1));
  StrataTensor **ref = NULL;
  size_t numRef = 0;
  bool interpreted = mlirLogicalResultIsSuccess(strataInterpret(ctx, f, &x, 1, &ref, &numRef));
  double err = 0;
  for (int i = 0; ran && interpreted && i < 8 * 64; i++) {
    double d = fabs(((float *)y->data)[i] - ((float *)ref[0]->data)[i]);
    err = d > err ? d : err;
  }
  printf("ran %d, interpreted %d, the changed weights: %s\n", ran, interpreted, err < 1e-4 ? "yes" : "no");
  // CHECK-NEXT: ran 1, interpreted 1, the changed weights: yes
  for (size_t i = 0; i < numRef; i++) strataTensorDestroy(ref[i]);
  free(ref);
  strataExecutableDestroy(exe);
  strataTensorDestroy(x);
  strataTensorDestroy(y);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  free(data);
  return 0;
}
