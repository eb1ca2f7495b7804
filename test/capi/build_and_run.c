/* Builds a function with the op-building helpers, rewrites it with a C
 * pattern, then runs it through the interpreter and the JIT.
 * RUN: %capi/build_and_run 2>&1 | FileCheck %s
 */
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

static void print(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stdout); }

/* relu(relu(x)) -> relu(x), counting rewrites. */
static MlirLogicalResult collapseRelu(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirValue in = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(in)) return mlirLogicalResultFailure();
  MlirOperation producer = mlirOpResultGetOwner(in);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(producer));
  if (name.length != 7 || strncmp(name.data, "nn.relu", 7)) return mlirLogicalResultFailure();
  (*(int *)user)++;
  strataReplaceOp(rw, op, STRATA_VALUES(in));
  return mlirLogicalResultSuccess();
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep stdout and stderr in order */
  StrataContext *sctx = strataContextCreate();
  MlirContext ctx = strataContextGetMlir(sctx);
  MlirLocation loc = mlirLocationFileLineColGet(ctx, mlirStringRefCreateFromCString("built.c"), 1, 1);
  MlirType f32 = strataF32(ctx);
  int64_t as[] = {2, 3}, bs[] = {3, 4}, cs[] = {2, 4};
  MlirType ta = strataTensorType(f32, 2, as), tb = strataTensorType(f32, 2, bs),
           tc = strataTensorType(f32, 2, cs);

  MlirModule module = mlirModuleCreateEmpty(loc);
  StrataBuilder top = strataBuilderAtEnd(ctx, mlirModuleGetBody(module));
  MlirType ftype = mlirFunctionTypeGet(ctx, 2, (MlirType[]){ta, tb}, 1, (MlirType[]){tc});
  MlirOperation func = strataCreateOp(&top, "func.func", loc,
      .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(ctx, "mm")},
                            {"function_type", mlirTypeAttrGet(ftype)}),
      .numRegions = 1);
  MlirBlock body = strataAddBlock(func, 0, STRATA_TYPES(ta, tb), loc);
  StrataBuilder b = strataBuilderAtEnd(ctx, body);
  MlirValue x = mlirBlockGetArgument(body, 0), w = mlirBlockGetArgument(body, 1);
  MlirValue mm = strataResult(strataCreateOp(&b, "nn.matmul", loc, .operands = STRATA_VALUES(x, w),
                                             .results = STRATA_TYPES(tc)), 0);
  MlirValue r1 = strataResult(strataCreateOp(&b, "nn.relu", loc, .operands = STRATA_VALUES(mm),
                                             .results = STRATA_TYPES(tc)), 0);
  MlirValue r2 = strataResult(strataCreateOp(&b, "nn.relu", loc, .operands = STRATA_VALUES(r1),
                                             .results = STRATA_TYPES(tc)), 0);
  strataCreateOp(&b, "func.return", loc, .operands = STRATA_VALUES(r2));
  // CHECK: verified: 1
  printf("verified: %d\n", mlirLogicalResultIsSuccess(strataVerify(sctx, mlirModuleGetOperation(module))));

  int rewrites = 0;
  StrataPatternSet *set = strataPatternSetCreate(ctx);
  strataPatternSetAdd(set, "nn.relu", 1, collapseRelu, &rewrites);
  MlirLogicalResult r = strataApplyPatternsGreedily(set, mlirModuleGetOperation(module), NULL);
  // CHECK: greedy converged: 1 rewrites: 1
  printf("greedy converged: %d rewrites: %d\n", mlirLogicalResultIsSuccess(r), rewrites);
  strataApplyPatternsWalk(set, mlirModuleGetOperation(module));
  // CHECK: walk rewrites: 1
  printf("walk rewrites: %d\n", rewrites);
  strataPatternSetDestroy(set);
  // CHECK: func.func @mm(%arg0: tensor<2x3xf32>, %arg1: tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK-NEXT: "nn.matmul"
  // CHECK-NEXT: "nn.relu"
  // CHECK-NEXT: return
  mlirOperationPrint(mlirModuleGetOperation(module), print, NULL);
  printf("\n");

  StrataTensor *in[2] = {strataTensorCreate(STRATA_DTYPE_F32, 2, as),
                         strataTensorCreate(STRATA_DTYPE_F32, 2, bs)};
  strataTensorFillRandom(in[0], 1, -1, 1);
  strataTensorFillRandom(in[1], 2, -1, 1);
  StrataTensor **ref;
  size_t nref;
  r = strataInterpret(sctx, func, in, 2, &ref, &nref);
  StrataTensor *out = strataTensorCreateForType(tc);
  StrataJit *jit = strataJitCreate(sctx, module, 2);
  MlirLogicalResult jr = strataJitInvoke(jit, "mm", in, 2, &out, 1);
  double maxErr = 0, expect00 = 0;
  for (int k = 0; k < 3; k++) expect00 += strataTensorGetDouble(in[0], k) * strataTensorGetDouble(in[1], 4 * k);
  expect00 = expect00 > 0 ? expect00 : 0;
  for (int64_t i = 0; i < 8; i++)
    maxErr = fmax(maxErr, fabs(strataTensorGetDouble(out, i) - strataTensorGetDouble(ref[0], i)));
  // CHECK: interpret: 1 outputs: 1 jit: 1 max err < 1e-6: 1 [0,0] right: 1
  printf("interpret: %d outputs: %zu jit: %d max err < 1e-6: %d [0,0] right: %d\n",
         mlirLogicalResultIsSuccess(r), nref, mlirLogicalResultIsSuccess(jr), maxErr < 1e-6,
         fabs(strataTensorGetDouble(ref[0], 0) - expect00) < 1e-6);
  // The module given to the JIT is untouched (it lowered a clone).
  // CHECK: still nn: 1
  printf("still nn: %d\n", strataContextLookupOpDef(sctx, mlirIdentifierStr(mlirOperationGetName(
      mlirBlockGetFirstOperation(body)))) != NULL);

  /* .npy round trip. */
  char err[256];
  bool wrote = strataNpyWrite("capi_roundtrip.npy", out, err, sizeof err);
  StrataTensor *back = strataNpyRead("capi_roundtrip.npy", err, sizeof err);
  // CHECK: npy: 1 1 same: 1
  printf("npy: %d %d same: %d\n", wrote, back != NULL,
         back && !memcmp(back->data, out->data, strataTensorNumBytes(out)) && back->rank == 2);
  remove("capi_roundtrip.npy");

  strataTensorDestroy(back);
  strataJitDestroy(jit);
  strataTensorDestroy(out);
  strataTensorDestroy(ref[0]);
  free(ref);
  strataTensorDestroy(in[0]);
  strataTensorDestroy(in[1]);
  mlirModuleDestroy(module);
  strataContextDestroy(sctx);
  return 0;
}
