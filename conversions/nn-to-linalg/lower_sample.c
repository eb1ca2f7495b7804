/* nn.grid_sample and nn.roi_align -> one linalg.generic over the result
 * each, with the interpreter's arithmetic (dialects/nn/ops_sample.c) op for
 * op. GridSample's body reads the grid with tensor.extract and blends the
 * input's taps: unnormalize, pad (border clamp, reflection), nearest (round
 * half to even) / linear / cubic taps (lowerCubicWeights, shared with
 * Resize), a tap outside the input (or at a NaN coordinate) adding
 * nothing. RoiAlign's body reads its roi and batch index (checked in range
 * at run time) and loops over the bin's samples (scf.for: adaptive
 * sampling counts are run-time values). */
#include <math.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_sample.h"
#include "lower_internal.h"

typedef struct {
  MlirValue x, grid;
  int rank;
  NnGridSample g;
} GridCtx;

static MlirValue f64c(StrataBuilder *b, MlirLocation loc, double v) { return emitConst(b, loc, mlirF64TypeGet(b->ctx), v); }
static MlirValue fop(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirValue y) {
  return emitBinary(b, loc, name, x, y);
}

/* nnGridUnnormalize */
static MlirValue unnormalize(StrataBuilder *b, MlirLocation loc, const NnGridSample *g, MlirValue v, MlirValue size) {
  MlirValue one = f64c(b, loc, 1), half = f64c(b, loc, 0.5), vp1 = fop(b, loc, "arith.addf", v, one);
  if (g->align) return fop(b, loc, "arith.mulf", fop(b, loc, "arith.mulf", vp1, half), fop(b, loc, "arith.subf", size, one));
  return fop(b, loc, "arith.mulf", fop(b, loc, "arith.subf", fop(b, loc, "arith.mulf", vp1, size), one), half);
}

/* nnGridPad; maximumf/minimumf keep NaN, as the interpreter's clamp. */
static MlirValue pad(StrataBuilder *b, MlirLocation loc, const NnGridSample *g, MlirValue x, MlirValue size) {
  if (g->padding == NN_GRID_ZEROS) return x;
  MlirValue zero = f64c(b, loc, 0), hi = fop(b, loc, "arith.subf", size, f64c(b, loc, 1));
  if (g->padding == NN_GRID_REFLECTION) {
    MlirValue low = f64c(b, loc, g->align ? 0 : -0.5), span = g->align ? hi : size, two = f64c(b, loc, 2);
    MlirValue a = emitUnary(b, loc, "math.absf", fop(b, loc, "arith.subf", x, low));
    MlirValue extra = fop(b, loc, "arith.remf", a, span), flips = emitUnary(b, loc, "math.floor", fop(b, loc, "arith.divf", a, span));
    MlirValue even = emitCmpF(b, loc, CMPF_OEQ, fop(b, loc, "arith.remf", flips, two), zero);
    MlirValue r = emitSelect(b, loc, even, fop(b, loc, "arith.addf", low, extra),
                             fop(b, loc, "arith.subf", fop(b, loc, "arith.addf", low, span), extra));
    x = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OLE, span, zero), zero, r);
  }
  return fop(b, loc, "arith.minimumf", fop(b, loc, "arith.maximumf", x, zero), hi);
}

static MlirValue bodyGridSample(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *u) {
  (void)args;
  const GridCtx *c = u;
  int r = c->rank - 2;
  MlirType f64 = mlirF64TypeGet(b->ctx), i64 = mlirIntegerTypeGet(b->ctx, 64), idx = strataIndexType(b->ctx);
  MlirType et = lowerElementType(c->x);
  MlirValue out[STRATA_MAX_RANK], pos[3][4], w[3][4], sizeF[3], zero = f64c(b, loc, 0);
  int taps[3], corners = 1;
  for (int d = 0; d < c->rank; d++) out[d] = linalgIndex(b, loc, d);
  for (int i = 0; i < r; i++) {
    sizeF[i] = lowerIndexToFloat(b, loc, lowerDimValue(b, loc, c->x, 2 + i), f64);
    MlirValue at[STRATA_MAX_RANK];
    at[0] = out[0];
    for (int k = 0; k < r; k++) at[1 + k] = out[2 + k];
    at[1 + r] = lowerIndexConst(b, loc, r - 1 - i);
    MlirValue v = linalgExtract(b, loc, c->grid, at, c->rank);
    if (!mlirTypeIsAF64(et)) v = emitConvert(b, loc, "arith.extf", v, f64);
    MlirValue cd = unnormalize(b, loc, &c->g, v, sizeF[i]);
    if (c->g.mode == NN_GRID_CUBIC) {
      MlirValue f = emitUnary(b, loc, "math.floor", cd);
      lowerCubicWeights(b, loc, fop(b, loc, "arith.subf", cd, f), -0.75, w[i]);
      for (int k = 0; k < 4; k++) pos[i][k] = pad(b, loc, &c->g, fop(b, loc, "arith.addf", f, f64c(b, loc, k - 1)), sizeF[i]);
      taps[i] = 4;
    } else if (c->g.mode == NN_GRID_LINEAR) {
      cd = pad(b, loc, &c->g, cd, sizeF[i]);
      MlirValue f = emitUnary(b, loc, "math.floor", cd), frac = fop(b, loc, "arith.subf", cd, f);
      pos[i][0] = f, pos[i][1] = fop(b, loc, "arith.addf", f, f64c(b, loc, 1));
      w[i][0] = fop(b, loc, "arith.subf", f64c(b, loc, 1), frac), w[i][1] = frac;
      taps[i] = 2;
    } else {
      pos[i][0] = emitUnary(b, loc, "math.roundeven", pad(b, loc, &c->g, cd, sizeF[i]));
      taps[i] = 1;
    }
    corners *= taps[i];
  }
  /* per tap: inside the input (false for NaN), and its index (0 outside) */
  MlirValue inside[3][4], index[3][4];
  for (int i = 0; i < r; i++)
    for (int k = 0; k < taps[i]; k++) {
      MlirValue hi = fop(b, loc, "arith.subf", sizeF[i], f64c(b, loc, 1)), p = pos[i][k];
      inside[i][k] = emitBinary(b, loc, "arith.andi", emitCmpF(b, loc, CMPF_OGE, p, zero), emitCmpF(b, loc, CMPF_OLE, p, hi));
      MlirValue safe = emitSelect(b, loc, inside[i][k], p, zero);
      index[i][k] = emitConvert(b, loc, "arith.index_cast", emitConvert(b, loc, "arith.fptosi", safe, i64), idx);
    }
  MlirValue acc = zero;
  for (int corner = 0; corner < corners; corner++) {
    MlirValue at[STRATA_MAX_RANK], in = {NULL}, weight = {NULL};
    at[0] = out[0], at[1] = out[1];
    for (int i = 0, rest = corner; i < r; i++) {
      int k = rest % taps[i];
      rest /= taps[i];
      at[2 + i] = index[i][k];
      in = mlirValueIsNull(in) ? inside[i][k] : emitBinary(b, loc, "arith.andi", in, inside[i][k]);
      if (taps[i] > 1) weight = mlirValueIsNull(weight) ? w[i][k] : fop(b, loc, "arith.mulf", weight, w[i][k]);
    }
    MlirValue v = linalgExtract(b, loc, c->x, at, c->rank);
    if (!mlirTypeIsAF64(et)) v = emitConvert(b, loc, "arith.extf", v, f64);
    if (!mlirValueIsNull(weight)) v = fop(b, loc, "arith.mulf", weight, v);
    acc = fop(b, loc, "arith.addf", acc, emitSelect(b, loc, in, v, zero));
  }
  return mlirTypeIsAF64(et) ? acc : emitConvert(b, loc, "arith.truncf", acc, et);
}

static MlirLogicalResult lowerGridSample(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  GridCtx c = {lowerOperand(op, 0), lowerOperand(op, 1), lowerRank(lowerOperand(op, 0)), {0}};
  if (!nnGridSampleAttrs(op, &c.g)) return mlirLogicalResultFailure();
  MlirValue init = lowerResultInit(&rw->builder, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  char outMap[256], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(outMap, sizeof outMap, c.rank);
  lowerParallelIterators(its, c.rank);
  const char *maps[] = {outMap};
  MlirValue y = linalgBuildGeneric(&rw->builder, mlirOperationGetLocation(op), (StrataValueList){NULL, 0}, init, maps,
                                   its, bodyGridSample, &c);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- RoiAlign ---- */

typedef struct {
  MlirValue x, rois, batch, site;
  NnRoiAlign r;
} RoiCtx;

/* std::max(a, b), as ONNX Runtime and the interpreter's maxOf */
static MlirValue maxOf(StrataBuilder *b, MlirLocation loc, MlirValue a, MlirValue c) {
  return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OLT, a, c), c, a);
}

/* One sample at (yy, xx) of plane (n, ch): its 4 weighted corners (0
 * outside [-1, H] x [-1, W] or at NaN), as roiBilinear. */
static void roiSample(StrataBuilder *b, MlirLocation loc, const RoiCtx *c, MlirValue n, MlirValue ch, MlirValue yy,
                      MlirValue xx, MlirValue v[4]) {
  MlirType f64 = mlirF64TypeGet(b->ctx), i64 = mlirIntegerTypeGet(b->ctx, 64), idx = strataIndexType(b->ctx);
  MlirValue zero = f64c(b, loc, 0), one = f64c(b, loc, 1), pos[2] = {yy, xx}, lo[2], hi[2], l[2], inside = {NULL};
  for (int k = 0; k < 2; k++) {
    MlirValue size = lowerIndexToFloat(b, loc, lowerDimValue(b, loc, c->x, 2 + k), f64), last = fop(b, loc, "arith.subf", size, one);
    MlirValue in = emitBinary(b, loc, "arith.andi", emitCmpF(b, loc, CMPF_OGE, pos[k], f64c(b, loc, -1)),
                              emitCmpF(b, loc, CMPF_OLE, pos[k], size));
    inside = mlirValueIsNull(inside) ? in : emitBinary(b, loc, "arith.andi", inside, in);
    /* outside (or NaN): sample at 0, weighted 0 below */
    MlirValue p = emitSelect(b, loc, in, emitSelect(b, loc, emitCmpF(b, loc, CMPF_OLE, pos[k], zero), zero, pos[k]), zero);
    MlirValue low = emitUnary(b, loc, "math.floor", p); /* p >= 0: the (int) truncation */
    MlirValue atEnd = emitCmpF(b, loc, CMPF_OGE, low, last);
    low = emitSelect(b, loc, atEnd, last, low);
    p = emitSelect(b, loc, atEnd, low, p);
    MlirValue high = emitSelect(b, loc, atEnd, low, fop(b, loc, "arith.addf", low, one));
    l[k] = fop(b, loc, "arith.subf", p, low);
    lo[k] = emitConvert(b, loc, "arith.index_cast", emitConvert(b, loc, "arith.fptosi", low, i64), idx);
    hi[k] = emitConvert(b, loc, "arith.index_cast", emitConvert(b, loc, "arith.fptosi", high, i64), idx);
  }
  MlirValue h[2] = {fop(b, loc, "arith.subf", one, l[0]), fop(b, loc, "arith.subf", one, l[1])};
  for (int k = 0; k < 4; k++) {
    bool up = k >= 2, right = k & 1;
    MlirValue at[4] = {n, ch, up ? hi[0] : lo[0], right ? hi[1] : lo[1]};
    MlirValue e = linalgExtract(b, loc, c->x, at, 4);
    if (!mlirTypeIsAF64(mlirValueGetType(e))) e = emitConvert(b, loc, "arith.extf", e, f64);
    MlirValue w = fop(b, loc, "arith.mulf", up ? l[0] : h[0], right ? l[1] : h[1]);
    v[k] = emitSelect(b, loc, inside, fop(b, loc, "arith.mulf", w, e), zero);
  }
}

static MlirValue bodyRoiAlign(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *u) {
  (void)args;
  const RoiCtx *c = u;
  const NnRoiAlign *r = &c->r;
  MlirType f64 = mlirF64TypeGet(b->ctx), i64 = mlirIntegerTypeGet(b->ctx, 64), idx = strataIndexType(b->ctx);
  MlirType et = lowerElementType(c->x);
  MlirValue out[4], box[4], zero = f64c(b, loc, 0), one = f64c(b, loc, 1), half = f64c(b, loc, 0.5);
  for (int d = 0; d < 4; d++) out[d] = linalgIndex(b, loc, d);
  for (int k = 0; k < 4; k++) {
    box[k] = linalgExtract(b, loc, c->rois, (MlirValue[]){out[0], lowerIndexConst(b, loc, k)}, 2);
    if (!mlirTypeIsAF64(et)) box[k] = emitConvert(b, loc, "arith.extf", box[k], f64);
  }
  /* the batch index, checked in [0, N) and then clamped so that reads stay in bounds */
  MlirValue n = emitConvert(b, loc, "arith.index_cast", linalgExtract(b, loc, c->batch, out, 1), idx);
  MlirValue N = lowerDimValue(b, loc, c->x, 0), izero = lowerIndexConst(b, loc, 0);
  MlirValue bad = emitBinary(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SLT, n, izero), emitCmpI(b, loc, CMPI_SGE, n, N));
  lowerShapeCheckAt(b, loc, c->site, bad, 13, 2, 0, n, N);
  n = emitSelect(b, loc, bad, izero, n);
  /* nnRoiGeometry */
  MlirValue start[2], bin[2], samples[2], offset = f64c(b, loc, r->halfPixel ? 0.5 : 0), scale = f64c(b, loc, r->scale);
  double bins[2] = {(double)r->outH, (double)r->outW};
  for (int k = 0; k < 2; k++) {
    start[k] = fop(b, loc, "arith.subf", fop(b, loc, "arith.mulf", box[1 - k], scale), offset);
    MlirValue end = fop(b, loc, "arith.subf", fop(b, loc, "arith.mulf", box[3 - k], scale), offset);
    MlirValue extent = fop(b, loc, "arith.subf", end, start[k]);
    if (!r->halfPixel) extent = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGE, extent, one), extent, one);
    bin[k] = fop(b, loc, "arith.divf", extent, f64c(b, loc, bins[k]));
    MlirValue s = r->sampling > 0 ? f64c(b, loc, (double)r->sampling) : emitUnary(b, loc, "math.ceil", bin[k]);
    samples[k] = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, s, zero), s, zero);
  }
  MlirValue total = fop(b, loc, "arith.mulf", samples[0], samples[1]);
  MlirValue count = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, total, one), total, one);
  MlirValue base[2], step[2], ub[2];
  for (int k = 0; k < 2; k++) {
    MlirValue o = emitConvert(b, loc, "arith.sitofp", emitConvert(b, loc, "arith.index_cast", out[2 + k], i64), f64);
    base[k] = fop(b, loc, "arith.addf", start[k], fop(b, loc, "arith.mulf", o, bin[k]));
    step[k] = fop(b, loc, "arith.divf", bin[k], samples[k]);
    /* samples >= 0 and not NaN here; beyond 2^62 the loop would not end anyway */
    ub[k] = emitConvert(b, loc, "arith.index_cast",
                        emitConvert(b, loc, "arith.fptosi", fop(b, loc, "arith.minimumf", samples[k], f64c(b, loc, 4611686018427387904.0)), i64), idx);
  }
  MlirValue init = f64c(b, loc, r->max ? -INFINITY : 0);
  LowerLoop ly, lx;
  lowerForBegin(b, &ly, loc, izero, ub[0], &init, 1);
  lowerForBegin(b, &lx, loc, izero, ub[1], (MlirValue[]){lowerLoopArg(&ly, 0)}, 1);
  MlirValue pos[2], iv[2] = {lowerLoopIv(&ly), lowerLoopIv(&lx)};
  for (int k = 0; k < 2; k++) {
    MlirValue i = emitConvert(b, loc, "arith.sitofp", emitConvert(b, loc, "arith.index_cast", iv[k], i64), f64);
    pos[k] = fop(b, loc, "arith.addf", base[k], fop(b, loc, "arith.mulf", fop(b, loc, "arith.addf", i, half), step[k]));
  }
  MlirValue v[4], acc = lowerLoopArg(&lx, 0);
  roiSample(b, loc, c, n, out[1], pos[0], pos[1], v);
  acc = r->max ? maxOf(b, loc, acc, maxOf(b, loc, maxOf(b, loc, maxOf(b, loc, v[0], v[1]), v[2]), v[3]))
               : fop(b, loc, "arith.addf", acc, fop(b, loc, "arith.addf", fop(b, loc, "arith.addf", fop(b, loc, "arith.addf", v[0], v[1]), v[2]), v[3]));
  lowerForEnd(b, &lx, loc, &acc, 1);
  MlirValue row = strataResult(lx.op, 0);
  lowerForEnd(b, &ly, loc, &row, 1);
  MlirValue result = strataResult(ly.op, 0);
  if (r->max) result = emitSelect(b, loc, emitCmpF(b, loc, CMPF_OEQ, total, zero), zero, result);
  else result = fop(b, loc, "arith.divf", result, count);
  return mlirTypeIsAF64(et) ? result : emitConvert(b, loc, "arith.truncf", result, et);
}

static MlirLogicalResult lowerRoiAlign(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  RoiCtx c = {lowerOperand(op, 0), lowerOperand(op, 1), lowerOperand(op, 2), {NULL}, {0}};
  if (!nnRoiAlignAttrs(op, &c.r) || !lowerRuntimeSite(&rw->builder, op, SHAPE_ERROR_FN, &c.site))
    return mlirLogicalResultFailure();
  MlirValue init = lowerResultInit(&rw->builder, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  char outMap[256], its[5];
  lowerIdentityMap(outMap, sizeof outMap, 4);
  lowerParallelIterators(its, 4);
  const char *maps[] = {outMap};
  MlirValue y = linalgBuildGeneric(&rw->builder, mlirOperationGetLocation(op), (StrataValueList){NULL, 0}, init, maps,
                                   its, bodyRoiAlign, &c);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgSample(LowerRegistry *r) {
  lowerRegister(r, "nn.grid_sample", lowerGridSample, NULL);
  lowerRegister(r, "nn.roi_align", lowerRoiAlign, NULL);
}
