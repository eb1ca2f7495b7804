/* The signal ops -> linalg.generic:
 *  - a window: one generic over its (possibly run-time, lower_dims.c's
 *    R_SIZED) extent computing a0 - a1 cos(t) + a2 cos(2t) in f64;
 *  - DFT and STFT: the direct O(n^2) sum, one generic whose last loop is the
 *    reduction over the signal's samples; dftTerm (shared) is one sample's
 *    contribution to bin k, its angle 2 pi ((k n) mod length) / length
 *    computed in f64 as the interpreter does (dialects/nn/ops_signal.c).
 * DFT and STFT need static shapes (a run-time dft_length, frame_step or
 * frame_length makes a dynamic result, which nn-to-linalg refuses). */
#include <math.h>
#include <stdio.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "nn_signal.h"
#include "lower_internal.h"

static MlirType f64Type(StrataBuilder *b) { return mlirF64TypeGet(b->ctx); }

/* An f64 value as element type et (f16, f32 or f64). */
static MlirValue fromF64(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType et) {
  return mlirTypeEqual(et, f64Type(b)) ? v : emitConvert(b, loc, "arith.truncf", v, et);
}

/* ---- Windows ---- */

typedef struct {
  MlirValue n; /* the f64 divisor: size (periodic) or size - 1 */
  double a0, a1, a2;
  MlirType et;
} Window;

static MlirValue bodyWindow(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)a;
  const Window *w = u;
  MlirType f64 = f64Type(b);
  MlirValue i = lowerIndexToFloat(b, loc, linalgIndex(b, loc, 0), f64);
  MlirValue t = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.mulf", emitConst(b, loc, f64, 2.0 * NN_PI), i),
                           w->n);
  MlirValue y = emitBinary(b, loc, "arith.subf", emitConst(b, loc, f64, w->a0),
                           emitBinary(b, loc, "arith.mulf", emitConst(b, loc, f64, w->a1), emitUnary(b, loc, "math.cos", t)));
  if (w->a2 != 0) {
    MlirValue t2 = emitBinary(b, loc, "arith.addf", t, t);
    y = emitBinary(b, loc, "arith.addf", y,
                   emitBinary(b, loc, "arith.mulf", emitConst(b, loc, f64, w->a2), emitUnary(b, loc, "math.cos", t2)));
  }
  return fromF64(b, loc, y, w->et);
}

static MlirLogicalResult lowerWindow(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  NnWindowKind kind;
  bool periodic;
  if (!nnWindowKind(op, &kind) || !nnWindowPeriodic(op, &periodic)) return mlirLogicalResultFailure();
  Window w = {.et = mlirShapedTypeGetElementType(lowerResultType(op, 0))};
  nnWindowCoefficients(kind, &w.a0, &w.a1, &w.a2);
  MlirValue size = linalgExtract(b, loc, lowerOperand(op, 0), NULL, 0);
  w.n = emitConvert(b, loc, "arith.sitofp", size, f64Type(b));
  if (!periodic) w.n = emitBinary(b, loc, "arith.subf", w.n, emitConst(b, loc, f64Type(b), 1.0));
  MlirValue init = lowerResultInit(b, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  const char *maps[] = {"(d0)"};
  strataReplaceOp(rw, op, STRATA_VALUES(linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, init, maps, "p",
                                                           bodyWindow, &w)));
  return mlirLogicalResultSuccess();
}

/* ---- The DFT sum, shared by DFT and STFT ---- */

typedef struct {
  MlirValue length; /* the transform length (index, >= 1) */
  bool inverse;
  MlirType et;
} DftTerm;

/* Sample n's (xr + i xi; xi null for a real signal) contribution to
 * component c (0 real, 1 imaginary) of bin k, added to acc. */
static MlirValue dftTerm(StrataBuilder *b, MlirLocation loc, const DftTerm *d, MlirValue k, MlirValue n, MlirValue c,
                         MlirValue xr, MlirValue xi, MlirValue acc) {
  MlirType f64 = f64Type(b);
  MlirValue len = d->length;
  MlirValue kn = emitBinary(b, loc, "arith.remui",
                            emitBinary(b, loc, "arith.muli", emitBinary(b, loc, "arith.remui", k, len),
                                       emitBinary(b, loc, "arith.remui", n, len)),
                            len);
  MlirValue lenF = lowerIndexToFloat(b, loc, len, f64);
  MlirValue step = emitBinary(b, loc, "arith.divf", emitConst(b, loc, f64, (d->inverse ? 2.0 : -2.0) * NN_PI), lenF);
  MlirValue angle = emitBinary(b, loc, "arith.mulf", lowerIndexToFloat(b, loc, kn, f64), step);
  MlirValue cs = fromF64(b, loc, emitUnary(b, loc, "math.cos", angle), d->et);
  MlirValue sn = fromF64(b, loc, emitUnary(b, loc, "math.sin", angle), d->et);
  /* (xr + i xi)(cos + i sin) */
  MlirValue re = emitBinary(b, loc, "arith.mulf", xr, cs), im = emitBinary(b, loc, "arith.mulf", xr, sn);
  if (xi.ptr) {
    re = emitBinary(b, loc, "arith.subf", re, emitBinary(b, loc, "arith.mulf", xi, sn));
    im = emitBinary(b, loc, "arith.addf", im, emitBinary(b, loc, "arith.mulf", xi, cs));
  }
  MlirValue v = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, c, lowerIndexConst(b, loc, 0)), re, im);
  if (d->inverse) v = emitBinary(b, loc, "arith.divf", v, fromF64(b, loc, lenF, d->et));
  return emitBinary(b, loc, "arith.addf", acc, v);
}

/* Iterators "p...pr" for `parallel` result loops and the sample loop. */
static void dftIterators(char *its, int parallel) {
  for (int i = 0; i < parallel; i++) its[i] = 'p';
  its[parallel] = 'r';
  its[parallel + 1] = '\0';
}

/* ---- DFT: loops d0..d(r-1) over the result, d(r) over the samples; x is
 * read (sliced to the first min(n, length) samples) through two maps, its
 * last dim at 0 (real part) and 1 (imaginary) ---- */

typedef struct {
  DftTerm term;
  int rank, axis;
  bool complex;
} Dft;

static MlirValue bodyDft(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Dft *d = u;
  MlirValue k = linalgIndex(b, loc, d->axis), n = linalgIndex(b, loc, d->rank), c = linalgIndex(b, loc, d->rank - 1);
  return dftTerm(b, loc, &d->term, k, n, c, a[0], d->complex ? a[1] : (MlirValue){NULL}, a[d->complex ? 2 : 1]);
}

/* The map reading x: the result's dims, the axis at the sample loop, the
 * last dim at `part`. */
static void dftInputMap(char *buf, size_t size, const Dft *d, int part) {
  size_t off = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < d->rank && off < size; i++) {
    if (i == d->rank - 1) off += (size_t)snprintf(buf + off, size - off, "%s%d", i ? ", " : "", part);
    else off += (size_t)snprintf(buf + off, size - off, "%sd%d", i ? ", " : "", i == d->axis ? d->rank : i);
  }
  snprintf(buf + off, size - off, ")");
}

static MlirLogicalResult lowerDft(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0);
  Dft d = {.rank = lowerRank(x), .complex = lowerDim(x, lowerRank(x) - 1) == 2};
  NnDft p;
  if (!nnDftParams(op, d.rank, &p)) return mlirLogicalResultFailure();
  d.axis = (int)p.axis;
  int64_t length = lowerDim(x, d.axis);
  if (mlirOperationGetNumOperands(op) > 1 && nnConstInts(mlirOperationGetOperand(op, 1), &length, 1) != 1) {
    strataEmitError(loc, "nn-to-linalg: a dft_length known only at run time is not compiled");
    return mlirLogicalResultFailure();
  }
  d.term = (DftTerm){lowerIndexConst(b, loc, length), p.inverse, lowerElementType(x)};
  int64_t m = lowerDim(x, d.axis) < length ? lowerDim(x, d.axis) : length;
  if (m < lowerDim(x, d.axis)) { /* truncated: the first `length` samples */
    int64_t offsets[STRATA_MAX_RANK] = {0}, sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
    for (int i = 0; i < d.rank; i++) sizes[i] = lowerDim(x, i), strides[i] = 1;
    sizes[d.axis] = m;
    x = linalgExtractSlice(b, loc, x, offsets, sizes, strides);
  }
  MlirValue init = lowerResultInit(b, op, 0, 0.0);
  if (!init.ptr) return mlirLogicalResultFailure();
  char re[256], im[256], out[256], its[STRATA_MAX_RANK + 2];
  dftInputMap(re, sizeof re, &d, 0);
  dftInputMap(im, sizeof im, &d, 1);
  lowerIdentityMap(out, sizeof out, d.rank);
  dftIterators(its, d.rank);
  const char *maps[] = {re, d.complex ? im : out, out};
  MlirValue y = d.complex ? linalgBuildGeneric(b, loc, STRATA_VALUES(x, x), init, maps, its, bodyDft, &d)
                          : linalgBuildGeneric(b, loc, STRATA_VALUES(x), init, (const char *[]){re, out}, its, bodyDft, &d);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- STFT: loops (batch, frame, bin, part) and the sample loop d4; the
 * window (or ones) is the generic's input along d4, the signal read with
 * tensor.extract at frame * step + sample. frame_step and frame_length may
 * be run-time values: the frame and bin counts are then computed here, and
 * their conditions (step >= 1, 1 <= length <= signal length, a window of
 * that length) checked at run time. ---- */

typedef struct {
  DftTerm term;
  MlirValue signal, step;
  bool complex;
} Stft;

static MlirValue bodyStft(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Stft *s = u;
  MlirValue n = linalgIndex(b, loc, 4);
  MlirValue t = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.muli", linalgIndex(b, loc, 1), s->step), n);
  MlirValue at[3] = {linalgIndex(b, loc, 0), t, lowerIndexConst(b, loc, 0)};
  MlirValue xr = emitBinary(b, loc, "arith.mulf", linalgExtract(b, loc, s->signal, at, 3), a[0]), xi = {NULL};
  if (s->complex) {
    at[2] = lowerIndexConst(b, loc, 1);
    xi = emitBinary(b, loc, "arith.mulf", linalgExtract(b, loc, s->signal, at, 3), a[0]);
  }
  return dftTerm(b, loc, &s->term, linalgIndex(b, loc, 2), n, linalgIndex(b, loc, 3), xr, xi, a[1]);
}

static MlirValue scalarIndex(StrataBuilder *b, MlirLocation loc, MlirValue t) {
  return emitConvert(b, loc, "arith.index_cast", linalgExtract(b, loc, t, NULL, 0), strataIndexType(b->ctx));
}

static MlirValue maxIndex(StrataBuilder *b, MlirLocation loc, MlirValue v, int64_t lo) {
  return emitBinary(b, loc, "arith.maxsi", v, lowerIndexConst(b, loc, lo));
}

static MlirLogicalResult lowerStft(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  const StrataOpDef *def = nnStftDef();
  MlirValue x = lowerOperand(op, 0), window = strataNamedOperand(def, op, "window");
  MlirValue lengthT = strataNamedOperand(def, op, "frame_length"), site = {NULL};
  MlirType rt = lowerResultType(op, 0), et = lowerElementType(x);
  int64_t onesided = 1;
  nnAttrInt(op, "onesided", 1, &onesided);
  Stft s = {.signal = x, .complex = lowerDim(x, 2) == 2};
  MlirValue signalLength = lowerDimValue(b, loc, x, 1), one = lowerIndexConst(b, loc, 1);
  MlirValue step = scalarIndex(b, loc, lowerOperand(op, 1));
  MlirValue length = window.ptr ? lowerDimValue(b, loc, window, 0) : scalarIndex(b, loc, lengthT);
  if (!lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SLT, step, one), 3, 1, 0, step, one) ||
      !lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SLT, length, one), 3, window.ptr ? 2 : 3, 0, length, one) ||
      !lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SGT, length, signalLength), 14, window.ptr ? 2 : 3, 0, length,
                  signalLength))
    return mlirLogicalResultFailure();
  if (window.ptr && lengthT.ptr) {
    MlirValue given = scalarIndex(b, loc, lengthT);
    if (!lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_NE, given, length), 0, 2, 0, length, given))
      return mlirLogicalResultFailure();
  }
  /* Clamped so that no loop runs outside the signal when a check failed. */
  s.step = maxIndex(b, loc, step, 1);
  length = maxIndex(b, loc, length, 1);
  s.term = (DftTerm){length, false, et};
  MlirValue frames = maxIndex(
      b, loc,
      emitBinary(b, loc, "arith.addi",
                 emitBinary(b, loc, "arith.divsi", emitBinary(b, loc, "arith.subi", signalLength, length), s.step), one),
      0);
  MlirValue bins = onesided ? emitBinary(b, loc, "arith.addi",
                                         emitBinary(b, loc, "arith.divsi", length, lowerIndexConst(b, loc, 2)), one)
                            : length;
  MlirValue dims[4] = {lowerDimValue(b, loc, x, 0), frames, bins, lowerIndexConst(b, loc, 2)};
  if (!window.ptr) {
    MlirType wt = mlirRankedTensorTypeGet(1, (int64_t[]){mlirShapedTypeGetDynamicSize()}, et, mlirAttributeGetNull());
    window = lowerInitDims(b, loc, wt, &length, 1.0);
  }
  MlirValue init = lowerInitDims(b, loc, rt, dims, 0.0);
  const char *maps[] = {"(d4)", "(d0, d1, d2, d3)"};
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(window), init, maps, "ppppr", bodyStft, &s);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- MelWeightMatrix: one generic over [dft_length/2+1, num_mel_bins];
 * each element computes its band's three edges (nnMelEdge's formula in
 * f64) and nnMelWeight's choice. The operands' conditions and the edges'
 * rows are checked once, before it, at run time. ---- */

typedef struct {
  MlirValue lowMel, stepMel, scale; /* scale: (dft_length + 1) / sample_rate */
} Mel;

static MlirValue melEdge(StrataBuilder *b, MlirLocation loc, const Mel *m, MlirValue t) {
  MlirType f64 = f64Type(b);
  MlirValue mel = emitBinary(b, loc, "arith.addf", emitBinary(b, loc, "arith.mulf", lowerIndexToFloat(b, loc, t, f64), m->stepMel),
                             m->lowMel);
  MlirValue p = emitBinary(b, loc, "math.powf", emitConst(b, loc, f64, 10.0),
                           emitBinary(b, loc, "arith.divf", mel, emitConst(b, loc, f64, 2595.0)));
  MlirValue hz = emitBinary(b, loc, "arith.mulf", emitConst(b, loc, f64, 700.0),
                            emitBinary(b, loc, "arith.subf", p, emitConst(b, loc, f64, 1.0)));
  MlirValue bin = emitUnary(b, loc, "math.floor", emitBinary(b, loc, "arith.mulf", hz, m->scale));
  bin = emitBinary(b, loc, "arith.minimumf", emitBinary(b, loc, "arith.maximumf", bin, emitConst(b, loc, f64, -4e18)),
                   emitConst(b, loc, f64, 4e18));
  return emitConvert(b, loc, "arith.index_cast", emitConvert(b, loc, "arith.fptosi", bin, mlirIntegerTypeGet(b->ctx, 64)),
                     strataIndexType(b->ctx));
}

static MlirValue ratio(StrataBuilder *b, MlirLocation loc, MlirValue num, MlirValue den) {
  MlirType f64 = f64Type(b);
  MlirValue safe = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, den, lowerIndexConst(b, loc, 0)), lowerIndexConst(b, loc, 1), den);
  return emitBinary(b, loc, "arith.divf", lowerIndexToFloat(b, loc, num, f64), lowerIndexToFloat(b, loc, safe, f64));
}

static MlirValue bodyMel(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const Mel *m = u;
  MlirType f64 = f64Type(b), et = mlirValueGetType(a[0]);
  MlirValue j = linalgIndex(b, loc, 0), i = linalgIndex(b, loc, 1), one = lowerIndexConst(b, loc, 1);
  MlirValue l = melEdge(b, loc, m, i), c = melEdge(b, loc, m, emitBinary(b, loc, "arith.addi", i, one));
  MlirValue h = melEdge(b, loc, m, emitBinary(b, loc, "arith.addi", i, lowerIndexConst(b, loc, 2)));
  MlirValue falling = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGT, h, c),
                                 emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGE, j, c), emitCmpI(b, loc, CMPI_SLT, j, h)));
  MlirValue rising = emitBinary(b, loc, "arith.andi", emitCmpI(b, loc, CMPI_SGE, j, l), emitCmpI(b, loc, CMPI_SLE, j, c));
  MlirValue zero = emitConst(b, loc, f64, 0.0);
  MlirValue flat = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, j, c), emitConst(b, loc, f64, 1.0), zero);
  MlirValue up = emitSelect(b, loc, rising, ratio(b, loc, emitBinary(b, loc, "arith.subi", j, l), emitBinary(b, loc, "arith.subi", c, l)), zero);
  MlirValue v = emitSelect(b, loc, emitCmpI(b, loc, CMPI_EQ, c, l), flat, up);
  v = emitSelect(b, loc, falling, ratio(b, loc, emitBinary(b, loc, "arith.subi", h, j), emitBinary(b, loc, "arith.subi", h, c)), v);
  return fromF64(b, loc, v, et);
}

static MlirValue scalarF64(StrataBuilder *b, MlirLocation loc, MlirValue t) {
  MlirValue v = linalgExtract(b, loc, t, NULL, 0);
  return mlirTypeEqual(mlirValueGetType(v), f64Type(b)) ? v : emitConvert(b, loc, "arith.extf", v, f64Type(b));
}

static MlirLogicalResult lowerMel(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType f64 = f64Type(b);
  MlirValue site = {NULL}, v[3], hz[2], zero = lowerIndexConst(b, loc, 0), one = lowerIndexConst(b, loc, 1);
  for (int k = 0; k < 3; k++) v[k] = scalarIndex(b, loc, lowerOperand(op, k));
  if (!lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SLT, v[0], zero), 3, 0, 0, v[0], zero) ||
      !lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SLT, v[1], one), 3, 1, 0, v[1], one) ||
      !lowerCheck(b, op, &site, emitCmpI(b, loc, CMPI_SLT, v[2], one), 3, 2, 0, v[2], one))
    return mlirLogicalResultFailure();
  MlirValue floor = emitConst(b, loc, f64, -700.0), lowest = lowerIndexConst(b, loc, -699);
  for (int k = 0; k < 2; k++) {
    hz[k] = scalarF64(b, loc, lowerOperand(op, 3 + k));
    /* above -700 Hz and finite (NaN and infinities fail) */
    MlirValue okHz = emitBinary(b, loc, "arith.andi", emitCmpF(b, loc, CMPF_OGT, hz[k], floor),
                                emitCmpF(b, loc, CMPF_OLT, hz[k], emitConst(b, loc, f64, 1e300)));
    MlirValue bad = emitBinary(b, loc, "arith.xori", okHz, emitConvert(b, loc, "arith.index_cast", one, mlirIntegerTypeGet(b->ctx, 1)));
    MlirValue shown = emitConvert(b, loc, "arith.index_cast",
                                  emitConvert(b, loc, "arith.fptosi",
                                              emitSelect(b, loc, okHz, hz[k], floor), mlirIntegerTypeGet(b->ctx, 64)),
                                  strataIndexType(b->ctx));
    if (!lowerCheck(b, op, &site, bad, 3, 3 + k, 0, shown, lowest)) return mlirLogicalResultFailure();
    hz[k] = emitSelect(b, loc, okHz, hz[k], emitConst(b, loc, f64, 0.0));
  }
  MlirValue sr = lowerIndexToFloat(b, loc, emitBinary(b, loc, "arith.maxsi", v[2], one), f64);
  Mel m;
  MlirValue mel[2];
  for (int k = 0; k < 2; k++)
    mel[k] = emitBinary(b, loc, "arith.mulf", emitConst(b, loc, f64, 2595.0),
                        emitUnary(b, loc, "math.log10",
                                  emitBinary(b, loc, "arith.addf", emitConst(b, loc, f64, 1.0),
                                             emitBinary(b, loc, "arith.divf", hz[k], emitConst(b, loc, f64, 700.0)))));
  MlirValue bins = emitBinary(b, loc, "arith.maxsi", v[0], zero);
  m.lowMel = mel[0];
  m.stepMel = emitBinary(b, loc, "arith.divf", emitBinary(b, loc, "arith.subf", mel[1], mel[0]),
                         lowerIndexToFloat(b, loc, emitBinary(b, loc, "arith.addi", bins, lowerIndexConst(b, loc, 2)), f64));
  m.scale = emitBinary(b, loc, "arith.divf", lowerIndexToFloat(b, loc, emitBinary(b, loc, "arith.addi", v[1], one), f64), sr);
  MlirValue rows = emitBinary(b, loc, "arith.addi", emitBinary(b, loc, "arith.divsi", emitBinary(b, loc, "arith.maxsi", v[1], one),
                                                               lowerIndexConst(b, loc, 2)), one);
  /* the rows the reference writes exist (nnMelCheck) */
  MlirValue last = emitBinary(b, loc, "arith.subi", rows, one), any = emitCmpI(b, loc, CMPI_SGT, bins, zero);
  MlirValue edges[3] = {melEdge(b, loc, &m, zero), melEdge(b, loc, &m, bins),
                        emitBinary(b, loc, "arith.subi", melEdge(b, loc, &m, emitBinary(b, loc, "arith.addi", bins, one)), one)};
  for (int k = 0; k < 3; k++) {
    MlirValue outside = k == 2 ? emitCmpI(b, loc, CMPI_SGT, edges[k], last)
                               : emitBinary(b, loc, "arith.ori", emitCmpI(b, loc, CMPI_SLT, edges[k], zero),
                                            emitCmpI(b, loc, CMPI_SGT, edges[k], last));
    if (!lowerCheck(b, op, &site, emitBinary(b, loc, "arith.andi", any, outside), 14, k ? 4 : 3, 0, edges[k], last))
      return mlirLogicalResultFailure();
  }
  MlirValue dims[2] = {rows, bins};
  MlirValue init = lowerInitDims(b, loc, lowerResultType(op, 0), dims, 0.0);
  const char *maps[] = {"(d0, d1)"};
  strataReplaceOp(rw, op, STRATA_VALUES(linalgBuildGeneric(b, loc, (StrataValueList){NULL, 0}, init, maps, "pp", bodyMel, &m)));
  return mlirLogicalResultSuccess();
}

void nnToLinalgSignal(LowerRegistry *r) {
  lowerRegister(r, "nn.hann_window", lowerWindow, NULL);
  lowerRegister(r, "nn.hamming_window", lowerWindow, NULL);
  lowerRegister(r, "nn.blackman_window", lowerWindow, NULL);
  lowerRegister(r, "nn.dft", lowerDft, NULL);
  lowerRegister(r, "nn.stft", lowerStft, NULL);
  lowerRegister(r, "nn.mel_weight_matrix", lowerMel, NULL);
}
