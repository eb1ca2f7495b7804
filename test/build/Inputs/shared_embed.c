/* An embedder linked against libstrata.so (not the archive): parse, verify,
 * run nn-fold, then interpret and JIT a matmul + relu. The JIT lives in
 * libstrata.so and must still find the runtime kernels compiled code calls,
 * which the library keeps (and exports) even though it hides the rest. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "strata/strata.h"

static void print(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stdout);
}

int main(void) {
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return 1;
  const char *src =
      "func.func @f(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {\n"
      "  %m = \"nn.matmul\"(%x, %w) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>\n"
      "  %a = \"nn.relu\"(%m) : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
      "  %b = \"nn.relu\"(%a) : (tensor<2x4xf32>) -> tensor<2x4xf32>\n"
      "  return %b : tensor<2x4xf32>\n}\n";
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(src), "shared.mlir");
  if (mlirModuleIsNull(m)) return 1;
  MlirOperation mop = mlirModuleGetOperation(m);
  printf("verified: %d\n", mlirLogicalResultIsSuccess(strataVerify(ctx, mop)));
  MlirLogicalResult r = strataRunPipeline(ctx, mop, "func.func(nn-fold)");
  printf("nn-fold ran: %d\n", mlirLogicalResultIsSuccess(r));
  mlirOperationPrint(mop, print, NULL);
  printf("\n");

  int64_t xs[] = {2, 3}, ws[] = {3, 4}, ys[] = {2, 4};
  StrataTensor *in[2] = {strataTensorCreate(STRATA_DTYPE_F32, 2, xs),
                         strataTensorCreate(STRATA_DTYPE_F32, 2, ws)};
  strataTensorFillRandom(in[0], 1, -1, 1);
  strataTensorFillRandom(in[1], 2, -1, 1);
  StrataTensor **ref = NULL;
  size_t nref = 0;
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirLogicalResult ir = strataInterpret(ctx, func, in, 2, &ref, &nref);
  StrataTensor *out = strataTensorCreate(STRATA_DTYPE_F32, 2, ys);
  StrataJit *jit = strataJitCreate(ctx, m, 2);
  MlirLogicalResult jr = jit ? strataJitInvoke(jit, "f", in, 2, &out, 1) : mlirLogicalResultFailure();
  double maxErr = 0;
  for (int64_t i = 0; i < 8 && nref == 1; i++)
    maxErr = fmax(maxErr, fabs(strataTensorGetDouble(out, i) - strataTensorGetDouble(ref[0], i)));
  printf("interpret: %d jit: %d max err < 1e-6: %d\n", mlirLogicalResultIsSuccess(ir),
         mlirLogicalResultIsSuccess(jr), nref == 1 && maxErr < 1e-6);

  strataJitDestroy(jit);
  for (size_t i = 0; i < nref; i++) strataTensorDestroy(ref[i]);
  free(ref);
  strataTensorDestroy(out);
  strataTensorDestroy(in[0]);
  strataTensorDestroy(in[1]);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
