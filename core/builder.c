/* Op-building helpers (see include/strata/builder.h). */
#include <math.h>
#include <stdbool.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/AffineMap.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/support.h"
/* The runtime's MLIR signatures (runtime/kernel_abi.def, the table its C
 * prototypes are declared from). */
#define STRATA_RT_ABI_MLIR_TYPES
#include "kernel_abi.h"

StrataBuilder strataBuilderBefore(MlirOperation op, MlirRewriterBase rewriter) {
  StrataBuilder b = {mlirOperationGetContext(op), rewriter, mlirOperationGetBlock(op), op};
  return b;
}

StrataBuilder strataBuilderAtEnd(MlirContext ctx, MlirBlock block) {
  StrataBuilder b = {ctx, {NULL}, block, {NULL}};
  return b;
}

MlirOperation strataBuildOp(StrataBuilder *b, const char *name, MlirLocation loc,
                            StrataOpSpec spec) {
  MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString(name), loc);
  if (spec.operands.count)
    mlirOperationStateAddOperands(&st, spec.operands.count, spec.operands.data);
  if (spec.results.count) mlirOperationStateAddResults(&st, spec.results.count, spec.results.data);
  if (spec.attrs.count) {
    MlirNamedAttribute attrs[spec.attrs.count];
    for (intptr_t i = 0; i < spec.attrs.count; i++)
      attrs[i] = mlirNamedAttributeGet(
          mlirIdentifierGet(b->ctx, mlirStringRefCreateFromCString(spec.attrs.data[i].name)),
          spec.attrs.data[i].attr);
    mlirOperationStateAddAttributes(&st, spec.attrs.count, attrs);
  }
  if (spec.numRegions) {
    MlirRegion regions[spec.numRegions];
    for (intptr_t i = 0; i < spec.numRegions; i++) regions[i] = mlirRegionCreate();
    mlirOperationStateAddOwnedRegions(&st, spec.numRegions, regions);
  }
  MlirOperation op = mlirOperationCreate(&st);
  if (mlirOperationIsNull(op)) return op;
  strataBuilderInsert(b, op);
  return op;
}

void strataBuilderInsert(StrataBuilder *b, MlirOperation op) {
  if (b->rewriter.ptr) {
    mlirRewriterBaseSetInsertionPointBefore(b->rewriter, b->before);
    mlirRewriterBaseInsert(b->rewriter, op);
  } else if (!mlirBlockIsNull(b->block)) {
    if (mlirOperationIsNull(b->before))
      mlirBlockAppendOwnedOperation(b->block, op);
    else
      mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  }
}

MlirBlock strataAddBlock(MlirOperation op, intptr_t region, StrataTypeList argTypes,
                         MlirLocation loc) {
  MlirLocation locs[argTypes.count ? argTypes.count : 1];
  for (intptr_t i = 0; i < argTypes.count; i++) locs[i] = loc;
  MlirBlock block = mlirBlockCreate(argTypes.count, argTypes.data, locs);
  mlirRegionAppendOwnedBlock(mlirOperationGetRegion(op, region), block);
  return block;
}

MlirValue strataResult(MlirOperation op, intptr_t i) { return mlirOperationGetResult(op, i); }

MlirAttribute strataI64Attr(MlirContext ctx, int64_t v) {
  return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), v);
}

MlirAttribute strataStrAttr(MlirContext ctx, const char *s) {
  return mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(s));
}

MlirType strataF32(MlirContext ctx) { return mlirF32TypeGet(ctx); }
MlirType strataIndexType(MlirContext ctx) { return mlirIndexTypeGet(ctx); }

MlirValue strataConstFloat(StrataBuilder *b, MlirLocation loc, MlirType t, double v) {
  MlirOperation c = strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(t),
                                   .attrs = STRATA_ATTRS({"value", mlirFloatAttrDoubleGet(b->ctx, t, v)}));
  return strataResult(c, 0);
}

MlirValue strataConstInt(StrataBuilder *b, MlirLocation loc, MlirType t, int64_t v) {
  MlirOperation c = strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(t),
                                   .attrs = STRATA_ATTRS({"value", mlirIntegerAttrGet(t, v)}));
  return strataResult(c, 0);
}

MlirAttribute strataParseAttr(MlirContext ctx, const char *text) {
  return mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
}

bool strataModuleHasSymbol(MlirOperation module, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(sym) && mlirAttributeIsAString(sym) &&
        mlirStringRefEqual(mlirStringAttrGetValue(sym), mlirStringRefCreateFromCString(name)))
      return true;
  }
  return false;
}

MlirLogicalResult strataDeclareRuntimeFunc(MlirOperation module, const char *name) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  if (strataModuleHasSymbol(module, name)) return mlirLogicalResultSuccess();
  char type[512];
  if (!strataRtAbiMlirType(name, type, sizeof type)) {
    strataEmitError(mlirOperationGetLocation(module), "'%s' is not in libstrata_rt's ABI table", name);
    return mlirLogicalResultFailure();
  }
  StrataBuilder b = strataBuilderAtEnd(ctx, body);
  b.before = mlirBlockGetFirstOperation(body);
  MlirType fnType = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(type));
  strataCreateOp(&b, "func.func", mlirLocationUnknownGet(ctx),
                 .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(ctx, name)},
                                       {"function_type", mlirTypeAttrGet(fnType)},
                                       {"sym_visibility", strataStrAttr(ctx, "private")},
                                       {"llvm.emit_c_interface", mlirUnitAttrGet(ctx)}),
                 .numRegions = 1);
  return mlirLogicalResultSuccess();
}

int64_t strataIntFromDouble(MlirType intType, double v) {
  unsigned w = mlirTypeIsAIndex(intType) ? 64 : mlirIntegerTypeGetWidth(intType);
  if (isnan(v)) return 0;
  if (mlirTypeIsAInteger(intType) && mlirIntegerTypeIsUnsigned(intType) && w == 64) {
    if (v <= 0) return 0;
    return v >= 0x1p64 ? -1 : (int64_t)(uint64_t)v; /* the bits of the unsigned value */
  }
  if (w >= 64) return strataDoubleToInt64Saturated(v);
  /* Narrower types: anything in [-2^(w-1), 2^w) has its w low bits as the
   * value (signed or unsigned reading); beyond, saturate to that range. */
  double lo = -ldexp(1, (int)w - 1), hi = ldexp(1, (int)w) - 1;
  return (int64_t)(v < lo ? lo : v > hi ? hi : v);
}

MlirAttribute strataNumberAttr(MlirType elementType, double v) {
  if (mlirTypeIsAFloat(elementType))
    return mlirFloatAttrDoubleGet(mlirTypeGetContext(elementType), elementType, v);
  return mlirIntegerAttrGet(elementType, strataIntFromDouble(elementType, v));
}

MlirValue strataGlobalUnrankedRef(StrataBuilder *b, MlirOperation module, MlirLocation loc, const char *sym,
                                  MlirAttribute init, bool constant) {
  MlirContext ctx = b->ctx;
  MlirType tt = mlirAttributeGetType(init), elem = mlirShapedTypeGetElementType(tt);
  int64_t count = mlirShapedTypeGetDimSize(tt, 0);
  MlirType mt = mlirMemRefTypeGet(elem, 1, &count, mlirAttributeGetNull(), mlirAttributeGetNull());
  if (!strataModuleHasSymbol(module, sym)) {
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
    StrataBuilder top = strataBuilderAtEnd(ctx, body);
    top.before = mlirBlockGetFirstOperation(body);
    MlirAttribute name = strataStrAttr(ctx, sym), type = mlirTypeAttrGet(mt);
    if (constant)
      strataCreateOp(&top, "memref.global", loc,
                     .attrs = STRATA_ATTRS({"sym_name", name}, {"sym_visibility", strataStrAttr(ctx, "private")},
                                           {"type", type}, {"initial_value", init},
                                           {"constant", mlirUnitAttrGet(ctx)}));
    else
      strataCreateOp(&top, "memref.global", loc,
                     .attrs = STRATA_ATTRS({"sym_name", name}, {"type", type}, {"initial_value", init}));
  }
  MlirValue global = strataResult(
      strataCreateOp(b, "memref.get_global", loc, .results = STRATA_TYPES(mt),
                     .attrs = STRATA_ATTRS({"name", mlirFlatSymbolRefAttrGet(ctx, mlirStringRefCreateFromCString(sym))})),
      0);
  MlirType unranked = mlirUnrankedMemRefTypeGet(elem, mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "memref.cast", loc, .operands = STRATA_VALUES(global),
                                     .results = STRATA_TYPES(unranked)),
                      0);
}

MlirValue strataConstStringRef(StrataBuilder *b, MlirOperation module, MlirLocation loc,
                               const char *sym, const char *text) {
  int64_t len = (int64_t)strlen(text);
  MlirType tt = mlirRankedTensorTypeGet(1, &len, mlirIntegerTypeGet(b->ctx, 8), mlirAttributeGetNull());
  return strataGlobalUnrankedRef(b, module, loc, sym, mlirDenseElementsAttrInt8Get(tt, len, (const int8_t *)text),
                                 true);
}

MlirValue strataTensorToUnrankedMemRef(StrataBuilder *b, MlirLocation loc, MlirValue t) {
  return strataTensorToUnrankedMemRefPermuted(b, loc, t, NULL);
}

MlirValue strataTensorToUnrankedMemRefPermuted(StrataBuilder *b, MlirLocation loc, MlirValue t,
                                               const int64_t *perm) {
  MlirType tt = mlirValueGetType(t);
  intptr_t rank = mlirShapedTypeGetRank(tt);
  int64_t shape[rank ? rank : 1], strides[rank ? rank : 1];
  for (intptr_t i = 0; i < rank; i++) {
    shape[i] = mlirShapedTypeGetDimSize(tt, i);
    strides[i] = mlirShapedTypeGetDynamicStrideOrOffset();
  }
  MlirAttribute layout =
      mlirStridedLayoutAttrGet(b->ctx, mlirShapedTypeGetDynamicStrideOrOffset(), rank, strides);
  MlirType element = mlirShapedTypeGetElementType(tt);
  MlirType mt = mlirMemRefTypeGet(element, rank, shape, layout, mlirAttributeGetNull());
  MlirValue m = strataResult(
      strataCreateOp(b, "bufferization.to_buffer", loc, .operands = STRATA_VALUES(t),
                     .results = STRATA_TYPES(mt),
                     .attrs = STRATA_ATTRS({"read_only", mlirUnitAttrGet(b->ctx)})),
      0);
  if (perm && rank > 0) { /* a strided view: result dim i is dim perm[i] of t */
    unsigned order[rank];
    int64_t permuted[rank];
    for (intptr_t i = 0; i < rank; i++) order[i] = (unsigned)perm[i], permuted[i] = shape[perm[i]];
    MlirType pt = mlirMemRefTypeGet(element, rank, permuted, layout, mlirAttributeGetNull());
    MlirAttribute map = mlirAffineMapAttrGet(mlirAffineMapPermutationGet(b->ctx, rank, order));
    m = strataResult(strataCreateOp(b, "memref.transpose", loc, .operands = STRATA_VALUES(m),
                                    .results = STRATA_TYPES(pt), .attrs = STRATA_ATTRS({"permutation", map})),
                     0);
  }
  MlirType unranked = mlirUnrankedMemRefTypeGet(element, mlirAttributeGetNull());
  return strataResult(strataCreateOp(b, "memref.cast", loc, .operands = STRATA_VALUES(m),
                                     .results = STRATA_TYPES(unranked)),
                      0);
}
