/* Digest C.1.10: FKW's index overhead against CSR on VGG-16's conv layers
 * (Table 2.6 shapes, one function so that only L1 is exempt from
 * connectivity pruning) at PatDNN's 8x: 8 patterns of 4 entries selected
 * from the weights, 3.6x connectivity pruning. The passes run as
 * `strata-run --sparse prune=8,rate=3.6` chains them; sparse-report prints
 * each layer's index bytes (4-byte entries) and check_report.py checks them
 * against the structure's formula and the expected saving.
 * RUN: %capi/sparse_index_overhead > %t.report 2> %t.remarks
 * RUN: %python %root/test/transforms/sparse/Inputs/check_report.py %t.report | FileCheck %s
 * CHECK-COUNT-9: index bytes as the formula, saving {{-?[0-9.]+}}%: ok
 * CHECK: weights kept: 1/{{[0-9.]+}}: ok
 * CHECK: L2-L9 FKW index saving over CSR: {{[0-9.]+}}%: ok
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

static const int kChannels[] = {3, 64, 64, 128, 128, 256, 256, 512, 512, 512};
enum { LAYERS = 9, SIZE = 6 };

static uint64_t state = 0x9E3779B97F4A7C15ull;
/* Uniform in [-1, 1): the magnitudes decide the natural patterns. */
static float uniform(void) {
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return (float)((double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

/* Gives every nn.constant of the function random weights of its type. */
static MlirWalkResult fill(MlirOperation op, void *user) {
  (void)user;
  if (!strataOpIsNamed(op, "nn.constant")) return MlirWalkResultAdvance;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  intptr_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++) n *= (intptr_t)mlirShapedTypeGetDimSize(t, d);
  float *w = malloc(sizeof *w * (size_t)n);
  if (!w) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (intptr_t i = 0; i < n; i++) w[i] = uniform();
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("value"),
                                  mlirDenseElementsAttrFloatGet(t, n, w));
  free(w);
  return MlirWalkResultAdvance;
}

int main(void) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return 1;
  fprintf(f, "func.func @vgg(%%x: tensor<1x3x%dx%dxf32>) -> tensor<1x512x%dx%dxf32> {\n", SIZE, SIZE, SIZE, SIZE);
  for (int l = 0; l < LAYERS; l++) {
    int c = kChannels[l], m = kChannels[l + 1];
    fprintf(f, "  %%w%d = \"nn.constant\"() {value = dense<0.0> : tensor<%dx%dx3x3xf32>} : () -> tensor<%dx%dx3x3xf32>\n",
            l, m, c, m, c);
    char in[16];
    snprintf(in, sizeof in, l ? "%%y%d" : "%%x", l - 1);
    fprintf(f, "  %%y%d = \"nn.conv\"(%s, %%w%d) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x%dx%dx%dxf32>, "
               "tensor<%dx%dx3x3xf32>) -> tensor<1x%dx%dx%dxf32>\n",
            l, in, l, c, SIZE, SIZE, m, c, m, SIZE, SIZE);
  }
  fprintf(f, "  return %%y%d : tensor<1x512x%dx%dxf32>\n}\n", LAYERS - 1, SIZE, SIZE);
  fclose(f);

  StrataContext *ctx = strataContextCreate();
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(text), "vgg16.mlir");
  free(text);
  if (mlirModuleIsNull(m)) return 1;
  mlirOperationWalk(mlirModuleGetOperation(m), fill, NULL, MlirWalkPreOrder);
  MlirLogicalResult r = strataRunPipeline(
      ctx, mlirModuleGetOperation(m),
      "builtin.module(sparse-pattern-select{count=8},sparse-pattern-prune,sparse-connectivity-prune{rate=3.6},"
      "sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw,sparse-report)");
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return mlirLogicalResultIsSuccess(r) ? 0 : 1;
}
