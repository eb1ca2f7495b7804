/* MatMul, Gemm, Conv, ConvTranspose, Einsum -> linalg.generic contractions. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_einsum.h"
#include "nn_internal.h"
#include "lower_internal.h"

static MlirLogicalResult done(StrataRewrite *rw, MlirOperation op, MlirValue y) {
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* Batch dims of an operand, right-aligned to the output batch, then `tail`. */
static void batchedMap(char *buf, size_t size, MlirValue v, MlirType out, int batch, int opRank,
                       const char *tail) {
  size_t off = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < opRank - 2; i++) {
    int od = batch - (opRank - 2) + i;
    bool expanded = lowerDim(v, i) == 1 && mlirShapedTypeGetDimSize(out, od) != 1;
    off += expanded ? (size_t)snprintf(buf + off, size - off, "0, ")
                    : (size_t)snprintf(buf + off, size - off, "d%d, ", od);
  }
  snprintf(buf + off, size - off, "%s)", tail);
}

/* numpy.matmul as one generic: loops = output dims + k (the last loop);
 * with kBeforeN (and a b of rank >= 2) k is the loop before n instead, so
 * that the innermost loop walks b's and y's rows contiguously (it
 * vectorizes: the quantized ops' i32 sums, which have no runtime kernel).
 * Every y element still sums over k in increasing order. */
MlirValue lowerMatmulValues(StrataBuilder *bld, MlirLocation loc, MlirValue a, MlirValue b, MlirType t,
                            MlirValue init, bool kBeforeN) {
  int R = (int)mlirShapedTypeGetRank(t), ra = lowerRank(a), rb = lowerRank(b);
  bool swap = kBeforeN && rb >= 2;
  int k = swap ? R - 1 : R, n = swap ? R : R - 1;
  int batch = R - (ra >= 2) - (rb >= 2);
  char ma[256], mb[256], mo[256], its[STRATA_MAX_RANK + 2], tail[64];
  if (ra >= 2) snprintf(tail, sizeof tail, "d%d, d%d", batch, k);
  else snprintf(tail, sizeof tail, "d%d", k);
  batchedMap(ma, sizeof ma, a, t, batch, ra, tail);
  if (rb >= 2) snprintf(tail, sizeof tail, "d%d, d%d", k, n);
  else snprintf(tail, sizeof tail, "d%d", k);
  batchedMap(mb, sizeof mb, b, t, batch, rb, tail);
  int outDims[STRATA_MAX_RANK];
  for (int i = 0; i < R; i++) outDims[i] = i;
  if (swap) outDims[R - 1] = n;
  linalgFormatDims(mo, sizeof mo, outDims, R);
  for (int i = 0; i <= R; i++) its[i] = i == k ? 'r' : 'p';
  its[R + 1] = '\0';
  const char *maps[] = {ma, mb, mo};
  return linalgBuildGeneric(bld, loc, STRATA_VALUES(a, b), init, maps, its, bodyMulAcc, NULL);
}

static MlirLogicalResult lowerMatmul(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirValue init = lowerResultInit(&rw->builder, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  return done(rw, op, lowerMatmulValues(&rw->builder, mlirOperationGetLocation(op), lowerOperand(op, 0),
                                        lowerOperand(op, 1), lowerResultType(op, 0), init, false));
}

/* ---- Gemm ---- */

typedef struct {
  double alpha, beta;
} GemmScale;

static MlirValue bodyScaleC(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const GemmScale *s = u;
  bool f = lowerIsFloat(mlirValueGetType(a[0]));
  return emitBinary(b, loc, f ? "arith.mulf" : "arith.muli", a[0], emitConst(b, loc, mlirValueGetType(a[0]), s->beta));
}

static MlirValue bodyScaledMulAcc(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const GemmScale *s = u;
  bool f = lowerIsFloat(mlirValueGetType(a[2]));
  const char *mul = f ? "arith.mulf" : "arith.muli";
  MlirValue prod = emitBinary(b, loc, mul, a[0], a[1]);
  if (s->alpha != 1.0) prod = emitBinary(b, loc, mul, prod, emitConst(b, loc, mlirValueGetType(a[2]), s->alpha));
  return emitBinary(b, loc, f ? "arith.addf" : "arith.addi", a[2], prod);
}

static MlirLogicalResult lowerGemm(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirType t = lowerResultType(op, 0);
  int64_t ta, tb;
  GemmScale s;
  nnAttrInt(op, "transA", 0, &ta);
  nnAttrInt(op, "transB", 0, &tb);
  nnAttrFloat(op, "alpha", 1.0, &s.alpha);
  nnAttrFloat(op, "beta", 1.0, &s.beta);
  MlirValue init = lowerResultInit(b, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  if (mlirOperationGetNumOperands(op) == 3 && s.beta != 0.0) {
    char mc[64];
    lowerBroadcastMap(mc, sizeof mc, lowerOperand(op, 2), t);
    const char *maps[] = {mc, "(d0, d1)"};
    init = linalgBuildGeneric(b, loc, STRATA_VALUES(lowerOperand(op, 2)), init, maps, "pp", bodyScaleC, &s);
  }
  const char *maps[] = {ta ? "(d2, d0)" : "(d0, d2)", tb ? "(d1, d2)" : "(d2, d1)", "(d0, d1)"};
  return done(rw, op, linalgBuildGeneric(b, loc, STRATA_VALUES(lowerOperand(op, 0), lowerOperand(op, 1)),
                                         init, maps, "ppr", bodyScaledMulAcc, &s));
}

/* ---- Conv ---- */

static MlirValue biasInit(StrataBuilder *b, MlirLocation loc, MlirOperation op, MlirType t) {
  MlirValue zeros = linalgSplatConstant(b, loc, t, 0.0);
  if (mlirOperationGetNumOperands(op) != 3) return zeros;
  int rank = (int)mlirShapedTypeGetRank(t);
  char its[STRATA_MAX_RANK + 1], outMap[256];
  lowerParallelIterators(its, rank);
  lowerIdentityMap(outMap, sizeof outMap, rank);
  const char *maps[] = {"(d1)", outMap};
  return linalgBuildGeneric(b, loc, STRATA_VALUES(lowerOperand(op, 2)), zeros, maps, its,
                            bodyYieldInput, NULL);
}

/* conv (1-3 spatial dims): explicit zero padding (insert_slice into a
 * splat), then one generic over (n, m, o1..on | c, k1..kn); the group of
 * output channel m selects its input-channel block with a floordiv in the
 * input map. `init` (the bias, or zeros) initializes the accumulator. */
MlirValue lowerConvValues(StrataBuilder *b, MlirLocation loc, MlirOperation op, MlirValue x, MlirValue w,
                          MlirValue init, bool reduceOutside) {
  int rank = lowerRank(x), sp = rank - 2;
  int64_t kernel[NN_MAX_SPATIAL], in[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL];
  for (int i = 0; i < sp; i++) kernel[i] = lowerDim(w, 2 + i), in[i] = lowerDim(x, 2 + i);
  NnWindow win;
  const char *why;
  if (!nn_get_window(op, sp, kernel, &win) || !nn_infer_window_output(&win, in, out, &why))
    return (MlirValue){NULL};
  bool padded = false;
  for (int i = 0; i < 2 * sp; i++) padded |= win.pads[i] != 0;
  if (padded) {
    int64_t shape[STRATA_MAX_RANK] = {lowerDim(x, 0), lowerDim(x, 1)}, offsets[STRATA_MAX_RANK] = {0, 0};
    for (int i = 0; i < sp; i++) {
      shape[2 + i] = in[i] + win.pads[i] + win.pads[sp + i];
      offsets[2 + i] = win.pads[i];
    }
    MlirValue zeros = linalgSplatConstant(b, loc, strataTensorType(lowerElementType(x), rank, shape), 0.0);
    x = linalgInsertSlice(b, loc, x, zeros, offsets);
  }
  /* Loops (n, m, o1..on | c, k1..kn), or with reduceOutside (n, m, c,
   * k1..kn, o1..on): the innermost loop then walks x's and y's rows
   * contiguously (it vectorizes: the quantized ops' i32 sums, which have no
   * runtime kernel). Each y element sums over c and k in the same order. */
  int dc = reduceOutside ? 2 : 2 + sp, dk = dc + 1, dO = reduceOutside ? 3 + sp : 2;
  int64_t M = lowerDim(w, 0), Cg = lowerDim(w, 1), Mg = M / win.group;
  char mx[512], mw[256], mo[256], its[2 * NN_MAX_SPATIAL + 4];
  size_t ox = (size_t)snprintf(mx, sizeof mx, "(d0, ");
  ox += win.group == 1 ? (size_t)snprintf(mx + ox, sizeof mx - ox, "d%d", dc)
                       : (size_t)snprintf(mx + ox, sizeof mx - ox, "(d1 floordiv %lld) * %lld + d%d",
                                          (long long)Mg, (long long)Cg, dc);
  size_t ow = (size_t)snprintf(mw, sizeof mw, "(d1, d%d", dc);
  size_t oo = (size_t)snprintf(mo, sizeof mo, "(d0, d1");
  for (int i = 0; i < sp; i++) {
    ox += (size_t)snprintf(mx + ox, sizeof mx - ox, ", d%d * %lld + d%d * %lld", dO + i,
                           (long long)win.strides[i], dk + i, (long long)win.dilations[i]);
    ow += (size_t)snprintf(mw + ow, sizeof mw - ow, ", d%d", dk + i);
    oo += (size_t)snprintf(mo + oo, sizeof mo - oo, ", d%d", dO + i);
  }
  snprintf(mx + ox, sizeof mx - ox, ")");
  snprintf(mw + ow, sizeof mw - ow, ")");
  snprintf(mo + oo, sizeof mo - oo, ")");
  int loops = 2 + 2 * sp + 1;
  for (int i = 0; i < loops; i++) its[i] = i >= dc && i < dk + sp ? 'r' : 'p';
  its[loops] = '\0';
  const char *maps[] = {mx, mw, mo};
  return linalgBuildGeneric(b, loc, STRATA_VALUES(x, w), init, maps, its, bodyMulAcc, NULL);
}

static MlirLogicalResult lowerConv(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirValue y = lowerConvValues(b, loc, op, lowerOperand(op, 0), lowerOperand(op, 1),
                                biasInit(b, loc, op, lowerResultType(op, 0)), false);
  return y.ptr ? done(rw, op, y) : mlirLogicalResultFailure();
}

/* ---- ConvTranspose: gather form ----
 * y[n, m, o] += x[n, g*Cg + c, i] * w[g*Cg + c, m mod Mg, k] for every
 * kernel offset k with o + pad - k*dil = i*stride, 0 <= i < in. Loops:
 * (n, m, o1..on | c, k1..kn); x is read with tensor.extract at the computed
 * (clamped) index and the product is selected away where it does not hit. */
typedef struct {
  MlirValue x;
  NnWindow win;
  int sp;
  int64_t in[NN_MAX_SPATIAL], Cg, Mg;
} ConvT;

static MlirValue bodyConvTranspose(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const ConvT *ct = u;
  MlirType idx = strataIndexType(b->ctx);
  MlirValue zero = emitConst(b, loc, idx, 0), valid = emitConst(b, loc, mlirIntegerTypeGet(b->ctx, 1), 1);
  MlirValue xi[STRATA_MAX_RANK];
  xi[0] = linalgIndex(b, loc, 0);
  MlirValue m = linalgIndex(b, loc, 1), c = linalgIndex(b, loc, 2 + ct->sp);
  MlirValue g = emitBinary(b, loc, "arith.divui", m, emitConst(b, loc, idx, (double)ct->Mg));
  xi[1] = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.muli", g, emitConst(b, loc, idx, (double)ct->Cg)), c);
  for (int d = 0; d < ct->sp; d++) {
    MlirValue o = linalgIndex(b, loc, 2 + d), kk = linalgIndex(b, loc, 3 + ct->sp + d);
    MlirValue tpos = emitBinary(b, loc, "arith.subi",
                                emitBinary(b, loc, "arith.addi", o, emitConst(b, loc, idx, (double)ct->win.pads[d])),
                                emitBinary(b, loc, "arith.muli", kk, emitConst(b, loc, idx, (double)ct->win.dilations[d])));
    MlirValue s = emitConst(b, loc, idx, (double)ct->win.strides[d]);
    MlirValue q = emitBinary(b, loc, "arith.divsi", tpos, s);
    MlirValue ok = emitCmpI(b, loc, CMPI_SGE, tpos, zero);
    ok = emitBinary(b, loc, "arith.andi", ok, emitCmpI(b, loc, CMPI_EQ, emitBinary(b, loc, "arith.remsi", tpos, s), zero));
    ok = emitBinary(b, loc, "arith.andi", ok, emitCmpI(b, loc, CMPI_SLT, q, emitConst(b, loc, idx, (double)ct->in[d])));
    valid = emitBinary(b, loc, "arith.andi", valid, ok);
    xi[2 + d] = q;
  }
  for (int d = 0; d < ct->sp; d++) xi[2 + d] = emitSelect(b, loc, valid, xi[2 + d], zero);
  MlirValue xv = linalgExtract(b, loc, ct->x, xi, 2 + ct->sp);
  MlirValue prod = emitBinary(b, loc, "arith.mulf", xv, a[0]);
  prod = emitSelect(b, loc, valid, prod, emitConst(b, loc, mlirValueGetType(prod), 0));
  return emitBinary(b, loc, "arith.addf", a[1], prod);
}

static MlirLogicalResult lowerConvTranspose(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirType t = lowerResultType(op, 0);
  ConvT ct;
  ct.x = lowerOperand(op, 0);
  MlirValue w = lowerOperand(op, 1);
  ct.sp = lowerRank(ct.x) - 2;
  int64_t kernel[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL];
  for (int i = 0; i < ct.sp; i++) {
    kernel[i] = lowerDim(w, 2 + i);
    ct.in[i] = lowerDim(ct.x, 2 + i);
    out[i] = mlirShapedTypeGetDimSize(t, 2 + i);
  }
  if (!nn_get_window(op, ct.sp, kernel, &ct.win)) return mlirLogicalResultFailure();
  nnConvTransposePads(op, &ct.win, ct.in, out);
  ct.Cg = lowerDim(ct.x, 1) / ct.win.group;
  ct.Mg = mlirShapedTypeGetDimSize(t, 1) / ct.win.group;
  int dc = 2 + ct.sp, dk = dc + 1, loops = dk + ct.sp;
  /* W: [C, M/G, k...] viewed as [G, C/G, M/G, k...] so that every loop dim
   * appears plainly in some operand map. */
  int64_t wshape[STRATA_MAX_RANK] = {ct.win.group, ct.Cg, ct.Mg};
  for (int i = 0; i < ct.sp; i++) wshape[3 + i] = kernel[i];
  w = linalgReshape(b, loc, w, strataTensorType(lowerElementType(w), 3 + ct.sp, wshape));
  char mw[256], mo[256], its[2 * NN_MAX_SPATIAL + 4];
  size_t ow = (size_t)snprintf(mw, sizeof mw, "(d1 floordiv %lld, d%d, d1 mod %lld", (long long)ct.Mg,
                               dc, (long long)ct.Mg);
  size_t oo = (size_t)snprintf(mo, sizeof mo, "(d0, d1");
  for (int i = 0; i < ct.sp; i++) {
    ow += (size_t)snprintf(mw + ow, sizeof mw - ow, ", d%d", dk + i);
    oo += (size_t)snprintf(mo + oo, sizeof mo - oo, ", d%d", 2 + i);
  }
  snprintf(mw + ow, sizeof mw - ow, ")");
  snprintf(mo + oo, sizeof mo - oo, ")");
  for (int i = 0; i < loops; i++) its[i] = i < dc ? 'p' : 'r';
  its[loops] = '\0';
  const char *maps[] = {mw, mo};
  return done(rw, op, linalgBuildGeneric(b, loc, STRATA_VALUES(w), biasInit(b, loc, op, t), maps, its,
                                         bodyConvTranspose, &ct));
}

/* ---- Einsum: one generic over the equation's loops (nn_einsum.h): the
 * result's dims parallel, the summed subscripts reductions; a diagonal reads
 * one loop twice, a broadcast dim of size 1 reads 0. ---- */

static MlirValue bodyEinsumOne(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  bool f = lowerIsFloat(mlirValueGetType(a[1]));
  return emitBinary(b, loc, f ? "arith.addf" : "arith.addi", a[1], a[0]);
}

static MlirLogicalResult lowerEinsum(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  NnEinsum e;
  if (!nnEinsumOf(op, &e, true)) return mlirLogicalResultFailure();
  MlirValue init = lowerResultInit(&rw->builder, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  char maps[NN_EINSUM_MAX_INPUTS + 1][256], its[NN_EINSUM_MAX_LOOPS + 1];
  const char *mapPtrs[NN_EINSUM_MAX_INPUTS + 1];
  MlirValue ins[NN_EINSUM_MAX_INPUTS];
  for (int i = 0; i <= e.numInputs; i++) {
    bool isOut = i == e.numInputs;
    int rank = isOut ? e.outRank : e.rank[i];
    size_t off = (size_t)snprintf(maps[i], sizeof maps[i], "(");
    if (!isOut) ins[i] = lowerOperand(op, i);
    for (int d = 0; d < rank; d++) {
      int l = isOut ? d : e.loop[i][d];
      bool broadcast = !isOut && lowerDim(ins[i], d) == 1 && e.extent[l] != 1;
      off += broadcast ? (size_t)snprintf(maps[i] + off, sizeof maps[i] - off, "%s0", d ? ", " : "")
                       : (size_t)snprintf(maps[i] + off, sizeof maps[i] - off, "%sd%d", d ? ", " : "", l);
    }
    snprintf(maps[i] + off, sizeof maps[i] - off, ")");
    mapPtrs[i] = maps[i];
  }
  for (int l = 0; l < e.numLoops; l++) its[l] = l < e.outRank ? 'p' : 'r';
  its[e.numLoops] = '\0';
  MlirValue y = linalgBuildGeneric(&rw->builder, mlirOperationGetLocation(op), (StrataValueList){ins, e.numInputs},
                                   init, mapPtrs, its, e.numInputs == 2 ? bodyMulAcc : bodyEinsumOne, NULL);
  return done(rw, op, y);
}

void nnToLinalgLinear(LowerRegistry *r) {
  lowerRegister(r, "nn.einsum", lowerEinsum, NULL);
  lowerRegister(r, "nn.matmul", lowerMatmul, NULL);
  lowerRegister(r, "nn.gemm", lowerGemm, NULL);
  lowerRegister(r, "nn.conv", lowerConv, NULL);
  lowerRegister(r, "nn.conv_transpose", lowerConvTranspose, NULL);
}
