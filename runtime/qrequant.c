/* The integer kernels' requantization in its fast form (qgemm.h's
 * RtQReqTile), AVX-512: what rtQGemm's tiles and rtQFinishRow's rows run on
 * the VNNI path when the zero-point corrections reduce to one term per row
 * and one per column and m is finite. Bit for bit the reference's
 * arithmetic (dialects/nn/ops_qlinear.c):
 *   q = min(max(roundeven((double)v * (double)m) + zy, floor), ceil)
 * computed as roundeven(min(max(p, floor - zy), ceil - zy)) + zy with p the
 * same f64 product: rounding is monotone and leaves the integer bounds
 * fixed, so clamping before it changes nothing (floor > ceil gives ceil
 * both ways), and the clamped p fits the i32 conversion, which rounds half
 * to even itself (embedded rounding). A finite m keeps p finite (|v| <
 * 2^31), so there is no NaN to map to 0. */
#include "qgemm.h"

#ifdef RT_QREQ_TILE
#include <immintrin.h>

#define RT_QREQ_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* 16 columns (mask k): v = c + add, times m (columns 0-7 m0, 8-15 m1). */
RT_QREQ_TARGET static inline void req16(const int32_t *c, __mmask16 k, __m512i add, __m512d m0, __m512d m1,
                                        __m512d lo, __m512d hi, __m512i zy, uint8_t *y) {
  __m512i v = _mm512_add_epi32(_mm512_maskz_loadu_epi32(k, c), add);
  __m512d p0 = _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(v)), m0);
  __m512d p1 = _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(v, 1)), m1);
  p0 = _mm512_min_pd(_mm512_max_pd(p0, lo), hi), p1 = _mm512_min_pd(_mm512_max_pd(p1, lo), hi);
  __m256i r0 = _mm512_cvt_roundpd_epi32(p0, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256i r1 = _mm512_cvt_roundpd_epi32(p1, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512i q = _mm512_add_epi32(_mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1), zy);
  _mm_mask_storeu_epi8(y, k, _mm512_cvtepi32_epi8(q));
}

static inline __mmask16 live16(int64_t n) { return n >= 16 ? (__mmask16)0xFFFF : n <= 0 ? 0 : (__mmask16)((1u << n) - 1); }

RT_QREQ_TARGET void rtQRequantTile(const RtQReqTile *t) {
  const __mmask16 k0 = live16(t->nr), k1 = live16(t->nr - 16);
  const __m512i colAdd0 = t->colAdd ? _mm512_maskz_loadu_epi32(k0, t->colAdd) : _mm512_setzero_si512();
  const __m512i colAdd1 = t->colAdd ? _mm512_maskz_loadu_epi32(k1, t->colAdd + 16) : _mm512_setzero_si512();
  __m512d mc[4] = {_mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd(), _mm512_setzero_pd()};
  if (t->mCol) {
    __m512 m = _mm512_maskz_loadu_ps(k0, t->mCol), n = _mm512_maskz_loadu_ps(k1, t->mCol + 16);
    mc[0] = _mm512_cvtps_pd(_mm512_castps512_ps256(m)), mc[1] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(m, 1));
    mc[2] = _mm512_cvtps_pd(_mm512_castps512_ps256(n)), mc[3] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(n, 1));
  }
  for (int64_t i = 0; i < t->mr; i++) {
    const int32_t *c = t->c + i * t->ldc;
    const __m512i rowAdd = _mm512_set1_epi32(t->rowAdd[i]), zy = _mm512_set1_epi32(t->zy[i]);
    const __m512d lo = _mm512_set1_pd(t->lo[i]), hi = _mm512_set1_pd(t->hi[i]);
    uint8_t *y = t->y + i * t->ldy;
    if (t->mRow) mc[0] = mc[1] = mc[2] = mc[3] = _mm512_set1_pd((double)t->mRow[i]);
    req16(c, k0, _mm512_add_epi32(rowAdd, colAdd0), mc[0], mc[1], lo, hi, zy, y);
    if (k1) req16(c + 16, k1, _mm512_add_epi32(rowAdd, colAdd1), mc[2], mc[3], lo, hi, zy, y + 16);
  }
}
#endif
