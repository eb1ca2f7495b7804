/* ONNX graph -> one func.func of nn ops: the value map, tensors and
 * attributes, graph inputs, initializers and outputs. Each node becomes nn
 * op(s) in onnx_node.c, created with placeholder result types that nn shape
 * inference then fills in, so every imported op is verified as it is built. */
#include <ctype.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "grow.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/nn.h"
#include "strata/pass.h"
#include "strata/support.h"

/* ---- Value map ---- */

/* The innermost binding of `name` from binding #from on. */
static const Binding *findBinding(Importer *im, const char *name, size_t from) {
  for (size_t i = im->numValues; i-- > from;)
    if (!strcmp(im->values[i].name, name)) return &im->values[i];
  return NULL;
}

bool onnxBind(Importer *im, MlirLocation loc, const char *name, MlirValue v, const char *kind) {
  const Binding *old = findBinding(im, name, im->scopeStart);
  if (old) {
    strataEmitError(loc, "%s '%s' is already defined as %s %s (ONNX graphs are SSA: one definition per name)",
                    kind, name, strchr("aeiou", old->kind[0]) ? "an" : "a", old->kind);
    return false;
  }
  char *copy = strdup(name);
  Binding *p = copy ? strataGrow(im->values, &im->capValues, im->numValues + 1, sizeof *p) : NULL;
  if (!p) {
    free(copy);
    strataEmitError(loc, "out of memory");
    return false;
  }
  im->values = p;
  if (!copy) {
    strataEmitError(loc, "out of memory");
    return false;
  }
  im->values[im->numValues++] = (Binding){copy, v, kind};
  return true;
}

MlirValue onnxLookup(Importer *im, const char *name) {
  const Binding *b = findBinding(im, name, 0);
  return b ? b->value : (MlirValue){NULL};
}

size_t onnxScopePush(Importer *im) {
  size_t saved = im->scopeStart;
  im->scopeStart = im->numValues;
  return saved;
}

void onnxScopePop(Importer *im, size_t saved) {
  while (im->numValues > im->scopeStart) free(im->values[--im->numValues].name);
  im->scopeStart = saved;
}

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
  /* 64-byte aligned, whole cache lines: compiled code reads the weights
   * where they are (strataResourceData) */
  size_t bytes = strataTensorNumBytes(t);
  void *copy = aligned_alloc(64, (bytes + 63) / 64 * 64 + (bytes ? 0 : 64));
  if (!copy) return mlirAttributeGetNull();
  memcpy(copy, t->data, bytes);
  char key[128];
  size_t k = 0;
  for (const char *p = name && *name ? name : "weight"; *p && k + 1 < sizeof key; p++)
    key[k++] = isalnum((unsigned char)*p) ? *p : '_';
  key[k] = '\0';
  MlirAttribute a = strataResourceAttrGet(im->ctx, type, key, copy, bytes, 64, freeBlob, NULL);
  if (mlirAttributeIsNull(a)) free(copy);
  return a;
}

MlirValue onnxConstant(Importer *im, MlirLocation loc, MlirAttribute value) {
  MlirOperation op = strataCreateOp(&im->b, "nn.constant", loc, .results = STRATA_TYPES(mlirAttributeGetType(value)),
                                    .attrs = STRATA_ATTRS({"value", value}));
  return strataResult(op, 0);
}

const Onnx__AttributeProto *onnxFindAttr(const Onnx__NodeProto *n, const char *name) {
  for (size_t i = 0; i < n->n_attribute; i++)
    if (n->attribute[i]->name && !strcmp(n->attribute[i]->name, name)) return n->attribute[i];
  return NULL;
}

MlirAttribute onnxConvertAttr(Importer *im, MlirLocation loc, const Onnx__NodeProto *n,
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
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS: { /* RNN activations */
    MlirAttribute names[64];
    if (a->n_strings > 64) {
      NODE_ERROR(im, loc, n, "attribute '%s' has more than 64 strings", a->name);
      return mlirAttributeGetNull();
    }
    for (size_t i = 0; i < a->n_strings; i++)
      names[i] = mlirStringAttrGet(im->mc, mlirStringRefCreate((const char *)a->strings[i].data, a->strings[i].len));
    return mlirArrayAttrGet(im->mc, (intptr_t)a->n_strings, names);
  }
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR: {
    char err[256];
    StrataTensor *t = a->t ? onnxReadTensor(a->t, im->baseDir, err, sizeof err) : NULL;
    im->externalTensors += a->t && onnxIsExternal(a->t);
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

/* ---- Graph ---- */

MlirType onnxValueInfoType(Importer *im, const Onnx__ValueInfoProto *vi, MlirAttribute *dimNames, char *err,
                           size_t errSize) {
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
  int64_t count;
  if (!strataShapeNumElements(dims, (int)sh->n_dim, &count)) {
    snprintf(err, errSize, "the shape is too large (its element count overflows int64)");
    return (MlirType){NULL};
  }
  if (dimNames) *dimNames = symbolic ? mlirArrayAttrGet(im->mc, (intptr_t)sh->n_dim, names) : mlirAttributeGetNull();
  return strataTensorType(strataDTypeToMlir(im->mc, dt), (int)sh->n_dim, dims);
}

bool onnxImportGraphBody(Importer *im, const Onnx__GraphProto *g) {
  char err[256];
  for (size_t i = 0; i < g->n_initializer; i++) {
    const Onnx__TensorProto *t = g->initializer[i];
    MlirLocation loc = mlirLocationNameGet(im->mc, mlirStringRefCreateFromCString(t->name ? t->name : "initializer"), im->fileLoc);
    StrataTensor *tensor = onnxReadTensor(t, im->baseDir, err, sizeof err);
    im->externalTensors += onnxIsExternal(t);
    if (!tensor) {
      strataEmitError(loc, "initializer '%s': %s", t->name ? t->name : "", err);
      return false;
    }
    MlirAttribute a = tensorAttr(im, tensor, t->name);
    strataTensorDestroy(tensor);
    if (mlirAttributeIsNull(a) || !onnxBind(im, loc, t->name ? t->name : "", onnxConstant(im, loc, a), "initializer"))
      return false;
  }
  for (size_t i = 0; i < g->n_node; i++)
    if (!onnxImportNode(im, g->node[i], i)) return false;
  return true;
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
                 NULL, 0, 0, 0, 0, {{NULL}, {NULL}, {NULL}, {NULL}}, fileLoc, 0, 0};
  for (size_t i = 0; i < model->n_opset_import; i++) {
    const Onnx__OperatorSetIdProto *o = model->opset_import[i];
    if (!o->domain || !*o->domain || !strcmp(o->domain, "ai.onnx")) im.opset = o->version;
    else if (!strcmp(o->domain, ONNX_TRAINING_DOMAIN)) im.trainingOpset = o->version;
  }
  MlirModule module = {NULL};
  /* the graph's inputs and outputs (any number: calibration and debugging
   * models list every activation), on the heap */
  MlirType *inTypes = NULL, *outTypes = NULL;
  MlirAttribute *dimNames = NULL;
  const char **inNames = NULL;
  MlirValue *outs = NULL;
  if (im.trainingOpset && im.trainingOpset != 1) {
    strataEmitError(fileLoc, "opset %lld of the domain '" ONNX_TRAINING_DOMAIN "' is not supported (supported: 1)",
                    (long long)im.trainingOpset);
    goto done;
  }
  /* A model of the training domain only (its optimizers) has no default
   * opset; a default-domain node in it is an error at the node. */
  if (im.opset == -1 && !im.trainingOpset) {
    char list[256] = "";
    size_t off = 0;
    for (size_t i = 0; i < model->n_opset_import && off < sizeof list; i++)
      off += (size_t)snprintf(list + off, sizeof list - off, "%s'%s' %lld", i ? ", " : "",
                              model->opset_import[i]->domain ? model->opset_import[i]->domain : "",
                              (long long)model->opset_import[i]->version);
    strataEmitError(fileLoc, "the model imports no opset of the default ONNX domain (its opset_import: %s)",
                    off ? list : "empty");
    goto done;
  }
  if (im.opset != -1 && (im.opset < STRATA_ONNX_MIN_OPSET || im.opset > STRATA_ONNX_MAX_OPSET)) {
    strataEmitError(fileLoc, "opset %lld of the default ONNX domain is not supported (supported: %d to %d)",
                    (long long)im.opset, STRATA_ONNX_MIN_OPSET, STRATA_ONNX_MAX_OPSET);
    goto done;
  }
  const Onnx__GraphProto *g = model->graph;
  /* If and Loop build upstream ops (onnx_control.c): their dialects must
   * be loaded before ops of them are created. */
  static const char *const kUpstream[] = {"arith", "scf", "tensor"};
  for (size_t i = 0; i < sizeof kUpstream / sizeof kUpstream[0]; i++)
    mlirContextGetOrLoadDialect(mc, mlirStringRefCreateFromCString(kUpstream[i]));
  module = mlirModuleCreateEmpty(fileLoc);
  StrataBuilder top = strataBuilderAtEnd(mc, mlirModuleGetBody(module));
  size_t nIo = (g->n_input > g->n_output ? g->n_input : g->n_output) + 1;
  inTypes = malloc(nIo * sizeof *inTypes), outTypes = malloc(nIo * sizeof *outTypes);
  dimNames = malloc(nIo * sizeof *dimNames), inNames = malloc(nIo * sizeof *inNames), outs = malloc(nIo * sizeof *outs);
  if (!inTypes || !outTypes || !dimNames || !inNames || !outs || g->n_input > INT_MAX) {
    strataEmitError(fileLoc, "out of memory for the graph's %zu inputs and %zu outputs", g->n_input, g->n_output);
    goto fail;
  }
  int nIn = 0;
  char err[256];
  for (size_t i = 0; i < g->n_input; i++) {
    if (!g->input[i]->name || isInitializer(g, g->input[i]->name)) continue;
    inTypes[nIn] = onnxValueInfoType(&im, g->input[i], &dimNames[nIn], err, sizeof err);
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
    if (!onnxBind(&im, fileLoc, inNames[i], mlirBlockGetArgument(body, i), "graph input")) goto fail;
    if (!mlirAttributeIsNull(dimNames[i]))
      mlirFuncSetArgAttr(func, i, mlirStringRefCreateFromCString("onnx.dim_params"), dimNames[i]);
    /* the graph input's name: what strata-run --input-shape NAME=... names */
    if (inNames[i])
      mlirFuncSetArgAttr(func, i, mlirStringRefCreateFromCString("onnx.name"), strataStrAttr(mc, inNames[i]));
  }
  if (!onnxImportGraphBody(&im, g)) goto fail;
  for (size_t i = 0; i < g->n_output; i++) {
    outs[i] = g->output[i]->name ? onnxLookup(&im, g->output[i]->name) : (MlirValue){NULL};
    if (mlirValueIsNull(outs[i])) {
      strataEmitError(fileLoc, "graph output '%s' is not produced by any node", g->output[i]->name ? g->output[i]->name : "");
      goto fail;
    }
    outTypes[i] = mlirValueGetType(outs[i]);
  }
  MlirOperation ret = strataCreateOp(&im.b, "func.return", fileLoc, .operands = {outs, (intptr_t)g->n_output});
  mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("function_type"),
                                  mlirTypeAttrGet(mlirFunctionTypeGet(mc, nIn, inTypes, (intptr_t)g->n_output, outTypes)));
  /* the graph outputs' names, as the inputs' (strataSessionGetName) */
  for (size_t i = 0; i < g->n_output; i++)
    mlirFuncSetResultAttr(func, (intptr_t)i, mlirStringRefCreateFromCString("onnx.name"), strataStrAttr(mc, g->output[i]->name));
  /* Fold shape computations (exporters emit many) so shapes become static
   * where they can, then give the function the tightened result types: it is
   * ours, nobody calls it yet. A DequantizeLinear of constant weights stays
   * (the compile pipeline's nn-fold folds it): nn-qdq-to-qlinear, run before
   * compiling, reads the int8 weights under it. */
  if (mlirLogicalResultIsFailure(
          strataRunPipeline(ctx, mlirModuleGetOperation(module), "func.func(nn-fold{keep-dequantize=true})")))
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
  if (opts && opts->externalTensors) *opts->externalTensors = im.externalTensors;
  goto done;
fail:
  mlirModuleDestroy(module);
  module = (MlirModule){NULL};
done:
  free(inTypes), free(outTypes), free(dimNames), free(inNames), free(outs);
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
    char *grown = strataGrow(buf, &cap, cap + 1, 1);
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
