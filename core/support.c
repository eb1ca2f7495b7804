/* Helpers shared by dialects and passes (include/strata/support.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
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
    case STRATA_DTYPE_I1: ((uint8_t *)t->data)[i] = mlirDenseBoolResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I8: ((int8_t *)t->data)[i] = mlirDenseInt8ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_U8: ((uint8_t *)t->data)[i] = mlirDenseUInt8ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I32: ((int32_t *)t->data)[i] = mlirDenseInt32ResourceElementsAttrGetValue(a, k); break;
    case STRATA_DTYPE_I64: ((int64_t *)t->data)[i] = mlirDenseInt64ResourceElementsAttrGetValue(a, k); break;
    default: strataTensorDestroy(t); return NULL;
    }
  }
  return t;
}

StrataTensor *strataTensorFromAttr(MlirAttribute a) {
  if (mlirAttributeIsADenseResourceElements(a)) return tensorFromResource(a);
  if (!mlirAttributeIsADenseElements(a)) return NULL;
  StrataTensor *t = strataTensorCreateForType(mlirAttributeGetType(a));
  if (!t) return NULL;
  int64_t n = strataTensorNumElements(t);
  bool splat = mlirDenseElementsAttrIsSplat(a);
  for (int64_t i = 0; i < n; i++) {
    intptr_t k = splat ? 0 : (intptr_t)i;
    double v;
    switch (t->dtype) {
    case STRATA_DTYPE_F32: v = mlirDenseElementsAttrGetFloatValue(a, k); break;
    case STRATA_DTYPE_F64: v = mlirDenseElementsAttrGetDoubleValue(a, k); break;
    case STRATA_DTYPE_I1: v = mlirDenseElementsAttrGetBoolValue(a, k); break;
    case STRATA_DTYPE_I8: v = mlirDenseElementsAttrGetInt8Value(a, k); break;
    case STRATA_DTYPE_U8: v = mlirDenseElementsAttrGetUInt8Value(a, k); break;
    case STRATA_DTYPE_I32: v = mlirDenseElementsAttrGetInt32Value(a, k); break;
    case STRATA_DTYPE_I64: v = (double)mlirDenseElementsAttrGetInt64Value(a, k); break;
    case STRATA_DTYPE_F16: {
      const uint16_t *raw = mlirDenseElementsAttrGetRawData(a);
      ((uint16_t *)t->data)[i] = raw[k];
      continue;
    }
    default: strataTensorDestroy(t); return NULL;
    }
    strataTensorSetDouble(t, i, v);
  }
  return t;
}

MlirAttribute strataTensorToAttr(MlirType type, const StrataTensor *t) {
  intptr_t n = (intptr_t)strataTensorNumElements(t);
  switch (t->dtype) {
  case STRATA_DTYPE_F32: return mlirDenseElementsAttrFloatGet(type, n, t->data);
  case STRATA_DTYPE_F64: return mlirDenseElementsAttrDoubleGet(type, n, t->data);
  case STRATA_DTYPE_F16: return mlirDenseElementsAttrFloat16Get(type, n, t->data);
  case STRATA_DTYPE_I8: return mlirDenseElementsAttrInt8Get(type, n, t->data);
  case STRATA_DTYPE_U8: return mlirDenseElementsAttrUInt8Get(type, n, t->data);
  case STRATA_DTYPE_I32: return mlirDenseElementsAttrInt32Get(type, n, t->data);
  case STRATA_DTYPE_I64: return mlirDenseElementsAttrInt64Get(type, n, t->data);
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
  if (l->count == l->cap) {
    size_t cap = l->cap ? 2 * l->cap : 64;
    MlirOperation *p = realloc(l->ops, cap * sizeof *p);
    if (!p) return false;
    l->ops = p;
    l->cap = cap;
  }
  l->ops[l->count++] = op;
  return true;
}

bool strataOpListContains(const StrataOpList *l, MlirOperation op) {
  for (size_t i = 0; i < l->count; i++)
    if (mlirOperationEqual(l->ops[i], op)) return true;
  return false;
}

void strataOpListFree(StrataOpList *l) {
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
