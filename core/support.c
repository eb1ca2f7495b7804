/* Helpers shared by dialects and passes (include/strata/support.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "grow.h"
#include "internal.h"
#include "strata/support.h"

bool strataOpIsInDialect(MlirOperation op, const char *dialect) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(dialect);
  return name.length > n && name.data[n] == '.' && strncmp(name.data, dialect, n) == 0;
}

bool strataOpIsNamed(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && strncmp(n.data, name, n.length) == 0;
}

void strataTypeToString(MlirType t, char *buf, size_t size) {
  StrataStr s = {0};
  mlirTypePrint(t, strataStrCallback, &s);
  snprintf(buf, size, "%s", s.data ? s.data : "");
  strataStrFree(&s);
}

void strataShapeToString(const int64_t *dims, int rank, MlirType elementType, char *buf,
                         size_t size) {
  strataTypeToString(strataTensorType(elementType, rank, dims), buf, size);
}

bool strataGetShape(MlirType t, int *rank, int64_t dims[STRATA_MAX_RANK]) {
  if (!mlirTypeIsARankedTensor(t)) return false;
  int64_t r = mlirShapedTypeGetRank(t);
  if (r > STRATA_MAX_RANK) return false;
  *rank = (int)r;
  for (int i = 0; i < *rank; i++) {
    int64_t d = mlirShapedTypeGetDimSize(t, i);
    dims[i] = mlirShapedTypeIsDynamicSize(d) ? -1 : d;
  }
  return true;
}

MlirType strataTensorType(MlirType elementType, int rank, const int64_t *dims) {
  int64_t shape[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++) shape[i] = dims[i] < 0 ? mlirShapedTypeGetDynamicSize() : dims[i];
  return mlirRankedTensorTypeGet(rank, shape, elementType, mlirAttributeGetNull());
}

MlirAttribute strataOpAttr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

int strataGetI64Array(MlirOperation op, const char *name, int64_t *out, int max) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a)) return -1;
  if (mlirAttributeIsADenseI64Array(a)) {
    intptr_t n = mlirDenseArrayGetNumElements(a);
    if (n > max) return -2;
    for (intptr_t i = 0; i < n; i++) out[i] = mlirDenseI64ArrayGetElement(a, i);
    return (int)n;
  }
  if (mlirAttributeIsAArray(a)) {
    intptr_t n = mlirArrayAttrGetNumElements(a);
    if (n > max) return -2;
    for (intptr_t i = 0; i < n; i++) {
      MlirAttribute e = mlirArrayAttrGetElement(a, i);
      if (!mlirAttributeIsAInteger(e)) return -2;
      out[i] = mlirIntegerAttrGetValueInt(e);
    }
    return (int)n;
  }
  return -2;
}

bool strataGetI64(MlirOperation op, const char *name, int64_t *out) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

/* Elements of a dense_resource attribute (large weights from importers). */
static StrataTensor *tensorFromResource(MlirAttribute a) {
  StrataTensor *t = strataTensorCreateForType(mlirAttributeGetType(a));
  if (!t) return NULL;
  int64_t n = strataTensorNumElements(t);
  for (int64_t i = 0; i < n; i++) {
    intptr_t k = (intptr_t)i;
    switch (t->dtype) {
    case STRATA_DTYPE_F32: ((float *)t->data)[i] = mlirDenseFloatResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_F64: ((double *)t->data)[i] = mlirDenseDoubleResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_F16: ((uint16_t *)t->data)[i] = mlirDenseUInt16ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_BF16: ((uint16_t *)t->data)[i] = mlirDenseUInt16ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I1: ((uint8_t *)t->data)[i] = mlirDenseBoolResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I8: ((int8_t *)t->data)[i] = mlirDenseInt8ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_U8: ((uint8_t *)t->data)[i] = mlirDenseUInt8ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I16: ((int16_t *)t->data)[i] = mlirDenseInt16ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I32: ((int32_t *)t->data)[i] = mlirDenseInt32ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I64: ((int64_t *)t->data)[i] = mlirDenseInt64ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_U16: ((uint16_t *)t->data)[i] = mlirDenseUInt16ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_U32: ((uint32_t *)t->data)[i] = mlirDenseUInt32ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_U64: ((uint64_t *)t->data)[i] = mlirDenseUInt64ResourceElementsAttrGetValue(a, k); break;
    default: strataTensorDestroy(t); return NULL;
    }
  }
  return t;
}

/* The tensor type holding the elements of `a` (a vector constant's elements
 * are held as the tensor of its shape, as the interpreter holds vectors). */
static MlirType elementsHolderType(MlirAttribute a) {
  MlirType t = mlirAttributeGetType(a);
  if (!mlirTypeIsAVector(t)) return t;
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t dims[STRATA_MAX_RANK];
  if (rank > STRATA_MAX_RANK) return t;
  for (int i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
  return strataTensorType(mlirShapedTypeGetElementType(t), rank, dims);
}

/* Values are copied in their own type (never through double, which would
 * round large i64 values and make their conversion back undefined). */
StrataTensor *strataTensorFromAttr(MlirAttribute a) {
  if (mlirAttributeIsNull(a)) return NULL;
  if (mlirAttributeIsADenseResourceElements(a)) return tensorFromResource(a);
  if (!mlirAttributeIsADenseElements(a)) return NULL;
  StrataTensor *t = strataTensorCreateForType(elementsHolderType(a));
  if (!t) return NULL;
  int64_t n = strataTensorNumElements(t);
  bool splat = mlirDenseElementsAttrIsSplat(a);
  const uint16_t *raw =
      t->dtype == STRATA_DTYPE_F16 || t->dtype == STRATA_DTYPE_BF16 ? mlirDenseElementsAttrGetRawData(a) : NULL;
  for (int64_t i = 0; i < n; i++) {
    intptr_t k = splat ? 0 : (intptr_t)i;
    switch (t->dtype) {
    case STRATA_DTYPE_F32: ((float *)t->data)[i] = mlirDenseElementsAttrGetFloatValue(a, k); break;
    case STRATA_DTYPE_F64: ((double *)t->data)[i] = mlirDenseElementsAttrGetDoubleValue(a, k); break;
    case STRATA_DTYPE_F16: ((uint16_t *)t->data)[i] = raw[k]; break;
    case STRATA_DTYPE_BF16: ((uint16_t *)t->data)[i] = raw[k]; break;
    case STRATA_DTYPE_I1: ((uint8_t *)t->data)[i] = mlirDenseElementsAttrGetBoolValue(a, k); break;
    case STRATA_DTYPE_I8: ((int8_t *)t->data)[i] = mlirDenseElementsAttrGetInt8Value(a, k); break;
    case STRATA_DTYPE_U8: ((uint8_t *)t->data)[i] = mlirDenseElementsAttrGetUInt8Value(a, k); break;
    case STRATA_DTYPE_I16: ((int16_t *)t->data)[i] = mlirDenseElementsAttrGetInt16Value(a, k); break;
    case STRATA_DTYPE_I32: ((int32_t *)t->data)[i] = mlirDenseElementsAttrGetInt32Value(a, k); break;
    case STRATA_DTYPE_I64: ((int64_t *)t->data)[i] = mlirDenseElementsAttrGetInt64Value(a, k); break;
    case STRATA_DTYPE_U16: ((uint16_t *)t->data)[i] = mlirDenseElementsAttrGetUInt16Value(a, k); break;
    case STRATA_DTYPE_U32: ((uint32_t *)t->data)[i] = mlirDenseElementsAttrGetUInt32Value(a, k); break;
    case STRATA_DTYPE_U64: ((uint64_t *)t->data)[i] = mlirDenseElementsAttrGetUInt64Value(a, k); break;
    default: strataTensorDestroy(t); return NULL;
    }
  }
  return t;
}

MlirAttribute strataTensorToAttr(MlirType type, const StrataTensor *t) {
  intptr_t n = (intptr_t)strataTensorNumElements(t);
  switch (t->dtype) {
  case STRATA_DTYPE_F32: return mlirDenseElementsAttrFloatGet(type, n, t->data);
  case STRATA_DTYPE_F64: return mlirDenseElementsAttrDoubleGet(type, n, t->data);
  case STRATA_DTYPE_F16: return mlirDenseElementsAttrFloat16Get(type, n, t->data);
  case STRATA_DTYPE_BF16: return mlirDenseElementsAttrBFloat16Get(type, n, t->data);
  case STRATA_DTYPE_I8: return mlirDenseElementsAttrInt8Get(type, n, t->data);
  case STRATA_DTYPE_U8: return mlirDenseElementsAttrUInt8Get(type, n, t->data);
  case STRATA_DTYPE_I16: return mlirDenseElementsAttrInt16Get(type, n, t->data);
  case STRATA_DTYPE_I32: return mlirDenseElementsAttrInt32Get(type, n, t->data);
  case STRATA_DTYPE_I64: return mlirDenseElementsAttrInt64Get(type, n, t->data);
  case STRATA_DTYPE_U16: return mlirDenseElementsAttrUInt16Get(type, n, t->data);
  case STRATA_DTYPE_U32: return mlirDenseElementsAttrUInt32Get(type, n, t->data);
  case STRATA_DTYPE_U64: return mlirDenseElementsAttrUInt64Get(type, n, t->data);
  case STRATA_DTYPE_I1: {
    int *bits = malloc((size_t)(n ? n : 1) * sizeof *bits);
    if (!bits) return mlirAttributeGetNull();
    for (intptr_t i = 0; i < n; i++) bits[i] = ((const uint8_t *)t->data)[i] != 0;
    MlirAttribute a = mlirDenseElementsAttrBoolGet(type, n, bits);
    free(bits);
    return a;
  }
  default: return mlirAttributeGetNull();
  }
}

bool strataOpListAppend(StrataOpList *l, MlirOperation op) {
  MlirOperation *p = strataGrow(l->ops, &l->cap, l->count + 1, sizeof *p);
  if (!p) return false;
  l->ops = p;
  l->ops[l->count++] = op;
  return true;
}

bool strataOpListContains(const StrataOpList *l, MlirOperation op) {
  for (size_t i = 0; i < l->count; i++)
    if (mlirOperationEqual(l->ops[i], op)) return true;
  return false;
}

void strataOpListDestroy(StrataOpList *l) {
  free(l->ops);
  l->ops = NULL;
  l->count = l->cap = 0;
}

bool strataScalarConstant(MlirValue v, double *out) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation c = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(c, "nn.constant") && !strataOpIsNamed(c, "arith.constant")) return false;
  MlirAttribute a = mlirOperationGetAttributeByName(c, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseFPElements(a) || mlirElementsAttrGetNumElements(a) != 1)
    return false;
  MlirType et = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
  if (mlirTypeIsAF32(et)) *out = mlirDenseElementsAttrGetFloatValue(a, 0);
  else if (mlirTypeIsAF64(et)) *out = mlirDenseElementsAttrGetDoubleValue(a, 0);
  else return false;
  return true;
}

/* ---- Checked arithmetic ---- */

int64_t strataHostF32Lanes(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return 16;
  if (__builtin_cpu_supports("avx")) return 8;
#endif
  return 4; /* SSE, NEON and the like: 128 bits */
}


bool strataTensorGetInt64(const StrataTensor *t, int64_t i, int64_t *out) {
  switch (t->dtype) {
  case STRATA_DTYPE_I64: *out = ((const int64_t *)t->data)[i]; return true;
  case STRATA_DTYPE_I32: *out = ((const int32_t *)t->data)[i]; return true;
  case STRATA_DTYPE_I8: *out = ((const int8_t *)t->data)[i]; return true;
  case STRATA_DTYPE_U8: *out = ((const uint8_t *)t->data)[i]; return true;
  case STRATA_DTYPE_I16: *out = ((const int16_t *)t->data)[i]; return true;
  case STRATA_DTYPE_U16: *out = ((const uint16_t *)t->data)[i]; return true;
  case STRATA_DTYPE_U32: *out = ((const uint32_t *)t->data)[i]; return true;
  case STRATA_DTYPE_U64: { /* above INT64_MAX it does not fit */
    uint64_t u = ((const uint64_t *)t->data)[i];
    if (u > (uint64_t)INT64_MAX) return false;
    *out = (int64_t)u;
    return true;
  }
  case STRATA_DTYPE_I1: *out = ((const uint8_t *)t->data)[i] != 0; return true;
  default: return strataDoubleToInt64(strataTensorGetDouble(t, i), out);
  }
}

bool strataCheckType(MlirLocation loc, const char *what, MlirType t) {
  bool shaped = mlirTypeIsAShaped(t);
  MlirType element = shaped ? mlirShapedTypeGetElementType(t) : t;
  const char *why = NULL;
  if (mlirTypeIsAInteger(element) && mlirIntegerTypeGetWidth(element) == 0) {
    why = "zero-width integer elements are not supported";
  } else if (shaped && mlirShapedTypeHasRank(t)) {
    int64_t n = 1;
    for (intptr_t i = 0; !why && i < mlirShapedTypeGetRank(t); i++) {
      int64_t d = mlirShapedTypeGetDimSize(t, i);
      if (!mlirShapedTypeIsDynamicSize(d) && !strataCheckedMul(n, d, &n))
        why = "the shape is too large (its element count overflows int64)";
    }
  }
  if (!why) return true;
  char ts[256];
  strataTypeToString(t, ts, sizeof ts);
  strataEmitError(loc, "%s has type %s: %s", what, ts, why);
  return false;
}
