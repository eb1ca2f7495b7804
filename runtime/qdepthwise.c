/* Depthwise integer convolution (qgemm.h's rtQDepthwise): one input
 * channel per group, so the GEMM of each group would be one row of K =
 * KH * KW. Here each output row accumulates its taps directly: per tap,
 * the run of output columns whose image column is inside the image (the
 * padding's taps read the zero point, x - zx = 0, and add nothing), in
 * u32 (the GEMM's wrapping sums, bit for bit), then rtQFinishRow
 * requantizes it with the GEMM's own row code. The tap loop is compiled per
 * ISA and vectorized by the compiler (strides 1 and 2 specialized). */
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
  const RtQFinish *fin;
  DwTap tap;
} DwTask;

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
/* Output row oh of a channel (image `plane`, tap weights wv) on AVX-512,
 * for W strides 1 and 2 over contiguous columns: 16 columns a step, all
 * taps summed in one register. A tap's lanes outside the image are masked
 * off (not loaded, so never read; their x - zx is 0); stride 2 loads 32
 * bytes and keeps the even ones. */
__attribute__((target("avx512f,avx512bw,avx512vl,bmi2"))) static void avx512Row(const DwTask *d, const uint8_t *plane,
                                                                          const int32_t *wv, int64_t oh,
                                                                          uint32_t *acc) {
  const RtQConvGeom *g = d->g;
  const int64_t sw = g->sw, OW = g->OW;
  const __m512i zx = _mm512_set1_epi32(d->zx);
  for (int64_t t0 = 0; t0 < OW; t0 += 16) {
    const int64_t live = OW - t0 < 16 ? OW - t0 : 16;
    __m512i sum = _mm512_setzero_si512();
    for (int64_t i = 0; i < g->KH; i++) {
      int64_t ih = oh * g->sh + i * g->dh - g->ph;
      if (ih < 0 || ih >= g->H) continue;
      const uintptr_t row = (uintptr_t)(plane + ih * g->hs);
      for (int64_t j = 0; j < g->KW; j++) {
        int32_t w = wv[i * g->KW + j];
        /* column t0 + t reads image column iw0 + (t0 + t) * sw: lanes [lo, hi) inside [0, W) */
        int64_t first = j * g->dw - g->pw + t0 * sw, lo, hi;
        rtQColumnRun(first, sw, g->W, live, &lo, &hi);
        if (!w || hi <= lo) continue;
        __mmask16 m = (__mmask16)((((uint32_t)1 << (hi - lo)) - 1) << lo);
        __m128i bytes;
        if (sw == 1) {
          bytes = _mm_maskz_loadu_epi8(m, (const void *)(row + (uintptr_t)first));
        } else { /* lane t's byte at 2t: the even bytes of 32 */
          __mmask32 m2 = _pdep_u32(m, 0x55555555u);
          bytes = _mm256_cvtepi16_epi8(_mm256_maskz_loadu_epi8(m2, (const void *)(row + (uintptr_t)first)));
        }
        __m512i x = d->xU ? _mm512_cvtepu8_epi32(bytes) : _mm512_cvtepi8_epi32(bytes);
        x = _mm512_maskz_sub_epi32(m, x, zx);
        sum = _mm512_add_epi32(sum, _mm512_mullo_epi32(x, _mm512_set1_epi32(w)));
      }
    }
    _mm512_mask_storeu_epi32(acc + t0, (__mmask16)((1u << live) - 1), sum);
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
#if defined(__x86_64__) || defined(__i386__)
      if (d->wide) {
        avx512Row(d, plane, wv, oh, acc);
        rtQFinishRow(d->fin, m, oh * g->OW, g->OW, (const int32_t *)acc);
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
  DwTask d = {g, Mg, w, zw, zx, wUnsigned, xUnsigned, false, &fin, genericTap};
#if defined(__x86_64__) || defined(__i386__)
  int level = rtQIsaLevel();
  d.tap = level == 2 ? avx512Tap : level == 1 ? avx2Tap : genericTap;
  d.wide = level == 2 && (g->sw == 1 || g->sw == 2) && g->ws == 1 && __builtin_cpu_supports("bmi2");
#endif
  int64_t M = channels * Mg;
  if (parallel) rtParallelFor(M, dwTask, &d);
  else dwTask(&d, 0, M);
  rtQFinishEnd(&fin);
}
