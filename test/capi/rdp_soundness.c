/* RDP facts against the op tables and execution. A model mixing the rule
 * families (strided conv and pool with derived symbols, a residual add, a
 * Shape -> Gather -> Concat -> Reshape chain, matmul, concat, pad, slice,
 * reduce, transpose) is analysed once with symbolic input dims; then, for
 * several input sizes, a copy gets static types: its arguments the sizes,
 * every op result the analysis' dims evaluated at them. The generic
 * verifier checks each declared type against the op table's own shape
 * inference (an independent implementation), and the reference interpreter
 * runs the copy, each result compared with its declared type. A wrong fact
 * fails here.
 * RUN: %capi/rdp_soundness 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

static const char *kModule =
    "func.func @f(%x: tensor<?x3x?x?xf32> {onnx.dim_params = [\"N\", \"\", \"H\", \"W\"]},\n"
    "             %w1: tensor<8x3x3x3xf32>, %w2: tensor<8x8x1x1xf32>, %m: tensor<8x5xf32>) -> tensor<?x?xf32> {\n"
    "  %c = \"nn.conv\"(%x, %w1) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>\n"
    "  %r = \"nn.relu\"(%c) : (tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>\n"
    "  %p = \"nn.max_pool\"(%r) {kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>\n"
    "  %d = \"nn.conv\"(%r, %w2) {strides = array<i64: 2, 2>} : (tensor<?x8x?x?xf32>, tensor<8x8x1x1xf32>) -> tensor<?x8x?x?xf32>\n"
    "  %v = \"nn.conv\"(%x, %w1) {strides = array<i64: 2, 2>} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>\n"
    "  %a = \"nn.add\"(%p, %d) : (tensor<?x8x?x?xf32>, tensor<?x8x?x?xf32>) -> tensor<?x8x?x?xf32>\n"
    "  %pads = \"nn.constant\"() {value = dense<[0, 0, 1, 0, 0, 0, 2, 3]> : tensor<8xi64>} : () -> tensor<8xi64>\n"
    "  %pd = \"nn.pad\"(%a, %pads) : (tensor<?x8x?x?xf32>, tensor<8xi64>) -> tensor<?x8x?x?xf32>\n"
    "  %mean = \"nn.reduce_mean\"(%pd) {axes = array<i64: 2>, keepdims = 0 : i64} : (tensor<?x8x?x?xf32>) -> tensor<?x8x?xf32>\n"
    "  %t = \"nn.transpose\"(%mean) {perm = array<i64: 0, 2, 1>} : (tensor<?x8x?xf32>) -> tensor<?x?x8xf32>\n"
    "  %mm = \"nn.matmul\"(%t, %m) : (tensor<?x?x8xf32>, tensor<8x5xf32>) -> tensor<?x?x5xf32>\n"
    "  %cat = \"nn.concat\"(%mm, %mm) {axis = 1 : i64} : (tensor<?x?x5xf32>, tensor<?x?x5xf32>) -> tensor<?x?x5xf32>\n"
    "  %s0 = \"nn.constant\"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "  %s1 = \"nn.constant\"() {value = dense<1> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "  %s9 = \"nn.constant\"() {value = dense<9223372036854775807> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "  %sl = \"nn.slice\"(%cat, %s0, %s9, %s1) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<?x?x5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x?x5xf32>\n"
    "  %sh = \"nn.shape\"(%sl) : (tensor<?x?x5xf32>) -> tensor<3xi64>\n"
    "  %n = \"nn.gather\"(%sh, %s0) : (tensor<3xi64>, tensor<1xi64>) -> tensor<1xi64>\n"
    "  %m1 = \"nn.constant\"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "  %shape = \"nn.concat\"(%n, %m1) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>\n"
    "  %y = \"nn.reshape\"(%sl, %shape) : (tensor<?x?x5xf32>, tensor<2xi64>) -> tensor<?x?xf32>\n"
    "  %fl = \"nn.flatten\"(%v) : (tensor<?x8x?x?xf32>) -> tensor<?x?xf32>\n"
    "  return %y : tensor<?x?xf32>\n}\n";

static MlirOperation findReshape(MlirOperation func) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "nn.reshape")) return op;
  return (MlirOperation){NULL};
}

typedef struct {
  int checked, wrong;
} Check;

/* Each result the interpreter computed against its declared (predicted) type. */
static void observe(MlirOperation op, const StrataTensor *const *results, intptr_t numResults, void *user) {
  Check *c = user;
  for (intptr_t j = 0; j < numResults; j++) {
    int rank;
    int64_t dims[STRATA_MAX_RANK];
    if (!results[j] || !strataGetShape(mlirValueGetType(mlirOperationGetResult(op, j)), &rank, dims)) continue;
    bool same = rank == results[j]->rank;
    for (int d = 0; same && d < rank; d++) same = dims[d] == results[j]->dims[d];
    c->checked++;
    if (!same) {
      printf("WRONG: %s result %d\n", mlirIdentifierStr(mlirOperationGetName(op)).data, (int)j);
      c->wrong++;
    }
  }
}

/* Gives `copy` (parsed from the same text as the analysed `func`) static
 * types: arguments from `argDims`, op results from the facts evaluated at
 * `sizes`. Returns how many result dims the facts left unknown. */
static int specialize(const StrataRdp *r, MlirOperation func, MlirOperation copy, const int64_t *sizes,
                      const int64_t *argDims) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirBlock cb = mlirRegionGetFirstBlock(mlirOperationGetRegion(copy, 0));
  MlirValue x = mlirBlockGetArgument(cb, 0);
  MlirType f32 = mlirShapedTypeGetElementType(mlirValueGetType(x));
  mlirValueSetType(x, mlirRankedTensorTypeGet(4, argDims, f32, mlirAttributeGetNull()));
  int unknown = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(b), cop = mlirBlockGetFirstOperation(cb); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), cop = mlirOperationGetNextInBlock(cop))
    for (intptr_t j = 0; j < mlirOperationGetNumResults(op); j++) {
      MlirValue v = mlirOperationGetResult(op, j);
      int rank = strataRdpRankOf(r, v);
      int64_t dims[STRATA_MAX_RANK];
      if (rank < 0) continue;
      for (int d = 0; d < rank; d++)
        if (!strataRdpEvalDim(r, v, d, sizes, 3, &dims[d])) unknown++, dims[d] = mlirShapedTypeGetDynamicSize();
      MlirType t = mlirValueGetType(v);
      mlirValueSetType(mlirOperationGetResult(cop, j),
                       mlirRankedTensorTypeGet(rank, dims, mlirShapedTypeGetElementType(t), mlirAttributeGetNull()));
    }
  /* The signature follows the block's argument and return types. */
  MlirType ins[4], outs[1];
  for (int i = 0; i < 4; i++) ins[i] = mlirValueGetType(mlirBlockGetArgument(cb, i));
  outs[0] = mlirValueGetType(mlirOperationGetOperand(mlirBlockGetTerminator(cb), 0));
  mlirOperationSetAttributeByName(copy, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(mlirOperationGetContext(copy), 4, ins, 1, outs)));
  return unknown;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "soundness.mlir");
  if (!ctx || mlirModuleIsNull(m)) return 1;
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  StrataRdp *r = strataRdpRun(ctx, func, false);
  if (!r) return 1;
  char shape[256];
  strataRdpShapeString(r, mlirOperationGetResult(findReshape(func), 0), shape, sizeof shape);
  // CHECK: reshape: [N, 10*ceil(ceil(W/2)/2) + 30]
  printf("reshape: %s\n", shape);
  static const int64_t kSizes[][3] = {{1, 7, 10}, {2, 16, 9}, {3, 5, 5}, {1, 33, 64}};
  int runs = 0, verified = 0, unknown = 0, checked = 0, wrong = 0;
  for (size_t s = 0; s < sizeof kSizes / sizeof *kSizes; s++) {
    int64_t dims[4] = {kSizes[s][0], 3, kSizes[s][1], kSizes[s][2]};
    MlirModule cm = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "soundness.mlir");
    MlirOperation copy = mlirBlockGetFirstOperation(mlirModuleGetBody(cm));
    unknown += specialize(r, func, copy, kSizes[s], dims);
    verified += mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(cm)));
    StrataTensor *in[4] = {strataTensorCreate(STRATA_DTYPE_F32, 4, dims),
                           strataTensorCreate(STRATA_DTYPE_F32, 4, (int64_t[]){8, 3, 3, 3}),
                           strataTensorCreate(STRATA_DTYPE_F32, 4, (int64_t[]){8, 8, 1, 1}),
                           strataTensorCreate(STRATA_DTYPE_F32, 2, (int64_t[]){8, 5})};
    Check c = {0, 0};
    StrataTensor **outs = NULL;
    size_t numOuts = 0;
    if (mlirLogicalResultIsSuccess(strataInterpretObserved(ctx, copy, in, 4, &outs, &numOuts, observe, &c))) runs++;
    for (size_t i = 0; i < numOuts; i++) strataTensorDestroy(outs[i]);
    free(outs);
    for (int i = 0; i < 4; i++) strataTensorDestroy(in[i]);
    checked += c.checked, wrong += c.wrong;
    mlirModuleDestroy(cm);
  }
  // CHECK-NOT: WRONG
  // CHECK: 4 sizes: unknown dims 0, verified 4, ran 4, results checked 88, wrong 0
  printf("4 sizes: unknown dims %d, verified %d, ran %d, results checked %d, wrong %d\n", unknown, verified, runs,
         checked, wrong);
  strataRdpDestroy(r);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
