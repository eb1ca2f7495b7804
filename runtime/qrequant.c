/* The integer kernels' requantization in its fast form (qgemm.h's
 * RtQReqTile), AVX-512: what rtQGemm's tiles and rtQFinishRow's rows run on
 * the VNNI path when the zero-point corrections reduce to one term per row
 * and one per column and m is finite. Bit for bit the reference's
 * arithmetic (dialects/nn/ops_qlinear.c):
 *   q = min(max(roundeven((double)v * (double)m) + zy, floor), ceil)
 * computed as roundeven(min(max(p, floor - zy), ceil - zy)) + zy with p the
 * same f64 product: rounding is monotone and leaves the integer bounds
 * fixed, so clamping before it changes nothing (floor > ceil gives ceil
 * both ways), and the clamped, rounded p converts to i32 exactly. A finite m keeps p finite (|v| <
 * 2^31), so there is no NaN to map to 0. */
#include "qgemm.h"

#ifdef RT_QREQ_TILE
#include "qrequant.h"

/* 16 columns (mask k) of sums c: v = c + add, times m (columns 0-7 m0,
 * 8-15 m1). */
RT_QREQ_TARGET static inline void req16(const int32_t *c, __mmask16 k, __m512i add, __m512d m0, __m512d m1,
                                        __m512d lo, __m512d hi, __m512i zy, uint8_t *y) {
  rtQReq16(_mm512_add_epi32(_mm512_maskz_loadu_epi32(k, c), add), k, m0, m1, lo, hi, zy, y);
}

RT_QREQ_TARGET void rtQRequantTile(const RtQReqTile *t) {
  const __mmask16 k0 = rtQLive16(t->nr), k1 = rtQLive16(t->nr - 16);
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
