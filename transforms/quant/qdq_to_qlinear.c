/* --nn-qdq-to-qlinear: the integer computation ONNX Runtime runs for a QDQ
 * model. Opt-in (strata-run --quantized int8): without it a QDQ model runs
 * in float exactly as written. Each
 *   q = QuantizeLinear(F(DequantizeLinear(xq), DequantizeLinear(wq)[, bias]))
 * with F a Conv, a MatMul, a Gemm (transA = 0, alpha = beta = 1), a MatMul
 * followed by an Add of a bias vector, and optionally a Relu or a Clip
 * before the QuantizeLinear, becomes
 *   q = QLinearConv / QLinearMatMul(xq, x_scale, x_zp, wq, w_scale, w_zp,
 *                                   y_scale, y_zp[, bias_i32])
 *   [q = max(q, y_zp)]              (the Relu: quantization is monotone and
 *                                    maps 0 to y_zp, so this is exact)
 *   [q = clip(q, Q(min), Q(max))]   (the Clip, where Q(min) and Q(max) are
 *                                    exact: qdq_clamp.c)
 * A Clip or Relu between a DequantizeLinear and a QuantizeLinear of the
 * same 8-bit type becomes an integer clip where that is the float chain's
 * value at every input (qdq_clamp.c; e.g. the same scale and zero point).
 * A residual DequantizeLinear x2 -> Add [-> Relu|Clip] -> QuantizeLinear
 * becomes a lookup of a table of the chain's 65536 values (qdq_add.c).
 * The Conv/MatMul/Gemm rewrite applies
 * when x's parameters are per tensor (i8/ui8 with a zero point, f32
 * scales), w's per tensor or per output channel (Conv: axis 0; MatMul's
 * 2-D b: axis 1; Gemm's b along N), y's per tensor, and F's result (and the
 * Relu's, the Add's) has no other user. The bias: a DequantizeLinear of an
 * i32 tensor with zero point 0 and scale x_scale * w_scale (f32, exactly,
 * as quantizers write it) is used as it is; a float constant is quantized
 * here, round_half_even(b / (x_scale * w_scale)), as quantizers do.
 *
 * The result can differ from the float graph by one quantization step: the
 * float graph rounds once, at the QuantizeLinear, after float products and
 * sums (and the float bias); the integer op sums exactly in i32 and rounds
 * acc * x_scale * w_scale / y_scale once (docs/passes.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "nn_quant.h"
#include "qdq_clamp.h"

#define NO_MATCH mlirLogicalResultFailure()

enum { MAX_ATTRS = 16 }; /* a conv's attributes the integer op copies */

static MlirOperation producer(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

static bool isOp(MlirOperation op, const char *name) { return !mlirOperationIsNull(op) && strataOpIsNamed(op, name); }

static bool soleUse(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

static StrataDType dtypeOf(MlirValue v) {
  return strataDTypeFromMlir(mlirShapedTypeGetElementType(mlirValueGetType(v)));
}

static int64_t numElements(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) ? nnNumElements(t) : -1;
}

/* A DequantizeLinear or QuantizeLinear's parameters. */
typedef struct {
  MlirValue q, scale, zp; /* q: the quantized tensor (DQ's input, Q's output) */
  int64_t count, axis;    /* scale values; axis normalized (per axis only) */
} QParams;

/* op is `name` with an int8/uint8 side, f32 scales and a zero point. */
static bool qparams(MlirOperation op, const char *name, QParams *p) {
  if (!isOp(op, name) || mlirOperationGetNumOperands(op) != 3) return false;
  bool dq = !strcmp(name, "nn.dequantize_linear");
  p->q = dq ? mlirOperationGetOperand(op, 0) : mlirOperationGetResult(op, 0);
  p->scale = mlirOperationGetOperand(op, 1);
  p->zp = mlirOperationGetOperand(op, 2);
  p->count = numElements(p->scale);
  StrataDType t = dtypeOf(p->q);
  if ((t != STRATA_DTYPE_I8 && t != STRATA_DTYPE_U8) || dtypeOf(p->scale) != STRATA_DTYPE_F32 || p->count < 1 ||
      !nnAttrInt(op, "axis", 1, &p->axis))
    return false;
  int rank = (int)mlirShapedTypeGetRank(mlirValueGetType(p->q));
  if (p->axis < 0) p->axis += rank;
  return true;
}

/* The DequantizeLinear defining v, per tensor or (axis >= 0) along `axis`. */
static bool dequantized(MlirValue v, int64_t axis, QParams *p) {
  return qparams(producer(v), "nn.dequantize_linear", p) && (p->count == 1 || (axis >= 0 && p->axis == axis));
}

/* The values of v, an nn.constant of n elements (dense or a resource: the
 * importer's large constants), in a malloc'd array; NULL if it is not. */
static double *constValues(MlirValue v, int64_t n) {
  MlirOperation c = producer(v);
  if (!isOp(c, "nn.constant") || numElements(v) != n) return NULL;
  StrataTensor *t = strataTensorFromAttr(strataOpAttr(c, "value"));
  double *d = t ? malloc((size_t)n * sizeof *d) : NULL;
  for (int64_t i = 0; d && i < n; i++) d[i] = strataTensorGetDouble(t, i);
  strataTensorDestroy(t);
  return d;
}

/* The value of type tt (2-D, 8-bit) of w's transpose, w an nn.constant
 * (dense or a resource); null otherwise. */
static MlirAttribute transposedConstant(MlirValue w, MlirType tt) {
  MlirOperation c = producer(w);
  MlirAttribute none = {NULL};
  StrataTensor *t = isOp(c, "nn.constant") ? strataTensorFromAttr(strataOpAttr(c, "value")) : NULL;
  StrataTensor *r = t && t->rank == 2 ? strataTensorCreateForType(tt) : NULL;
  if (!r || (r->dtype != STRATA_DTYPE_I8 && r->dtype != STRATA_DTYPE_U8) || r->dtype != t->dtype) {
    strataTensorDestroy(r);
    strataTensorDestroy(t);
    return none;
  }
  const uint8_t *src = t->data;
  uint8_t *dst = r->data;
  for (int64_t i = 0; i < t->dims[0]; i++)
    for (int64_t j = 0; j < t->dims[1]; j++) dst[j * t->dims[0] + i] = src[i * t->dims[1] + j];
  MlirAttribute a = strataTensorToAttr(tt, r);
  strataTensorDestroy(r);
  strataTensorDestroy(t);
  return a;
}

/* The i32 bias of the integer op from F's bias b (n values, one per output
 * channel or column), given x's and w's scales; null if it is neither a
 * DequantizeLinear of i32 with scale x_scale * w_scale and zero point 0 nor
 * a float constant (module-level constants with constant scales). */
static MlirValue integerBias(StrataBuilder *b, MlirLocation loc, MlirValue bias, const QParams *x, const QParams *w,
                             int64_t n) {
  MlirValue none = {NULL};
  if (numElements(bias) != n || mlirShapedTypeGetRank(mlirValueGetType(bias)) != 1) return none;
  double *xs = constValues(x->scale, 1), *ws = constValues(w->scale, w->count), *bv = NULL, *bs = NULL,
         *bz = NULL;
  MlirValue out = none;
  MlirOperation dq = producer(bias);
  if (!xs || !ws) goto done;
  if (isOp(dq, "nn.dequantize_linear")) {
    MlirValue q = mlirOperationGetOperand(dq, 0);
    intptr_t k = mlirOperationGetNumOperands(dq);
    int64_t sc = numElements(mlirOperationGetOperand(dq, 1));
    if (dtypeOf(q) != STRATA_DTYPE_I32 || (sc != 1 && sc != n) ||
        !(bs = constValues(mlirOperationGetOperand(dq, 1), sc)) ||
        (k == 3 && !(bz = constValues(mlirOperationGetOperand(dq, 2), sc))))
      goto done;
    for (int64_t i = 0; i < n; i++) {
      float want = (float)xs[0] * (float)ws[w->count == 1 ? 0 : i];
      if ((float)bs[sc == 1 ? 0 : i] != want || (bz && bz[sc == 1 ? 0 : i] != 0)) goto done;
    }
    out = q;
  } else if ((bv = constValues(bias, n))) {
    int32_t *qv = malloc((size_t)n * sizeof *qv);
    if (!qv) goto done;
    for (int64_t i = 0; i < n; i++) {
      double v = nearbyint(bv[i] / (double)((float)xs[0] * (float)ws[w->count == 1 ? 0 : i]));
      qv[i] = isnan(v) ? 0 : (int32_t)fmin(fmax(v, -2147483648.0), 2147483647.0);
    }
    MlirType t = strataTensorType(mlirIntegerTypeGet(b->ctx, 32), 1, &n);
    MlirOperation c = strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrInt32Get(t, n, qv)}));
    free(qv);
    out = strataResult(c, 0);
  }
done:
  free(xs);
  free(ws);
  free(bv);
  free(bs);
  free(bz);
  return out;
}

/* What F is: the integer op's operands and attributes. */
typedef struct {
  const char *name;     /* nn.qlinear_conv or nn.qlinear_matmul */
  MlirOperation f;      /* the float op whose attributes a conv keeps */
  QParams x, w;
  MlirValue bias;       /* the integer op's i32 bias (null: none) */
  bool transB;          /* Gemm's b is [N, K]: the integer op reads its transpose */
  MlirValue biasFloat;  /* F's bias operand (null: none) */
  int64_t n;            /* output channels or columns */
} Match;

static int64_t dim(MlirValue v, int d) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), d); }
static int rankOf(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }

static bool matchConv(MlirOperation f, Match *m) {
  m->name = "nn.qlinear_conv";
  intptr_t k = mlirOperationGetNumOperands(f);
  if (mlirOperationGetNumAttributes(f) > MAX_ATTRS) return false;
  if (!dequantized(mlirOperationGetOperand(f, 0), -1, &m->x) || !dequantized(mlirOperationGetOperand(f, 1), 0, &m->w))
    return false;
  m->n = dim(m->w.q, 0);
  m->biasFloat = k == 3 ? mlirOperationGetOperand(f, 2) : (MlirValue){NULL};
  return m->n > 0;
}

/* MatMul (2-D weights) or Gemm. transB: b is [N, K] (per-channel axis 0). */
static bool matchMatmul(MlirOperation f, bool gemm, Match *m) {
  m->name = "nn.qlinear_matmul";
  int64_t ta = 0, tb = 0;
  double alpha = 1, beta = 1;
  if (gemm && (!nnAttrInt(f, "transA", 0, &ta) || !nnAttrInt(f, "transB", 0, &tb) ||
               !nnAttrFloat(f, "alpha", 1, &alpha) || !nnAttrFloat(f, "beta", 1, &beta) || ta || alpha != 1 ||
               beta != 1))
    return false;
  MlirValue bw = mlirOperationGetOperand(f, 1);
  if (!dequantized(mlirOperationGetOperand(f, 0), -1, &m->x) || !dequantized(bw, tb ? 0 : 1, &m->w) ||
      rankOf(m->w.q) != 2)
    return false;
  m->n = dim(m->w.q, tb ? 0 : 1);
  m->biasFloat = gemm && mlirOperationGetNumOperands(f) == 3 ? mlirOperationGetOperand(f, 2) : (MlirValue){NULL};
  m->transB = tb != 0;
  return m->n > 0;
}

/* F (through an optional bias Add of a MatMul, and an optional Relu or
 * Clip) for QuantizeLinear q; the ops to erase in dead[] (users first). */
static bool matchProducer(MlirOperation q, Match *m, MlirOperation *relu, MlirOperation *clip, MlirOperation *dead,
                          int *nDead) {
  MlirOperation f = producer(mlirOperationGetOperand(q, 0));
  *relu = *clip = (MlirOperation){NULL};
  *nDead = 0;
  if ((isOp(f, "nn.relu") || isOp(f, "nn.clip")) && soleUse(mlirOperationGetResult(f, 0))) {
    *(isOp(f, "nn.relu") ? relu : clip) = dead[(*nDead)++] = f;
    f = producer(mlirOperationGetOperand(f, 0));
  }
  MlirValue addBias = {NULL};
  if (isOp(f, "nn.add") && soleUse(mlirOperationGetResult(f, 0))) {
    for (int i = 0; i < 2 && !addBias.ptr; i++)
      if (isOp(producer(mlirOperationGetOperand(f, i)), "nn.matmul")) {
        addBias = mlirOperationGetOperand(f, 1 - i);
        dead[(*nDead)++] = f;
        f = producer(mlirOperationGetOperand(f, i));
      }
    if (!addBias.ptr) return false;
  }
  if (mlirOperationIsNull(f) || !soleUse(mlirOperationGetResult(f, 0))) return false;
  dead[(*nDead)++] = f;
  m->f = f;
  bool ok = isOp(f, "nn.conv")     ? matchConv(f, m)
            : isOp(f, "nn.matmul") ? matchMatmul(f, false, m)
            : isOp(f, "nn.gemm")   ? matchMatmul(f, true, m)
                                   : false;
  if (ok && addBias.ptr) m->biasFloat = addBias;
  return ok;
}

static MlirLogicalResult qdqToQLinear(StrataRewrite *rw, MlirOperation q, void *user) {
  (void)user;
  QParams y;
  Match m = {0};
  MlirOperation relu, clip, dead[4];
  int nDead;
  float lo, hi;
  int32_t qlo = 0, qhi = 0;
  if (!qparams(q, "nn.quantize_linear", &y) || y.count != 1 ||
      dtypeOf(mlirOperationGetOperand(q, 0)) != STRATA_DTYPE_F32)
    return NO_MATCH;
  MlirLocation loc = mlirOperationGetLocation(q);
  StrataBuilder *b = &rw->builder;
  if (!matchProducer(q, &m, &relu, &clip, dead, &nDead) ||
      (!mlirOperationIsNull(clip) && !(strataQdqActivationBounds(clip, &lo, &hi) &&
                                       strataQdqClampBounds(q, lo, hi, &qlo, &qhi))) ||
      (m.biasFloat.ptr && !(m.bias = integerBias(b, loc, m.biasFloat, &m.x, &m.w, m.n)).ptr))
    return NO_MATCH;
  MlirValue wq = m.w.q;
  if (m.transB) {
    /* B as [K, N]: the constant weights transposed here (the integer
     * kernels cache a constant's packed form; a transpose computed at run
     * time would be packed again at every call), else a transpose. */
    int64_t dims[2] = {dim(wq, 1), dim(wq, 0)}, perm[2] = {1, 0};
    MlirType tt = strataTensorType(mlirShapedTypeGetElementType(mlirValueGetType(wq)), 2, dims);
    MlirAttribute value = transposedConstant(wq, tt);
    MlirOperation tr = !mlirAttributeIsNull(value)
                           ? strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(tt),
                                            .attrs = STRATA_ATTRS({"value", value}))
                           : strataCreateOp(b, "nn.transpose", loc, .operands = STRATA_VALUES(wq),
                                            .results = STRATA_TYPES(tt),
                                            .attrs = STRATA_ATTRS({"perm", mlirDenseI64ArrayGet(b->ctx, 2, perm)}));
    wq = strataResult(tr, 0);
  }
  MlirValue ops[9] = {m.x.q, m.x.scale, m.x.zp, wq, m.w.scale, m.w.zp, y.scale, y.zp, m.bias};
  MlirType t = mlirValueGetType(y.q);
  /* A conv keeps its window attributes (pads, strides, group, ...). */
  StrataNamedAttr attrs[MAX_ATTRS];
  char names[MAX_ATTRS][64];
  intptr_t na = isOp(m.f, "nn.conv") ? mlirOperationGetNumAttributes(m.f) : 0;
  for (intptr_t i = 0; i < na; i++) {
    MlirNamedAttribute a = mlirOperationGetAttribute(m.f, i);
    MlirStringRef nm = mlirIdentifierStr(a.name);
    snprintf(names[i], sizeof names[i], "%.*s", (int)nm.length, nm.data);
    attrs[i] = (StrataNamedAttr){names[i], a.attribute};
  }
  MlirOperation ql = strataCreateOp(b, m.name, loc, .operands = {ops, m.bias.ptr ? 9 : 8},
                                    .results = STRATA_TYPES(t), .attrs = {attrs, na});
  MlirValue out = strataResult(ql, 0);
  if (!mlirOperationIsNull(relu)) {
    MlirOperation mx = strataCreateOp(b, "nn.max", loc, .operands = STRATA_VALUES(out, y.zp), .results = STRATA_TYPES(t));
    out = strataResult(mx, 0);
  }
  if (!mlirOperationIsNull(clip)) out = strataQdqBuildClamp(b, loc, out, qlo, qhi);
  strataReplaceOp(rw, q, STRATA_VALUES(out));
  for (int i = 0; i < nDead; i++) strataEraseOp(rw, dead[i]);
  return mlirLogicalResultSuccess();
}

static void runQdqToQLinear(StrataPassRun *run, MlirOperation root) {
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "nn.quantize_linear", 1, qdqToQLinear, NULL);
  strataPatternSetAdd(set, "nn.quantize_linear", 1, strataQdqClampRewrite, NULL);
  strataPatternSetAdd(set, "nn.quantize_linear", 1, strataQdqAddRewrite, NULL);
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) strataPassSignalFailure(run);
  strataPatternSetDestroy(set);
}

const StrataPassDef strataNnQdqToQLinearPass = {
    .name = "nn-qdq-to-qlinear",
    .summary = "Rewrite DequantizeLinear -> Conv/MatMul/Gemm[/Add bias][/Relu|Clip] -> QuantizeLinear into "
               "QLinearConv/QLinearMatMul on the int8/uint8 tensors (ONNX Runtime's integer computation of a QDQ "
               "model; may differ from the float graph by one quantization step), and an exact DequantizeLinear "
               "-> Relu|Clip -> QuantizeLinear into an integer clip, and DequantizeLinear x2 -> Add [-> Relu|Clip] -> "
               "QuantizeLinear into a lookup of the chain's values (exact)",
    .anchor = "func.func",
    .run = runQdqToQLinear,
};
