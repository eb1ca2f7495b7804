/* nn.grid_sample -> one linalg.generic over the result whose body reads
 * the grid with tensor.extract and blends the input's taps: the
 * interpreter's arithmetic (dialects/nn/ops_sample.c) op for op --
 * unnormalize, pad (border clamp, reflection), nearest (round half to
 * even) / linear / cubic taps (lowerCubicWeights, shared with Resize), a
 * tap outside the input (or at a NaN coordinate) adding nothing. */
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

void nnToLinalgSample(LowerRegistry *r) { lowerRegister(r, "nn.grid_sample", lowerGridSample, NULL); }
