/* Built-in tool `fakequant`: fake quantization (QDQ pairs, Amanda's dynamic
 * post-training quantization) on the activation (input 0) and the weights
 * (input 1) of nn.conv / nn.matmul / nn.gemm: each becomes
 *   dequantize_linear(quantize_linear(v, s, 0), s, 0),  s = max|v| / 127
 * (symmetric per-tensor i8). The scale is computed by nn ops from the value
 * itself, so it is dynamic for activations; for constant weights nn-fold
 * evaluates the whole pair at compile time. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "instr_internal.h"

static MlirValue constant(StrataBuilder *b, MlirLocation loc, const char *text) {
  MlirAttribute value = strataParseAttr(b->ctx, text);
  return strataResult(strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(mlirAttributeGetType(value)),
                                     .attrs = STRATA_ATTRS({"value", value})),
                      0);
}

static MlirValue unary(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirType t) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(t)), 0);
}

static MlirValue buildQdq(StrataBuilder *b, MlirLocation loc, MlirValue v, void *user) {
  (void)user;
  MlirContext ctx = b->ctx;
  MlirType t = mlirValueGetType(v), f32 = mlirF32TypeGet(ctx);
  MlirType scalar = mlirRankedTensorTypeGet(0, NULL, f32, mlirAttributeGetNull());
  MlirValue absV = unary(b, loc, "nn.abs", v, t);
  MlirValue maxAbs = strataResult(
      strataCreateOp(b, "nn.reduce_max", loc, .operands = STRATA_VALUES(absV), .results = STRATA_TYPES(scalar),
                     .attrs = STRATA_ATTRS({"keepdims", strataI64Attr(ctx, 0)})),
      0);
  MlirValue scale = strataResult(
      strataCreateOp(b, "nn.div", loc, .operands = STRATA_VALUES(maxAbs, constant(b, loc, "dense<1.270000e+02> : tensor<f32>")),
                     .results = STRATA_TYPES(scalar)),
      0);
  MlirValue zero = constant(b, loc, "dense<0> : tensor<i8>");
  int64_t dims[STRATA_MAX_RANK];
  intptr_t rank = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
  MlirType qt = mlirRankedTensorTypeGet(rank, dims, mlirIntegerTypeGet(ctx, 8), mlirAttributeGetNull());
  MlirValue q = strataResult(strataCreateOp(b, "nn.quantize_linear", loc, .operands = STRATA_VALUES(v, scale, zero),
                                            .results = STRATA_TYPES(qt)),
                             0);
  return strataResult(strataCreateOp(b, "nn.dequantize_linear", loc, .operands = STRATA_VALUES(q, scale, zero),
                                     .results = STRATA_TYPES(t)),
                      0);
}

static bool quantizable(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) &&
         mlirShapedTypeGetRank(t) <= STRATA_MAX_RANK && mlirTypeIsAF32(mlirShapedTypeGetElementType(t));
}

static void fakeQuantOp(StrataInstrOpContext *c, void *user) {
  (void)user;
  const char *name = strataInstrOpGetName(c);
  if (strcmp(name, "nn.conv") && strcmp(name, "nn.matmul") && strcmp(name, "nn.gemm")) return;
  for (intptr_t i = 0; i < 2 && i < strataInstrOpGetNumInputs(c); i++)
    if (quantizable(strataInstrOpGetInput(c, i))) strataInstrInsertBefore(c, i, buildQdq, NULL);
  strataInstrOpSetInt(c, "fakequant.bits", 8);
}

StrataInstrTool *instrFakeQuantTool(void) {
  StrataInstrTool *t = strataInstrToolCreate("fakequant");
  if (t) strataInstrToolAddCallback(t, STRATA_INSTR_BEFORE_FORWARD, fakeQuantOp, NULL);
  return t;
}
