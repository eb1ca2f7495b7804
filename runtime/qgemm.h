/* libstrata_rt integer GEMM (qgemm.c): C = (A - za) (B - zb) in i32 for
 * 8-bit operands, with an optional requantizing epilogue; what the
 * MatMulInteger / ConvInteger / QLinearMatMul / QLinearConv entry points
 * (qabi.c) run. Internal to the runtime. */
#ifndef STRATA_RUNTIME_QGEMM_H
#define STRATA_RUNTIME_QGEMM_H

#include <stdbool.h>
#include <stdint.h>

/* Implicit im2col of one image and one channel group (bytes): B(k, n),
 * k = (c, i, j) over C x KH x KW, n = (oh, ow) over OH x OW; taps in the
 * padding read the raw byte `pad` (the zero point: ONNX pads x - x_zp
 * with 0). */
typedef struct {
  const uint8_t *x;
  int64_t C, H, W, cs, hs, ws;
  int64_t KH, KW, sh, sw, ph, pw, dh, dw, OH, OW;
  uint8_t pad;
} RtQConvGeom;

/* The columns t in [0, len) whose image column first + t * sw (sw >= 1)
 * lies inside [0, W): [*lo, *hi), with lo == hi when there are none. What
 * every implicit-im2col and depthwise loop here clips its taps with. */
static inline void rtQColumnRun(int64_t first, int64_t sw, int64_t W, int64_t len, int64_t *lo, int64_t *hi) {
  int64_t l = 0, e = 0;
  if (first < W) {
    if (sw == 1) /* no division on the common path */
      l = first >= 0 ? 0 : -first, e = W - first;
    else
      l = first >= 0 ? 0 : (-first + sw - 1) / sw, e = (W - 1 - first) / sw + 1;
    if (e > len) e = len;
    if (l > e) l = e;
  }
  *lo = l, *hi = e;
}

/* One operand: element (i, j) at p[i * rs + j * cs] (B: or an im2col),
 * int8 or uint8; its zero point per row (A) or per column (B) at
 * zp[i * zps] (zps 0: per tensor). `constant`: fixed while the code is
 * loaded, so its packed form is cached (B only when not an im2col). */
typedef struct {
  const uint8_t *p;
  int64_t rs, cs;
  const RtQConvGeom *conv;
  bool isUnsigned, constant;
  const int32_t *zp;
  int64_t zps;
} RtQOperand;

/* A per-row / per-column parameter: value (i, j) at p[i * rs + j * cs]. */
typedef struct {
  const void *p;
  int64_t rs, cs;
} RtQParam;

/* The output, row stride ldy, unit column stride. y32: the wrapped i32
 * sum. Otherwise y8 gets QLinear's requantization, exactly as the
 * interpreter computes it (dialects/nn/ops_qlinear.c): acc (+ bias, i32,
 * wrapping) times m = (f32)(sa * sb) / sy in f64, rounded half to even,
 * plus the zero point zy (i32 values), NaN to 0, saturated to the 8-bit
 * range; with relu, then max(q, zy) (nn-qdq-to-qlinear's Relu); with
 * clamp, then min(max(q, clampLo), clampHi) (its Clip; bounds in the
 * 8-bit range, clampLo > clampHi allowed: then q is clampHi). */
typedef struct {
  int32_t *y32;
  uint8_t *y8;
  bool yUnsigned, relu, hasBias, clamp;
  int32_t clampLo, clampHi;
  int64_t ldy;
  RtQParam bias, sa, sb, sy, zy; /* bias, zy: int32_t; scales: float */
} RtQOut;

/* C[M, N] = A[M, K] B[K, N] with the zero points subtracted, into out;
 * split over the thread pool when `parallel`. */
void rtQGemm(int64_t M, int64_t N, int64_t K, const RtQOperand *A, const RtQOperand *B, const RtQOut *out,
             bool parallel);

/* Rows of sums finished as rtQGemm's are, for kernels that accumulate
 * otherwise (qdepthwise.c): prepared once per call for out's rows x
 * columns (the ISA, the requantization's per-row values), then one output
 * row gi of n sums (zero points already applied), columns n0..n0+n, stored
 * or requantized as rtQGemm's rows are (the same code, bit for bit);
 * rtQFinishEnd frees what rtQFinishBegin allocated. */
/* The fast requantization's values for one call (the VNNI path,
 * rtQRequantTile): per output row its term of the corrections and bias,
 * m (or m per column), zy and bounds minus zy, when the corrections v = c -
 * zb rs[i] - za[i] cs[n] + K za[i] zb + bias split into a row and a column
 * term (zb one value over the columns, za one over the rows: the column's
 * is bias[n] - za0 cs[n]), m varies by row or by column only and is
 * finite. */
typedef struct {
  int32_t *rowAdd, *zy;
  float *mRow, *mCol; /* one of them */
  double *lo, *hi;
  uint32_t za0;
  bool useCs, colBias;
} RtQFast;
typedef struct {
  const RtQOut *out;
  const void *isa;
  RtQFast *fast; /* or NULL */
} RtQFinish;
void rtQFinishBegin(RtQFinish *f, const RtQOut *out, int64_t rows, int64_t columns);
void rtQFinishRow(const RtQFinish *f, int64_t gi, int64_t n0, int64_t n, const int32_t *acc);
void rtQFinishEnd(RtQFinish *f);
/* The requantization's fast form (qrequant.c, AVX-512; the VNNI path's):
 * rows i < mr, columns n < nr <= 32 of wrapping i32 sums c[i * ldc + n],
 * v = c + rowAdd[i] + colAdd[n] (colAdd NULL: 0), in i32 wrapping; then
 * y[i * ldy + n] = min(max(roundeven(v * m) + zy[i], floor), ceil) (the
 * f64 product of m = mRow[i] or mCol[n], exactly one given, all finite),
 * lo[i] = floor - zy[i], hi[i] = ceil - zy[i] (integers, the row's bounds
 * after saturation, Relu and clamp). The VNNI microkernel takes the same
 * tile with c unused: its sums are its accumulators (qgemm.c,
 * vnniKernelReq). */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RT_QREQ_TILE 1
typedef struct {
  const int32_t *c;
  int64_t ldc, mr, nr;
  const int32_t *rowAdd, *colAdd, *zy;
  const float *mRow, *mCol;
  const double *lo, *hi;
  uint8_t *y;
  int64_t ldy;
} RtQReqTile;
void rtQRequantTile(const RtQReqTile *t);

/* The implicit-GEMM convolution (qconv.c, VNNI): weights s8 with zero
 * points 0 (A, M rows of K = C KH KW), image u8, bytes out through the
 * fast form with m by row (fast->mRow; fast->useCs and colBias false).
 * rtQConvPackWeights: A in the convolution's k order (cached when
 * constant), its row sums in *rowSums; rtQConvImplicitFits: whether the
 * geometry is one it takes. */
const uint8_t *rtQConvPackWeights(const RtQOperand *A, int64_t M, const RtQConvGeom *g, const int32_t **rowSums);
bool rtQConvImplicitFits(const RtQConvGeom *g);
void rtQConvImplicit(int64_t M, const uint8_t *ap, const RtQConvGeom *g, const RtQFast *fast, const RtQOut *out,
                     bool parallel);
#endif

/* The integer ISA rtQGemm runs: 0 portable C, 1 AVX2, 2 AVX-512 VNNI. */
int rtQIsaLevel(void);

/* Depthwise QLinearConv / ConvInteger (one input channel per group), one
 * image: y channel `m` (of G * Mg) from x channel m / Mg through w's row m
 * (KH * KW <= RT_QDW_MAX_TAPS taps, dense), with the zero points
 * subtracted; rows out
 * (rtQFinishRow's `out`, row = output channel, columns OH * OW). Split
 * over the thread pool when `parallel`. */
enum { RT_QDW_MAX_TAPS = 1024 };
void rtQDepthwise(const RtQConvGeom *g, int64_t channels, int64_t Mg, const uint8_t *w, bool wUnsigned,
                  const int32_t *zw, bool xUnsigned, int32_t zx, const RtQOut *out, bool parallel);

#endif /* STRATA_RUNTIME_QGEMM_H */
