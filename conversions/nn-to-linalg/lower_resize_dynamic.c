/* nn.resize with run-time scales, sizes or roi, or dynamic dims (issues 18,
 * 19): the static lowering's per-dim tap tables (lower_movement.c) are
 * computed in the generic's body instead, from the run-time extents, scales
 * and roi, with the interpreter's arithmetic (nnResizeCoord, nnResizeTaps,
 * nnCubicWeights and interpResize in dialects/nn): the same coordinate
 * transformation, nearest rounding, cubic weights, exclude_outside,
 * extrapolation, clamping and skipped zero weights. Checked at run time:
 * sizes not negative, scales positive, an empty input only to an empty
 * output. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "nn_movement_params.h"
#include "lower_internal.h"

typedef struct {
  MlirValue x;
  int rank;
  NnResize r;
  MlirValue inF[STRATA_MAX_RANK], scale[STRATA_MAX_RANK]; /* f64 */
  MlirValue roi[2 * STRATA_MAX_RANK];                      /* f64, tf_crop_and_resize */
  MlirValue same[STRATA_MAX_RANK]; /* i1: extent and scale unchanged, the coordinate is the index */
} DynResize;

static MlirValue f64c(StrataBuilder *b, MlirLocation loc, double v) { return emitConst(b, loc, mlirF64TypeGet(b->ctx), v); }
static MlirValue fop(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirValue y) {
  return emitBinary(b, loc, name, x, y);
}

/* nnResizeCoord at run time: output index o (f64) to the input coordinate. */
static MlirValue coordinate(StrataBuilder *b, MlirLocation loc, const DynResize *c, int d, MlirValue o) {
  const char *mode = c->r.coord;
  MlirValue s = c->scale[d], half = f64c(b, loc, 0.5), one = f64c(b, loc, 1);
  MlirValue width = fop(b, loc, "arith.mulf", s, c->inF[d]); /* ONNX's resized length, not floored */
  MlirValue halfPixel = fop(b, loc, "arith.subf", fop(b, loc, "arith.divf", fop(b, loc, "arith.addf", o, half), s), half);
  if (!strcmp(mode, "asymmetric")) return fop(b, loc, "arith.divf", o, s);
  if (!strcmp(mode, "align_corners")) {
    MlirValue outOne = emitCmpF(b, loc, CMPF_OEQ, width, one);
    MlirValue v = fop(b, loc, "arith.divf", fop(b, loc, "arith.mulf", o, fop(b, loc, "arith.subf", c->inF[d], one)),
                      fop(b, loc, "arith.subf", width, one));
    return emitSelect(b, loc, outOne, f64c(b, loc, 0), v);
  }
  if (!strcmp(mode, "pytorch_half_pixel"))
    return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OGT, width, one), halfPixel, f64c(b, loc, 0));
  if (!strcmp(mode, "half_pixel_symmetric")) {
    MlirValue adjustment = fop(b, loc, "arith.divf", emitUnary(b, loc, "math.floor", width), width);
    MlirValue center = fop(b, loc, "arith.divf", c->inF[d], f64c(b, loc, 2));
    MlirValue offset = fop(b, loc, "arith.mulf", center, fop(b, loc, "arith.subf", one, adjustment));
    return fop(b, loc, "arith.addf", offset, halfPixel);
  }
  if (!strcmp(mode, "tf_crop_and_resize")) {
    MlirValue start = c->roi[d], end = c->roi[c->rank + d], span = fop(b, loc, "arith.subf", c->inF[d], one);
    MlirValue mid = fop(b, loc, "arith.mulf", fop(b, loc, "arith.mulf", f64c(b, loc, 0.5), fop(b, loc, "arith.addf", start, end)), span);
    MlirValue step = fop(b, loc, "arith.divf", fop(b, loc, "arith.mulf", fop(b, loc, "arith.subf", end, start), span),
                         fop(b, loc, "arith.subf", width, one));
    MlirValue v = fop(b, loc, "arith.addf", fop(b, loc, "arith.mulf", start, span), fop(b, loc, "arith.mulf", o, step));
    return emitSelect(b, loc, emitCmpF(b, loc, CMPF_OEQ, width, one), mid, v);
  }
  return halfPixel;
}

void lowerCubicWeights(StrataBuilder *b, MlirLocation loc, MlirValue t, double a, MlirValue w[4]) {
  /* nnCubicWeights: Keys' kernel at distances 1 + t, t, 1 - t, 2 - t */
  MlirValue one = f64c(b, loc, 1), A = f64c(b, loc, a), A5 = f64c(b, loc, 5 * a), A8 = f64c(b, loc, 8 * a);
  MlirValue A4 = f64c(b, loc, 4 * a), A2 = f64c(b, loc, a + 2), A3 = f64c(b, loc, a + 3);
  MlirValue dist[4] = {fop(b, loc, "arith.addf", t, one), t, fop(b, loc, "arith.subf", one, t),
                       fop(b, loc, "arith.subf", f64c(b, loc, 2), t)};
  for (int k = 0; k < 4; k++) {
    MlirValue s = dist[k];
    if (k == 0 || k == 3) { /* ((a s - 5a) s + 8a) s - 4a */
      MlirValue v = fop(b, loc, "arith.subf", fop(b, loc, "arith.mulf", A, s), A5);
      v = fop(b, loc, "arith.addf", fop(b, loc, "arith.mulf", v, s), A8);
      w[k] = fop(b, loc, "arith.subf", fop(b, loc, "arith.mulf", v, s), A4);
    } else { /* ((a + 2) s - (a + 3)) s s + 1 */
      MlirValue v = fop(b, loc, "arith.subf", fop(b, loc, "arith.mulf", A2, s), A3);
      w[k] = fop(b, loc, "arith.addf", fop(b, loc, "arith.mulf", fop(b, loc, "arith.mulf", v, s), s), one);
    }
  }
}

/* A float index clamped to [0, extent - 1], as an index value (clamping
 * first keeps the conversion defined for any coordinate). */
static MlirValue clampToIndex(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirValue extentF) {
  v = fop(b, loc, "arith.maximumf", v, f64c(b, loc, 0));
  v = fop(b, loc, "arith.minimumf", v, fop(b, loc, "arith.subf", extentF, f64c(b, loc, 1)));
  MlirValue i = emitConvert(b, loc, "arith.fptosi", v, mlirIntegerTypeGet(b->ctx, 64));
  return emitConvert(b, loc, "arith.index_cast", i, strataIndexType(b->ctx));
}

/* nnResizeNearest's rounding. */
static MlirValue nearest(StrataBuilder *b, MlirLocation loc, const DynResize *c, MlirValue x) {
  const char *mode = c->r.nearest;
  MlirValue f = emitUnary(b, loc, "math.floor", x);
  if (!strcmp(mode, "floor")) return f;
  if (!strcmp(mode, "ceil")) return emitUnary(b, loc, "math.ceil", x);
  MlirValue tie = emitCmpF(b, loc, CMPF_OEQ, fop(b, loc, "arith.subf", x, f), f64c(b, loc, 0.5));
  MlirValue atTie = !strcmp(mode, "round_prefer_ceil") ? fop(b, loc, "arith.addf", f, f64c(b, loc, 1)) : f;
  return emitSelect(b, loc, tie, atTie, emitUnary(b, loc, "math.round", x));
}

/* One dim's taps at coordinate cd, as nnResizeTaps: indices (clamped) and
 * weights; returns their count. */
static int dimTaps(StrataBuilder *b, MlirLocation loc, const DynResize *c, int d, MlirValue cd, MlirValue *idx,
                   MlirValue *w) {
  if (!strcmp(c->r.mode, "nearest")) {
    idx[0] = clampToIndex(b, loc, nearest(b, loc, c, cd), c->inF[d]);
    return 1;
  }
  MlirValue f = emitUnary(b, loc, "math.floor", cd), frac = fop(b, loc, "arith.subf", cd, f), pos[4];
  int n = !strcmp(c->r.mode, "linear") ? 2 : 4;
  if (n == 2) {
    w[0] = fop(b, loc, "arith.subf", f64c(b, loc, 1), frac), w[1] = frac;
    pos[0] = f, pos[1] = fop(b, loc, "arith.addf", f, f64c(b, loc, 1));
  } else {
    lowerCubicWeights(b, loc, frac, c->r.cubicA, w);
    for (int k = 0; k < 4; k++) pos[k] = fop(b, loc, "arith.addf", f, f64c(b, loc, k - 1));
  }
  if (c->r.exclude) { /* taps outside the input get no weight; the rest sum to 1 */
    MlirValue zero = f64c(b, loc, 0), last = fop(b, loc, "arith.subf", c->inF[d], f64c(b, loc, 1)), sum = zero;
    for (int k = 0; k < n; k++) {
      MlirValue inside = emitBinary(b, loc, "arith.andi", emitCmpF(b, loc, CMPF_OGE, pos[k], zero),
                                    emitCmpF(b, loc, CMPF_OLE, pos[k], last));
      w[k] = emitSelect(b, loc, inside, w[k], zero);
      sum = fop(b, loc, "arith.addf", sum, w[k]);
    }
    MlirValue nonzero = emitCmpF(b, loc, CMPF_UNE, sum, zero);
    for (int k = 0; k < n; k++) w[k] = emitSelect(b, loc, nonzero, fop(b, loc, "arith.divf", w[k], sum), w[k]);
  }
  for (int k = 0; k < n; k++) idx[k] = clampToIndex(b, loc, pos[k], c->inF[d]);
  return n;
}

static MlirValue bodyResizeDynamic(StrataBuilder *b, MlirLocation loc, const MlirValue *args, void *u) {
  (void)args;
  const DynResize *c = u;
  bool crop = !strcmp(c->r.coord, "tf_crop_and_resize");
  MlirType f64 = mlirF64TypeGet(b->ctx), i64 = mlirIntegerTypeGet(b->ctx, 64), et = lowerElementType(c->x);
  MlirValue idx[STRATA_MAX_RANK][4], w[STRATA_MAX_RANK][4], outside = {NULL}, zero = f64c(b, loc, 0);
  int taps[STRATA_MAX_RANK], corners = 1;
  for (int d = 0; d < c->rank; d++) {
    MlirValue o = emitConvert(b, loc, "arith.sitofp",
                              emitConvert(b, loc, "arith.index_cast", linalgIndex(b, loc, d), i64), f64);
    MlirValue cd = crop ? coordinate(b, loc, c, d, o) : emitSelect(b, loc, c->same[d], o, coordinate(b, loc, c, d, o));
    if (crop) { /* nnResizeOutside */
      MlirValue in = emitBinary(b, loc, "arith.andi", emitCmpF(b, loc, CMPF_OGE, cd, zero),
                                emitCmpF(b, loc, CMPF_OLE, cd, fop(b, loc, "arith.subf", c->inF[d], f64c(b, loc, 1))));
      MlirValue out = emitBinary(b, loc, "arith.xori", in, emitConst(b, loc, mlirIntegerTypeGet(b->ctx, 1), 1));
      outside = mlirValueIsNull(outside) ? out : emitBinary(b, loc, "arith.ori", outside, out);
    }
    taps[d] = dimTaps(b, loc, c, d, cd, idx[d], w[d]);
    corners *= taps[d];
  }
  MlirValue acc = zero;
  for (int corner = 0; corner < corners; corner++) {
    MlirValue at[STRATA_MAX_RANK], weight = f64c(b, loc, 1);
    for (int d = 0, rest = corner; d < c->rank; d++) {
      int k = rest % taps[d];
      rest /= taps[d];
      at[d] = idx[d][k];
      if (taps[d] > 1) weight = fop(b, loc, "arith.mulf", weight, w[d][k]);
    }
    MlirValue v = linalgExtract(b, loc, c->x, at, c->rank);
    if (corners == 1) return crop ? emitSelect(b, loc, outside, emitConst(b, loc, et, c->r.extrapolation), v) : v;
    if (!mlirTypeIsAF64(et)) v = emitConvert(b, loc, "arith.extf", v, f64);
    /* a zero weight adds nothing, even to an infinite element (as interpResize) */
    MlirValue term = emitSelect(b, loc, emitCmpF(b, loc, CMPF_UNE, weight, zero), fop(b, loc, "arith.mulf", weight, v), zero);
    acc = fop(b, loc, "arith.addf", acc, term);
  }
  MlirValue result = mlirTypeIsAF64(et) ? acc : emitConvert(b, loc, "arith.truncf", acc, et);
  return crop ? emitSelect(b, loc, outside, emitConst(b, loc, et, c->r.extrapolation), result) : result;
}

MlirValue lowerResizeDynamic(StrataBuilder *b, MlirOperation op, const StrataOpDef *def) {
  MlirLocation loc = mlirOperationGetLocation(op);
  DynResize c = {.x = lowerOperand(op, 0), .rank = lowerRank(lowerOperand(op, 0))};
  if (!nnResizeAttrs(op, &c.r)) return (MlirValue){NULL};
  bool hasSizes = nnHasOperand(def, op, "sizes");
  MlirValue given = strataNamedOperand(def, op, hasSizes ? "sizes" : "scales"), site = {NULL};
  int operand = hasSizes ? 3 : 2;
  if (lowerDim(given, 0) != c.rank) {
    strataEmitError(loc, "nn-to-linalg: a dynamic 'nn.resize' needs %s of a static length", hasSizes ? "sizes" : "scales");
    return (MlirValue){NULL};
  }
  MlirType f64 = mlirF64TypeGet(b->ctx), i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue out[STRATA_MAX_RANK], zero = lowerIndexConst(b, loc, 0);
  for (int d = 0; d < c.rank; d++) {
    MlirValue in = lowerDimValue(b, loc, c.x, d);
    c.inF[d] = lowerIndexToFloat(b, loc, in, f64);
    MlirValue e = linalgExtract(b, loc, given, (MlirValue[]){lowerIndexConst(b, loc, d)}, 1);
    if (hasSizes) {
      out[d] = emitConvert(b, loc, "arith.index_cast", e, strataIndexType(b->ctx));
      if (!lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SLT, out[d], zero), 3, operand, d, out[d], zero))
        return (MlirValue){NULL};
      c.scale[d] = fop(b, loc, "arith.divf", lowerIndexToFloat(b, loc, out[d], f64), c.inF[d]);
    } else {
      c.scale[d] = mlirTypeIsAF64(mlirValueGetType(e)) ? e : emitConvert(b, loc, "arith.extf", e, f64);
      MlirValue bad = emitBinary(b, loc, "arith.xori", emitCmpF(b, loc, CMPF_OGT, c.scale[d], f64c(b, loc, 0)),
                                 emitConst(b, loc, mlirIntegerTypeGet(b->ctx, 1), 1));
      if (!lowerCheck(b, op, &site, bad, 10, operand, d, zero, zero)) return (MlirValue){NULL};
      /* floor(extent * scale), kept below 2^62: a larger extent fails its allocation, located */
      MlirValue n = emitUnary(b, loc, "math.floor", fop(b, loc, "arith.mulf", c.inF[d], c.scale[d]));
      n = fop(b, loc, "arith.minimumf", n, f64c(b, loc, 4611686018427387904.0));
      out[d] = emitConvert(b, loc, "arith.index_cast", emitConvert(b, loc, "arith.fptosi", n, i64), strataIndexType(b->ctx));
    }
    /* an empty input has nothing to resize into a non-empty output */
    MlirValue emptyIn = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_EQ, in, zero),
                                   emitCmpI(b, loc, CMPI_SGT, out[d], zero));
    if (!lowerCheck(b, op, &site, emptyIn, 0, 0, d, in, lowerIndexConst(b, loc, 1))) return (MlirValue){NULL};
    c.same[d] = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_EQ, in, out[d]),
                           emitCmpF(b, loc, CMPF_OEQ, c.scale[d], f64c(b, loc, 1)));
  }
  if (!strcmp(c.r.coord, "tf_crop_and_resize")) { /* the roi's starts and ends, as f64 */
    MlirValue roi = strataNamedOperand(def, op, "roi");
    if (lowerDim(roi, 0) != 2 * c.rank) {
      strataEmitError(loc, "nn-to-linalg: 'nn.resize' needs roi of a static length %d", 2 * c.rank);
      return (MlirValue){NULL};
    }
    for (int i = 0; i < 2 * c.rank; i++) {
      MlirValue e = linalgExtract(b, loc, roi, (MlirValue[]){lowerIndexConst(b, loc, i)}, 1);
      c.roi[i] = mlirTypeIsAF64(mlirValueGetType(e)) ? e : emitConvert(b, loc, "arith.extf", e, f64);
    }
  }
  return lowerGenerateChecked(b, op, &site, -1, out, bodyResizeDynamic, &c);
}
