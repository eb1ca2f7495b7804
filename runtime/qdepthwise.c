/* Depthwise integer convolution (qgemm.h's rtQDepthwise): one input
 * channel per group, so the GEMM of each group would be one row of K =
 * KH * KW. Here each output row accumulates its taps directly: per tap,
 * the run of output columns whose image column is inside the image (the
 * padding's taps read the zero point, x - zx = 0, and add nothing), in
 * u32 (the GEMM's wrapping sums, bit for bit), then rtQFinishRow
 * requantizes it with the GEMM's own row code. The tap loop is compiled per
 * ISA and vectorized by the compiler (strides 1 and 2 specialized). On the
 * VNNI path, W strides 1 and 2 run avx512Row instead (taps in pairs through
 * vpdpwssd, requantized in registers with the GEMM's fast step). */
#include <string.h>
#include "qgemm.h"
#include "rt_internal.h"

typedef void (*DwTap)(uint32_t *acc, const uint8_t *src, int64_t step, int64_t cnt, int32_t zx, int32_t wv, bool xU);

#define RT_QDW_LOOP(LOAD)                                                                             \
  if (step == 1)                                                                                       \
    for (int64_t t = 0; t < cnt; t++) acc[t] += (uint32_t)(((int32_t)LOAD(src[t]) - zx) * wv);        \
  else if (step == 2)                                                                                  \
    for (int64_t t = 0; t < cnt; t++) acc[t] += (uint32_t)(((int32_t)LOAD(src[2 * t]) - zx) * wv);    \
  else                                                                                                 \
    for (int64_t t = 0; t < cnt; t++) acc[t] += (uint32_t)(((int32_t)LOAD(src[t * step]) - zx) * wv)
#define RT_QDW_U8(v) (v)
#define RT_QDW_S8(v) ((int8_t)(v))
#define RT_QDW_TAP(NAME, TARGET)                                                                      \
  TARGET static void NAME(uint32_t *restrict acc, const uint8_t *restrict src, int64_t step, int64_t cnt, \
                          int32_t zx, int32_t wv, bool xU) {                                           \
    if (xU) {                                                                                          \
      RT_QDW_LOOP(RT_QDW_U8);                                                                          \
    } else {                                                                                           \
      RT_QDW_LOOP(RT_QDW_S8);                                                                          \
    }                                                                                                  \
  }
RT_QDW_TAP(genericTap, )
#if defined(__x86_64__) || defined(__i386__)
RT_QDW_TAP(avx2Tap, __attribute__((target("avx2"))))
RT_QDW_TAP(avx512Tap, __attribute__((target("avx512f,avx512bw,avx512vl"))))
#endif

typedef struct {
  const RtQConvGeom *g;
  int64_t Mg;
  const uint8_t *w;
  const int32_t *zw;
  int32_t zx;
  bool wU, xU, wide; /* wide: avx512Row for W strides 1 and 2 */
  bool fused;        /* avx512Row requantizes (fin's fast form, m by row) */
  const RtQFinish *fin;
  DwTap tap;
  const struct DwQuads *quads; /* the four-tap plan (vbmiChannel), or NULL */
} DwTask;

#ifdef RT_QREQ_TILE
#include "qrequant.h"
#define RT_QDW_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,bmi2")))

/* A tap's 16 columns from `first` as i16: lanes k read the image, the
 * others are zx (fill, its byte). Stride 2 takes the even bytes of 32
 * (lanes off are not read). */
RT_QDW_TARGET static inline __m256i dwLoad16(uintptr_t first, __mmask16 k, int64_t sw, bool xU, __m256i fill) {
  __m128i b128;
  __m256i b;
  if (sw == 1) {
    b128 = _mm_mask_loadu_epi8(_mm256_castsi256_si128(fill), k, (const void *)first);
    return xU ? _mm256_cvtepu8_epi16(b128) : _mm256_cvtepi8_epi16(b128);
  }
  b = _mm256_mask_loadu_epi8(fill, _pdep_u32(k, 0x55555555u), (const void *)first);
  return xU ? _mm256_and_si256(b, _mm256_set1_epi16(0xFF)) : _mm256_srai_epi16(_mm256_slli_epi16(b, 8), 8);
}

/* Output row oh of channel m (image `plane`, tap weights wv) on AVX-512,
 * for W strides 1 and 2 over contiguous columns, 16 columns a step: the
 * sum of x w over the row's taps inside the image rows, two taps at a
 * time (x of the two interleaved as i16 pairs, vpdpwssd against the pair
 * of weights: |x w| <= 255 * 255, so the pair's sum is exact), minus zx
 * times the taps' weight sum: the reference's sum of (x - zx) w mod 2^32.
 * A tap's lanes outside the image read zx (masked loads with zx as the
 * fill, so they add w zx - w zx = 0 and are never read). The row is then
 * requantized in registers (fused: rtQReq16 with the channel's values) or
 * stored to acc. */
RT_QDW_TARGET static void avx512Row(const DwTask *d, const uint8_t *plane, const int32_t *wv, int64_t oh, int64_t m,
                                    uint32_t *acc) {
  const RtQConvGeom *g = d->g;
  const int64_t sw = g->sw, OW = g->OW;
  static const int16_t kInterleave[32] = {0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23,
                                          8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31};
  const __m512i interleave = _mm512_loadu_si512((const void *)kInterleave);
  const __m256i fill = _mm256_set1_epi8((char)(uint8_t)d->zx);
  /* the row's taps inside the image rows (their base and column j), in
   * pairs: an odd one pairs with weight 0 */
  uintptr_t src[RT_QDW_MAX_TAPS + 1];
  int32_t tj[RT_QDW_MAX_TAPS + 1], pairW[RT_QDW_MAX_TAPS / 2 + 1];
  __mmask16 km[RT_QDW_MAX_TAPS];
  int nt = 0;
  uint32_t wsum = 0;
  for (int64_t i = 0; i < g->KH; i++) {
    int64_t ih = oh * g->sh + i * g->dh - g->ph;
    if (ih < 0 || ih >= g->H) continue;
    for (int64_t j = 0; j < g->KW; j++) {
      int32_t w = wv[i * g->KW + j];
      if (!w) continue;
      src[nt] = (uintptr_t)(plane + ih * g->hs) + (uintptr_t)(j * g->dw - g->pw), tj[nt] = (int32_t)j;
      if (nt % 2) pairW[nt / 2] = (int32_t)(((uint32_t)w << 16) | (uint16_t)pairW[nt / 2]);
      else pairW[nt / 2] = (uint16_t)w;
      wsum += (uint32_t)w, nt++;
    }
  }
  if (nt % 2) src[nt] = src[nt - 1], tj[nt] = tj[nt - 1]; /* its weight is 0 */
  const __m512i corr = _mm512_set1_epi32((int32_t)((uint32_t)d->zx * wsum));
  const RtQFast *f = d->fused ? d->fin->fast : NULL;
  __m512d mRow = _mm512_setzero_pd(), lo = mRow, hi = mRow;
  __m512i zy = _mm512_setzero_si512(), rowAdd = zy;
  uint8_t *y = NULL;
  if (f) {
    mRow = _mm512_set1_pd((double)f->mRow[m]), lo = _mm512_set1_pd(f->lo[m]), hi = _mm512_set1_pd(f->hi[m]);
    zy = _mm512_set1_epi32(f->zy[m]), rowAdd = _mm512_set1_epi32(f->rowAdd[m]);
    y = d->fin->out->y8 + m * d->fin->out->ldy + oh * OW;
  }
  for (int64_t t0 = 0; t0 < OW; t0 += 16) {
    const int64_t live = OW - t0 < 16 ? OW - t0 : 16;
    for (int64_t j = 0; j < g->KW; j++) { /* column t0 + t of tap j reads image column first + t * sw */
      int64_t first = j * g->dw - g->pw + t0 * sw, l, e;
      rtQColumnRun(first, sw, g->W, live, &l, &e);
      km[j] = e > l ? (__mmask16)((((uint32_t)1 << (e - l)) - 1) << l) : 0;
    }
    __m512i sum = _mm512_setzero_si512();
    for (int p = 0; p < (nt + 1) / 2; p++) {
      __m256i xa = dwLoad16(src[2 * p] + (uintptr_t)(t0 * sw), km[tj[2 * p]], sw, d->xU, fill);
      __m256i xb = dwLoad16(src[2 * p + 1] + (uintptr_t)(t0 * sw), km[tj[2 * p + 1]], sw, d->xU, fill);
      __m512i x = _mm512_permutexvar_epi16(interleave, _mm512_inserti64x4(_mm512_castsi256_si512(xa), xb, 1));
      sum = _mm512_dpwssd_epi32(sum, x, _mm512_set1_epi32(pairW[p]));
    }
    sum = _mm512_sub_epi32(sum, corr);
    if (f) rtQReq16(_mm512_add_epi32(sum, rowAdd), rtQLive16(live), mRow, mRow, lo, hi, zy, y + t0);
    else _mm512_mask_storeu_epi32(acc + t0, rtQLive16(live), sum);
  }
}

/* ---- Four taps a step (AVX-512 VBMI + VNNI, fused requantization) ----
 * A channel whose weights minus their zero point all fit in i8 (always so
 * for symmetric int8 weights) sums its taps four at a time with vpdpbusd:
 * per kernel row, one masked 64-byte load of the input row (the lanes
 * outside the image keep zx: the fill) and, per group of four kernel
 * columns, one vpermb that puts the four taps' bytes of each output column
 * in its 32-bit lane. x' = x (u8) or x xor 0x80 = x + 128 (s8), zx' alike,
 * so the sum is Σ x' w' - zx' Σ w' = Σ (x - zx) w' mod 2^32, the
 * reference's, whatever the order (vpdpbusd does not saturate). Columns of
 * a group past KW have weight 0. An output vector is 16 columns of one
 * row (rows 1), or, for rows of at most 8 columns, two whole rows (rows 2:
 * the two input rows of a kernel row in the halves of the source, 32 bytes
 * each). Rows outside the image are the fill (they add zx' w' - zx' w').
 * Four vectors go through the taps together (independent accumulators). */
enum { DW_MAX_GROUPS = 16 };
struct DwQuads {
  int rows, ng; /* output rows per vector; 4-tap groups per kernel row */
  int64_t steps, vectors; /* 16-column steps per row (rows 1); vectors per channel */
  uint8_t idx[DW_MAX_GROUPS][64]; /* vpermb's source byte of group q, lane L, tap jj: idx[q][4L + jj] */
};
#define RT_QDW_VBMI_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni,avx512vbmi,bmi2")))

/* The plan of g's layer, or false: rows 2 when two rows' taps fit in 32
 * bytes each, rows 1 when 16 columns' taps fit in 64. */
static bool dwQuadsPlan(struct DwQuads *p, const RtQConvGeom *g) {
  const int64_t reach = (g->KW - 1) * g->dw;
  p->ng = (int)((g->KW + 3) / 4);
  if (g->ws != 1 || p->ng > DW_MAX_GROUPS) return false;
  if (2 * g->OW <= 16 && (g->OW - 1) * g->sw + reach < 32) p->rows = 2;
  else if (15 * g->sw + reach < 64) p->rows = 1;
  else return false;
  p->steps = p->rows == 2 ? 1 : (g->OW + 15) / 16;
  p->vectors = p->rows == 2 ? (g->OH + 1) / 2 : g->OH * p->steps;
  memset(p->idx, 0, sizeof p->idx);
  for (int q = 0; q < p->ng; q++)
    for (int64_t L = 0; L < 16; L++)
      for (int jj = 0; jj < 4; jj++) {
        int64_t j = 4 * q + jj, t = L, half = 0;
        if (j >= g->KW) continue; /* weight 0 */
        if (p->rows == 2) {
          if (L >= 2 * g->OW) continue;
          if (L >= g->OW) t = L - g->OW, half = 32;
        }
        p->idx[q][4 * L + jj] = (uint8_t)(half + t * g->sw + j * g->dw);
      }
  return true;
}

/* The bytes [lo, hi) of 64 (clipped to [0, 64]). */
RT_QDW_VBMI_TARGET static inline uint64_t dwSpan(int64_t lo, int64_t hi) {
  lo = lo < 0 ? 0 : lo > 64 ? 64 : lo, hi = hi < 0 ? 0 : hi > 64 ? 64 : hi;
  return _bzhi_u64(~(uint64_t)0, (unsigned)hi) & ~_bzhi_u64(~(uint64_t)0, (unsigned)lo);
}

/* Kernel row i's source of the vector whose first output is (oh, t0) (rows
 * 2: rows oh and oh + 1, t0 = 0): input bytes as the idx tables read them. */
RT_QDW_VBMI_TARGET static inline __m512i dwQuadSource(const DwTask *d, const uint8_t *plane, int64_t oh, int64_t t0,
                                                      int64_t i, __m512i fill, bool xU) {
  const RtQConvGeom *g = d->g;
  const struct DwQuads *p = d->quads;
  const int64_t c0 = -g->pw, row = i * g->dh - g->ph;
  __m512i s;
  if (p->rows == 1) {
    const int64_t first = c0 + t0 * g->sw, ih = oh * g->sh + row;
    s = fill;
    if (ih >= 0 && ih < g->H)
      s = _mm512_mask_loadu_epi8(fill, dwSpan(-first, g->W - first),
                                 (const void *)((uintptr_t)(plane + ih * g->hs) + (uintptr_t)first));
  } else {
    const __mmask32 cols = (__mmask32)dwSpan(-c0, g->W - c0);
    __m256i h[2];
    for (int r = 0; r < 2; r++) {
      const int64_t ih = (oh + r) * g->sh + row;
      h[r] = _mm512_castsi512_si256(fill);
      if (oh + r < g->OH && ih >= 0 && ih < g->H)
        h[r] = _mm256_mask_loadu_epi8(h[r], cols, (const void *)((uintptr_t)(plane + ih * g->hs) + (uintptr_t)c0));
    }
    s = _mm512_inserti64x4(_mm512_castsi256_si512(h[0]), h[1], 1);
  }
  return xU ? s : _mm512_xor_si512(s, _mm512_set1_epi8((char)0x80));
}

/* Vectors v0..v0+nb of channel m through all taps, requantized and stored. */
RT_QDW_VBMI_TARGET static inline __attribute__((always_inline)) void dwQuadBlock(
    const DwTask *d, const uint8_t *plane, const int32_t *wq, int64_t m, int64_t v0, const int nb, const bool xU,
    __m512i fill, __m512i corr) {
  const RtQConvGeom *g = d->g;
  const struct DwQuads *p = d->quads;
  const RtQFast *f = d->fin->fast;
  __m512i acc[4];
  int64_t oh[4], t0[4]; /* each vector's first output (one division per vector) */
#pragma GCC unroll 4
  for (int b = 0; b < nb; b++) {
    acc[b] = _mm512_setzero_si512();
    if (p->rows == 1) oh[b] = (v0 + b) / p->steps, t0[b] = ((v0 + b) - oh[b] * p->steps) * 16;
    else oh[b] = 2 * (v0 + b), t0[b] = 0;
  }
  for (int64_t i = 0; i < g->KH; i++) {
    __m512i src[4];
#pragma GCC unroll 4
    for (int b = 0; b < nb; b++) src[b] = dwQuadSource(d, plane, oh[b], t0[b], i, fill, xU);
    for (int q = 0; q < p->ng; q++) {
      const __m512i idx = _mm512_loadu_si512((const void *)p->idx[q]), w = _mm512_set1_epi32(wq[i * p->ng + q]);
#pragma GCC unroll 4
      for (int b = 0; b < nb; b++) acc[b] = _mm512_dpbusd_epi32(acc[b], _mm512_permutexvar_epi8(idx, src[b]), w);
    }
  }
  const __m512d mRow = _mm512_set1_pd((double)f->mRow[m]), lo = _mm512_set1_pd(f->lo[m]), hi = _mm512_set1_pd(f->hi[m]);
  const __m512i zy = _mm512_set1_epi32(f->zy[m]), add = _mm512_sub_epi32(_mm512_set1_epi32(f->rowAdd[m]), corr);
  uint8_t *y = d->fin->out->y8 + m * d->fin->out->ldy;
#pragma GCC unroll 4
  for (int b = 0; b < nb; b++) {
    const int64_t at = oh[b] * g->OW + t0[b];
    const int64_t live = p->rows == 1 ? g->OW - t0[b] : (oh[b] + 1 < g->OH ? 2 : 1) * g->OW;
    rtQReq16(_mm512_add_epi32(acc[b], add), rtQLive16(live), mRow, mRow, lo, hi, zy, y + at);
  }
}

/* Channel m (image `plane`, tap weights wv minus the zero point) through
 * the four-tap plan; false, with nothing written, when a weight does not
 * fit in i8. */
RT_QDW_VBMI_TARGET static bool vbmiChannel(const DwTask *d, const uint8_t *plane, const int32_t *wv, int64_t m) {
  const RtQConvGeom *g = d->g;
  const struct DwQuads *p = d->quads;
  int32_t wq[RT_QDW_MAX_TAPS];
  uint32_t wsum = 0;
  for (int64_t i = 0; i < g->KH; i++)
    for (int q = 0; q < p->ng; q++) {
      uint32_t quad = 0;
      for (int jj = 0; jj < 4; jj++) {
        int64_t j = 4 * q + jj;
        int32_t w = j < g->KW ? wv[i * g->KW + j] : 0;
        if (w < -128 || w > 127) return false;
        quad |= (uint32_t)(uint8_t)(int8_t)w << (8 * jj), wsum += (uint32_t)w;
      }
      wq[i * p->ng + q] = (int32_t)quad;
    }
  const uint32_t zx = d->xU ? (uint32_t)d->zx : (uint32_t)d->zx + 128; /* zx' */
  const __m512i fill = _mm512_set1_epi8((char)(uint8_t)d->zx), corr = _mm512_set1_epi32((int32_t)(zx * wsum));
  int64_t v = 0;
  for (; v + 4 <= p->vectors; v += 4)
    if (d->xU) dwQuadBlock(d, plane, wq, m, v, 4, true, fill, corr);
    else dwQuadBlock(d, plane, wq, m, v, 4, false, fill, corr);
  for (; v < p->vectors; v++)
    if (d->xU) dwQuadBlock(d, plane, wq, m, v, 1, true, fill, corr);
    else dwQuadBlock(d, plane, wq, m, v, 1, false, fill, corr);
  return true;
}
#endif

static void dwTask(void *ctx, int64_t begin, int64_t end) {
  const DwTask *d = ctx;
  const RtQConvGeom *g = d->g;
  const int64_t K = g->KH * g->KW;
  uint32_t *acc = (uint32_t *)rtScratch(4, (size_t)g->OW);
  if (!acc) rtError("out of memory for a depthwise integer convolution's rows");
  for (int64_t m = begin; m < end; m++) {
    const uint8_t *plane = g->x + (m / d->Mg) * g->cs;
    int32_t wv[RT_QDW_MAX_TAPS];
    for (int64_t k = 0; k < K; k++)
      wv[k] = (d->wU ? (int32_t)d->w[m * K + k] : (int32_t)(int8_t)d->w[m * K + k]) - d->zw[m];
#ifdef RT_QREQ_TILE
    if (d->quads && vbmiChannel(d, plane, wv, m)) continue;
#endif
    for (int64_t oh = 0; oh < g->OH; oh++) {
#ifdef RT_QREQ_TILE
      if (d->wide) {
        avx512Row(d, plane, wv, oh, m, acc);
        if (!d->fused) rtQFinishRow(d->fin, m, oh * g->OW, g->OW, (const int32_t *)acc);
        continue;
      }
#endif
      memset(acc, 0, sizeof(uint32_t) * (size_t)g->OW);
      for (int64_t i = 0; i < g->KH; i++) {
        int64_t ih = oh * g->sh + i * g->dh - g->ph;
        if (ih < 0 || ih >= g->H) continue;
        for (int64_t j = 0; j < g->KW; j++) {
          /* output column t reads image column iw0 + t * sw: [lo, hi) inside [0, W) */
          int64_t iw0 = j * g->dw - g->pw, sw = g->sw, lo, hi;
          rtQColumnRun(iw0, sw, g->W, g->OW, &lo, &hi);
          if (!wv[i * g->KW + j] || hi <= lo) continue;
          d->tap(acc + lo, plane + ih * g->hs + (iw0 + lo * sw) * g->ws, sw * g->ws, hi - lo, d->zx,
                 wv[i * g->KW + j], d->xU);
        }
      }
      rtQFinishRow(d->fin, m, oh * g->OW, g->OW, (const int32_t *)acc);
    }
  }
}

void rtQDepthwise(const RtQConvGeom *g, int64_t channels, int64_t Mg, const uint8_t *w, bool wUnsigned,
                  const int32_t *zw, bool xUnsigned, int32_t zx, const RtQOut *out, bool parallel) {
  RtQFinish fin;
  rtQFinishBegin(&fin, out, channels * Mg, g->OH * g->OW);
  DwTask d = {g, Mg, w, zw, zx, wUnsigned, xUnsigned, false, false, &fin, genericTap, NULL};
#ifdef RT_QREQ_TILE
  int level = rtQIsaLevel();
  d.tap = level == 2 ? avx512Tap : level == 1 ? avx2Tap : genericTap;
  d.wide = level == 2 && (g->sw == 1 || g->sw == 2) && g->ws == 1 && __builtin_cpu_supports("bmi2");
  d.fused = d.wide && fin.fast && fin.fast->mRow && !fin.fast->colBias;
  struct DwQuads quads;
  if (d.fused && __builtin_cpu_supports("avx512vbmi") && dwQuadsPlan(&quads, g)) d.quads = &quads;
#endif
  int64_t M = channels * Mg;
  if (parallel) rtParallelFor(M, dwTask, &d);
  else dwTask(&d, 0, M);
  rtQFinishEnd(&fin);
}
