/* --nn-to-dsp: the quantized nn ops the ONNX importer and nn-qdq-to-qlinear
 * produce, as dsp plans (issue 21, step 1). Each
 *   y = nn.qlinear_matmul(a, as, az, b, bs, bz, ys, yz[, bias]) [-> nn.max(y, yz)]
 * becomes
 *   a' = a, or dsp.flip_sign(a) if a is i8      (ui8: the activations' side)
 *   b' = b, or dsp.flip_sign(b) if b is ui8     (i8: the weights' side)
 *   acc = dsp.matmul(a', b')                    (M x N, i32)
 *   rs = dsp.matmul(a', ones K x 1), cs = dsp.matmul(ones 1 x K, b')
 *   y = dsp.qrequant(acc, rs, cs, as, az, bs, bz, ys, yz[, bias]) {k = K[, relu]}
 * (batch dims of a folded into M by nn.reshape), which is
 * sum (a - az)(b - bz) mod 2^32 requantized exactly as the nn op is. A
 * nn.qlinear_conv (2-D, group 1) is the same over dsp.im2col(x', xz) (the
 * panel matrix, padded with the zero point) and the weights reshaped and
 * transposed to (C*KH*KW) x OC, the result transposed back to NCHW.
 * nn.matmul_integer / nn.conv_integer are the same GEMM with
 *   y = dsp.qsum(acc, rs, cs, az, bz) {k = K}
 * (the corrected i32 sum, no requantization; an absent zero point is a
 * zero of its operand's type).
 * Every dsp.matmul, the rows of its `a` in any layout, is an operator
 * --dsp-select-layouts then plans. What the plan cannot express (dynamic
 * shapes, a batched b, grouped or non-2-D convolutions, parameters spread
 * otherwise than per tensor, row or column) is refused at the op, and the
 * function is left unchanged. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_quant.h"
#include "nn_to_kernels.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/nn.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

#define NO_MATCH mlirLogicalResultFailure()

enum { A, AS, AZ, B, BS, BZ, YS, YZ, BIAS };

typedef struct {
  bool conv, integer;               /* integer: MatMulInteger/ConvInteger */
  int a, b, az, bz;                 /* operand positions (zero points: -1 if absent) */
  int64_t M, K, N;                  /* the GEMM */
  int64_t x[4], w[4];               /* conv: shapes */
  int64_t out[2];                   /* conv: OH, OW */
  NnWindow win;                     /* conv: resolved pads */
  int yrank;
  int64_t ydims[STRATA_MAX_RANK];
} Plan;

static MlirType typeOf(MlirValue v) { return mlirValueGetType(v); }
static MlirType elemOf(MlirValue v) { return mlirShapedTypeGetElementType(typeOf(v)); }
static bool isU8(MlirValue v) { return mlirIntegerTypeIsUnsigned(elemOf(v)); }

static bool shapeOf(MlirValue v, int *rank, int64_t *dims) {
  return strataGetShape(typeOf(v), rank, dims) && mlirShapedTypeHasStaticShape(typeOf(v));
}

static int64_t count(MlirValue v) {
  int rank;
  int64_t d[STRATA_MAX_RANK], n = 1;
  if (!shapeOf(v, &rank, d)) return -1;
  for (int i = 0; i < rank; i++) n *= d[i];
  return n;
}

/* A parameter the requantization can take as one value or `n` values along
 * the GEMM's rows or columns: its element count is 1, or n with every dim
 * but `along` (its tensor's; -1: the last) equal to 1 or to the tensor's
 * own dim it spreads over (rows of a batched a: every dim but the last). */
static bool paramFits(MlirValue p, int64_t n, bool rows, int trank, const int64_t *tdims) {
  int rank;
  int64_t d[STRATA_MAX_RANK];
  if (!shapeOf(p, &rank, d)) return false;
  int64_t c = count(p);
  if (c == 1) return true;
  if (c != n) return false;
  if (rank == 1) return true;
  if (rows) { /* [D..., M, 1] */
    if (rank != trank || d[rank - 1] != 1) return false;
    for (int i = 0; i < rank - 1; i++)
      if (d[i] != tdims[i]) return false;
    return true;
  }
  for (int i = 0; i < rank - 1; i++) /* [1..., N] */
    if (d[i] != 1) return false;
  return true;
}

static bool refuse(MlirOperation op, const char *why) {
  strataEmitOpError(op, "nn-to-dsp: cannot express this as a dsp plan: %s", why);
  return false;
}

/* Whether parameter operand i (absent if < 0) fits the rows or columns. */
static bool fits(MlirOperation op, int i, const Plan *p, bool rows, int ra, const int64_t *a) {
  return i < 0 || paramFits(mlirOperationGetOperand(op, i), rows ? p->M : p->N, rows, ra, a);
}

static bool planMatmul(MlirOperation op, Plan *p) {
  int ra, rb;
  int64_t a[STRATA_MAX_RANK], b[STRATA_MAX_RANK];
  if (!shapeOf(mlirOperationGetOperand(op, p->a), &ra, a) || !shapeOf(mlirOperationGetOperand(op, p->b), &rb, b) ||
      !shapeOf(mlirOperationGetResult(op, 0), &p->yrank, p->ydims))
    return refuse(op, "its shapes are not static");
  if (ra < 2 || rb != 2) return refuse(op, "a must have rank >= 2 and b rank 2 (a batched b is not a GEMM)");
  p->K = a[ra - 1];
  p->N = b[1];
  p->M = 1;
  for (int i = 0; i < ra - 1; i++) p->M *= a[i];
  bool good = fits(op, p->az, p, true, ra, a) && fits(op, p->bz, p, false, ra, a);
  for (int i = AS; i <= YZ && !p->integer && good; i++)
    if (i != B && i != AZ && i != BZ) good = fits(op, i, p, i != BS, ra, a);
  return good || refuse(op, "a scale or zero point is spread otherwise than per tensor, row or column");
}

static bool planConv(MlirOperation op, Plan *p) {
  int rx, rw;
  if (!shapeOf(mlirOperationGetOperand(op, p->a), &rx, p->x) || !shapeOf(mlirOperationGetOperand(op, p->b), &rw, p->w) ||
      !shapeOf(mlirOperationGetResult(op, 0), &p->yrank, p->ydims))
    return refuse(op, "its shapes are not static");
  if (rx != 4) return refuse(op, "only 2-D convolutions (N, C, H, W) have an im2col plan");
  if (!nn_get_window(op, 2, p->w + 2, &p->win)) return false;
  const char *why = NULL;
  if (!nn_infer_window_output(&p->win, p->x + 2, p->out, &why)) return refuse(op, why ? why : "bad window");
  if (p->win.group != 1) return refuse(op, "grouped (and depthwise) convolutions are not one GEMM");
  p->M = p->x[0] * p->out[0] * p->out[1];
  p->K = p->w[1] * p->w[2] * p->w[3];
  p->N = p->w[0];
  return true;
}

static bool plan(MlirOperation op, Plan *p) {
  memset(p, 0, sizeof *p);
  p->conv = strataOpIsNamed(op, "nn.qlinear_conv") || strataOpIsNamed(op, "nn.conv_integer");
  p->integer = strataOpIsNamed(op, "nn.matmul_integer") || strataOpIsNamed(op, "nn.conv_integer");
  if (p->integer) {
    p->a = 0, p->b = 1, p->az = nnQuantOptionalOperand(op, 2), p->bz = nnQuantOptionalOperand(op, 3);
  } else {
    p->a = A, p->b = B, p->az = AZ, p->bz = BZ;
  }
  return p->conv ? planConv(op, p) : planMatmul(op, p);
}

/* ---- Building ---- */

typedef struct {
  StrataBuilder *b;
  MlirLocation loc;
} Ctx;

static MlirValue op1(Ctx *c, const char *name, MlirValue x, MlirType t) {
  return strataResult(strataCreateOp(c->b, name, c->loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(t)), 0);
}

static MlirValue constant(Ctx *c, MlirType t, MlirAttribute value) {
  return strataResult(strataCreateOp(c->b, "nn.constant", c->loc, .results = STRATA_TYPES(t),
                                     .attrs = STRATA_ATTRS({"value", value})),
                      0);
}

static MlirValue reshape(Ctx *c, MlirValue x, int rank, const int64_t *dims) {
  MlirContext ctx = c->b->ctx;
  int64_t n = rank;
  MlirType st = strataTensorType(mlirIntegerTypeGet(ctx, 64), 1, &n);
  MlirValue shape = constant(c, st, mlirDenseElementsAttrInt64Get(st, rank, dims));
  MlirType t = strataTensorType(elemOf(x), rank, dims);
  return strataResult(strataCreateOp(c->b, "nn.reshape", c->loc, .operands = STRATA_VALUES(x, shape),
                                     .results = STRATA_TYPES(t)),
                      0);
}

static MlirValue transpose(Ctx *c, MlirValue x, int rank, const int64_t *perm) {
  int r;
  int64_t d[STRATA_MAX_RANK], o[STRATA_MAX_RANK];
  strataGetShape(typeOf(x), &r, d);
  for (int i = 0; i < rank; i++) o[i] = d[perm[i]];
  return strataResult(strataCreateOp(c->b, "nn.transpose", c->loc, .operands = STRATA_VALUES(x),
                                     .results = STRATA_TYPES(strataTensorType(elemOf(x), rank, o)),
                                     .attrs = STRATA_ATTRS({"perm", mlirDenseI64ArrayGet(c->b->ctx, rank, perm)})),
                      0);
}

/* x on the side of dsp.matmul it goes to: ui8 (wantUnsigned) or i8. */
static MlirValue side(Ctx *c, MlirValue x, bool wantUnsigned) {
  if (isU8(x) == wantUnsigned) return x;
  int rank;
  int64_t d[STRATA_MAX_RANK];
  strataGetShape(typeOf(x), &rank, d);
  MlirType e = wantUnsigned ? mlirIntegerTypeUnsignedGet(c->b->ctx, 8) : mlirIntegerTypeGet(c->b->ctx, 8);
  return op1(c, "dsp.flip_sign", x, strataTensorType(e, rank, d));
}

static MlirValue matmul(Ctx *c, MlirValue a, MlirValue b, int64_t m, int64_t n) {
  int64_t d[2] = {m, n};
  return strataResult(strataCreateOp(c->b, "dsp.matmul", c->loc, .operands = STRATA_VALUES(a, b),
                                     .results = STRATA_TYPES(strataTensorType(mlirIntegerTypeGet(c->b->ctx, 32), 2, d))),
                      0);
}

static MlirValue ones(Ctx *c, int64_t r, int64_t k, bool u8) {
  int64_t d[2] = {r, k};
  MlirType e = u8 ? mlirIntegerTypeUnsignedGet(c->b->ctx, 8) : mlirIntegerTypeGet(c->b->ctx, 8);
  MlirType t = strataTensorType(e, 2, d);
  return constant(c, t, mlirDenseElementsAttrSplatGet(t, mlirIntegerAttrGet(e, 1)));
}

/* Zero point operand i, or a zero of x's element type if it is absent. */
static MlirValue zeroPointOf(Ctx *c, MlirOperation op, int i, MlirValue x) {
  if (i >= 0) return mlirOperationGetOperand(op, i);
  MlirType e = elemOf(x), t = strataTensorType(e, 0, NULL);
  return constant(c, t, mlirDenseElementsAttrSplatGet(t, mlirIntegerAttrGet(e, 0)));
}

/* A parameter as qrequant takes it: rank 0 or 1. */
static MlirValue flat(Ctx *c, MlirValue p) {
  if (mlirShapedTypeGetRank(typeOf(p)) <= 1) return p;
  int64_t n = count(p);
  return reshape(c, p, 1, &n);
}

static MlirLogicalResult rewrite(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  Plan p;
  if (!plan(op, &p)) return NO_MATCH; /* the pass has refused it already */
  MlirOperation relu = p.integer ? (MlirOperation){NULL} : strataNnQLinearReluAfter(op);
  Ctx c = {&rw->builder, mlirOperationGetLocation(op)};
  MlirValue in[9];
  int nin = (int)mlirOperationGetNumOperands(op);
  for (int i = 0; i < nin; i++) in[i] = mlirOperationGetOperand(op, i);
  MlirValue az = zeroPointOf(&c, op, p.az, in[p.a]), bz = zeroPointOf(&c, op, p.bz, in[p.b]);
  MlirValue a = side(&c, in[p.a], true), b;
  if (p.conv) {
    MlirContext ctx = c.b->ctx;
    MlirValue pad = az;
    int64_t k[2] = {p.w[2], p.w[3]}, s[2] = {p.win.strides[0], p.win.strides[1]};
    int64_t dl[2] = {p.win.dilations[0], p.win.dilations[1]};
    int64_t pads[4] = {p.win.pads[0], p.win.pads[1], p.win.pads[2], p.win.pads[3]}, cd[2] = {p.M, p.K};
    a = strataResult(strataCreateOp(c.b, "dsp.im2col", c.loc, .operands = STRATA_VALUES(a, pad),
                                    .results = STRATA_TYPES(strataTensorType(elemOf(a), 2, cd)),
                                    .attrs = STRATA_ATTRS({"kernel_shape", mlirDenseI64ArrayGet(ctx, 2, k)},
                                                          {"strides", mlirDenseI64ArrayGet(ctx, 2, s)},
                                                          {"dilations", mlirDenseI64ArrayGet(ctx, 2, dl)},
                                                          {"pads", mlirDenseI64ArrayGet(ctx, 4, pads)})),
                     0);
    int64_t wd[2] = {p.N, p.K}, perm[2] = {1, 0};
    b = transpose(&c, reshape(&c, in[p.b], 2, wd), 2, perm);
  } else {
    int64_t ad[2] = {p.M, p.K};
    if (mlirShapedTypeGetRank(typeOf(a)) != 2) a = reshape(&c, a, 2, ad);
    b = in[p.b];
  }
  b = side(&c, b, false);
  MlirValue acc = matmul(&c, a, b, p.M, p.N);
  MlirValue rs = matmul(&c, a, ones(&c, p.K, 1, false), p.M, 1);
  MlirValue cs = matmul(&c, ones(&c, 1, p.K, true), b, 1, p.N);
  MlirValue ops[10] = {acc, rs, cs};
  int nops = 5;
  int64_t yd[2] = {p.M, p.N};
  MlirType yt = strataTensorType(mlirIntegerTypeGet(c.b->ctx, 32), 2, yd);
  if (p.integer) {
    ops[3] = flat(&c, az), ops[4] = flat(&c, bz);
  } else {
    for (int i = AS; i <= YZ; i++)
      if (i != B) ops[i < B ? i + 2 : i + 1] = flat(&c, in[i]);
    nops = 9;
    if (nin > BIAS) ops[nops++] = in[BIAS];
    yt = strataTensorType(elemOf(in[YZ]), 2, yd);
  }
  StrataNamedAttr attrs[2] = {{"k", strataI64Attr(c.b->ctx, p.K)}, {"relu", mlirUnitAttrGet(c.b->ctx)}};
  MlirValue y = strataResult(strataCreateOp(c.b, p.integer ? "dsp.qsum" : "dsp.qrequant", c.loc,
                                            .operands = {ops, nops}, .results = STRATA_TYPES(yt),
                                            .attrs = {attrs, mlirOperationIsNull(relu) ? 1 : 2}),
                             0);
  if (p.conv) { /* (n, oh, ow) x oc back to n x oc x oh x ow */
    int64_t d3[3] = {p.x[0], p.out[0] * p.out[1], p.N}, perm[3] = {0, 2, 1};
    y = transpose(&c, reshape(&c, y, 3, d3), 3, perm);
  }
  if (p.conv || p.yrank != 2) y = reshape(&c, y, p.yrank, p.ydims);
  if (!mlirOperationIsNull(relu)) strataReplaceOp(rw, relu, STRATA_VALUES(y));
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

static bool isQuantLayer(MlirOperation op) {
  return strataOpIsNamed(op, "nn.qlinear_matmul") || strataOpIsNamed(op, "nn.qlinear_conv") ||
         strataOpIsNamed(op, "nn.matmul_integer") || strataOpIsNamed(op, "nn.conv_integer");
}

static MlirWalkResult check(MlirOperation op, void *user) {
  Plan p;
  if (isQuantLayer(op) && !plan(op, &p))
    *(bool *)user = false;
  return MlirWalkResultAdvance;
}

static void runNnToDsp(StrataPassRun *run, MlirOperation root) {
  bool good = true;
  mlirOperationWalk(root, check, &good, MlirWalkPreOrder);
  if (!good) {
    strataPassSignalFailure(run);
    return;
  }
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "nn.qlinear_matmul", 1, rewrite, NULL);
  strataPatternSetAdd(set, "nn.qlinear_conv", 1, rewrite, NULL);
  strataPatternSetAdd(set, "nn.matmul_integer", 1, rewrite, NULL);
  strataPatternSetAdd(set, "nn.conv_integer", 1, rewrite, NULL);
  /* Greedy, not a walk: the rewrite erases the fused Relu after the op. */
  StrataGreedyConfig cfg = {0, true, false};
  if (mlirLogicalResultIsFailure(strataApplyPatternsGreedily(set, root, &cfg))) {
    strataEmitError(mlirOperationGetLocation(root), "nn-to-dsp: did not converge");
    strataPassSignalFailure(run);
  }
  strataPatternSetDestroy(set);
}

const StrataPassDef strataNnToDspPass = {
    .name = "nn-to-dsp",
    .summary = "Rewrite nn.qlinear_matmul/qlinear_conv/matmul_integer/conv_integer into dsp plans: dsp.matmul "
               "(im2col for conv) with the zero-point sums and dsp.qrequant (dsp.qsum for the integer ops), "
               "exactly; refuses what a plan cannot express",
    .anchor = "func.func",
    .run = runNnToDsp,
};
