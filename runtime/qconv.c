/* Implicit-GEMM int8 convolution on AVX-512 VNNI (qgemm.h's
 * rtQConvPackWeights / rtQConvImplicit): what rtQGemm runs for a
 * QLinearConv whose weights are s8 with zero points 0 and whose image is
 * u8 (a QDQ model's symmetric weights and asymmetric activations), instead
 * of packing im2col panels.
 *
 * The image is copied once per call into a phase-split, padded,
 * channel-quad layout: for each phase (a, b) of the strides that a tap
 * reaches ((ki dh) mod sh, (kj dw) mod sw) and each quad of 4 channels, a
 * plane of Hv x Wv u32, element (u, v) holding the 4 channels' bytes at
 * padded row u sh + a, column v sw + b (the pad byte, the zero point,
 * outside the image and for channels past C). Output (oh, ow) numbered
 * n = oh Wv + ow (Wv >= OW: the columns ow >= OW are computed and not
 * stored), its k group (quad c4, tap ki, kj) is then the u32 at byte
 * offs[kq] + 4 n, offs[kq] = the phase's and quad's plane + ((ki dh / sh)
 * Wv + kj dw / sw) 4: 32 consecutive outputs of one k group are one
 * 128-byte load from the image, for any stride, dilation and padding, and
 * no im2col is written. The weights are packed once (cached when constant)
 * in the same k order, 8-row panels of 4-byte groups as rtQGemm's A.
 *
 * Sums: (x - zx) w summed = sum x w - zx sum w, wrapping in 32 bits as the
 * GEMM's (w's zero point 0: no column sums); the requantization is the
 * fast form's (rtQReq16Value, the GEMM's tiles' arithmetic), so the
 * result equals rtQGemm's and the interpreter's bit for bit. */
#include "qgemm.h"
#include <string.h>
#include "rt_internal.h"

#ifdef RT_QREQ_TILE
#include "qrequant.h"

enum { MR = 8, NR = 32 };
#define QC_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))

static int64_t roundUp(int64_t v, int64_t r) { return (v + r - 1) / r * r; }

/* ---- Weights: dst[(p * KQ + kq) * 32 + i * 4 + j] = w(8 p + i, channel
 * 4 c4 + j, ki, kj), kq = (c4 KH + ki) KW + kj; then the row sums. ---- */
typedef struct {
  const RtQOperand *A;
  int64_t M, C, KH, KW;
} QcPackJob;

static int64_t packedBytes(int64_t M, int64_t KQ) { return roundUp(M, MR) * KQ * 4; }

static void packWeights(float *dstf, const void *ctx) {
  const QcPackJob *j = ctx;
  const int64_t C4 = (j->C + 3) / 4, taps = j->KH * j->KW, KQ = C4 * taps;
  uint8_t *dst = (uint8_t *)dstf;
  int32_t *sums = (int32_t *)(dst + roundUp(packedBytes(j->M, KQ), 64));
  memset(dst, 0, (size_t)packedBytes(j->M, KQ));
  for (int64_t i = 0; i < roundUp(j->M, MR); i++) sums[i] = 0;
  for (int64_t i = 0; i < j->M; i++) {
    const uint8_t *row = j->A->p + i * j->A->rs;
    uint8_t *d = dst + (i / MR) * KQ * MR * 4 + (i % MR) * 4;
    uint32_t sum = 0;
    for (int64_t c = 0; c < j->C; c++)
      for (int64_t t = 0; t < taps; t++) {
        uint8_t v = row[(c * taps + t) * j->A->cs];
        d[((c / 4) * taps + t) * MR * 4 + c % 4] = v;
        sum += (uint32_t)(int32_t)(int8_t)v;
      }
    sums[i] = (int32_t)sum;
  }
}

const uint8_t *rtQConvPackWeights(const RtQOperand *A, int64_t M, const RtQConvGeom *g, const int32_t **rowSums) {
  QcPackJob j = {A, M, g->C, g->KH, g->KW};
  const int64_t KQ = (g->C + 3) / 4 * g->KH * g->KW;
  size_t off = (size_t)roundUp(packedBytes(M, KQ), 64), floats = (off + 4 * (size_t)roundUp(M, MR) + 3) / 4;
  const float *d;
  if (A->constant) {
    int64_t key[6] = {A->rs, A->cs, M, g->C, g->KH * 65536 + g->KW, 'I'};
    d = rtConstCacheGet('c', A->p, key, floats, packWeights, &j);
  } else {
    float *s = rtScratch(1, floats);
    if (s) packWeights(s, &j);
    d = s;
  }
  if (!d) rtError("out of memory for the integer convolution's weights");
  *rowSums = (const int32_t *)((const uint8_t *)d + off);
  return (const uint8_t *)d;
}

/* ---- The image's phase-split channel-quad copy ---- */
typedef struct {
  const RtQConvGeom *g;
  uint8_t *buf;
  int64_t C4, Hv, Wv, plane; /* plane: bytes of one phase's quad */
  int na, nb;
  int64_t pa[8], pb[8]; /* the phases in use (at most 8 of each: see rtQConvImplicit) */
} QcImage;

/* Padded row or column r of the image (0 at the first pad) -> the image's
 * run of phase p's elements u in [0, n): [lo, hi) inside, first = p - pad. */
QC_TARGET static void fillPhaseRow(uint8_t *tmp, const QcImage *im, int64_t c, int64_t r, int64_t b) {
  const RtQConvGeom *g = im->g;
  const int64_t Wv = im->Wv;
  if (c >= g->C || r < 0 || r >= g->H) {
    memset(tmp, g->pad, (size_t)Wv);
    return;
  }
  int64_t lo, hi, first = b - g->pw;
  rtQColumnRun(first, g->sw, g->W, Wv, &lo, &hi);
  memset(tmp, g->pad, (size_t)lo);
  if (hi < Wv) memset(tmp + hi, g->pad, (size_t)(Wv - hi));
  if (hi <= lo) return;
  const uint8_t *s = g->x + c * g->cs + r * g->hs + (first + lo * g->sw) * g->ws;
  const int64_t step = g->sw * g->ws;
  if (step == 1) {
    memcpy(tmp + lo, s, (size_t)(hi - lo));
  } else {
    for (int64_t t = 0; t < hi - lo; t++) tmp[lo + t] = s[t * step];
  }
}

QC_TARGET static void imageTask(void *ctx, int64_t begin, int64_t end) {
  const QcImage *im = ctx;
  const RtQConvGeom *g = im->g;
  const int64_t Wv = im->Wv, W16 = roundUp(Wv, 16);
  uint8_t *tmp = (uint8_t *)rtScratch(4, (size_t)W16); /* 4 rows of W16 bytes: W16 floats */
  if (!tmp) rtError("out of memory for the integer convolution's image rows");
  for (int64_t task = begin; task < end; task++) {
    const int64_t c4 = task % im->C4, ph = task / im->C4;
    const int64_t a = im->pa[ph / im->nb], b = im->pb[ph % im->nb];
    uint8_t *plane = im->buf + (ph * im->C4 + c4) * im->plane;
    for (int64_t u = 0; u < im->Hv; u++) {
      for (int j = 0; j < 4; j++) fillPhaseRow(tmp + j * W16, im, 4 * c4 + j, u * g->sh + a - g->ph, b);
      uint8_t *d = plane + u * Wv * 4;
      for (int64_t v = 0; v < Wv; v += 16) {
        __m512i w = _mm512_setzero_si512();
        for (int j = 0; j < 4; j++)
          w = _mm512_or_si512(w, _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm_loadu_si128((const void *)(tmp + j * W16 + v))), 8 * j));
        _mm512_mask_storeu_epi32(d + v * 4, rtQLive16(Wv - v), w);
      }
    }
  }
}

/* ---- The tiles ---- */
typedef struct {
  int64_t M, KQ, OW, Wv, N; /* N: the outputs numbered n (OH Wv) */
  const uint8_t *ap, *img;
  const int32_t *offs;
  const RtQFast *fast;
  const RtQOut *out;
} QcTask;

/* The live lanes of 16 outputs n0.. (ow < OW, n < N) and the output index
 * of the first; they are consecutive in y. */
static __mmask16 liveLanes(const QcTask *t, int64_t n0, int64_t *first) {
  __mmask16 k = 0;
  int64_t oh = n0 / t->Wv, ow = n0 % t->Wv;
  *first = -1;
  for (int l = 0; l < 16 && n0 + l < t->N; l++) {
    if (ow < t->OW) {
      if (*first < 0) *first = oh * t->OW + ow;
      k |= (__mmask16)(1u << l);
    }
    if (++ow == t->Wv) ow = 0, oh++;
  }
  return k;
}

/* Lanes k of q (i32 results) stored as bytes at y, packed together. */
QC_TARGET static inline void storeLive(uint8_t *y, __mmask16 k, __m512i q) {
  if (k & (k + 1)) q = _mm512_maskz_compress_epi32(k, q); /* not a prefix of the lanes */
  _mm_mask_storeu_epi8(y, rtQLive16(__builtin_popcount(k)), _mm512_cvtepi32_epi8(q));
}

/* One output row's 32 sums (acc0: lanes 0-15, acc1: 16-31) requantized and
 * stored. */
QC_TARGET static inline void convRow(const QcTask *t, int64_t gi, const __mmask16 live[2], const int64_t first[2],
                                     __m512i acc0, __m512i acc1) {
  const RtQFast *f = t->fast;
  const __m512i rowAdd = _mm512_set1_epi32(f->rowAdd[gi]), zy = _mm512_set1_epi32(f->zy[gi]);
  const __m512d lo = _mm512_set1_pd(f->lo[gi]), hi = _mm512_set1_pd(f->hi[gi]);
  const __m512d m = _mm512_set1_pd((double)f->mRow[gi]);
  uint8_t *y = t->out->y8 + gi * t->out->ldy;
  if (live[0]) storeLive(y + first[0], live[0], rtQReq16Value(_mm512_add_epi32(acc0, rowAdd), m, m, lo, hi, zy));
  if (live[1]) storeLive(y + first[1], live[1], rtQReq16Value(_mm512_add_epi32(acc1, rowAdd), m, m, lo, hi, zy));
}

QC_TARGET static void convTile(const QcTask *t, int64_t i0, int64_t n0, const __mmask16 live[2], const int64_t first[2]) {
  const uint8_t *ap = t->ap + i0 * t->KQ * 4, *img = t->img + n0 * 4;
  const int32_t *offs = t->offs;
  __m512i acc0[MR], acc1[MR];
  for (int i = 0; i < MR; i++) acc0[i] = acc1[i] = _mm512_setzero_si512();
  int64_t q = 0;
  do { /* KQ >= 1 */
    const uint8_t *b = img + offs[q];
    __m512i b0 = _mm512_loadu_si512((const void *)b), b1 = _mm512_loadu_si512((const void *)(b + 64));
    for (int i = 0; i < MR; i++) {
      int32_t quad;
      memcpy(&quad, ap + i * 4, 4);
      __m512i a = _mm512_set1_epi32(quad);
      acc0[i] = rtQDpbusd(acc0[i], b0, a);
      acc1[i] = rtQDpbusd(acc1[i], b1, a);
    }
    ap += MR * 4;
  } while (++q < t->KQ);
  /* through memory, in a loop GCC unrolls early: requantizing from the
   * arrays directly kept them in memory, zeroed on every call */
  __attribute__((aligned(64))) int32_t tile[MR * NR];
  for (int i = 0; i < MR; i++) {
    _mm512_store_si512((void *)(tile + i * NR), acc0[i]);
    _mm512_store_si512((void *)(tile + i * NR + 16), acc1[i]);
  }
  const int64_t mr = t->M - i0 < MR ? t->M - i0 : MR;
  for (int64_t i = 0; i < mr; i++)
    convRow(t, i0 + i, live, first, _mm512_load_si512((const void *)(tile + i * NR)),
            _mm512_load_si512((const void *)(tile + i * NR + 16)));
}

static void convTask(void *ctx, int64_t begin, int64_t end) {
  const QcTask *t = ctx;
  for (int64_t p = begin; p < end; p++) {
    const int64_t n0 = p * NR;
    __mmask16 live[2];
    int64_t first[2];
    live[0] = liveLanes(t, n0, &first[0]), live[1] = liveLanes(t, n0 + 16, &first[1]);
    if (!live[0] && !live[1]) continue;
    for (int64_t i0 = 0; i0 < t->M; i0 += MR) convTile(t, i0, n0, live, first);
  }
}

bool rtQConvImplicitFits(const RtQConvGeom *g) {
  /* more than one tap (a 1x1 layer's im2col is no larger than the copy,
   * and MobileNetV2's 1x1 layers measured slower here), at most 8 phases
   * along each axis (larger strides take the im2col path), and the copy's
   * byte offsets in an i32 */
  if (g->KH * g->KW < 2 || g->sh < 1 || g->sw < 1 || g->sh > 8 || g->sw > 8 || g->dh < 1 || g->dw < 1 || g->OH < 1 || g->OW < 1) return false;
  const double Hn = (double)(g->OH - 1) * g->sh + (double)(g->KH - 1) * g->dh + 1 + g->sh;
  const double Wn = (double)(g->OW - 1) * g->sw + (double)(g->KW - 1) * g->dw + 1 + g->sw;
  return (double)((g->C + 3) / 4) * 4 * Hn * Wn + 4.0 * (double)g->KW * g->dw + 1024 < 2147483647.0;
}

void rtQConvImplicit(int64_t M, const uint8_t *ap, const RtQConvGeom *g, const RtQFast *fast, const RtQOut *out,
                     bool parallel) {
  QcImage im = {g, NULL, (g->C + 3) / 4, 0, 0, 0, 0, 0, {0}, {0}};
  bool useA[8] = {false}, useB[8] = {false};
  for (int64_t ki = 0; ki < g->KH; ki++) useA[(ki * g->dh) % g->sh] = true;
  for (int64_t kj = 0; kj < g->KW; kj++) useB[(kj * g->dw) % g->sw] = true;
  int slotA[8], slotB[8];
  for (int a = 0; a < g->sh; a++)
    if (useA[a]) slotA[a] = im.na, im.pa[im.na++] = a;
  for (int b = 0; b < g->sw; b++)
    if (useB[b]) slotB[b] = im.nb, im.pb[im.nb++] = b;
  /* the padded extent the outputs read, then per phase */
  const int64_t Hn = (g->OH - 1) * g->sh + (g->KH - 1) * g->dh + 1, Wn = (g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1;
  im.Hv = (Hn + g->sh - 1) / g->sh, im.Wv = (Wn + g->sw - 1) / g->sw;
  im.plane = im.Hv * im.Wv * 4;
  const int64_t taps = g->KH * g->KW, KQ = im.C4 * taps, N = g->OH * im.Wv, panels = (N + NR - 1) / NR;
  /* reads reach past the last plane by at most the widest tap offset
   * along a row plus a tile (the columns ow >= OW of the last row) */
  const int64_t bytes = im.na * im.nb * im.C4 * im.plane, slack = ((g->KW - 1) * g->dw / g->sw + 2 * NR) * 4;
  const size_t offFloats = (size_t)roundUp(KQ, 16);
  float *scratch = rtScratch(0, offFloats + (size_t)((bytes + slack + 3) / 4));
  if (!scratch) rtError("out of memory for the integer convolution's image");
  int32_t *offs = (int32_t *)scratch;
  im.buf = (uint8_t *)(scratch + offFloats);
  memset(im.buf + bytes, g->pad, (size_t)slack);
  for (int64_t c4 = 0; c4 < im.C4; c4++)
    for (int64_t ki = 0; ki < g->KH; ki++)
      for (int64_t kj = 0; kj < g->KW; kj++) {
        int64_t phase = slotA[(ki * g->dh) % g->sh] * im.nb + slotB[(kj * g->dw) % g->sw];
        offs[(c4 * g->KH + ki) * g->KW + kj] =
            (int32_t)((phase * im.C4 + c4) * im.plane + ((ki * g->dh / g->sh) * im.Wv + kj * g->dw / g->sw) * 4);
      }
  const int64_t imageTasks = im.na * im.nb * im.C4;
  if (parallel) rtParallelFor(imageTasks, imageTask, &im);
  else imageTask(&im, 0, imageTasks);
  QcTask t = {M, KQ, g->OW, im.Wv, N, ap, im.buf, offs, fast, out};
  if (parallel) rtParallelFor(panels, convTask, &t);
  else convTask(&t, 0, panels);
}
#endif
