/* The fast requantization's 16-column step (AVX-512), for the kernels that
 * requantize in registers (qrequant.c's tiles, qdepthwise.c's rows); its
 * arithmetic and why it equals the reference: qrequant.c. Internal to the
 * runtime; x86-64 only (RT_QREQ_TILE). */
#ifndef STRATA_RUNTIME_QREQUANT_H
#define STRATA_RUNTIME_QREQUANT_H

#include "qgemm.h"

#ifdef RT_QREQ_TILE
#include <immintrin.h>

#define RT_QREQ_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl")))

/* The mask of the first n of 16 lanes (n may be <= 0 or >= 16). */
static inline __mmask16 rtQLive16(int64_t n) {
  return n >= 16 ? (__mmask16)0xFFFF : n <= 0 ? 0 : (__mmask16)((1u << n) - 1);
}

/* Lanes k of v (i32, corrections and bias added): y = the byte of
 * roundeven(min(max(v * m, lo), hi)) + zy, m0 for lanes 0-7, m1 for 8-15
 * (f64). */
RT_QREQ_TARGET static inline void rtQReq16(__m512i v, __mmask16 k, __m512d m0, __m512d m1, __m512d lo, __m512d hi,
                                           __m512i zy, uint8_t *y) {
  __m512d p0 = _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(v)), m0);
  __m512d p1 = _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(v, 1)), m1);
  p0 = _mm512_min_pd(_mm512_max_pd(p0, lo), hi), p1 = _mm512_min_pd(_mm512_max_pd(p1, lo), hi);
  /* rounded to integers, then converted exactly (the embedded-rounding
   * conversion truncated in GCC's unoptimized build) */
  p0 = _mm512_roundscale_pd(p0, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  p1 = _mm512_roundscale_pd(p1, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256i r0 = _mm512_cvttpd_epi32(p0), r1 = _mm512_cvttpd_epi32(p1);
  __m512i q = _mm512_add_epi32(_mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1), zy);
  _mm_mask_storeu_epi8(y, k, _mm512_cvtepi32_epi8(q));
}
#endif

#endif /* STRATA_RUNTIME_QREQUANT_H */
