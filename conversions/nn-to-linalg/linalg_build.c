/* Building linalg.generic and friends through the C API. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "linalg_build.h"
#include "strata/support.h"

void linalgFormatDims(char *buf, size_t size, const int *dims, int n) {
  size_t off = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < n && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%sd%d", i ? ", " : "", dims[i]);
  if (off < size) snprintf(buf + off, size - off, ")");
}

static MlirType signlessOf(MlirType t) {
  if (mlirTypeIsAInteger(t) && !mlirIntegerTypeIsSignless(t))
    return mlirIntegerTypeGet(mlirTypeGetContext(t), mlirIntegerTypeGetWidth(t));
  return t;
}

static MlirValue castScalar(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType to) {
  if (mlirTypeEqual(mlirValueGetType(v), to)) return v;
  return strataResult(strataCreateOp(b, "builtin.unrealized_conversion_cast", loc,
                                     .operands = STRATA_VALUES(v), .results = STRATA_TYPES(to)), 0);
}

void linalgBuildGenericN(StrataBuilder *b, MlirLocation loc, StrataValueList inputs,
                         StrataValueList inits, const char *const *mapResults, const char *iterators,
                         LinalgBodyNFn body, void *user, MlirValue *results) {
  MlirContext ctx = b->ctx;
  int numLoops = (int)strlen(iterators);
  intptr_t numOperands = inputs.count + inits.count;
  char domain[256];
  int all[32] = {0};
  for (int i = 0; i < numLoops; i++) all[i] = i;
  linalgFormatDims(domain, sizeof domain, all, numLoops);
  MlirAttribute maps[numOperands], its[numLoops > 0 ? numLoops : 1];
  for (intptr_t i = 0; i < numOperands; i++) {
    char text[1024];
    snprintf(text, sizeof text, "affine_map<%s -> %s>", domain, mapResults[i]);
    maps[i] = strataParseAttr(ctx, text);
  }
  for (int i = 0; i < numLoops; i++)
    its[i] = strataParseAttr(ctx, iterators[i] == 'r' ? "#linalg.iterator_type<reduction>"
                                                      : "#linalg.iterator_type<parallel>");
  MlirValue operands[numOperands];
  MlirType resultTypes[inits.count];
  for (intptr_t i = 0; i < inputs.count; i++) operands[i] = inputs.data[i];
  for (intptr_t i = 0; i < inits.count; i++) {
    operands[inputs.count + i] = inits.data[i];
    resultTypes[i] = mlirValueGetType(inits.data[i]);
  }
  int32_t segments[2] = {(int32_t)inputs.count, (int32_t)inits.count};
  MlirOperation gen = strataCreateOp(
      b, "linalg.generic", loc, .operands = {operands, numOperands},
      .results = {resultTypes, inits.count},
      .attrs = STRATA_ATTRS({"indexing_maps", mlirArrayAttrGet(ctx, numOperands, maps)},
                            {"iterator_types", mlirArrayAttrGet(ctx, numLoops, its)},
                            {"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, segments)}),
      .numRegions = 1);
  MlirType argTypes[numOperands];
  for (intptr_t i = 0; i < numOperands; i++)
    argTypes[i] = mlirShapedTypeGetElementType(mlirValueGetType(operands[i]));
  MlirBlock block = strataAddBlock(gen, 0, (StrataTypeList){argTypes, numOperands}, loc);
  MlirValue args[numOperands], yields[inits.count];
  StrataBuilder inner = strataBuilderAtEnd(ctx, block);
  /* arith takes only signless integers: bodies see ui8 as i8 (through a
   * cast that disappears once both are i8 in LLVM), and yields go back. */
  for (intptr_t i = 0; i < numOperands; i++)
    args[i] = castScalar(&inner, loc, mlirBlockGetArgument(block, i), signlessOf(argTypes[i]));
  body(&inner, loc, args, yields, user);
  for (intptr_t i = 0; i < inits.count; i++)
    yields[i] = castScalar(&inner, loc, yields[i], argTypes[inputs.count + i]);
  strataCreateOp(&inner, "linalg.yield", loc, .operands = {yields, inits.count});
  for (intptr_t i = 0; i < inits.count; i++) results[i] = strataResult(gen, i);
}

typedef struct {
  LinalgBodyFn body;
  void *user;
} SingleBody;

static void singleBody(StrataBuilder *b, MlirLocation loc, const MlirValue *args, MlirValue *yields,
                       void *user) {
  const SingleBody *s = user;
  yields[0] = s->body(b, loc, args, s->user);
}

MlirValue linalgBuildGeneric(StrataBuilder *b, MlirLocation loc, StrataValueList inputs,
                             MlirValue init, const char *const *mapResults, const char *iterators,
                             LinalgBodyFn body, void *user) {
  SingleBody s = {body, user};
  MlirValue result;
  linalgBuildGenericN(b, loc, inputs, STRATA_VALUES(init), mapResults, iterators, singleBody, &s,
                      &result);
  return result;
}

MlirValue linalgSplatConstant(StrataBuilder *b, MlirLocation loc, MlirType tensorType, double v) {
  MlirType et = mlirShapedTypeGetElementType(tensorType);
  MlirAttribute value = mlirDenseElementsAttrSplatGet(tensorType, strataNumberAttr(et, v));
  return strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(tensorType),
                                     .attrs = STRATA_ATTRS({"value", value})),
                      0);
}

MlirValue linalgInsertSlice(StrataBuilder *b, MlirLocation loc, MlirValue src, MlirValue dest,
                            const int64_t *offsets) {
  MlirType st = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(st);
  int64_t sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  for (intptr_t i = 0; i < rank; i++) {
    sizes[i] = mlirShapedTypeGetDimSize(st, i);
    strides[i] = 1;
  }
  int32_t segments[5] = {1, 1, 0, 0, 0};
  MlirOperation op = strataCreateOp(
      b, "tensor.insert_slice", loc, .operands = STRATA_VALUES(src, dest),
      .results = STRATA_TYPES(mlirValueGetType(dest)),
      .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, rank, offsets)},
                            {"static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sizes)},
                            {"static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)},
                            {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 5, segments)}));
  return strataResult(op, 0);
}

MlirValue linalgIndex(StrataBuilder *b, MlirLocation loc, int dim) {
  return strataResult(strataCreateOp(b, "linalg.index", loc, .results = STRATA_TYPES(strataIndexType(b->ctx)),
                                     .attrs = STRATA_ATTRS({"dim", strataI64Attr(b->ctx, dim)})),
                      0);
}

MlirValue linalgExtract(StrataBuilder *b, MlirLocation loc, MlirValue t, const MlirValue *indices,
                        int n) {
  MlirValue operands[STRATA_MAX_RANK + 1];
  operands[0] = t;
  for (int i = 0; i < n; i++) operands[1 + i] = indices[i];
  MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(t));
  return strataResult(strataCreateOp(b, "tensor.extract", loc, .operands = {operands, n + 1},
                                     .results = STRATA_TYPES(et)),
                      0);
}

MlirValue linalgReshape(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType type) {
  if (mlirTypeEqual(mlirValueGetType(v), type)) return v;
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t dims[STRATA_MAX_RANK], n = rank;
  for (intptr_t i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(type, i);
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64), shapeType = mlirRankedTensorTypeGet(1, &n, i64, mlirAttributeGetNull());
  MlirAttribute shape = mlirDenseElementsAttrInt64Get(shapeType, rank, dims);
  MlirValue shapeValue = strataResult(strataCreateOp(b, "arith.constant", loc, .results = STRATA_TYPES(shapeType),
                                                     .attrs = STRATA_ATTRS({"value", shape})), 0);
  return strataResult(strataCreateOp(b, "tensor.reshape", loc, .operands = STRATA_VALUES(v, shapeValue),
                                     .results = STRATA_TYPES(type)), 0);
}

MlirValue linalgExtractSlice(StrataBuilder *b, MlirLocation loc, MlirValue src, const int64_t *offsets,
                             const int64_t *sizes, const int64_t *strides) {
  MlirType st = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(st);
  int32_t segments[4] = {1, 0, 0, 0};
  MlirType rt = mlirRankedTensorTypeGet(rank, sizes, mlirShapedTypeGetElementType(st), mlirAttributeGetNull());
  MlirOperation op = strataCreateOp(
      b, "tensor.extract_slice", loc, .operands = STRATA_VALUES(src), .results = STRATA_TYPES(rt),
      .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, rank, offsets)},
                            {"static_sizes", mlirDenseI64ArrayGet(b->ctx, rank, sizes)},
                            {"static_strides", mlirDenseI64ArrayGet(b->ctx, rank, strides)},
                            {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, segments)}));
  return strataResult(op, 0);
}
