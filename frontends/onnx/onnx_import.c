/* ONNX graph -> one func.func of nn ops. Each node becomes nn op(s) created
 * with placeholder result types that nn shape inference then fills in, so
 * every imported op is verified as it is built. */
#include <ctype.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/nn.h"
#include "strata/pass.h"
#include "strata/support.h"

#define MAX_IO 64

typedef struct {
  char *name;
  MlirValue value;
} Binding;

typedef struct {
  StrataContext *ctx;
  MlirContext mc;
  const char *file, *baseDir;
  int64_t opset;
  size_t resourceThreshold;
  Binding *values;
  size_t numValues, capValues;
  StrataBuilder b;
  MlirLocation fileLoc;
} Importer;

/* ---- Value map ---- */

static MlirValue lookup(Importer *im, const char *name) {
  for (size_t i = im->numValues; i-- > 0;)
    if (!strcmp(im->values[i].name, name)) return im->values[i].value;
  return (MlirValue){NULL};
}

static bool bind(Importer *im, const char *name, MlirValue v) {
  if (im->numValues == im->capValues) {
    size_t cap = im->capValues ? 2 * im->capValues : 256;
    Binding *p = realloc(im->values, cap * sizeof *p);
    if (!p) return false;
    im->values = p;
    im->capValues = cap;
  }
  im->values[im->numValues].name = strdup(name);
  im->values[im->numValues++].value = v;
  return true;
}

/* ---- Errors ---- */

static MlirLocation nodeLoc(Importer *im, const Onnx__NodeProto *n, size_t index) {
  char fallback[64];
  const char *name = n->name && *n->name ? n->name : (snprintf(fallback, sizeof fallback, "%s#%zu", n->op_type, index), fallback);
  return mlirLocationNameGet(im->mc, mlirStringRefCreateFromCString(name), im->fileLoc);
}

#define NODE_ERROR(im, loc, n, ...)                                                            \
  do {                                                                                         \
    char _m[512];                                                                              \
    snprintf(_m, sizeof _m, __VA_ARGS__);                                                      \
    strataEmitError(loc, "%s node: %s", (n)->op_type, _m);                                     \
  } while (0)

/* ---- Tensors and attributes ---- */

static void freeBlob(void *user, const void *data, size_t size, size_t align) {
  (void)user; (void)size; (void)align;
  free((void *)data);
}

/* A tensor as an attribute: inline when small, an MLIR resource otherwise. */
static MlirAttribute tensorAttr(Importer *im, const StrataTensor *t, const char *name) {
  MlirType type = strataTensorType(strataDTypeToMlir(im->mc, t->dtype), t->rank, t->dims);
  if ((size_t)strataTensorNumElements(t) <= im->resourceThreshold || t->dtype == STRATA_DTYPE_I1)
    return strataTensorToAttr(type, t);
  size_t bytes = strataTensorNumBytes(t);
  void *copy = malloc(bytes ? bytes : 1);
  if (!copy) return mlirAttributeGetNull();
  memcpy(copy, t->data, bytes);
  char key[128];
  size_t k = 0;
  for (const char *p = name && *name ? name : "weight"; *p && k + 1 < sizeof key; p++)
    key[k++] = isalnum((unsigned char)*p) ? *p : '_';
  key[k] = '\0';
  return mlirUnmanagedDenseResourceElementsAttrGet(type, mlirStringRefCreateFromCString(key), copy, bytes,
                                                   strataDTypeSize(t->dtype), false, freeBlob, NULL);
}

static MlirValue constant(Importer *im, MlirLocation loc, MlirAttribute value) {
  MlirOperation op = strataCreateOp(&im->b, "nn.constant", loc, .results = STRATA_TYPES(mlirAttributeGetType(value)),
                                    .attrs = STRATA_ATTRS({"value", value}));
  return strataResult(op, 0);
}

static const Onnx__AttributeProto *findAttr(const Onnx__NodeProto *n, const char *name) {
  for (size_t i = 0; i < n->n_attribute; i++)
    if (n->attribute[i]->name && !strcmp(n->attribute[i]->name, name)) return n->attribute[i];
  return NULL;
}

/* ONNX attribute -> MLIR attribute; null (after an error) if unsupported. */
static MlirAttribute convertAttr(Importer *im, MlirLocation loc, const Onnx__NodeProto *n,
                                 const Onnx__AttributeProto *a) {
  switch (a->type) {
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT: return strataI64Attr(im->mc, a->i);
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
    return mlirFloatAttrDoubleGet(im->mc, mlirF32TypeGet(im->mc), a->f);
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
    return mlirStringAttrGet(im->mc, mlirStringRefCreate((const char *)a->s.data, a->s.len));
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS: return mlirDenseI64ArrayGet(im->mc, (intptr_t)a->n_ints, a->ints);
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
    return mlirDenseF32ArrayGet(im->mc, (intptr_t)a->n_floats, a->floats);
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR: {
    char err[256];
    StrataTensor *t = a->t ? onnxReadTensor(a->t, im->baseDir, err, sizeof err) : NULL;
    if (!t) {
      NODE_ERROR(im, loc, n, "attribute '%s': %s", a->name, a->t ? err : "missing tensor");
      return mlirAttributeGetNull();
    }
    MlirAttribute r = tensorAttr(im, t, a->name);
    strataTensorDestroy(t);
    return r;
  }
  default:
    NODE_ERROR(im, loc, n, "attribute '%s' has a kind (%d) Strata does not support (graphs, sparse tensors, "
               "strings lists)", a->name, (int)a->type);
    return mlirAttributeGetNull();
  }
}

/* ---- Building nn ops ---- */

typedef struct {
  const char *name;
  MlirAttribute attr;
} Attr;

/* Creates nn op `name` with placeholder results (unranked, of element type
 * `resultElement` or f32) and infers their types; null after an error. */
static MlirOperation build(Importer *im, MlirLocation loc, const char *name, const MlirValue *ins, int nIns,
                           int nResults, const Attr *attrs, int nAttrs, MlirType resultElement) {
  MlirType placeholder = mlirUnrankedTensorTypeGet(mlirTypeIsNull(resultElement) ? mlirF32TypeGet(im->mc) : resultElement);
  MlirType results[MAX_IO];
  StrataNamedAttr named[32];
  for (int i = 0; i < nResults; i++) results[i] = placeholder;
  for (int i = 0; i < nAttrs && i < 32; i++) named[i] = (StrataNamedAttr){attrs[i].name, attrs[i].attr};
  MlirOperation op = strataBuildOp(&im->b, name, loc,
                                   (StrataOpSpec){{ins, nIns}, {results, nResults}, {named, nAttrs < 32 ? nAttrs : 32}, 0});
  if (mlirLogicalResultIsFailure(strataInferResultTypes(im->ctx, op))) return (MlirOperation){NULL};
  return op;
}

static MlirOperation build1(Importer *im, MlirLocation loc, const char *name, MlirValue a, MlirValue b2,
                            const Attr *attrs, int nAttrs) {
  MlirValue ins[2] = {a, b2};
  return build(im, loc, name, ins, mlirValueIsNull(b2) ? 1 : 2, 1, attrs, nAttrs, (MlirType){NULL});
}

/* Integer values of a constant operand (an initializer or Constant). */
static int constInts(MlirValue v, int64_t *out, int max) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v)) return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirAttribute a = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a)) return -1;
  StrataTensor *t = strataTensorFromAttr(a);
  if (!t) return -1;
  int64_t n = strataTensorNumElements(t);
  int r = -1;
  if (n <= max) {
    for (int64_t i = 0; i < n; i++) out[i] = (int64_t)strataTensorGetDouble(t, i);
    r = (int)n;
  }
  strataTensorDestroy(t);
  return r;
}

static double constScalar(MlirValue v, bool *ok) {
  *ok = false;
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v)) return 0;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("value"));
  StrataTensor *t = mlirAttributeIsNull(a) ? NULL : strataTensorFromAttr(a);
  if (!t) return 0;
  double d = strataTensorNumElements(t) == 1 ? strataTensorGetDouble(t, 0) : 0;
  *ok = strataTensorNumElements(t) == 1;
  strataTensorDestroy(t);
  return d;
}

/* ONNX op type -> nn op name ("GlobalAveragePool" -> "nn.global_average_pool"). */
static void nnName(const char *opType, char *buf, size_t size) {
  static const struct { const char *onnx, *nn; } kExceptions[] = {
      {"MatMul", "nn.matmul"}, {"PRelu", "nn.prelu"}, {"IsNaN", "nn.is_nan"}};
  for (size_t i = 0; i < sizeof kExceptions / sizeof kExceptions[0]; i++)
    if (!strcmp(opType, kExceptions[i].onnx)) {
      snprintf(buf, size, "%s", kExceptions[i].nn);
      return;
    }
  size_t k = (size_t)snprintf(buf, size, "nn.");
  for (const char *p = opType; *p && k + 2 < size; p++) {
    if (isupper((unsigned char)*p) && p != opType && !isupper((unsigned char)p[-1])) buf[k++] = '_';
    buf[k++] = (char)tolower((unsigned char)*p);
  }
  buf[k] = '\0';
}

typedef struct {
  Importer *im;
  const Onnx__NodeProto *n;
  MlirLocation loc;
  MlirValue in[MAX_IO]; /* null where the input name is "" (absent) */
  int nIn;
  Attr attrs[32];
  int nAttrs;
  char nn[64];
} Node;

static bool outputUsed(const Onnx__NodeProto *n, size_t i) {
  return i < n->n_output && n->output[i] && *n->output[i];
}

static bool bindOutputs(Node *x, MlirOperation op, int count) {
  for (int i = 0; i < count && (size_t)i < x->n->n_output; i++)
    if (outputUsed(x->n, (size_t)i) && !bind(x->im, x->n->output[i], strataResult(op, i))) return false;
  return true;
}

static bool bindValue(Node *x, MlirValue v) { return bind(x->im, x->n->output[0], v); }

static void dropAttr(Node *x, const char *name) {
  for (int i = 0; i < x->nAttrs; i++)
    if (!strcmp(x->attrs[i].name, name)) x->attrs[i] = x->attrs[--x->nAttrs];
}

static void setAttr(Node *x, const char *name, MlirAttribute a) {
  dropAttr(x, name);
  if (x->nAttrs < 32) x->attrs[x->nAttrs++] = (Attr){name, a};
}

/* An input holding constant ints becomes an integer-array attribute. */
static bool inputToAttr(Node *x, int index, const char *attr) {
  if (index >= x->nIn || mlirValueIsNull(x->in[index])) return true;
  int64_t v[STRATA_MAX_RANK * 2];
  int n = constInts(x->in[index], v, STRATA_MAX_RANK * 2);
  if (n < 0) {
    NODE_ERROR(x->im, x->loc, x->n, "input #%d ('%s') must be a constant", index, attr);
    return false;
  }
  setAttr(x, attr, mlirDenseI64ArrayGet(x->im->mc, n, v));
  x->nIn = index;
  return true;
}

static bool noExtraOutputs(Node *x, size_t keep, const char *what) {
  for (size_t i = keep; i < x->n->n_output; i++)
    if (outputUsed(x->n, i)) {
      NODE_ERROR(x->im, x->loc, x->n, "output #%zu (%s) is not supported", i, what);
      return false;
    }
  return true;
}

/* Creates the node's nn op with its inputs (trailing absent ones dropped;
 * absent ones in between need operandSegmentSizes for ops with several
 * optional operands). */
static bool direct(Node *x, int nResults) {
  while (x->nIn > 0 && mlirValueIsNull(x->in[x->nIn - 1])) x->nIn--;
  MlirValue ins[MAX_IO];
  int n = 0;
  const StrataOpDef *def = strataLookupOpDef(x->im->ctx, mlirStringRefCreateFromCString(x->nn));
  int optional = 0;
  for (const char *p = def->operands; *p; p++) optional += *p == '?' || *p == '*';
  for (int i = 0; i < x->nIn; i++) {
    if (mlirValueIsNull(x->in[i]) && optional < 2) {
      NODE_ERROR(x->im, x->loc, x->n, "input #%d is empty but a later input is given", i);
      return false;
    }
    if (!mlirValueIsNull(x->in[i])) ins[n++] = x->in[i];
  }
  if (optional >= 2) {
    /* One segment per declared operand: 1 if present, else 0. */
    int32_t seg[16];
    int groups = 0;
    for (const char *p = def->operands; *p && groups < 16;) {
      while (*p == ' ' || *p == ',') p++;
      if (!*p) break;
      while (*p && *p != ',') p++;
      seg[groups] = groups < x->nIn && !mlirValueIsNull(x->in[groups]);
      groups++;
    }
    setAttr(x, "operandSegmentSizes", mlirDenseI32ArrayGet(x->im->mc, groups, seg));
  }
  MlirOperation op = build(x->im, x->loc, x->nn, ins, n, nResults, x->attrs, x->nAttrs, (MlirType){NULL});
  return !mlirOperationIsNull(op) && bindOutputs(x, op, nResults);
}

/* N-ary ONNX ops (Concat, Max, Min, Sum, Mean) as chains of binary nn ops. */
static bool chain(Node *x, const char *binary) {
  MlirValue acc = x->in[0];
  for (int i = 1; i < x->nIn; i++) {
    MlirOperation op = build1(x->im, x->loc, binary, acc, x->in[i], x->attrs, x->nAttrs);
    if (mlirOperationIsNull(op)) return false;
    acc = strataResult(op, 0);
  }
  if (!strcmp(x->n->op_type, "Mean") && x->nIn > 1) {
    MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(acc));
    MlirType st = mlirRankedTensorTypeGet(0, NULL, et, mlirAttributeGetNull());
    MlirValue k = constant(x->im, x->loc, mlirDenseElementsAttrSplatGet(st, mlirFloatAttrDoubleGet(x->im->mc, et, 1.0 / x->nIn)));
    MlirOperation op = build1(x->im, x->loc, "nn.mul", acc, k, NULL, 0);
    if (mlirOperationIsNull(op)) return false;
    acc = strataResult(op, 0);
  }
  if (x->nIn == 1) {
    MlirOperation op = build1(x->im, x->loc, "nn.identity", acc, (MlirValue){NULL}, NULL, 0);
    if (mlirOperationIsNull(op)) return false;
    acc = strataResult(op, 0);
  }
  return bindValue(x, acc);
}

/* ---- Special cases ---- */

static bool importConstant(Node *x) {
  const Onnx__NodeProto *n = x->n;
  MlirAttribute v = mlirAttributeGetNull();
  if (findAttr(n, "value")) {
    v = convertAttr(x->im, x->loc, n, findAttr(n, "value"));
  } else {
    const Onnx__AttributeProto *a;
    MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64), f32 = mlirF32TypeGet(x->im->mc);
    if ((a = findAttr(n, "value_int"))) {
      v = mlirDenseElementsAttrInt64Get(mlirRankedTensorTypeGet(0, NULL, i64, mlirAttributeGetNull()), 1, &a->i);
    } else if ((a = findAttr(n, "value_float"))) {
      v = mlirDenseElementsAttrFloatGet(mlirRankedTensorTypeGet(0, NULL, f32, mlirAttributeGetNull()), 1, &a->f);
    } else if ((a = findAttr(n, "value_ints"))) {
      int64_t len = (int64_t)a->n_ints;
      v = mlirDenseElementsAttrInt64Get(mlirRankedTensorTypeGet(1, &len, i64, mlirAttributeGetNull()), len, a->ints);
    } else if ((a = findAttr(n, "value_floats"))) {
      int64_t len = (int64_t)a->n_floats;
      v = mlirDenseElementsAttrFloatGet(mlirRankedTensorTypeGet(1, &len, f32, mlirAttributeGetNull()), len, a->floats);
    } else {
      NODE_ERROR(x->im, x->loc, n, "needs a 'value', 'value_int', 'value_float', 'value_ints' or 'value_floats' attribute");
      return false;
    }
  }
  return !mlirAttributeIsNull(v) && bindValue(x, constant(x->im, x->loc, v));
}

static bool importCast(Node *x) {
  const Onnx__AttributeProto *to = findAttr(x->n, "to");
  StrataDType dt = to ? onnxDType((int32_t)to->i) : STRATA_DTYPE_INVALID;
  if (dt == STRATA_DTYPE_INVALID) {
    NODE_ERROR(x->im, x->loc, x->n, "cast target %s is not supported", to ? onnxDTypeName((int32_t)to->i) : "(missing 'to')");
    return false;
  }
  MlirOperation op = build(x->im, x->loc, "nn.cast", x->in, 1, 1, NULL, 0, strataDTypeToMlir(x->im->mc, dt));
  return !mlirOperationIsNull(op) && bindOutputs(x, op, 1);
}

static bool importClip(Node *x) {
  for (int i = 1; i < x->nIn && i < 3; i++) {
    if (mlirValueIsNull(x->in[i])) continue;
    bool ok;
    double v = constScalar(x->in[i], &ok);
    if (!ok) {
      NODE_ERROR(x->im, x->loc, x->n, "input '%s' must be a constant scalar", i == 1 ? "min" : "max");
      return false;
    }
    setAttr(x, i == 1 ? "min" : "max", mlirFloatAttrDoubleGet(x->im->mc, mlirF64TypeGet(x->im->mc), v));
  }
  x->nIn = 1;
  return direct(x, 1);
}

/* Split: even splits stay one nn.split; uneven ones become nn.slice ops
 * (an IRDL variadic result group has one type). */
static bool importSplit(Node *x) {
  MlirValue in = x->in[0];
  MlirType t = mlirValueGetType(in);
  int rank;
  int64_t dims[STRATA_MAX_RANK], axis = 0, sizes[MAX_IO];
  if (!strataGetShape(t, &rank, dims)) return false;
  const Onnx__AttributeProto *a = findAttr(x->n, "axis");
  if (a) axis = a->i;
  if (axis < 0) axis += rank;
  int outs = (int)x->n->n_output, n = -1;
  if (axis < 0 || axis >= rank || outs > MAX_IO || dims[axis] < 0) {
    NODE_ERROR(x->im, x->loc, x->n, "needs a static size along a valid axis");
    return false;
  }
  if (x->nIn > 1 && !mlirValueIsNull(x->in[1])) n = constInts(x->in[1], sizes, MAX_IO);
  else if ((a = findAttr(x->n, "split"))) {
    n = (int)a->n_ints;
    for (int i = 0; i < n && i < MAX_IO; i++) sizes[i] = a->ints[i];
  }
  if (n < 0) { /* even (the last chunk may be smaller, as num_outputs says) */
    int64_t chunk = (dims[axis] + outs - 1) / outs;
    for (int i = 0; i < outs; i++) sizes[i] = (i + 1) * chunk <= dims[axis] ? chunk : dims[axis] - i * chunk;
    n = outs;
  }
  if (n != outs) {
    NODE_ERROR(x->im, x->loc, x->n, "has %d split sizes for %d outputs", n, outs);
    return false;
  }
  int64_t start = 0;
  for (int i = 0; i < outs; i++) {
    MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64);
    int64_t one = 1, s = start, e = start + sizes[i];
    MlirType vt = mlirRankedTensorTypeGet(1, &one, i64, mlirAttributeGetNull());
    MlirValue ins[4] = {in, constant(x->im, x->loc, mlirDenseElementsAttrInt64Get(vt, 1, &s)),
                        constant(x->im, x->loc, mlirDenseElementsAttrInt64Get(vt, 1, &e)),
                        constant(x->im, x->loc, mlirDenseElementsAttrInt64Get(vt, 1, &axis))};
    int32_t seg[5] = {1, 1, 1, 1, 0};
    Attr attrs[1] = {{"operandSegmentSizes", mlirDenseI32ArrayGet(x->im->mc, 5, seg)}};
    MlirOperation op = build(x->im, x->loc, "nn.slice", ins, 4, 1, attrs, 1, (MlirType){NULL});
    if (mlirOperationIsNull(op)) return false;
    if (outputUsed(x->n, (size_t)i) && !bind(x->im, x->n->output[i], strataResult(op, 0))) return false;
    start = e;
  }
  return true;
}

/* Softmax/LogSoftmax before opset 13 normalize the input flattened to 2-D
 * at `axis` (default 1). */
static bool importSoftmax(Node *x) {
  if (x->im->opset >= 13) return direct(x, 1);
  MlirValue in = x->in[0];
  int rank;
  int64_t dims[STRATA_MAX_RANK], axis = 1;
  const Onnx__AttributeProto *a = findAttr(x->n, "axis");
  if (a) axis = a->i;
  if (!strataGetShape(mlirValueGetType(in), &rank, dims) || !mlirShapedTypeHasStaticShape(mlirValueGetType(in))) {
    NODE_ERROR(x->im, x->loc, x->n, "opset < 13 semantics need a static input shape");
    return false;
  }
  if (axis < 0) axis += rank;
  int64_t two[2] = {1, 1}, len = 2, nd = rank;
  for (int i = 0; i < rank; i++) two[i < axis ? 0 : 1] *= dims[i];
  MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64);
  MlirType st = mlirRankedTensorTypeGet(1, &len, i64, mlirAttributeGetNull());
  MlirType sb = mlirRankedTensorTypeGet(1, &nd, i64, mlirAttributeGetNull());
  MlirOperation r = build1(x->im, x->loc, "nn.reshape", in, constant(x->im, x->loc, mlirDenseElementsAttrInt64Get(st, 2, two)), NULL, 0);
  if (mlirOperationIsNull(r)) return false;
  Attr ax[1] = {{"axis", strataI64Attr(x->im->mc, 1)}};
  MlirOperation s = build1(x->im, x->loc, x->nn, strataResult(r, 0), (MlirValue){NULL}, ax, 1);
  if (mlirOperationIsNull(s)) return false;
  MlirOperation back = build1(x->im, x->loc, "nn.reshape", strataResult(s, 0),
                              constant(x->im, x->loc, mlirDenseElementsAttrInt64Get(sb, rank, dims)), NULL, 0);
  return !mlirOperationIsNull(back) && bindValue(x, strataResult(back, 0));
}

static bool importPad(Node *x) {
  if (x->im->opset < 11 || x->nIn < 2) {
    NODE_ERROR(x->im, x->loc, x->n, "needs 'pads' as an input (opset >= 11)");
    return false;
  }
  if (x->nIn > 3 && !mlirValueIsNull(x->in[3])) {
    NODE_ERROR(x->im, x->loc, x->n, "the 'axes' input is not supported");
    return false;
  }
  if (x->nIn > 3) x->nIn = 3;
  return direct(x, 1);
}

/* Resize: an empty scales (or roi) tensor means "not given". */
static bool importResize(Node *x) {
  for (int i = 1; i < x->nIn && i < 3; i++) {
    MlirType t = mlirValueIsNull(x->in[i]) ? (MlirType){NULL} : mlirValueGetType(x->in[i]);
    if (!mlirTypeIsNull(t) && mlirShapedTypeGetRank(t) == 1 && mlirShapedTypeGetDimSize(t, 0) == 0)
      x->in[i] = (MlirValue){NULL};
  }
  if (x->nIn < 4) x->in[3] = (MlirValue){NULL};
  x->nIn = 4;
  return direct(x, 1);
}

/* ---- Dispatch ---- */

static bool importNode(Importer *im, const Onnx__NodeProto *n, size_t index) {
  Node x = {.im = im, .n = n, .loc = nodeLoc(im, n, index)};
  if (n->domain && *n->domain && strcmp(n->domain, "ai.onnx")) {
    NODE_ERROR(im, x.loc, n, "domain '%s' is not supported (only the default ONNX domain)", n->domain);
    return false;
  }
  if (n->n_input > MAX_IO || n->n_output > MAX_IO) {
    NODE_ERROR(im, x.loc, n, "too many inputs or outputs");
    return false;
  }
  for (size_t i = 0; i < n->n_input; i++) {
    if (!n->input[i] || !*n->input[i]) {
      x.in[i] = (MlirValue){NULL};
      continue;
    }
    x.in[i] = lookup(im, n->input[i]);
    if (mlirValueIsNull(x.in[i])) {
      NODE_ERROR(im, x.loc, n, "input '%s' is not defined before this node", n->input[i]);
      return false;
    }
  }
  x.nIn = (int)n->n_input;
  const char *t = n->op_type ? n->op_type : "";
  if (!strcmp(t, "Constant")) return importConstant(&x);
  nnName(t, x.nn, sizeof x.nn);
  if (!strcmp(t, "Sum") || !strcmp(t, "Mean")) snprintf(x.nn, sizeof x.nn, "nn.add");
  if (!strataLookupOpDef(im->ctx, mlirStringRefCreateFromCString(x.nn))) {
    NODE_ERROR(im, x.loc, n, "operator '%s' is not supported by Strata (see docs/onnx.md)", t);
    return false;
  }
  for (size_t i = 0; i < n->n_attribute; i++) {
    const Onnx__AttributeProto *a = n->attribute[i];
    if (!a->name || !strcmp(a->name, "to") || (!strcmp(a->name, "training_mode") && !a->i)) continue;
    MlirAttribute v = convertAttr(im, x.loc, n, a);
    if (mlirAttributeIsNull(v)) return false;
    if (x.nAttrs < 32) x.attrs[x.nAttrs++] = (Attr){a->name, v};
  }
  if (x.nIn == 0 && strcmp(t, "Range") != 0) {
    NODE_ERROR(im, x.loc, n, "has no inputs");
    return false;
  }
  if (!strcmp(t, "Cast")) return importCast(&x);
  if (!strcmp(t, "Clip")) return importClip(&x);
  if (!strcmp(t, "Split")) return importSplit(&x);
  if (!strcmp(t, "Concat") || !strcmp(t, "Max") || !strcmp(t, "Min") || !strcmp(t, "Sum") || !strcmp(t, "Mean"))
    return chain(&x, x.nn);
  if (!strcmp(t, "Softmax") || !strcmp(t, "LogSoftmax")) return importSoftmax(&x);
  if (!strcmp(t, "Pad")) return importPad(&x);
  if (!strcmp(t, "Resize")) return importResize(&x);
  if (!strcmp(t, "Squeeze") || !strcmp(t, "Unsqueeze") || !strncmp(t, "Reduce", 6)) {
    if (!inputToAttr(&x, 1, "axes")) return false;
  }
  if (!strcmp(t, "CumSum")) {
    bool ok;
    double axis = constScalar(x.nIn > 1 ? x.in[1] : (MlirValue){NULL}, &ok);
    if (!ok) {
      NODE_ERROR(im, x.loc, n, "input 'axis' must be a constant");
      return false;
    }
    setAttr(&x, "axis", strataI64Attr(im->mc, (int64_t)axis));
    x.nIn = 1;
  }
  if (!strcmp(t, "Dropout")) {
    x.nIn = 1;
    if (!noExtraOutputs(&x, 1, "mask")) return false;
  }
  if (!strcmp(t, "MaxPool") && !noExtraOutputs(&x, 1, "Indices")) return false;
  if (!strcmp(t, "BatchNormalization") && !noExtraOutputs(&x, 1, "training statistics")) return false;
  if (!strcmp(t, "LayerNormalization") && !noExtraOutputs(&x, 1, "Mean/InvStdDev")) return false;
  int results = !strcmp(t, "TopK") ? 2 : 1;
  return direct(&x, results);
}

/* ---- Graph ---- */

static MlirType valueInfoType(Importer *im, const Onnx__ValueInfoProto *vi, MlirAttribute *dimNames,
                              char *err, size_t errSize) {
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE || !tp->tensor_type) {
    snprintf(err, errSize, "only tensor values are supported");
    return (MlirType){NULL};
  }
  StrataDType dt = onnxDType(tp->tensor_type->elem_type);
  if (dt == STRATA_DTYPE_INVALID) {
    snprintf(err, errSize, "element type %s is not supported", onnxDTypeName(tp->tensor_type->elem_type));
    return (MlirType){NULL};
  }
  const Onnx__TensorShapeProto *sh = tp->tensor_type->shape;
  if (!sh) {
    snprintf(err, errSize, "the shape (at least the rank) must be given");
    return (MlirType){NULL};
  }
  if (sh->n_dim > STRATA_MAX_RANK) {
    snprintf(err, errSize, "rank %zu is above %d", sh->n_dim, STRATA_MAX_RANK);
    return (MlirType){NULL};
  }
  int64_t dims[STRATA_MAX_RANK];
  MlirAttribute names[STRATA_MAX_RANK];
  bool symbolic = false;
  for (size_t i = 0; i < sh->n_dim; i++) {
    const Onnx__TensorShapeProto__Dimension *d = sh->dim[i];
    bool known = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value >= 0;
    dims[i] = known ? d->dim_value : -1;
    const char *param = d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM ? d->dim_param : "";
    symbolic |= !known;
    names[i] = strataStrAttr(im->mc, param ? param : "");
  }
  *dimNames = symbolic ? mlirArrayAttrGet(im->mc, (intptr_t)sh->n_dim, names) : mlirAttributeGetNull();
  return strataTensorType(strataDTypeToMlir(im->mc, dt), (int)sh->n_dim, dims);
}

static bool isInitializer(const Onnx__GraphProto *g, const char *name) {
  for (size_t i = 0; i < g->n_initializer; i++)
    if (g->initializer[i]->name && !strcmp(g->initializer[i]->name, name)) return true;
  return false;
}

bool strataLooksLikeOnnx(const char *path, const void *data, size_t size) {
  size_t n = path ? strlen(path) : 0;
  if (n > 5 && !strcmp(path + n - 5, ".onnx")) return true;
  /* A ModelProto starts with field 1 (ir_version, varint): byte 0x08. */
  return size > 2 && ((const unsigned char *)data)[0] == 0x08;
}

MlirModule strataImportOnnx(StrataContext *ctx, const void *data, size_t size, const char *name,
                            const char *baseDir, const StrataOnnxOptions *opts) {
  MlirContext mc = strataContextGetMlir(ctx);
  MlirLocation fileLoc = mlirLocationFileLineColGet(mc, mlirStringRefCreateFromCString(name), 0, 0);
  Onnx__ModelProto *model = onnx__model_proto__unpack(NULL, size, data);
  if (!model || !model->graph) {
    strataEmitError(fileLoc, "not a valid ONNX model (the protobuf is corrupt or truncated)");
    if (model) onnx__model_proto__free_unpacked(model, NULL);
    return (MlirModule){NULL};
  }
  Importer im = {ctx, mc, name, baseDir, -1, opts && opts->resourceThreshold ? opts->resourceThreshold : 64,
                 NULL, 0, 0, {{NULL}, {NULL}, {NULL}, {NULL}}, fileLoc};
  for (size_t i = 0; i < model->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = model->opset_import[i];
    if (!o->domain || !*o->domain || !strcmp(o->domain, "ai.onnx")) im.opset = o->version;
  }
  MlirModule module = {NULL};
  if (im.opset < STRATA_ONNX_MIN_OPSET || im.opset > STRATA_ONNX_MAX_OPSET) {
    strataEmitError(fileLoc, "opset %lld of the default ONNX domain is not supported (supported: %d to %d)",
                    (long long)im.opset, STRATA_ONNX_MIN_OPSET, STRATA_ONNX_MAX_OPSET);
    goto done;
  }
  const Onnx__GraphProto *g = model->graph;
  module = mlirModuleCreateEmpty(fileLoc);
  StrataBuilder top = strataBuilderAtEnd(mc, mlirModuleGetBody(module));
  MlirType inTypes[MAX_IO];
  MlirAttribute dimNames[MAX_IO];
  const char *inNames[MAX_IO];
  int nIn = 0;
  char err[256];
  for (size_t i = 0; i < g->n_input; i++) {
    if (!g->input[i]->name || isInitializer(g, g->input[i]->name)) continue;
    if (nIn == MAX_IO) {
      strataEmitError(fileLoc, "more than %d graph inputs", MAX_IO);
      goto fail;
    }
    inTypes[nIn] = valueInfoType(&im, g->input[i], &dimNames[nIn], err, sizeof err);
    if (mlirTypeIsNull(inTypes[nIn])) {
      strataEmitError(fileLoc, "graph input '%s': %s", g->input[i]->name, err);
      goto fail;
    }
    inNames[nIn++] = g->input[i]->name;
  }
  const char *entry = opts && opts->entryName ? opts->entryName : "main";
  MlirType placeholderType = mlirFunctionTypeGet(mc, nIn, inTypes, 0, NULL);
  MlirOperation func = strataCreateOp(&top, "func.func", fileLoc,
                                      .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(mc, entry)},
                                                            {"function_type", mlirTypeAttrGet(placeholderType)}),
                                      .numRegions = 1);
  MlirBlock body = strataAddBlock(func, 0, (StrataTypeList){inTypes, nIn}, fileLoc);
  im.b = strataBuilderAtEnd(mc, body);
  for (int i = 0; i < nIn; i++) {
    if (!bind(&im, inNames[i], mlirBlockGetArgument(body, i))) goto fail;
    if (!mlirAttributeIsNull(dimNames[i]))
      mlirFuncSetArgAttr(func, i, mlirStringRefCreateFromCString("onnx.dim_params"), dimNames[i]);
  }
  for (size_t i = 0; i < g->n_initializer; i++) {
    const Onnx__TensorProto *t = g->initializer[i];
    MlirLocation loc = mlirLocationNameGet(mc, mlirStringRefCreateFromCString(t->name ? t->name : "initializer"), fileLoc);
    StrataTensor *tensor = onnxReadTensor(t, baseDir, err, sizeof err);
    if (!tensor) {
      strataEmitError(loc, "initializer '%s': %s", t->name ? t->name : "", err);
      goto fail;
    }
    MlirAttribute a = tensorAttr(&im, tensor, t->name);
    strataTensorDestroy(tensor);
    if (mlirAttributeIsNull(a) || !bind(&im, t->name ? t->name : "", constant(&im, loc, a))) goto fail;
  }
  for (size_t i = 0; i < g->n_node; i++)
    if (!importNode(&im, g->node[i], i)) goto fail;
  MlirValue outs[MAX_IO];
  MlirType outTypes[MAX_IO];
  if (g->n_output > MAX_IO) goto fail;
  for (size_t i = 0; i < g->n_output; i++) {
    outs[i] = g->output[i]->name ? lookup(&im, g->output[i]->name) : (MlirValue){NULL};
    if (mlirValueIsNull(outs[i])) {
      strataEmitError(fileLoc, "graph output '%s' is not produced by any node", g->output[i]->name ? g->output[i]->name : "");
      goto fail;
    }
    outTypes[i] = mlirValueGetType(outs[i]);
  }
  MlirOperation ret = strataCreateOp(&im.b, "func.return", fileLoc, .operands = {outs, (intptr_t)g->n_output});
  mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(mc, nIn, inTypes, (intptr_t)g->n_output, outTypes)));
  /* Fold shape computations (exporters emit many) so shapes become static
   * where they can, then give the function the tightened result types: it is
   * ours, nobody calls it yet. */
  if (mlirLogicalResultIsFailure(strataRunPipeline(ctx, mlirModuleGetOperation(module), "func.func(nn-fold)")))
    goto fail;
  for (size_t i = 0; i < g->n_output; i++) {
    MlirValue v = mlirOperationGetOperand(ret, (intptr_t)i);
    MlirOperation def = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
    MlirStringRef dn = mlirOperationIsNull(def) ? mlirStringRefCreate(NULL, 0) : mlirIdentifierStr(mlirOperationGetName(def));
    if (dn.length == 11 && !strncmp(dn.data, "tensor.cast", 11)) {
      MlirValue src = mlirOperationGetOperand(def, 0);
      mlirOperationSetOperand(ret, (intptr_t)i, src);
      if (mlirOpOperandIsNull(mlirValueGetFirstUse(v))) mlirOperationDestroy(def);
    }
    outTypes[i] = mlirValueGetType(mlirOperationGetOperand(ret, (intptr_t)i));
  }
  mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(mc, nIn, inTypes, (intptr_t)g->n_output, outTypes)));
  goto done;
fail:
  mlirModuleDestroy(module);
  module = (MlirModule){NULL};
done:
  for (size_t i = 0; i < im.numValues; i++) free(im.values[i].name);
  free(im.values);
  onnx__model_proto__free_unpacked(model, NULL);
  return module;
}

MlirModule strataImportOnnxFile(StrataContext *ctx, const char *path, const StrataOnnxOptions *opts) {
  MlirLocation loc = mlirLocationFileLineColGet(strataContextGetMlir(ctx), mlirStringRefCreateFromCString(path), 0, 0);
  FILE *f = fopen(path, "rb");
  if (!f) {
    strataEmitError(loc, "cannot open the model file");
    return (MlirModule){NULL};
  }
  size_t cap = 1 << 20, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap) break;
    char *grown = realloc(buf, cap *= 2);
    if (!grown) free(buf);
    buf = grown;
  }
  fclose(f);
  if (!buf) {
    strataEmitError(loc, "out of memory reading the model");
    return (MlirModule){NULL};
  }
  char *dirCopy = strdup(path);
  MlirModule m = strataImportOnnx(ctx, buf, n, path, dirCopy ? dirname(dirCopy) : ".", opts);
  free(dirCopy);
  free(buf);
  return m;
}
