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
  DwTask d = {g, Mg, w, zw, zx, wUnsigned, xUnsigned, false, false, &fin, genericTap};
#ifdef RT_QREQ_TILE
  int level = rtQIsaLevel();
  d.tap = level == 2 ? avx512Tap : level == 1 ? avx2Tap : genericTap;
  d.wide = level == 2 && (g->sw == 1 || g->sw == 2) && g->ws == 1 && __builtin_cpu_supports("bmi2");
  d.fused = d.wide && fin.fast && fin.fast->mRow && !fin.fast->colBias;
#endif
  int64_t M = channels * Mg;
  if (parallel) rtParallelFor(M, dwTask, &d);
  else dwTask(&d, 0, M);
  rtQFinishEnd(&fin);
}
