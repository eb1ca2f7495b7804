/* Helpers shared by the sparse transforms (sparse_xform.h). */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/nn.h"
#include "sparse_xform.h"

/* ---- Reading and writing a conv's weights ---- */

static bool isF32Tensor(MlirType t, int rank) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == rank &&
         mlirTypeIsAF32(mlirShapedTypeGetElementType(t));
}

bool sparsePassReadConv(MlirOperation op, SparseConv *c, char *why, size_t whySize) {
  memset(c, 0, sizeof *c);
  c->op = op;
  if (mlirOperationGetNumOperands(op) < 2 ||
      !isF32Tensor(mlirValueGetType(mlirOperationGetOperand(op, 0)), 4)) {
    snprintf(why, whySize, "its input is not a 4-D f32 tensor (an NCHW 2-D convolution)");
    return false;
  }
  MlirValue wv = mlirOperationGetOperand(op, 1);
  MlirAttribute value = sparseConstantValue(wv);
  if (mlirAttributeIsNull(value)) {
    snprintf(why, whySize, "its weights are not a constant (nn.constant or arith.constant)");
    return false;
  }
  if (!isF32Tensor(mlirValueGetType(wv), 4) || !mlirShapedTypeHasStaticShape(mlirValueGetType(wv))) {
    snprintf(why, whySize, "its weights are not a static 4-D f32 tensor");
    return false;
  }
  c->t = strataTensorFromAttr(value);
  if (!c->t || c->t->dtype != STRATA_DTYPE_F32 || c->t->rank != 4) {
    strataTensorDestroy(c->t);
    c->t = NULL;
    snprintf(why, whySize, "its weights' constant cannot be read as f32 values");
    return false;
  }
  c->w = c->t->data;
  c->M = c->t->dims[0], c->C = c->t->dims[1], c->kh = c->t->dims[2], c->kw = c->t->dims[3];
  if (!c->M || !c->C || !c->kh || !c->kw) { /* the sparse ops hold at least one filter and tap */
    snprintf(why, whySize, "its weights are empty (%lldx%lldx%lldx%lld)", (long long)c->M, (long long)c->C,
             (long long)c->kh, (long long)c->kw);
    sparsePassFreeConv(c);
    return false;
  }
  return true;
}

void sparsePassFreeConv(SparseConv *c) {
  strataTensorDestroy(c->t);
  c->t = NULL;
  c->w = NULL;
}

void sparsePassWriteWeights(StrataRewrite *rw, SparseConv *c, StrataOpList *dead) {
  MlirValue old = mlirOperationGetOperand(c->op, 1);
  MlirOperation def = mlirOpResultGetOwner(old);
  MlirType type = mlirValueGetType(old);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  char opName[64];
  snprintf(opName, sizeof opName, "%.*s", (int)name.length, name.data);
  MlirOperation copy = strataCreateOp(&rw->builder, opName, mlirOperationGetLocation(def),
                                      .results = STRATA_TYPES(type),
                                      .attrs = STRATA_ATTRS({"value", strataTensorToAttr(type, c->t)}));
  sparsePassNoteWeights(dead, c->op);
  mlirRewriterBaseStartOpModification(rw->rewriter, c->op);
  mlirOperationSetOperand(c->op, 1, strataResult(copy, 0));
  mlirRewriterBaseFinalizeOpModification(rw->rewriter, c->op);
}

void sparsePassNoteWeights(StrataOpList *l, MlirOperation op) {
  MlirValue w = mlirOperationGetOperand(op, 1);
  if (!mlirValueIsAOpResult(w)) return;
  MlirOperation def = mlirOpResultGetOwner(w);
  /* Out of memory only leaves a dead constant behind. */
  if (!strataOpListContains(l, def)) strataOpListAppend(l, def);
}

void sparsePassEraseDead(StrataOpList *l) {
  for (size_t i = 0; i < l->count; i++)
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(l->ops[i], 0))))
      mlirOperationDestroy(l->ops[i]);
  strataOpListDestroy(l);
}

/* ---- Windows ---- */

bool sparsePassConvWindow(MlirOperation op, SparseWindow *w, char *why, size_t whySize) {
  if (!strataOpIsNamed(op, "nn.conv")) {
    if (sparseWindowGet(op, w)) return true;
    snprintf(why, whySize, "its window attributes are malformed");
    return false;
  }
  MlirType xt = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType wt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  int64_t kernel[2] = {mlirShapedTypeGetDimSize(wt, 2), mlirShapedTypeGetDimSize(wt, 3)};
  int64_t in[2] = {mlirShapedTypeGetDimSize(xt, 2), mlirShapedTypeGetDimSize(xt, 3)}, out[2];
  NnWindow nw;
  const char *bad = NULL;
  if (!nn_get_window(op, 2, kernel, &nw)) {
    snprintf(why, whySize, "its window attributes are malformed");
    return false;
  }
  bool same = !strncmp(nw.autoPad, "SAME", 4);
  if (same && (in[0] < 0 || in[1] < 0)) {
    snprintf(why, whySize, "auto_pad=%s needs the input's spatial dims to write out the pads", nw.autoPad);
    return false;
  }
  if (!nn_infer_window_output(&nw, in, out, &bad)) { /* resolves auto_pad into nw.pads */
    snprintf(why, whySize, "%s", bad);
    return false;
  }
  for (int i = 0; i < 2; i++) {
    w->strides[i] = nw.strides[i];
    w->dilations[i] = nw.dilations[i];
    w->kernel[i] = nw.kernel[i];
  }
  for (int i = 0; i < 4; i++) w->pads[i] = nw.pads[i]; /* [top, left, bottom, right] both */
  w->group = nw.group;
  return true;
}

MlirAttribute sparsePassI64Array(MlirContext ctx, const int64_t *v, int64_t n) {
  return mlirDenseI64ArrayGet(ctx, (intptr_t)n, v);
}

void sparsePassWindowAttrs(MlirContext ctx, const SparseWindow *w, StrataNamedAttr out[4]) {
  out[0] = (StrataNamedAttr){"strides", sparsePassI64Array(ctx, w->strides, 2)};
  out[1] = (StrataNamedAttr){"pads", sparsePassI64Array(ctx, w->pads, 4)};
  out[2] = (StrataNamedAttr){"dilations", sparsePassI64Array(ctx, w->dilations, 2)};
  out[3] = (StrataNamedAttr){"group", strataI64Attr(ctx, w->group)};
}

/* ---- Pattern sets ---- */

int sparsePassMaximalSupports(const float *w, int64_t numKernels, int64_t *masks) {
  bool present[512] = {false};
  for (int64_t k = 0; k < numKernels; k++) present[sparseSupport(w + k * SPARSE_KERNEL)] = true;
  int n = 0;
  for (int64_t s = 1; s < 512; s++) {
    if (!present[s]) continue;
    bool covered = false;
    for (int64_t t = 1; t < 512 && !covered; t++) covered = present[t] && t != s && (s & ~t) == 0;
    if (!covered) masks[n++] = s;
  }
  return n;
}

bool sparsePassParseMasks(const char *text, int64_t *masks, int64_t *n, int64_t max, char *why,
                          size_t whySize) {
  *n = 0;
  const char *p = text;
  while (*p) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    char tok[32];
    while (len && isspace((unsigned char)*p)) p++, len--;
    while (len && isspace((unsigned char)p[len - 1])) len--;
    if (len == 0 || len >= sizeof tok) {
      snprintf(why, whySize, "entry %lld is %s", (long long)*n, len ? "too long" : "empty");
      return false;
    }
    memcpy(tok, p, len);
    tok[len] = 0;
    bool hex = len > 2 && tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
    char *stop;
    errno = 0;
    long long v = strtoll(hex ? tok + 2 : tok, &stop, hex ? 16 : 10);
    if (*stop || errno || (!hex && !isdigit((unsigned char)tok[0]) && tok[0] != '-')) {
      snprintf(why, whySize, "'%s' is not an integer (masks are decimal or 0x hex)", tok);
      return false;
    }
    if (*n == max) {
      snprintf(why, whySize, "more than %lld masks", (long long)max);
      return false;
    }
    masks[(*n)++] = v;
    if (!end) break;
    p = end + 1;
    if (!*p) {
      snprintf(why, whySize, "entry %lld is empty", (long long)*n);
      return false;
    }
  }
  return true;
}

int64_t *sparsePassModulePatterns(MlirOperation module, int64_t *n) {
  return sparseI64Array(module, "sparse.patterns", n);
}

void sparsePassSetModulePatterns(MlirOperation module, const int64_t *masks, int64_t n) {
  mlirOperationSetAttributeByName(module, mlirStringRefCreateFromCString("sparse.patterns"),
                                  sparsePassI64Array(mlirOperationGetContext(module), masks, n));
}

/* ---- Walking and reporting ---- */

typedef struct {
  const char *const *names;
  size_t numNames;
  StrataOpList *out;
  bool ok;
} Collect;

static MlirWalkResult collectOp(MlirOperation op, void *user) {
  Collect *c = user;
  for (size_t i = 0; i < c->numNames; i++)
    if (strataOpIsNamed(op, c->names[i])) {
      if (!strataOpListAppend(c->out, op)) {
        c->ok = false;
        return MlirWalkResultInterrupt;
      }
      break;
    }
  return MlirWalkResultAdvance;
}

bool sparsePassCollect(MlirOperation root, const char *const *names, size_t numNames,
                       StrataOpList *out) {
  Collect c = {names, numNames, out, true};
  mlirOperationWalk(root, collectOp, &c, MlirWalkPreOrder);
  return c.ok;
}

void sparsePassRemark(MlirOperation op, const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(op), "%s", msg);
}

void sparsePassApply(MlirOperation root, const char *const *names, size_t numNames,
                     StrataMatchAndRewriteFn fn, void *user) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  for (size_t i = 0; i < numNames; i++) strataPatternSetAdd(set, names[i], 1, fn, user);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
}
