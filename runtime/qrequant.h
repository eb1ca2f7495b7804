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

/* acc + the dot products of u's unsigned and s's signed byte quads
 * (vpdpbusd, not saturating). In inline assembly for GCC: its builtin
 * (GCC 12) made the microkernel copy every accumulator to another
 * register and back around each vpdpbusd, two moves per product. */
__attribute__((target("avx512f,avx512vnni"))) static inline __m512i rtQDpbusd(__m512i acc, __m512i u, __m512i s) {
#if defined(__GNUC__) && !defined(__clang__)
  __asm__("vpdpbusd %2, %1, %0" : "+v"(acc) : "v"(u), "v"(s));
  return acc;
#else
  return _mm512_dpbusd_epi32(acc, u, s);
#endif
}

/* The mask of the first n of 16 lanes (n may be <= 0 or >= 16). */
static inline __mmask16 rtQLive16(int64_t n) {
  return n >= 16 ? (__mmask16)0xFFFF : n <= 0 ? 0 : (__mmask16)((1u << n) - 1);
}

/* Lanes k of v (i32, corrections and bias added): y = the byte of
 * roundeven(min(max(v * m, lo), hi)) + zy, m0 for lanes 0-7, m1 for 8-15
 * (f64); rtQReq16Value: the i32 values before the narrowing. The clamped product is an integer plus a fraction in [lo, hi], so
 * vcvtpd2dq converts it without overflow, rounding half to even (MXCSR's
 * mode, which nothing in the runtime changes: nearbyint's, the
 * interpreter's, as vnniFinishRow's conversion). */
RT_QREQ_TARGET static inline __m512i rtQReq16Value(__m512i v, __m512d m0, __m512d m1, __m512d lo, __m512d hi,
                                                  __m512i zy) {
  __m512d p0 = _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_castsi512_si256(v)), m0);
  __m512d p1 = _mm512_mul_pd(_mm512_cvtepi32_pd(_mm512_extracti64x4_epi64(v, 1)), m1);
  p0 = _mm512_min_pd(_mm512_max_pd(p0, lo), hi), p1 = _mm512_min_pd(_mm512_max_pd(p1, lo), hi);
  __m256i r0 = _mm512_cvtpd_epi32(p0), r1 = _mm512_cvtpd_epi32(p1);
  return _mm512_add_epi32(_mm512_inserti64x4(_mm512_castsi256_si512(r0), r1, 1), zy);
}
RT_QREQ_TARGET static inline void rtQReq16(__m512i v, __mmask16 k, __m512d m0, __m512d m1, __m512d lo, __m512d hi,
                                           __m512i zy, uint8_t *y) {
  _mm_mask_storeu_epi8(y, k, _mm512_cvtepi32_epi8(rtQReq16Value(v, m0, m1, lo, hi, zy)));
}

/* A tile's per-column values (RtQReqTile, nr <= 32): the live lanes of
 * columns 0-15 (k0) and 16-31 (k1), colAdd, and mCol as f64 (4 x 8). */
typedef struct {
  __mmask16 k0, k1;
  __m512i colAdd0, colAdd1;
  __m512d mc[4];
} RtQReqCols;

RT_QREQ_TARGET static inline void rtQReqColsInit(RtQReqCols *cl, const RtQReqTile *t) {
  cl->k0 = rtQLive16(t->nr), cl->k1 = rtQLive16(t->nr - 16);
  cl->colAdd0 = t->colAdd ? _mm512_maskz_loadu_epi32(cl->k0, t->colAdd) : _mm512_setzero_si512();
  cl->colAdd1 = t->colAdd ? _mm512_maskz_loadu_epi32(cl->k1, t->colAdd + 16) : _mm512_setzero_si512();
  for (int j = 0; j < 4; j++) cl->mc[j] = _mm512_setzero_pd();
  if (t->mCol) {
    __m512 m = _mm512_maskz_loadu_ps(cl->k0, t->mCol), n = _mm512_maskz_loadu_ps(cl->k1, t->mCol + 16);
    cl->mc[0] = _mm512_cvtps_pd(_mm512_castps512_ps256(m)), cl->mc[1] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(m, 1));
    cl->mc[2] = _mm512_cvtps_pd(_mm512_castps512_ps256(n)), cl->mc[3] = _mm512_cvtps_pd(_mm512_extractf32x8_ps(n, 1));
  }
}

/* Row i (< t->mr) of tile t from its sums c0 (columns 0-15) and c1
 * (16-31): what rtQRequantTile stores, and the VNNI microkernel from its
 * accumulators. */
RT_QREQ_TARGET static inline void rtQReqRow(const RtQReqCols *cl, const RtQReqTile *t, int64_t i, __m512i c0,
                                            __m512i c1) {
  const __m512i rowAdd = _mm512_set1_epi32(t->rowAdd[i]), zy = _mm512_set1_epi32(t->zy[i]);
  const __m512d lo = _mm512_set1_pd(t->lo[i]), hi = _mm512_set1_pd(t->hi[i]);
  uint8_t *y = t->y + i * t->ldy;
  __m512d m0 = cl->mc[0], m1 = cl->mc[1], m2 = cl->mc[2], m3 = cl->mc[3];
  if (t->mRow) m0 = m1 = m2 = m3 = _mm512_set1_pd((double)t->mRow[i]);
  rtQReq16(_mm512_add_epi32(c0, _mm512_add_epi32(rowAdd, cl->colAdd0)), cl->k0, m0, m1, lo, hi, zy, y);
  if (cl->k1) rtQReq16(_mm512_add_epi32(c1, _mm512_add_epi32(rowAdd, cl->colAdd1)), cl->k1, m2, m3, lo, hi, zy, y + 16);
}
#endif

#endif /* STRATA_RUNTIME_QREQUANT_H */
