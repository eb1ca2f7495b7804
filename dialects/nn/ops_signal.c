/* Signal processing: the window functions (HannWindow, HammingWindow,
 * BlackmanWindow), DFT and STFT. The DFT is the direct O(n^2) sum, exact to
 * float rounding (nnDftLine is shared by DFT and STFT); the lowering
 * (conversions/nn-to-linalg/lower_signal.c) computes the same sum. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nn_internal.h"
#include "nn_signal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

/* ---- Shared: scalar integer operands, the DFT sum ---- */

/* A scalar integer operand: checks its type; *value is its constant value,
 * or -1 when it is a run-time value. False after an error. */
static bool scalarInt(const StrataOpDef *def, MlirOperation op, const char *name, int64_t *value) {
  StrataShape s;
  if (!nnOperand(def, op, name, &s) || !nnCheckType(op, name, &s, NN_INDEX)) return false;
  if (s.rank != 0) {
    char d[300];
    nnError(op, "%s must be a scalar (rank 0)", nnDescribe(name, &s, d, sizeof d));
    return false;
  }
  *value = -1;
  if (nnConstInts(strataNamedOperand(def, op, name), value, 1) == 1 && *value < 0) {
    nnError(op, "operand '%s' is %lld; it must not be negative", name, (long long)*value);
    return false;
  }
  return true;
}

void nnDftLine(const double *re, const double *im, int64_t m, int64_t length, int64_t bins, bool inverse,
               double *outRe, double *outIm) {
  double sign = inverse ? 1.0 : -1.0, scale = inverse ? 1.0 / (double)length : 1.0;
  for (int64_t k = 0; k < bins; k++) {
    double sr = 0, si = 0;
    for (int64_t n = 0; n < m; n++) {
      /* (k * n) mod length keeps the angle in [0, 2pi): exact for any k, n */
      double a = sign * 2.0 * NN_PI * (double)((k % length) * (n % length) % length) / (double)length;
      double c = cos(a), s = sin(a);
      sr += re[n] * c - im[n] * s;
      si += re[n] * s + im[n] * c;
    }
    outRe[k] = sr * scale;
    outIm[k] = si * scale;
  }
}

/* ---- Windows ---- */

bool nnWindowKind(MlirOperation op, NnWindowKind *kind) {
  static const char *const kNames[] = {"nn.hann_window", "nn.hamming_window", "nn.blackman_window"};
  for (int i = 0; i < 3; i++)
    if (strataOpIsNamed(op, kNames[i])) {
      *kind = (NnWindowKind)i;
      return true;
    }
  return false;
}

bool nnWindowPeriodic(MlirOperation op, bool *periodic) {
  int64_t p;
  if (!nnAttrInt(op, "periodic", 1, &p)) return false;
  if (p != 0 && p != 1) {
    nnError(op, "attribute 'periodic' is %lld; it must be 0 or 1", (long long)p);
    return false;
  }
  *periodic = p;
  return true;
}

void nnWindowCoefficients(NnWindowKind kind, double *a0, double *a1, double *a2) {
  *a2 = 0;
  if (kind == NN_WINDOW_HANN) *a0 = 0.5, *a1 = 0.5;
  else if (kind == NN_WINDOW_HAMMING) *a0 = 25.0 / 46.0, *a1 = 1.0 - 25.0 / 46.0;
  else *a0 = 0.42, *a1 = 0.5, *a2 = 0.08;
}

static MlirLogicalResult inferWindow(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  int64_t size;
  bool periodic;
  if (!scalarInt(def, op, "size", &size) || !nnWindowPeriodic(op, &periodic)) return fail();
  /* The element type is the declared one (ONNX's output_datatype; the
   * importer casts a float window to an integer one). */
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  StrataShape probe = {.rank = 0, .elementType = mlirShapedTypeGetElementType(rt)};
  if (!mlirTypeIsATensor(rt) || !nnCheckType(op, "result", &probe, NN_FLOAT)) return fail();
  nnSetShape(res, 1, &size, probe.elementType);
  return ok();
}

static MlirLogicalResult interpWindow(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  NnWindowKind kind;
  bool periodic;
  if (!nnWindowKind(op, &kind) || !nnWindowPeriodic(op, &periodic)) return fail();
  int64_t size = nnGetInt(x[0], 0);
  if (size < 0) return nnInterpError(op, "operand 'size' is %lld; it must not be negative", (long long)size);
  if (!y[0]) {
    MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
    y[0] = strataTensorCreate(strataDTypeFromMlir(mlirShapedTypeGetElementType(rt)), 1, &size);
    if (!y[0]) return nnInterpError(op, "cannot allocate the result");
  }
  if (y[0]->dims[0] != size) return nnInterpError(op, "result length disagrees with size %lld", (long long)size);
  double a0, a1, a2, n = (double)(periodic ? size : size - 1);
  nnWindowCoefficients(kind, &a0, &a1, &a2);
  for (int64_t i = 0; i < size; i++) {
    double t = 2.0 * NN_PI * (double)i / n; /* 0/0 (symmetric, size 1) is NaN, as ONNX computes it */
    strataTensorSetDouble(y[0], i, a0 - a1 * cos(t) + a2 * cos(2.0 * t));
  }
  return ok();
}

/* ---- DFT ---- */

bool nnDftParams(MlirOperation op, int rank, NnDft *p) {
  int64_t inverse, onesided;
  if (!nnAttrInt(op, "axis", 1, &p->axis) || !nnAttrInt(op, "inverse", 0, &inverse) ||
      !nnAttrInt(op, "onesided", 0, &onesided))
    return false;
  if ((inverse != 0 && inverse != 1) || (onesided != 0 && onesided != 1)) {
    nnError(op, "attributes 'inverse' and 'onesided' must be 0 or 1, got %lld and %lld", (long long)inverse,
            (long long)onesided);
    return false;
  }
  /* the last dim holds the (real, imaginary) parts: not a signal axis */
  if (p->axis < -rank || p->axis > rank - 2 || p->axis == -1) {
    nnError(op, "axis %lld is not a signal axis of the rank-%d input: it must be in [%d, -2] or [0, %d]",
            (long long)p->axis, rank, -rank, rank - 2);
    return false;
  }
  if (p->axis < 0) p->axis += rank;
  p->inverse = inverse, p->onesided = onesided;
  return true;
}

/* The signal's last dim: 1 (real) or 2 (complex), static. */
static bool checkSignal(MlirOperation op, const char *name, const StrataShape *x, int minRank) {
  if (!nnCheckType(op, name, x, NN_FLOAT)) return false;
  if (x->rank < minRank || (x->dims[x->rank - 1] != 1 && x->dims[x->rank - 1] != 2)) {
    char d[300];
    nnError(op, "%s must have rank >= %d and a last dim of 1 (real) or 2 (complex)", nnDescribe(name, x, d, sizeof d),
            minRank);
    return false;
  }
  return true;
}

static bool onesidedReal(MlirOperation op, bool onesided, const StrataShape *x) {
  if (onesided && x->dims[x->rank - 1] == 2) {
    nnError(op, "a onesided transform needs a real input (last dim 1), not a complex one");
    return false;
  }
  return true;
}

static MlirLogicalResult inferDft(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  NnDft p;
  int64_t length = -1;
  if (!nnOperand(def, op, "input", &x) || !checkSignal(op, "input", &x, 2) || !nnDftParams(op, x.rank, &p) ||
      !onesidedReal(op, p.onesided, &x))
    return fail();
  if (nnHasOperand(def, op, "dft_length")) {
    if (!scalarInt(def, op, "dft_length", &length)) return fail();
    if (length == 0) {
      nnError(op, "operand 'dft_length' is 0; it must be positive");
      return fail();
    }
  } else {
    length = x.dims[p.axis];
    if (length == 0) {
      nnError(op, "the signal axis %lld is empty and no dft_length is given", (long long)p.axis);
      return fail();
    }
  }
  *res = x;
  res->dims[p.axis] = length < 0 ? -1 : p.onesided ? length / 2 + 1 : length;
  res->dims[x.rank - 1] = 2;
  return ok();
}

/* Reads element (re, im) of x at flat offset `at` (last dim c of 1 or 2). */
static void readComplex(const StrataTensor *x, int64_t at, double *re, double *im) {
  *re = strataTensorGetDouble(x, at);
  *im = x->dims[x->rank - 1] == 2 ? strataTensorGetDouble(x, at + 1) : 0.0;
}

static MlirLogicalResult interpDft(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  const StrataTensor *X = x[0];
  NnDft p;
  if (!nnDftParams(op, X->rank, &p)) return fail();
  int64_t n = X->dims[p.axis], length = mlirOperationGetNumOperands(op) > 1 ? nnGetInt(x[1], 0) : n;
  if (length < 1) return nnInterpError(op, "the transform length is %lld; it must be positive", (long long)length);
  int64_t bins = p.onesided ? length / 2 + 1 : length, m = n < length ? n : length;
  if (!y[0]) {
    int64_t dims[STRATA_MAX_RANK];
    memcpy(dims, X->dims, sizeof dims);
    dims[p.axis] = bins, dims[X->rank - 1] = 2;
    y[0] = strataTensorCreate(X->dtype, X->rank, dims);
    if (!y[0]) return nnInterpError(op, "cannot allocate the result");
  }
  if (y[0]->dims[p.axis] != bins) return nnInterpError(op, "result extent disagrees with %lld bins", (long long)bins);
  if (strataTensorNumElements(y[0]) == 0) return ok(); /* no lines (an empty batch dim) */
  int64_t xs[STRATA_MAX_RANK], ys[STRATA_MAX_RANK], idx[STRATA_MAX_RANK] = {0}, lineDims[STRATA_MAX_RANK];
  nnStrides(X, xs);
  nnStrides(y[0], ys);
  /* one line per index of the dims other than the axis and the last */
  memcpy(lineDims, X->dims, sizeof lineDims);
  lineDims[p.axis] = 1, lineDims[X->rank - 1] = 1;
  double *buf = malloc(sizeof(double) * (size_t)(2 * m + 2 * bins + 2));
  if (!buf) return nnInterpError(op, "cannot allocate the DFT's scratch");
  double *re = buf, *im = buf + m, *oRe = buf + 2 * m, *oIm = buf + 2 * m + bins;
  do {
    int64_t xo = 0, yo = 0;
    for (int d = 0; d < X->rank; d++) xo += idx[d] * xs[d], yo += idx[d] * ys[d];
    for (int64_t i = 0; i < m; i++) readComplex(X, xo + i * xs[p.axis], &re[i], &im[i]);
    nnDftLine(re, im, m, length, bins, p.inverse, oRe, oIm);
    for (int64_t k = 0; k < bins; k++) {
      strataTensorSetDouble(y[0], yo + k * ys[p.axis], oRe[k]);
      strataTensorSetDouble(y[0], yo + k * ys[p.axis] + 1, oIm[k]);
    }
  } while (nnNextIndex(idx, lineDims, X->rank));
  free(buf);
  return ok();
}

/* ---- STFT ---- */

static MlirLogicalResult interpStft(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y);

/* The frame length from `frame_length` or the window's extent (equal when
 * both are given); -1 when it is a run-time value. */
static bool stftFrameLength(const StrataOpDef *def, MlirOperation op, const StrataShape *signal, int64_t *length) {
  bool hasWindow = nnHasOperand(def, op, "window"), hasLength = nnHasOperand(def, op, "frame_length");
  int64_t fromWindow = -1;
  *length = -1;
  if (!hasWindow && !hasLength) {
    nnError(op, "needs a 'window' or a 'frame_length' operand");
    return false;
  }
  if (hasWindow) {
    StrataShape w;
    if (!nnOperand(def, op, "window", &w) || !nnSameType(op, "signal", signal, "window", &w)) return false;
    if (w.rank != 1) {
      char d[300];
      nnError(op, "%s must be 1-D", nnDescribe("window", &w, d, sizeof d));
      return false;
    }
    fromWindow = *length = w.dims[0];
  }
  if (hasLength && !scalarInt(def, op, "frame_length", length)) return false;
  if (hasWindow && hasLength && fromWindow >= 0 && *length >= 0 && fromWindow != *length) {
    nnError(op, "operand 'frame_length' is %lld but the window has %lld elements", (long long)*length,
            (long long)fromWindow);
    return false;
  }
  if (*length < 0) *length = fromWindow;
  if (*length == 0) {
    nnError(op, "the frame length is 0; it must be positive");
    return false;
  }
  return true;
}

bool nnStftFrames(MlirOperation op, int64_t signalLength, int64_t frameLength, int64_t step, int64_t *frames) {
  if (step <= 0) {
    nnError(op, "operand 'frame_step' is %lld; it must be positive", (long long)step);
    return false;
  }
  if (frameLength > signalLength) {
    nnError(op, "the frame length %lld is longer than the signal (%lld)", (long long)frameLength,
            (long long)signalLength);
    return false;
  }
  *frames = (signalLength - frameLength) / step + 1;
  return true;
}

static MlirLogicalResult inferStft(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  int64_t step, length, onesided, frames = -1;
  if (!nnOperand(def, op, "signal", &x) || !checkSignal(op, "signal", &x, 3) ||
      !scalarInt(def, op, "frame_step", &step) || !stftFrameLength(def, op, &x, &length) ||
      !nnAttrInt(op, "onesided", 1, &onesided))
    return fail();
  if (x.rank != 3) {
    char d[300];
    nnError(op, "%s must be [batch, length, 1 or 2]", nnDescribe("signal", &x, d, sizeof d));
    return fail();
  }
  if (onesided != 0 && onesided != 1) {
    nnError(op, "attribute 'onesided' is %lld; it must be 0 or 1", (long long)onesided);
    return fail();
  }
  if (!onesidedReal(op, onesided, &x)) return fail();
  if (step == 0) {
    nnError(op, "operand 'frame_step' is 0; it must be positive");
    return fail();
  }
  if (step > 0 && length > 0 && x.dims[1] >= 0 && !nnStftFrames(op, x.dims[1], length, step, &frames)) return fail();
  int64_t dims[4] = {x.dims[0], frames, length < 0 ? -1 : onesided ? length / 2 + 1 : length, 2};
  nnSetShape(res, 4, dims, x.elementType);
  return ok();
}


/* ---- MelWeightMatrix ---- */

/* Bin t of the num_mel_bins + 2 edges, as ONNX's reference computes it:
 * equal steps of (high - low) / (num_mel_bins + 2) in mel (2595 log10(1 +
 * hz / 700)), back to hertz, then floor((dft_length + 1) hz / sample_rate). */
int64_t nnMelEdge(int64_t t, const NnMel *m) {
  double lowMel = 2595.0 * log10(1.0 + m->lowHz / 700.0), highMel = 2595.0 * log10(1.0 + m->highHz / 700.0);
  double mel = (double)t * ((highMel - lowMel) / (double)(m->bins + 2)) + lowMel;
  double hz = 700.0 * (pow(10.0, mel / 2595.0) - 1.0);
  double bin = floor((double)(m->dftLength + 1) * hz / (double)m->sampleRate);
  return bin > 4e18 ? INT64_MAX : bin < -4e18 ? INT64_MIN : (int64_t)bin; /* far outside any row */
}

double nnMelWeight(int64_t j, int64_t l, int64_t c, int64_t h) {
  if (h > c && j >= c && j < h) return (double)(h - j) / (double)(h - c); /* the falling edge, written last */
  if (c == l) return j == c ? 1.0 : 0.0;
  return j >= l && j <= c ? (double)(j - l) / (double)(c - l) : 0.0;
}

bool nnMelCheck(MlirOperation op, const NnMel *m) {
  if (m->bins < 0 || m->dftLength < 1 || m->sampleRate < 1 || !(m->lowHz > -700.0) || !(m->highHz > -700.0) ||
      !isfinite(m->lowHz) || !isfinite(m->highHz)) {
    nnError(op, "needs num_mel_bins >= 0, dft_length >= 1, sample_rate >= 1 and finite edges above -700 Hz; got "
                "%lld, %lld, %lld, %g and %g",
            (long long)m->bins, (long long)m->dftLength, (long long)m->sampleRate, m->lowHz, m->highHz);
    return false;
  }
  /* The rows the reference writes (edges 0 to num_mel_bins, and edge
   * num_mel_bins + 1 less one) must exist: it would wrap a negative one. */
  int64_t first = nnMelEdge(0, m), last = nnMelEdge(m->bins, m), end = nnMelEdge(m->bins + 1, m) - 1;
  int64_t rows = m->dftLength / 2 + 1;
  if (m->bins > 0 && (first < 0 || first >= rows || last < 0 || last >= rows || end >= rows)) {
    nnError(op, "the mel bands reach spectrogram bins %lld to %lld, outside the %lld bins of dft_length %lld",
            (long long)first, (long long)(last > end ? last : end), (long long)rows, (long long)m->dftLength);
    return false;
  }
  return true;
}

static MlirLogicalResult inferMel(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  static const char *const kInts[] = {"num_mel_bins", "dft_length", "sample_rate"};
  static const char *const kFloats[] = {"lower_edge_hertz", "upper_edge_hertz"};
  int64_t v[3];
  double hz[2];
  bool known = true;
  for (int i = 0; i < 3; i++) {
    if (!scalarInt(def, op, kInts[i], &v[i])) return fail();
    known &= v[i] >= 0;
  }
  for (int i = 0; i < 2; i++) {
    StrataShape s;
    if (!nnOperand(def, op, kFloats[i], &s) || !nnCheckType(op, kFloats[i], &s, NN_FLOAT)) return fail();
    if (s.rank != 0) {
      nnError(op, "operand '%s' must be a scalar (rank 0)", kFloats[i]);
      return fail();
    }
    known &= nnConstDoubles(strataNamedOperand(def, op, kFloats[i]), &hz[i], 1) == 1;
  }
  NnMel m = {v[0], v[1], v[2], hz[0], hz[1]};
  if (known && !nnMelCheck(op, &m)) return fail();
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  StrataShape probe = {.rank = 0, .elementType = mlirShapedTypeGetElementType(rt)};
  if (!mlirTypeIsATensor(rt) || !nnCheckType(op, "result", &probe, NN_FLOAT)) return fail();
  int64_t dims[2] = {v[1] < 0 ? -1 : v[1] / 2 + 1, v[0]};
  nnSetShape(res, 2, dims, probe.elementType);
  return ok();
}

static MlirLogicalResult interpMel(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  NnMel m = {nnGetInt(x[0], 0), nnGetInt(x[1], 0), nnGetInt(x[2], 0), strataTensorGetDouble(x[3], 0),
             strataTensorGetDouble(x[4], 0)};
  if (!nnMelCheck(op, &m)) return fail();
  int64_t dims[2] = {m.dftLength / 2 + 1, m.bins};
  if (!y[0]) {
    MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
    y[0] = strataTensorCreate(strataDTypeFromMlir(mlirShapedTypeGetElementType(rt)), 2, dims);
    if (!y[0]) return nnInterpError(op, "cannot allocate the result");
  }
  if (y[0]->dims[0] != dims[0] || y[0]->dims[1] != dims[1]) return nnInterpError(op, "result shape disagrees");
  for (int64_t i = 0; i < m.bins; i++) {
    int64_t l = nnMelEdge(i, &m), c = nnMelEdge(i + 1, &m), h = nnMelEdge(i + 2, &m);
    for (int64_t j = 0; j < dims[0]; j++) strataTensorSetDouble(y[0], j * m.bins + i, nnMelWeight(j, l, c, h));
  }
  return ok();
}

static const StrataAttrDef kWindowAttrs[] = {
    {"periodic", STRATA_ATTR_INT, STRATA_ATTR_OPTIONAL, NULL, "1 (default): periodic (divides by size), 0: symmetric"},
};
static const StrataAttrDef kDftAttrs[] = {
    {"axis", STRATA_ATTR_INT, STRATA_ATTR_OPTIONAL, NULL, "the signal axis (default 1; not the last dim)"},
    {"inverse", STRATA_ATTR_INT, STRATA_ATTR_OPTIONAL, NULL, "1: the inverse transform (scaled by 1/length)"},
    {"onesided", STRATA_ATTR_INT, STRATA_ATTR_OPTIONAL, NULL, "1: only the bins 0..length/2 (real input)"},
};
static const StrataAttrDef kStftAttrs[] = {
    {"onesided", STRATA_ATTR_INT, STRATA_ATTR_OPTIONAL, NULL, "1 (default): only the bins 0..length/2 (real signal)"},
};

#define WINDOW(op, what)                                                                                       \
  {.name = "nn." op, .summary = what " window of `size` elements (periodic or symmetric)", .operands = "size",  \
   .results = "output", .flags = STRATA_OP_PURE, .infer = inferWindow, .interpret = interpWindow,             \
   .mapping = nnMapOneToMany, .dynamism = STRATA_DYN_ISVDOS, .types = "i32 i64 -> f16 f32 f64",                \
   .attrs = kWindowAttrs, .numAttrs = 1}

static const StrataOpDef kOps[] = {
    WINDOW("hann_window", "the Hann"),
    WINDOW("hamming_window", "the Hamming"),
    WINDOW("blackman_window", "the Blackman"),
    {.name = "nn.dft",
     .summary = "discrete Fourier transform along `axis` of a real (last dim 1) or complex (last dim 2) signal, "
                "truncated or zero-padded to dft_length; direct O(n^2) sum",
     .operands = "input, dft_length?",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferDft,
     .interpret = interpDft,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISVDOS,
     .types = "f16 bf16 f32 f64",
     .attrs = kDftAttrs,
     .numAttrs = sizeof kDftAttrs / sizeof kDftAttrs[0]},
    {.name = "nn.stft",
     .summary = "short-time Fourier transform of [batch, length, 1|2] signals: frames every frame_step, times the "
                "window, each transformed (direct O(n^2) sum)",
     .operands = "signal, frame_step, window?, frame_length?",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferStft,
     .interpret = interpStft,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISVDOS,
     .types = "f16 bf16 f32 f64",
     .attrs = kStftAttrs,
     .numAttrs = 1},
    {.name = "nn.mel_weight_matrix",
     .summary = "[dft_length/2+1, num_mel_bins] triangular mel-band weights over the spectrogram bins (ONNX's "
                "reference formula)",
     .operands = "num_mel_bins, dft_length, sample_rate, lower_edge_hertz, upper_edge_hertz",
     .results = "output",
     .flags = STRATA_OP_PURE,
     .infer = inferMel,
     .interpret = interpMel,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISVDOS,
     .types = "i32 i64 f16 f32 f64 -> f16 f32 f64"},
};

const StrataOpTable nnSignalTable = {kOps, sizeof kOps / sizeof kOps[0]};

const StrataOpDef *nnStftDef(void) { return &kOps[4]; }

/* Operand `group` of the STFT (by its position in the spec) among x, or NULL. */
static const StrataTensor *stftInput(MlirOperation op, StrataTensor *const *x, int group) {
  intptr_t start, size;
  if (!strataOperandGroup(&kOps[4], op, group, &start, &size) || size == 0) return NULL;
  return x[start];
}

static MlirLogicalResult interpStft(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  const StrataTensor *X = x[0], *window = stftInput(op, x, 2), *lengthT = stftInput(op, x, 3);
  int64_t onesided, step = nnGetInt(x[1], 0), frames;
  int64_t length = lengthT ? nnGetInt(lengthT, 0) : window->dims[0];
  nnAttrInt(op, "onesided", 1, &onesided);
  if (window && window->dims[0] != length)
    return nnInterpError(op, "operand 'frame_length' is %lld but the window has %lld elements", (long long)length,
                         (long long)window->dims[0]);
  if (length < 1) return nnInterpError(op, "the frame length is %lld; it must be positive", (long long)length);
  if (!nnStftFrames(op, X->dims[1], length, step, &frames)) return fail();
  int64_t bins = onesided ? length / 2 + 1 : length, B = X->dims[0], C = X->dims[2];
  if (!y[0]) {
    int64_t dims[4] = {B, frames, bins, 2};
    y[0] = strataTensorCreate(X->dtype, 4, dims);
    if (!y[0]) return nnInterpError(op, "cannot allocate the result");
  }
  if (y[0]->dims[1] != frames || y[0]->dims[2] != bins)
    return nnInterpError(op, "result shape disagrees with %lld frames of %lld bins", (long long)frames, (long long)bins);
  double *buf = malloc(sizeof(double) * (size_t)(2 * length + 2 * bins));
  if (!buf) return nnInterpError(op, "cannot allocate the STFT's scratch");
  double *re = buf, *im = buf + length, *oRe = buf + 2 * length, *oIm = oRe + bins;
  for (int64_t b = 0; b < B; b++)
    for (int64_t f = 0; f < frames; f++) {
      for (int64_t n = 0; n < length; n++) {
        double w = window ? strataTensorGetDouble(window, n) : 1.0;
        readComplex(X, (b * X->dims[1] + f * step + n) * C, &re[n], &im[n]);
        re[n] *= w, im[n] *= w;
      }
      nnDftLine(re, im, length, length, bins, false, oRe, oIm);
      for (int64_t k = 0; k < bins; k++) {
        int64_t at = ((b * frames + f) * bins + k) * 2;
        strataTensorSetDouble(y[0], at, oRe[k]);
        strataTensorSetDouble(y[0], at + 1, oIm[k]);
      }
    }
  free(buf);
  return ok();
}
