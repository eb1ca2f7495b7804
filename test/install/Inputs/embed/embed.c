/* A minimal embedder: parse, run nn-fold, print. */
#include <stdio.h>
#include "strata/strata.h"

static void print(MlirStringRef s, void *u) { fwrite(s.data, 1, s.length, stdout); }

int main(void) {
  StrataContext *ctx = strataContextCreate();
  const char *src = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                    "  %a = \"nn.relu\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
                    "  %b = \"nn.relu\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                    "  return %b : tensor<4xf32>\n}\n";
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(src), "embed.mlir");
  MlirLogicalResult r = strataRunPipeline(ctx, mlirModuleGetOperation(m), "func.func(nn-fold)");
  printf("nn-fold ran: %d\n", mlirLogicalResultIsSuccess(r));
  mlirOperationPrint(mlirModuleGetOperation(m), print, NULL);
  printf("\n");
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
