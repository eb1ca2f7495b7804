/* ONNX nodes -> nn ops: the op-type mapping, inputs and outputs (absent
 * "" inputs, SSA outputs), the one-to-one case and the operators that need
 * more than a rename (N-ary chains, Constant, Cast, Clip, Split, Softmax
 * before opset 13, Pad, Resize). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/nn.h"
#include "strata/support.h"

static MlirLocation nodeLoc(Importer *im, const Onnx__NodeProto *n, size_t index) {
  char fallback[64];
  const char *name = n->name && *n->name ? n->name : (snprintf(fallback, sizeof fallback, "%s#%zu", onnxOpType(n), index), fallback);
  return mlirLocationNameGet(im->mc, mlirStringRefCreateFromCString(name), im->fileLoc);
}

/* ---- Building nn ops ---- */

/* The largest result the importer folds while building: nn-fold's default
 * fold-limit, which the pipeline run after the import applies anyway. */
enum { kImportFoldLimit = 65536 };

/* Creates nn op `name` with placeholder results (unranked, of element type
 * `resultElement` or f32) and infers their types; null after an error. */
MlirOperation onnxBuild(Importer *im, MlirLocation loc, const char *name, const MlirValue *ins, int nIns,
                           int nResults, const Attr *attrs, int nAttrs, MlirType resultElement) {
  MlirType placeholder = mlirUnrankedTensorTypeGet(mlirTypeIsNull(resultElement) ? mlirF32TypeGet(im->mc) : resultElement);
  MlirType results[MAX_IO];
  StrataNamedAttr named[32];
  for (int i = 0; i < nResults; i++) results[i] = placeholder;
  for (int i = 0; i < nAttrs && i < 32; i++) named[i] = (StrataNamedAttr){attrs[i].name, attrs[i].attr};
  MlirOperation op = strataBuildOp(&im->b, name, loc,
                                   (StrataOpSpec){{ins, nIns}, {results, nResults}, {named, nAttrs < 32 ? nAttrs : 32}, 0});
  if (mlirLogicalResultIsFailure(strataInferResultTypes(im->ctx, op))) return (MlirOperation){NULL};
  /* Folded as it is built, so the ops after it see a constant: exporters
   * compute shapes with Shape/Size/Slice/Concat/ConstantOfShape chains, and
   * a Reshape reading one infers its result type only from a constant (or at
   * least a static-length) shape. A DequantizeLinear of constant weights
   * stays (see nn-fold's keep-dequantize below). */
  if (nResults == 1 && strcmp(name, "nn.dequantize_linear")) {
    MlirAttribute v = strataNnFoldValue(im->ctx, op, kImportFoldLimit);
    if (!mlirAttributeIsNull(v)) {
      MlirValue c = onnxConstant(im, loc, v);
      mlirOperationDestroy(op);
      return mlirOpResultGetOwner(c);
    }
  }
  return op;
}

MlirOperation onnxBuild1(Importer *im, MlirLocation loc, const char *name, MlirValue a, MlirValue b2,
                            const Attr *attrs, int nAttrs) {
  MlirValue ins[2] = {a, b2};
  return onnxBuild(im, loc, name, ins, mlirValueIsNull(b2) ? 1 : 2, 1, attrs, nAttrs, (MlirType){NULL});
}

/* Integer values of a constant operand (an initializer or Constant): the
 * count, -1 if not a constant of at most `max` values, -2 if a float value
 * is NaN, infinite or outside int64 (its conversion would be undefined). */
int onnxConstInts(MlirValue v, int64_t *out, int max) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v)) return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirAttribute a = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a)) return -1;
  StrataTensor *t = strataTensorFromAttr(a);
  if (!t) return -1;
  int64_t n = strataTensorNumElements(t);
  int r = n <= max ? (int)n : -1;
  for (int64_t i = 0; r >= 0 && i < n; i++)
    if (!strataTensorGetInt64(t, i, &out[i])) r = -2;
  strataTensorDestroy(t);
  return r;
}

MlirValue onnxUnary(Node *x, const char *name, MlirValue a, const Attr *attrs, int nAttrs) {
  if (mlirValueIsNull(a)) return a;
  MlirOperation op = onnxBuild1(x->im, x->loc, name, a, (MlirValue){NULL}, attrs, nAttrs);
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

MlirValue onnxBinary(Node *x, const char *name, MlirValue a, MlirValue b, const Attr *attrs, int nAttrs) {
  if (mlirValueIsNull(a) || mlirValueIsNull(b)) return (MlirValue){NULL};
  MlirOperation op = onnxBuild1(x->im, x->loc, name, a, b, attrs, nAttrs);
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

MlirValue onnxScalarConst(Node *x, MlirType elementType, double value) {
  MlirType st = mlirRankedTensorTypeGet(0, NULL, elementType, mlirAttributeGetNull());
  MlirAttribute v = mlirTypeIsAFloat(elementType) ? mlirFloatAttrDoubleGet(x->im->mc, elementType, value)
                                                  : mlirIntegerAttrGet(elementType, (int64_t)value);
  return onnxConstant(x->im, x->loc, mlirDenseElementsAttrSplatGet(st, v));
}

MlirType onnxElemOf(MlirValue v) { return mlirShapedTypeGetElementType(mlirValueGetType(v)); }

MlirValue onnxCast(Node *x, MlirValue v, MlirType elementType) {
  if (mlirValueIsNull(v) || mlirTypeEqual(onnxElemOf(v), elementType)) return v;
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.cast", &v, 1, 1, NULL, 0, elementType);
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

MlirValue onnxWhere(Node *x, MlirValue cond, MlirValue a, MlirValue b) {
  if (mlirValueIsNull(cond) || mlirValueIsNull(a) || mlirValueIsNull(b)) return (MlirValue){NULL};
  MlirValue ins[3] = {cond, a, b};
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.where", ins, 3, 1, NULL, 0, onnxElemOf(a));
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

MlirValue onnxI64Vector(Node *x, const int64_t *v, int64_t n) {
  MlirType t = mlirRankedTensorTypeGet(1, &n, mlirIntegerTypeGet(x->im->mc, 64), mlirAttributeGetNull());
  return onnxConstant(x->im, x->loc, mlirDenseElementsAttrInt64Get(t, n, v));
}

MlirValue onnxIota(Node *x, int rank, int axis, int64_t n) {
  return onnxIotaTo(x, rank, axis, onnxScalarConst(x, mlirIntegerTypeGet(x->im->mc, 64), (double)n));
}

MlirValue onnxIotaTo(Node *x, int rank, int axis, MlirValue n) {
  /* An nn.range, not a constant: n comes from the model and may be huge
   * (the fold pass materializes it only when it is small). */
  MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64);
  MlirValue ins[3] = {onnxScalarConst(x, i64, 0), n, onnxScalarConst(x, i64, 1)};
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.range", ins, 3, 1, NULL, 0, i64);
  if (mlirOperationIsNull(op)) return (MlirValue){NULL};
  MlirValue v = strataResult(op, 0);
  int64_t axes[STRATA_MAX_RANK];
  int nAxes = 0;
  for (int i = 0; i < rank; i++)
    if (i != axis) axes[nAxes++] = i;
  if (!nAxes) return v;
  Attr ax[1] = {{"axes", mlirDenseI64ArrayGet(x->im->mc, nAxes, axes)}};
  return onnxUnary(x, "nn.unsqueeze", v, ax, 1);
}

int onnxConstDoubles(MlirValue v, double *out, int max) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v)) return -1;
  MlirAttribute a = mlirOperationGetAttributeByName(mlirOpResultGetOwner(v), mlirStringRefCreateFromCString("value"));
  StrataTensor *t = mlirAttributeIsNull(a) ? NULL : strataTensorFromAttr(a);
  if (!t) return -1;
  int64_t n = strataTensorNumElements(t);
  int r = n <= max ? (int)n : -1;
  for (int64_t i = 0; r >= 0 && i < n; i++) out[i] = strataTensorGetDouble(t, i);
  strataTensorDestroy(t);
  return r;
}

static double constScalar(MlirValue v, bool *ok) {
  double d = 0;
  *ok = onnxConstDoubles(v, &d, 1) == 1;
  return d;
}

/* ONNX op types <-> nn op names: CamelCase words <-> snake_case
 * ("GlobalAveragePool" <-> "nn.global_average_pool"), but for these. */
static const struct { const char *onnx, *nn; } kNameExceptions[] = {
    {"MatMul", "nn.matmul"}, {"PRelu", "nn.prelu"}, {"IsNaN", "nn.is_nan"},
    {"MatMulInteger", "nn.matmul_integer"}, {"QLinearMatMul", "nn.qlinear_matmul"},
    {"QLinearConv", "nn.qlinear_conv"}, {"RNN", "nn.rnn"}, {"GRU", "nn.gru"}, {"LSTM", "nn.lstm"},
    {"DFT", "nn.dft"}, {"STFT", "nn.stft"}};

/* The canonical ONNX spelling of an nn op name ("nn.top_k" -> "TopK"). */
static void onnxName(const char *nn, char *buf, size_t size) {
  for (size_t i = 0; i < sizeof kNameExceptions / sizeof kNameExceptions[0]; i++)
    if (!strcmp(nn, kNameExceptions[i].nn)) {
      snprintf(buf, size, "%s", kNameExceptions[i].onnx);
      return;
    }
  size_t k = 0;
  for (const char *p = nn + 3; *p && k + 1 < size; p++)
    if (*p != '_') buf[k++] = p == nn + 3 || p[-1] == '_' ? (char)toupper((unsigned char)*p) : *p;
  buf[k] = '\0';
}

/* ONNX op type -> nn op name into buf. ONNX op types are case-sensitive:
 * the lowering to snake_case folds case, so the type must then be exactly
 * the canonical spelling of the name it maps to ("RELU" and "TOpK" are not
 * operators). False if it is not. */
static bool nnName(const char *opType, char *buf, size_t size) {
  size_t k = (size_t)snprintf(buf, size, "nn.");
  for (const char *p = opType; *p && k + 2 < size; p++) {
    if (isupper((unsigned char)*p) && p != opType && !isupper((unsigned char)p[-1])) buf[k++] = '_';
    buf[k++] = (char)tolower((unsigned char)*p);
  }
  buf[k] = '\0';
  for (size_t i = 0; i < sizeof kNameExceptions / sizeof kNameExceptions[0]; i++)
    if (!strcmp(opType, kNameExceptions[i].onnx)) snprintf(buf, size, "%s", kNameExceptions[i].nn);
  char canonical[64];
  onnxName(buf, canonical, sizeof canonical);
  return !strcmp(canonical, opType);
}

static bool outputUsed(const Onnx__NodeProto *n, size_t i) {
  return i < n->n_output && n->output[i] && *n->output[i];
}

/* Output i of the node is `v` (nothing to bind when its name is ""). */
bool onnxBindOutput(Node *x, size_t i, MlirValue v) {
  return !outputUsed(x->n, i) || onnxBind(x->im, x->loc, x->n->output[i], v, "node output");
}

bool onnxBindOutputs(Node *x, MlirOperation op, int count) {
  for (int i = 0; i < count; i++)
    if (!onnxBindOutput(x, (size_t)i, strataResult(op, i))) return false;
  return true;
}

bool onnxBindValue(Node *x, MlirValue v) { return onnxBindOutput(x, 0, v); }

/* Integer values of constant input `index` named `what`; -1 after an error. */
int onnxInputInts(Node *x, int index, const char *what, int64_t *out, int max) {
  int n = onnxConstInts(x->in[index], out, max);
  if (n == -1)
    NODE_ERROR(x->im, x->loc, x->n, "input #%d ('%s') must be a constant (at most %d values)", index, what, max);
  if (n == -2)
    NODE_ERROR(x->im, x->loc, x->n, "input #%d ('%s') holds a value that is not an int64 (NaN, infinite or out "
               "of range)", index, what);
  return n < 0 ? -1 : n;
}

void onnxDropAttr(Node *x, const char *name) {
  for (int i = 0; i < x->nAttrs; i++)
    if (!strcmp(x->attrs[i].name, name)) x->attrs[i] = x->attrs[--x->nAttrs];
}

void onnxSetAttr(Node *x, const char *name, MlirAttribute a) {
  onnxDropAttr(x, name);
  if (x->nAttrs < 32) x->attrs[x->nAttrs++] = (Attr){name, a};
}

/* A value that is not a constant (a graph input, or computed): the ops
 * that take one as an operand (axes, split sizes, CumSum's axis) keep it. */
static bool isRuntime(MlirValue v) {
  return !mlirValueIsNull(v) &&
         (!mlirValueIsAOpResult(v) ||
          mlirAttributeIsNull(mlirOperationGetAttributeByName(mlirOpResultGetOwner(v),
                                                              mlirStringRefCreateFromCString("value"))));
}

/* An input holding constant ints becomes an integer-array attribute; a
 * run-time one stays the op's operand. */
static bool inputToAttr(Node *x, int index, const char *attr) {
  if (index >= x->nIn || mlirValueIsNull(x->in[index])) return true;
  if (isRuntime(x->in[index])) {
    x->nIn = index + 1;
    return true;
  }
  int64_t v[STRATA_MAX_RANK * 2];
  int n = onnxInputInts(x, index, attr, v, STRATA_MAX_RANK * 2);
  if (n < 0) return false;
  onnxSetAttr(x, attr, mlirDenseI64ArrayGet(x->im->mc, n, v));
  x->nIn = index;
  return true;
}

bool onnxNoExtraOutputs(Node *x, size_t keep, const char *what) {
  for (size_t i = keep; i < x->n->n_output; i++)
    if (outputUsed(x->n, i)) {
      NODE_ERROR(x->im, x->loc, x->n, "output #%zu (%s) is not supported", i, what);
      return false;
    }
  return true;
}

/* Error for required input #i (named name[0..len) in the nn op, if len)
 * that is "" (ONNX's absent) or missing; returns false. */
static bool absentInput(Node *x, int i, const char *name, int len) {
  char what[80] = "";
  if (len > 0) snprintf(what, sizeof what, " ('%.*s')", len, name);
  NODE_ERROR(x->im, x->loc, x->n, "input #%d%s is required but %s", i, what,
             i < (int)x->n->n_input ? "empty (\"\" means absent)" : "missing");
  return false;
}

/* Creates the node's nn op with its inputs (trailing absent ones dropped;
 * absent ones in between need operandSegmentSizes for ops with several
 * optional operands). */
bool onnxDirect(Node *x, int nResults) {
  while (x->nIn > 0 && mlirValueIsNull(x->in[x->nIn - 1])) x->nIn--;
  MlirValue ins[MAX_IO];
  int n = 0;
  const StrataOpDef *def = strataContextLookupOpDef(x->im->ctx, mlirStringRefCreateFromCString(x->nn));
  int optional = 0;
  for (const char *p = def->operands; *p; p++) optional += *p == '?' || *p == '*';
  /* "" is ONNX's absent optional input: an operand the nn op requires
   * cannot be absent (nor missing). */
  int group = 0;
  for (const char *p = def->operands; *p; group++) {
    while (*p == ' ' || *p == ',') p++;
    const char *name = p;
    while (*p && *p != ',') p++;
    bool required = p > name && p[-1] != '?' && p[-1] != '*';
    if (required && (group >= x->nIn || mlirValueIsNull(x->in[group])))
      return absentInput(x, group, name, (int)(p - name));
  }
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
    onnxSetAttr(x, "operandSegmentSizes", mlirDenseI32ArrayGet(x->im->mc, groups, seg));
  }
  MlirOperation op = onnxBuild(x->im, x->loc, x->nn, ins, n, nResults, x->attrs, x->nAttrs, (MlirType){NULL});
  return !mlirOperationIsNull(op) && onnxBindOutputs(x, op, nResults);
}

/* N-ary ONNX ops (Concat, Max, Min, Sum, Mean) as chains of binary nn ops.
 * Their inputs are all required: an absent one has no meaning (and would
 * change Mean's divisor). */
static bool chain(Node *x, const char *binary) {
  for (int i = 0; i < x->nIn; i++)
    if (mlirValueIsNull(x->in[i])) {
      NODE_ERROR(x->im, x->loc, x->n, "input #%d is empty (\"\" means absent), but every input of %s is required", i,
                 onnxOpType(x->n));
      return false;
    }
  MlirValue acc = x->in[0];
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!strcmp(binary, "nn.concat") && x->nIn == 1 && strataGetShape(mlirValueGetType(acc), &rank, dims) && rank == 0) {
    NODE_ERROR(x->im, x->loc, x->n, "input #0 is a scalar; Concat needs rank >= 1");
    return false;
  }
  for (int i = 1; i < x->nIn; i++) {
    MlirOperation op = onnxBuild1(x->im, x->loc, binary, acc, x->in[i], x->attrs, x->nAttrs);
    if (mlirOperationIsNull(op)) return false;
    acc = strataResult(op, 0);
  }
  if (!strcmp(onnxOpType(x->n), "Mean") && x->nIn > 1) {
    MlirType et = mlirShapedTypeGetElementType(mlirValueGetType(acc));
    if (!mlirTypeIsAFloat(et)) { /* ONNX Mean is float-only; 1/n would be 0 */
      char ts[64];
      strataTypeToString(et, ts, sizeof ts);
      NODE_ERROR(x->im, x->loc, x->n, "element type %s is not supported (Mean takes floats)", ts);
      return false;
    }
    MlirOperation op = onnxBuild1(x->im, x->loc, "nn.mul", acc, onnxScalarConst(x, et, 1.0 / x->nIn), NULL, 0);
    if (mlirOperationIsNull(op)) return false;
    acc = strataResult(op, 0);
  }
  if (x->nIn == 1) {
    MlirOperation op = onnxBuild1(x->im, x->loc, "nn.identity", acc, (MlirValue){NULL}, NULL, 0);
    if (mlirOperationIsNull(op)) return false;
    acc = strataResult(op, 0);
  }
  return onnxBindValue(x, acc);
}

/* ---- Special cases ---- */

static bool importConstant(Node *x) {
  const Onnx__NodeProto *n = x->n;
  MlirAttribute v = mlirAttributeGetNull();
  if (onnxFindAttr(n, "value")) {
    v = onnxConvertAttr(x->im, x->loc, n, onnxFindAttr(n, "value"));
  } else {
    const Onnx__AttributeProto *a;
    MlirType i64 = mlirIntegerTypeGet(x->im->mc, 64), f32 = mlirF32TypeGet(x->im->mc);
    if ((a = onnxFindAttr(n, "value_int"))) {
      v = mlirDenseElementsAttrInt64Get(mlirRankedTensorTypeGet(0, NULL, i64, mlirAttributeGetNull()), 1, &a->i);
    } else if ((a = onnxFindAttr(n, "value_float"))) {
      v = mlirDenseElementsAttrFloatGet(mlirRankedTensorTypeGet(0, NULL, f32, mlirAttributeGetNull()), 1, &a->f);
    } else if ((a = onnxFindAttr(n, "value_ints"))) {
      int64_t len = (int64_t)a->n_ints;
      v = mlirDenseElementsAttrInt64Get(mlirRankedTensorTypeGet(1, &len, i64, mlirAttributeGetNull()), len, a->ints);
    } else if ((a = onnxFindAttr(n, "value_floats"))) {
      int64_t len = (int64_t)a->n_floats;
      v = mlirDenseElementsAttrFloatGet(mlirRankedTensorTypeGet(1, &len, f32, mlirAttributeGetNull()), len, a->floats);
    } else {
      NODE_ERROR(x->im, x->loc, n, "needs a 'value', 'value_int', 'value_float', 'value_ints' or 'value_floats' attribute");
      return false;
    }
  }
  return !mlirAttributeIsNull(v) && onnxBindValue(x, onnxConstant(x->im, x->loc, v));
}

/* Cast: `to` is a TensorProto.DataType, or before opset 6 its name ("FLOAT"). */
static bool importCast(Node *x) {
  const Onnx__AttributeProto *to = onnxFindAttr(x->n, "to");
  char name[32] = "(missing 'to')";
  int32_t code = -1;
  if (to && to->type == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING) {
    snprintf(name, sizeof name, "'%.*s'", (int)(to->s.len < 28 ? to->s.len : 28), (const char *)to->s.data);
    char bare[32];
    snprintf(bare, sizeof bare, "%.*s", (int)(to->s.len < 31 ? to->s.len : 31), (const char *)to->s.data);
    const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value_by_name(&onnx__tensor_proto__data_type__descriptor, bare);
    if (v) code = v->value;
  } else if (to) {
    code = (int32_t)to->i;
    snprintf(name, sizeof name, "%s", onnxDTypeName(code));
  }
  StrataDType dt = code >= 0 ? onnxDType(code) : STRATA_DTYPE_INVALID;
  if (dt == STRATA_DTYPE_INVALID) {
    NODE_ERROR(x->im, x->loc, x->n, "cast target %s is not supported", name);
    return false;
  }
  return onnxBindValueAt(x, 0, onnxCast(x, x->in[0], strataDTypeToMlir(x->im->mc, dt)));
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
    onnxSetAttr(x, i == 1 ? "min" : "max", mlirFloatAttrDoubleGet(x->im->mc, mlirF64TypeGet(x->im->mc), v));
  }
  x->nIn = 1;
  return onnxDirect(x, 1);
}

MlirValue onnxSliceAxis(Node *x, MlirValue in, int64_t axis, int64_t start, int64_t end) {
  if (mlirValueIsNull(in)) return in;
  MlirValue ins[4] = {in, onnxI64Vector(x, &start, 1), onnxI64Vector(x, &end, 1), onnxI64Vector(x, &axis, 1)};
  int32_t seg[5] = {1, 1, 1, 1, 0};
  Attr attrs[1] = {{"operandSegmentSizes", mlirDenseI32ArrayGet(x->im->mc, 5, seg)}};
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.slice", ins, 4, 1, attrs, 1, (MlirType){NULL});
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

/* Split: one nn.slice per output (an IRDL variadic result group has one
 * type, so uneven splits cannot be one nn.split); sizes known only at run
 * time make one nn.split, whose results share the type with '?' along the
 * axis and whose lowering checks the sizes against the extent. */
static bool importSplit(Node *x) {
  if (x->nIn > 1 && isRuntime(x->in[1])) {
    x->nIn = 2;
    return onnxDirect(x, (int)x->n->n_output);
  }
  MlirValue in = x->in[0];
  int rank = 0;
  int64_t dims[STRATA_MAX_RANK], axis = 0, sizes[MAX_IO];
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "axis");
  if (a) axis = a->i;
  bool ranked = strataGetShape(mlirValueGetType(in), &rank, dims);
  if (axis < 0) axis += rank;
  int outs = (int)x->n->n_output, n = -1;
  if (!ranked || axis < 0 || axis >= rank || dims[axis] < 0) {
    NODE_ERROR(x->im, x->loc, x->n, "needs a static size along a valid axis");
    return false;
  }
  if (x->nIn > 1 && !mlirValueIsNull(x->in[1])) {
    if ((n = onnxInputInts(x, 1, "split", sizes, MAX_IO)) < 0) return false;
  } else if ((a = onnxFindAttr(x->n, "split"))) {
    n = (int)a->n_ints;
    for (int i = 0; i < n && i < MAX_IO; i++) sizes[i] = a->ints[i];
  } else { /* even: chunks of ceil(dim / outputs), the last ones smaller */
    int64_t chunk = dims[axis] / outs + (dims[axis] % outs != 0), at = 0;
    for (int i = 0; i < outs; i++) {
      sizes[i] = dims[axis] - at < chunk ? dims[axis] - at : chunk;
      at += sizes[i];
    }
    n = outs;
  }
  if (n != outs) {
    NODE_ERROR(x->im, x->loc, x->n, "has %d split sizes for %d outputs", n, outs);
    return false;
  }
  /* The sizes must tile the dim exactly: ONNX gives no meaning to others. */
  int64_t sum = 0;
  for (int i = 0; i < outs && sum >= 0; i++)
    if (sizes[i] < 0 || !strataCheckedAdd(sum, sizes[i], &sum)) sum = -1;
  if (sum != dims[axis]) {
    char list[256];
    size_t off = 0;
    list[0] = '\0';
    for (int i = 0; i < outs && off < sizeof list; i++)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s%lld", i ? ", " : "", (long long)sizes[i]);
    NODE_ERROR(x->im, x->loc, x->n, "split sizes [%s] do not add up to the size %lld of axis %lld", list,
               (long long)dims[axis], (long long)axis);
    return false;
  }
  int64_t start = 0;
  for (int i = 0; i < outs; i++) {
    MlirValue part = onnxSliceAxis(x, in, axis, start, start + sizes[i]);
    if (mlirValueIsNull(part) || !onnxBindOutput(x, (size_t)i, part)) return false;
    start += sizes[i];
  }
  return true;
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
  return onnxDirect(x, 1);
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
  return onnxDirect(x, 1);
}

/* ---- Dispatch ---- */

bool onnxImportNode(Importer *im, const Onnx__NodeProto *n, size_t index) {
  Node x = {.im = im, .n = n, .loc = nodeLoc(im, n, index)};
  bool training = n->domain && !strcmp(n->domain, ONNX_TRAINING_DOMAIN);
  if (n->domain && *n->domain && strcmp(n->domain, "ai.onnx") && !training) {
    NODE_ERROR(im, x.loc, n, "domain '%s' is not supported (only the default ONNX domain and '" ONNX_TRAINING_DOMAIN
               "')", n->domain);
    return false;
  }
  const char *t = onnxOpType(n);
  if (training && (!im->trainingOpset || (strcmp(t, "Adagrad") && strcmp(t, "Adam") && strcmp(t, "Momentum")))) {
    NODE_ERROR(im, x.loc, n, !im->trainingOpset ? "the model does not import the domain '%s'"
                             : "operator '%s' of the domain '%s' is not supported (Adagrad, Adam and Momentum are)",
               !im->trainingOpset ? n->domain : t, n->domain);
    return false;
  }
  if (!training && im->opset == -1) {
    NODE_ERROR(im, x.loc, n, "the model imports no opset of the default ONNX domain");
    return false;
  }
  if (n->n_input > MAX_IO || n->n_output > MAX_IO) {
    NODE_ERROR(im, x.loc, n, "too many inputs or outputs");
    return false;
  }
  if (n->n_output == 0) { /* every ONNX operator has at least one output */
    NODE_ERROR(im, x.loc, n, "has no outputs");
    return false;
  }
  for (size_t i = 0; i < n->n_input; i++) {
    if (!n->input[i] || !*n->input[i]) {
      x.in[i] = (MlirValue){NULL};
      continue;
    }
    x.in[i] = onnxLookup(im, n->input[i]);
    if (mlirValueIsNull(x.in[i])) {
      NODE_ERROR(im, x.loc, n, "input '%s' is not defined before this node", n->input[i]);
      return false;
    }
  }
  x.nIn = (int)n->n_input;
  if (training) return onnxImportTraining(&x);
  if (!strcmp(t, "Constant")) return importConstant(&x);
  if (!onnxCheckOpset(im, x.loc, n)) return false;
  if (!strcmp(t, "If")) return onnxImportIf(&x);
  if (!strcmp(t, "Loop")) return onnxImportLoop(&x);
  if (!strcmp(t, "Scan")) return onnxImportScan(&x);
  if (onnxIsRandom(t)) return onnxImportRandom(&x);
  bool known = nnName(t, x.nn, sizeof x.nn);
  /* Op types that import as an nn op of another name. */
  static const struct { const char *onnx, *nn; } kAliases[] = {
      {"Sum", "nn.add"}, {"Mean", "nn.add"}, {"Upsample", "nn.resize"}, {"Scatter", "nn.scatter_elements"}};
  for (size_t i = 0; i < sizeof kAliases / sizeof kAliases[0]; i++)
    if (!strcmp(t, kAliases[i].onnx)) {
      snprintf(x.nn, sizeof x.nn, "%s", kAliases[i].nn);
      known = true;
    }
  if (onnxIsComposite(t)) known = true, x.nn[0] = '\0';
  if (!known || (x.nn[0] && !strataContextLookupOpDef(im->ctx, mlirStringRefCreateFromCString(x.nn)))) {
    NODE_ERROR(im, x.loc, n, "operator '%s' is not supported by Strata (see docs/onnx.md)", t);
    return false;
  }
  for (size_t i = 0; i < n->n_attribute; i++) {
    const Onnx__AttributeProto *a = n->attribute[i];
    if (!a->name || !strcmp(a->name, "to") || (!strcmp(a->name, "training_mode") && !a->i)) continue;
    MlirAttribute v = onnxConvertAttr(im, x.loc, n, a);
    if (mlirAttributeIsNull(v)) return false;
    if (x.nAttrs < 32) x.attrs[x.nAttrs++] = (Attr){a->name, v};
  }
  /* Every supported operator requires its first input; the special cases
   * below read it directly. */
  if (x.nIn == 0 || mlirValueIsNull(x.in[0])) return absentInput(&x, 0, NULL, 0);
  bool handled = false;
  if (!onnxImportLegacy(&x, &handled)) return false;
  if (handled) return true;
  if (!strcmp(t, "Dropout")) {
    /* Training mode unless training_mode is absent or a constant false. */
    int64_t training = 0;
    if (x.nIn > 2 && !mlirValueIsNull(x.in[2]) && (onnxConstInts(x.in[2], &training, 1) != 1 || training))
      return onnxImportDropoutTraining(&x);
  }
  if (!strcmp(t, "BatchNormalization")) {
    const Onnx__AttributeProto *mode = onnxFindAttr(n, "training_mode");
    if (mode && mode->i) return onnxImportBatchNormTraining(&x);
  }
  if (!onnxImportComposite(&x, &handled)) return false;
  if (handled) return true;
  if (!onnxImportSignal(&x, &handled)) return false;
  if (handled) return true;
  if (!strcmp(t, "Cast")) return importCast(&x);
  if (!strcmp(t, "Clip")) return importClip(&x);
  if (!strcmp(t, "Split")) return importSplit(&x);
  if (!strcmp(t, "Concat") || !strcmp(t, "Max") || !strcmp(t, "Min") || !strcmp(t, "Sum") || !strcmp(t, "Mean"))
    return chain(&x, x.nn);
  if (!strcmp(t, "Pad")) return importPad(&x);
  if (!strcmp(t, "Resize")) return importResize(&x);
  if (!strcmp(t, "Squeeze") || !strcmp(t, "Unsqueeze") || !strncmp(t, "Reduce", 6)) {
    if (!inputToAttr(&x, 1, "axes")) return false;
  }
  if (!strcmp(t, "CumSum")) {
    int64_t axis;
    if (x.nIn < 2 || mlirValueIsNull(x.in[1])) return absentInput(&x, 1, "axis", 4);
    if (isRuntime(x.in[1])) return onnxDirect(&x, 1); /* picked at run time */
    int k = onnxInputInts(&x, 1, "axis", &axis, 1);
    if (k == 0) NODE_ERROR(im, x.loc, n, "input #1 ('axis') must hold one value");
    if (k != 1) return false;
    onnxSetAttr(&x, "axis", strataI64Attr(im->mc, axis));
    x.nIn = 1;
  }
  if (!strcmp(t, "Dropout")) {
    x.nIn = 1;
    if (!onnxNoExtraOutputs(&x, 1, "mask")) return false;
  }
  if (!strcmp(t, "MaxPool") && x.n->n_output > 1 && x.n->output[1] && *x.n->output[1]) {
    snprintf(x.nn, sizeof x.nn, "nn.max_pool_with_indices"); /* the Indices output is used */
    return onnxDirect(&x, 2);
  }
  if (!strcmp(t, "BatchNormalization") && !onnxNoExtraOutputs(&x, 1, "training statistics")) return false;
  if (!strcmp(t, "LayerNormalization") && !onnxNoExtraOutputs(&x, 1, "Mean/InvStdDev")) return false;
  if (!strcmp(t, "QLinearMatMul") && x.nIn > 8) {
    /* nn.qlinear_matmul's 9th operand (a bias) is Strata's, not ONNX's. */
    NODE_ERROR(im, x.loc, n, "takes 8 inputs, got %d", x.nIn);
    return false;
  }
  int results = !strcmp(t, "TopK") || !strcmp(t, "RNN") || !strcmp(t, "GRU") ? 2
                : !strcmp(t, "LSTM") ? 3
                : !strcmp(t, "Unique") ? 4 /* nn.unique has all four */
                : !strcmp(t, "DynamicQuantizeLinear") ? 3 : 1;
  return onnxDirect(&x, results);
}
