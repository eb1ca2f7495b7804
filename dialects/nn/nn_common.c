/* Helpers shared by every nn op category: operands by name, element-type
 * classes, attributes with defaults, constant operand values, facts and
 * interpreter indexing. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "nn_internal.h"

MlirLogicalResult nnInterpError(MlirOperation op, const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  strataEmitOpError(op, "%s", msg);
  return mlirLogicalResultFailure();
}

void nnSetShape(StrataShape *s, int rank, const int64_t *dims, MlirType elementType) {
  s->rank = rank;
  for (int i = 0; i < rank; i++) s->dims[i] = dims[i];
  s->elementType = elementType;
}

StrataDType nnDType(const StrataShape *s) { return strataDTypeFromMlir(s->elementType); }

const char *nnDescribe(const char *name, const StrataShape *s, char *buf, size_t size) {
  char t[256];
  strataShapeToString(s->dims, s->rank, s->elementType, t, sizeof t);
  snprintf(buf, size, "operand '%s' of type %s", name, t);
  return buf;
}

bool nnHasOperand(const StrataOpDef *def, MlirOperation op, const char *name) {
  return !mlirValueIsNull(strataNamedOperand(def, op, name));
}

bool nnOperand(const StrataOpDef *def, MlirOperation op, const char *name, StrataShape *s) {
  MlirValue v = strataNamedOperand(def, op, name);
  if (mlirValueIsNull(v)) {
    nnError(op, "operand '%s' is missing", name);
    return false;
  }
  MlirType t = mlirValueGetType(v);
  if (!strataGetShape(t, &s->rank, s->dims)) {
    nnError(op, "operand '%s' must be a ranked tensor of rank <= %d", name, STRATA_MAX_RANK);
    return false;
  }
  s->elementType = mlirShapedTypeGetElementType(t);
  return true;
}

static void describeMask(unsigned mask, char *buf, size_t size) {
  size_t off = 0;
  buf[0] = '\0';
  for (int d = STRATA_DTYPE_F32; d <= STRATA_DTYPE_BF16 && off < size; d++)
    if (mask & NN_T(d))
      off += (size_t)snprintf(buf + off, size - off, "%s%s", off ? ", " : "",
                              strataDTypeName((StrataDType)d));
}

bool nnCheckType(MlirOperation op, const char *name, const StrataShape *s, unsigned mask) {
  StrataDType d = nnDType(s);
  if (d != STRATA_DTYPE_INVALID && (mask & NN_T(d))) return true;
  char et[64], allowed[128];
  strataTypeToString(s->elementType, et, sizeof et);
  describeMask(mask, allowed, sizeof allowed);
  nnError(op, "operand '%s' has element type %s; allowed: %s", name, et, allowed);
  return false;
}

bool nnSameType(MlirOperation op, const char *nameA, const StrataShape *a, const char *nameB,
                const StrataShape *b) {
  if (mlirTypeEqual(a->elementType, b->elementType)) return true;
  char ta[64], tb[64];
  strataTypeToString(a->elementType, ta, sizeof ta);
  strataTypeToString(b->elementType, tb, sizeof tb);
  nnError(op, "operand '%s' has element type %s, expected %s like operand '%s'", nameB, tb, ta,
          nameA);
  return false;
}

/* ---- Checked shape arithmetic ---- */

bool nnDimAdd(MlirOperation op, int64_t a, int64_t b, int64_t *out) {
  if (strataCheckedAdd(a, b, out)) return true;
  nnError(op, "shape is too large: %lld + %lld overflows int64", (long long)a, (long long)b);
  return false;
}

bool nnDimMul(MlirOperation op, int64_t a, int64_t b, int64_t *out) {
  if (strataCheckedMul(a, b, out)) return true;
  nnError(op, "shape is too large: %lld * %lld overflows int64", (long long)a, (long long)b);
  return false;
}

bool nnDimProduct(MlirOperation op, const int64_t *dims, int n, int64_t *out) {
  if (strataShapeNumElements(dims, n, out)) return true;
  char list[256];
  size_t off = 0;
  list[0] = '\0';
  for (int i = 0; i < n && off < sizeof list; i++)
    off += (size_t)snprintf(list + off, sizeof list - off, "%s%lld", i ? "x" : "", (long long)dims[i]);
  nnError(op, "shape is too large: the product of dims %s overflows int64", list);
  return false;
}

/* ---- Attributes ---- */

bool nnAttrInt(MlirOperation op, const char *name, int64_t dflt, int64_t *out) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a)) {
    *out = dflt;
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    *out = mlirIntegerAttrGetValueInt(a);
    return true;
  }
  if (mlirAttributeIsABool(a)) {
    *out = mlirBoolAttrGetValue(a);
    return true;
  }
  nnError(op, "attribute '%s' must be an integer", name);
  return false;
}

bool nnAttrFloat(MlirOperation op, const char *name, double dflt, double *out) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a)) {
    *out = dflt;
    return true;
  }
  if (mlirAttributeIsAFloat(a)) {
    *out = mlirFloatAttrGetValueDouble(a);
    return true;
  }
  if (mlirAttributeIsAInteger(a)) {
    *out = (double)mlirIntegerAttrGetValueInt(a);
    return true;
  }
  nnError(op, "attribute '%s' must be a number", name);
  return false;
}

bool nnAttrString(MlirOperation op, const char *name, const char *dflt, const char *choices,
                  char *buf, size_t size) {
  MlirAttribute a = strataOpAttr(op, name);
  if (mlirAttributeIsNull(a)) {
    snprintf(buf, size, "%s", dflt);
    return true;
  }
  if (!mlirAttributeIsAString(a)) {
    nnError(op, "attribute '%s' must be a string", name);
    return false;
  }
  MlirStringRef v = mlirStringAttrGetValue(a);
  snprintf(buf, size, "%.*s", (int)v.length, v.data);
  if (!choices) return true;
  size_t len = strlen(buf);
  for (const char *c = choices; *c;) {
    const char *e = strchr(c, '|');
    size_t n = e ? (size_t)(e - c) : strlen(c);
    if (n == len && strncmp(c, buf, n) == 0) return true;
    c += n + (e != NULL);
  }
  nnError(op, "attribute '%s' is \"%s\"; expected one of %s", name, buf, choices);
  return false;
}

bool nnAttrInts(MlirOperation op, const char *name, int64_t *out, int max, int *n) {
  *n = strataGetI64Array(op, name, out, max);
  if (*n == -2) {
    nnError(op, "attribute '%s' must be an array of at most %d integers", name, max);
    return false;
  }
  return true;
}

int nnIntsArg(MlirOperation op, int operand, const StrataTensor *value, const char *attr, int64_t *out, int max,
              int *n) {
  bool given = operand < mlirOperationGetNumOperands(op);
  if (!nnAttrInts(op, attr, out, max, n)) return -1;
  if (given && *n >= 0) {
    nnError(op, "'%s' is given both as an attribute and as operand #%d", attr, operand);
    return -1;
  }
  if (!given) return 1;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, operand));
  int64_t count = value ? strataTensorNumElements(value) : -1;
  if (!value && mlirShapedTypeHasRank(t) && mlirShapedTypeGetRank(t) == 1 && mlirShapedTypeGetDimSize(t, 0) == 0)
    count = 0; /* an empty run-time value is known */
  if (count > max) {
    nnError(op, "operand #%d ('%s') has more than %d values", operand, attr, max);
    return -1;
  }
  if (count >= 0) {
    for (int64_t i = 0; value && i < count; i++) out[i] = nnGetInt(value, i);
    *n = (int)count;
    return 1;
  }
  *n = nnConstInts(mlirOperationGetOperand(op, operand), out, max);
  return *n >= 0;
}

bool nnNormalizeAxis(MlirOperation op, const char *what, int64_t *axis, int rank) {
  if (*axis < -rank || *axis >= (rank ? rank : 1)) {
    nnError(op, "%s %lld is out of range for rank %d", what, (long long)*axis, rank);
    return false;
  }
  if (*axis < 0) *axis += rank;
  return true;
}

/* ---- Constant operands ---- */

static MlirAttribute constantValue(MlirValue v) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v)) return mlirAttributeGetNull();
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(def));
  if (!((n.length == 11 && !strncmp(n.data, "nn.constant", 11)) ||
        (n.length == 14 && !strncmp(n.data, "arith.constant", 14))))
    return mlirAttributeGetNull();
  MlirAttribute a = strataOpAttr(def, "value");
  return mlirAttributeIsADenseElements(a) ? a : mlirAttributeGetNull();
}

int nnConstDoubles(MlirValue v, double *out, int max) {
  MlirAttribute a = constantValue(v);
  if (mlirAttributeIsNull(a)) return -1;
  StrataTensor *t = strataTensorFromAttr(a);
  if (!t) return -1;
  int64_t n = strataTensorNumElements(t);
  if (n > max) {
    strataTensorDestroy(t);
    return -1;
  }
  for (int64_t i = 0; i < n; i++) out[i] = strataTensorGetDouble(t, i);
  strataTensorDestroy(t);
  return (int)n;
}

int nnConstInts(MlirValue v, int64_t *out, int max) {
  MlirAttribute a = constantValue(v);
  if (mlirAttributeIsNull(a) || !mlirTypeIsAInteger(mlirShapedTypeGetElementType(mlirAttributeGetType(a))))
    return -1;
  StrataTensor *t = strataTensorFromAttr(a);
  if (!t) return -1;
  int64_t n = strataTensorNumElements(t);
  if (n > max) {
    strataTensorDestroy(t);
    return -1;
  }
  for (int64_t i = 0; i < n; i++) out[i] = nnGetInt(t, i);
  strataTensorDestroy(t);
  return (int)n;
}

/* ---- Facts ---- */

int64_t nnNumElements(MlirType t) {
  int rank;
  int64_t dims[STRATA_MAX_RANK], n;
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) || !strataGetShape(t, &rank, dims) ||
      !strataShapeNumElements(dims, rank, &n))
    return -1;
  return n;
}

StrataMappingType nnMapOneToOne(MlirOperation op) { (void)op; return STRATA_MAP_ONE_TO_ONE; }
StrataMappingType nnMapOneToMany(MlirOperation op) { (void)op; return STRATA_MAP_ONE_TO_MANY; }
StrataMappingType nnMapManyToMany(MlirOperation op) { (void)op; return STRATA_MAP_MANY_TO_MANY; }
StrataMappingType nnMapReorganize(MlirOperation op) { (void)op; return STRATA_MAP_REORGANIZE; }
StrataMappingType nnMapShuffle(MlirOperation op) { (void)op; return STRATA_MAP_SHUFFLE; }

StrataMappingType nnMapElementwise(MlirOperation op) {
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    int ra, rb;
    int64_t a[STRATA_MAX_RANK], b[STRATA_MAX_RANK];
    if (!strataGetShape(t, &ra, a) || !strataGetShape(rt, &rb, b)) continue;
    bool same = ra == rb;
    for (int d = 0; same && d < ra; d++) same = a[d] == b[d];
    if (!same) return STRATA_MAP_ONE_TO_MANY;
  }
  return STRATA_MAP_ONE_TO_ONE;
}

/* ---- Interpreter helpers ---- */

bool nnIsFloatDType(StrataDType t) {
  return t == STRATA_DTYPE_F32 || t == STRATA_DTYPE_F64 || t == STRATA_DTYPE_F16 || t == STRATA_DTYPE_BF16;
}

bool nnIsUnsignedDType(StrataDType t) { return (NN_UINT & NN_T(t)) != 0; }

int64_t nnGetInt(const StrataTensor *t, int64_t i) {
  switch (t->dtype) {
  case STRATA_DTYPE_I64: return ((const int64_t *)t->data)[i];
  case STRATA_DTYPE_I32: return ((const int32_t *)t->data)[i];
  case STRATA_DTYPE_I8: return ((const int8_t *)t->data)[i];
  case STRATA_DTYPE_U8: return ((const uint8_t *)t->data)[i];
  case STRATA_DTYPE_I16: return ((const int16_t *)t->data)[i];
  case STRATA_DTYPE_U16: return ((const uint16_t *)t->data)[i];
  case STRATA_DTYPE_U32: return ((const uint32_t *)t->data)[i];
  case STRATA_DTYPE_U64: return (int64_t)((const uint64_t *)t->data)[i]; /* the bits: see nnIsUnsignedDType */
  case STRATA_DTYPE_I1: return ((const uint8_t *)t->data)[i] != 0;
  default: return strataDoubleToInt64Saturated(strataTensorGetDouble(t, i));
  }
}

void nnSetInt(StrataTensor *t, int64_t i, int64_t v) {
  switch (t->dtype) {
  case STRATA_DTYPE_I64: ((int64_t *)t->data)[i] = v; break;
  case STRATA_DTYPE_I32: ((int32_t *)t->data)[i] = (int32_t)(uint32_t)v; break;
  case STRATA_DTYPE_I8: ((int8_t *)t->data)[i] = (int8_t)(uint8_t)v; break;
  case STRATA_DTYPE_U8: ((uint8_t *)t->data)[i] = (uint8_t)v; break;
  case STRATA_DTYPE_I16: ((int16_t *)t->data)[i] = (int16_t)(uint16_t)v; break;
  case STRATA_DTYPE_U16: ((uint16_t *)t->data)[i] = (uint16_t)v; break;
  case STRATA_DTYPE_U32: ((uint32_t *)t->data)[i] = (uint32_t)v; break;
  case STRATA_DTYPE_U64: ((uint64_t *)t->data)[i] = (uint64_t)v; break;
  case STRATA_DTYPE_I1: ((uint8_t *)t->data)[i] = v != 0; break;
  default: strataTensorSetDouble(t, i, (double)v); break;
  }
}

void nnStrides(const StrataTensor *t, int64_t *strides) {
  int64_t s = 1;
  for (int d = t->rank - 1; d >= 0; d--) {
    strides[d] = s;
    s *= t->dims[d];
  }
}

int64_t nnBroadcastIndex(const StrataTensor *in, const int64_t *idx, int outRank) {
  int64_t flat = 0;
  for (int d = 0; d < in->rank; d++) {
    int64_t i = in->dims[d] == 1 ? 0 : idx[outRank - in->rank + d];
    flat = flat * in->dims[d] + i;
  }
  return flat;
}

bool nnNextIndex(int64_t *idx, const int64_t *dims, int rank) {
  for (int d = rank - 1; d >= 0; d--) {
    if (++idx[d] < dims[d]) return true;
    idx[d] = 0;
  }
  return false;
}
