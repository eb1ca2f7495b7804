/* Host tensors and MLIR types (include/strata/tensor.h): element types,
 * tensors made for a function's argument or result types. */
#include <stdio.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "strata/tensor.h"

StrataDType strataDTypeFromMlir(MlirType t) {
  if (mlirTypeIsAF32(t)) return STRATA_DTYPE_F32;
  if (mlirTypeIsAF64(t)) return STRATA_DTYPE_F64;
  if (mlirTypeIsAF16(t)) return STRATA_DTYPE_F16;
  if (mlirTypeIsABF16(t)) return STRATA_DTYPE_BF16;
  if (mlirTypeIsAInteger(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    bool u = mlirIntegerTypeIsUnsigned(t);
    if (w == 1) return STRATA_DTYPE_I1;
    if (w == 8) return u ? STRATA_DTYPE_U8 : STRATA_DTYPE_I8;
    if (w == 16) return u ? STRATA_DTYPE_U16 : STRATA_DTYPE_I16;
    if (w == 32) return u ? STRATA_DTYPE_U32 : STRATA_DTYPE_I32;
    if (w == 64) return u ? STRATA_DTYPE_U64 : STRATA_DTYPE_I64;
  }
  return STRATA_DTYPE_INVALID;
}

MlirType strataDTypeToMlir(MlirContext ctx, StrataDType t) {
  switch (t) {
  case STRATA_DTYPE_F32: return mlirF32TypeGet(ctx);
  case STRATA_DTYPE_F64: return mlirF64TypeGet(ctx);
  case STRATA_DTYPE_F16: return mlirF16TypeGet(ctx);
  case STRATA_DTYPE_BF16: return mlirBF16TypeGet(ctx);
  case STRATA_DTYPE_I1: return mlirIntegerTypeGet(ctx, 1);
  case STRATA_DTYPE_I8: return mlirIntegerTypeGet(ctx, 8);
  case STRATA_DTYPE_U8: return mlirIntegerTypeUnsignedGet(ctx, 8);
  case STRATA_DTYPE_I16: return mlirIntegerTypeGet(ctx, 16);
  case STRATA_DTYPE_I32: return mlirIntegerTypeGet(ctx, 32);
  case STRATA_DTYPE_I64: return mlirIntegerTypeGet(ctx, 64);
  case STRATA_DTYPE_U16: return mlirIntegerTypeUnsignedGet(ctx, 16);
  case STRATA_DTYPE_U32: return mlirIntegerTypeUnsignedGet(ctx, 32);
  case STRATA_DTYPE_U64: return mlirIntegerTypeUnsignedGet(ctx, 64);
  default: return (MlirType){NULL};
  }
}

StrataTensor *strataTensorCreateForType(MlirType type) {
  if (!mlirTypeIsARankedTensor(type) || !mlirShapedTypeHasStaticShape(type)) return NULL;
  int rank = (int)mlirShapedTypeGetRank(type);
  if (rank > STRATA_MAX_RANK) return NULL;
  int64_t dims[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(type, i);
  return strataTensorCreate(strataDTypeFromMlir(mlirShapedTypeGetElementType(type)), rank, dims);
}

void strataTensorTypeProblem(MlirType type, char *buf, size_t size) {
  if (!mlirTypeIsARankedTensor(type)) {
    snprintf(buf, size, "is not a ranked tensor");
    return;
  }
  if (!mlirShapedTypeHasStaticShape(type)) {
    snprintf(buf, size, "has dynamic dimensions (a static shape is needed)");
    return;
  }
  int rank = (int)mlirShapedTypeGetRank(type);
  if (rank > STRATA_MAX_RANK) {
    snprintf(buf, size, "has rank %d (at most %d is supported)", rank, STRATA_MAX_RANK);
    return;
  }
  StrataDType dt = strataDTypeFromMlir(mlirShapedTypeGetElementType(type));
  if (!strataDTypeSize(dt)) {
    snprintf(buf, size, "has an element type host tensors do not support");
    return;
  }
  double bytes = (double)strataDTypeSize(dt);
  for (int i = 0; i < rank; i++) bytes *= (double)mlirShapedTypeGetDimSize(type, i);
  snprintf(buf, size, "is too large to allocate (%.4g bytes)", bytes);
}

bool strataTensorMatchesType(const StrataTensor *t, MlirType type) {
  if (!mlirTypeIsARankedTensor(type) || mlirShapedTypeGetRank(type) != t->rank) return false;
  if (strataDTypeFromMlir(mlirShapedTypeGetElementType(type)) != t->dtype) return false;
  for (int i = 0; i < t->rank; i++) {
    int64_t d = mlirShapedTypeGetDimSize(type, i);
    if (!mlirShapedTypeIsDynamicSize(d) && d != t->dims[i]) return false;
  }
  return true;
}

StrataTensor *strataTensorCreateForResult(MlirType type) {
  if (!mlirTypeIsARankedTensor(type) || mlirShapedTypeGetRank(type) > STRATA_MAX_RANK) return NULL;
  int rank = (int)mlirShapedTypeGetRank(type);
  int64_t dims[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++)
    dims[i] = mlirShapedTypeIsDynamicDim(type, i) ? 0 : mlirShapedTypeGetDimSize(type, i);
  return strataTensorCreate(strataDTypeFromMlir(mlirShapedTypeGetElementType(type)), rank, dims);
}
