/* libstrata_rt microkernels, one body instantiated per ISA with GCC/Clang
 * vector extensions and target attributes: MR x (2 vectors) register tiles
 * of FMAs. The ISA is chosen from the host CPU (cpuid), overridable with
 * strataRtSetIsa or the STRATA_RT_ISA environment variable. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

#define RT_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define RT_UNROLL RT_PRAGMA(clang loop unroll(full))
#else
#define RT_UNROLL RT_PRAGMA(GCC unroll 16)
#endif

#define RT_INLINE static inline __attribute__((always_inline))

/* The epilogue's scale and addends on an mr x nr tile (the activation
 * follows in the ISA's actRow). */
RT_INLINE void epilogueAddends(float *c, int64_t ldc, int64_t m0, int64_t n0, int64_t mr, int64_t nr,
                            const RtEpilogue *ep) {
  for (int64_t i = 0; i < mr; i++) {
    float *restrict row = c + i * ldc;
    if (ep->alpha != 1.0f)
      for (int64_t j = 0; j < nr; j++) row[j] *= ep->alpha;
    for (int a = 0; a < ep->nadd; a++) {
      const RtAddend *ad = &ep->add[a];
      const float *base = ad->p + (m0 + i) * ad->sm;
      const float beta = ad->beta;
      if (ad->sh == 0 && ad->sw == 0) {
        float v = beta * base[0];
        for (int64_t j = 0; j < nr; j++) row[j] += v;
        continue;
      }
      /* Runs of columns within one (h) row of the addend. */
      int64_t h = n0 / ep->W, w = n0 % ep->W;
      for (int64_t j = 0; j < nr; h++, w = 0) {
        int64_t len = nr - j < ep->W - w ? nr - j : ep->W - w;
        const float *restrict src = base + h * ad->sh + w * ad->sw;
        float *restrict dst = row + j;
        if (ad->sw == 1)
          for (int64_t t = 0; t < len; t++) dst[t] += beta * src[t];
        else
          for (int64_t t = 0; t < len; t++) dst[t] += beta * src[t * ad->sw];
        j += len;
      }
    }
  }
}

/* The even lanes of two VW-float vectors, for __builtin_shufflevector. */
#define RT_EVEN_LANES_4 0, 2, 4, 6
#define RT_EVEN_LANES_8 0, 2, 4, 6, 8, 10, 12, 14
#define RT_EVEN_LANES_16 0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30

/* kernelPart's cases: rows 1..8 (at most MR) by one or two vectors. */
#define RT_PART_CASE(NAME, MR, R)                                                                  \
  case 2 * (R): NAME##_tileRows(kc, a, b, c, ldc, accumulate, (R) < (MR) ? (R) : (MR), 1); return; \
  case 2 * (R) + 1: NAME##_tileRows(kc, a, b, c, ldc, accumulate, (R) < (MR) ? (R) : (MR), 2); return;
#define RT_PART_CASES(NAME, MR)                                                                    \
  RT_PART_CASE(NAME, MR, 1) RT_PART_CASE(NAME, MR, 2) RT_PART_CASE(NAME, MR, 3)                    \
  RT_PART_CASE(NAME, MR, 4) RT_PART_CASE(NAME, MR, 5) RT_PART_CASE(NAME, MR, 6)                    \
  RT_PART_CASE(NAME, MR, 7) RT_PART_CASE(NAME, MR, 8)

/* NAME_kernel: MR x 2*VW tile; NAME_epilogue; NAME_window: a depthwise row. */
#define RT_DEFINE_ISA(NAME, TARGET, VW, MR, RECIP, GATEEXP)                                               \
  typedef float NAME##_vf __attribute__((vector_size((VW) * 4), aligned(4)));                     \
  typedef int32_t NAME##_vi __attribute__((vector_size((VW) * 4)));                               \
  /* v clamped to [lo, hi]; NaN compares false: it stays. */             \
  TARGET RT_INLINE NAME##_vf NAME##_clamp(NAME##_vf v, float lo, float hi) {                       \
    NAME##_vi m = (NAME##_vi)(v < lo);                                                             \
    v = (NAME##_vf)(((NAME##_vi)v & ~m) | ((NAME##_vi)(lo - (NAME##_vf){0}) & m));                 \
    m = (NAME##_vi)(v > hi);                                                                       \
    return (NAME##_vf)(((NAME##_vi)v & ~m) | ((NAME##_vi)(hi - (NAME##_vf){0}) & m));              \
  }                                                                                                \
  /* exp on a vector (Cephes expf: range reduction by ln 2, degree-6      \
   * polynomial, 2^n through the exponent bits; NaN propagates). Below    \
   * the normal range (x < -87.34, -inf included) it is 0, as the         \
   * generated code's (math-approx), not the clamp's 2^-126: a masked      \
   * softmax entry (-inf or -1e4 added) must be exactly 0, and a           \
   * denormal there (2^-126 / sum) costs a microcode assist per FMA that   \
   * reads it on Intel cores in the GEMM that follows. */                  \
  TARGET RT_INLINE NAME##_vf NAME##_exp(NAME##_vf v) {                                             \
    NAME##_vi under = (NAME##_vi)(v < -87.3365447f);                                               \
    v = NAME##_clamp(v, -87.3365447f, 88.3762626f);                                                \
    NAME##_vf fx = v * 1.44269504088896341f + 0.5f;                                                \
    NAME##_vf t = __builtin_convertvector(__builtin_convertvector(fx, NAME##_vi), NAME##_vf);       \
    NAME##_vi m = (NAME##_vi)(t > fx); /* truncation rounded up a negative: floor */              \
    t -= (NAME##_vf)((NAME##_vi)(1.0f - (NAME##_vf){0}) & m);                                      \
    v = v - t * 0.693359375f + t * 2.12194440e-4f;                                                 \
    NAME##_vf z = v * v;                                                                           \
    NAME##_vf y = 1.9875691500e-4f - (NAME##_vf){0};                                               \
    y = y * v + 1.3981999507e-3f;                                                                  \
    y = y * v + 8.3334519073e-3f;                                                                  \
    y = y * v + 4.1665795894e-2f;                                                                  \
    y = y * v + 1.6666665459e-1f;                                                                  \
    y = y * v + 5.0000001201e-1f;                                                                  \
    y = y * z + v + 1.0f;                                                                          \
    NAME##_vi n = __builtin_convertvector(t, NAME##_vi);                                           \
    return (NAME##_vf)((NAME##_vi)(y * (NAME##_vf)((n + 127) << 23)) & ~under);                   \
  }                                                                                                \
  /* erf on a vector: a rational approximation on [-4, 4] (odd degree-13 \
   * over even degree-8, as Eigen's float erf; erf(4) is 1 in float) with  \
   * the argument clamped there (NaN compares false: it stays). */        \
  TARGET RT_INLINE NAME##_vf NAME##_erf(NAME##_vf v) {                                             \
    v = NAME##_clamp(v, -4.0f, 4.0f);                                                              \
    NAME##_vf x2 = v * v;                                                                          \
    NAME##_vf p = -2.72614225801306e-10f - (NAME##_vf){0};                                         \
    p = p * x2 + 2.77068142495902e-08f;                                                            \
    p = p * x2 - 2.10102402082508e-06f;                                                            \
    p = p * x2 - 5.69250639462346e-05f;                                                            \
    p = p * x2 - 7.34990630326855e-04f;                                                            \
    p = p * x2 - 2.95459980854025e-03f;                                                            \
    p = p * x2 - 1.60960333262415e-02f;                                                            \
    NAME##_vf q = -1.45660718464996e-05f - (NAME##_vf){0};                                         \
    q = q * x2 - 2.13374055278905e-04f;                                                            \
    q = q * x2 - 1.68282697438203e-03f;                                                            \
    q = q * x2 - 7.37332916720468e-03f;                                                            \
    q = q * x2 - 1.42647390514189e-02f;                                                            \
    return v * p * RECIP(q);                                                                       \
  }                                                                                                \
  /* e^v for the gates: exp, but infinity past its range (as the         \
   * reference's e^-z, whose 1 / (1 + e^-z) is then 0). */               \
  TARGET RT_INLINE NAME##_vf NAME##_gateExp(NAME##_vf v) {                                         \
    NAME##_vi big = (NAME##_vi)(v > 88.3762626f);                                                  \
    NAME##_vf inf = __builtin_inff() - (NAME##_vf){0};                                             \
    NAME##_vf e = NAME##_exp(v);                                                                   \
    return (NAME##_vf)(((NAME##_vi)e & ~big) | ((NAME##_vi)inf & big));                             \
  }                                                                                                \
  /* The gates (strataRtActIsGate): s(z) = 1 / (1 + e^-z) of z = v        \
   * (SIGMOID: s; SILU, as x * sigmoid(x) is exported: v s) or of         \
   * z = 2 sqrt(2/pi) (v + 0.044715 v^3) (GELU_TANH: v s, which is          \
   * v/2 (1 + tanh(z/2)) without its cancellation), e^-z overflowing to     \
   * infinity past exp's range as in the reference; GELU: v/2 (1 + erf(v /  \
   * sqrt 2)). */                                                            \
  TARGET RT_INLINE NAME##_vf NAME##_gate(NAME##_vf v, int act) {                                   \
    if (act == STRATA_RT_ACT_GELU) return 0.5f * v * (1.0f + NAME##_erf(v * 0.707106781186547524f)); \
    NAME##_vf z = act == STRATA_RT_ACT_GELU_TANH ? 1.59576912160573071f * (v + 0.044715f * v * v * v) : v; \
    NAME##_vf s = RECIP(1.0f + GATEEXP(-z));                                                       \
    return act == STRATA_RT_ACT_SIGMOID ? s : v * s;                                               \
  }                                                                                                \
  /* v * clip(v / 6 + 1/2, 0, 1); NaN compares false: it stays. */       \
  TARGET RT_INLINE NAME##_vf NAME##_hardSwish(NAME##_vf v) {                                       \
    return v * NAME##_clamp(v * (1.0f / 6.0f) + 0.5f, 0.0f, 1.0f);                                 \
  }                                                                                                \
  /* The activation on n vectors, act hoisted out of the loop so that   \
   * each case is one unrolled body of independent chains (a gate is a    \
   * chain of about 30 dependent operations: one vector at a time leaves  \
   * the FMA units waiting on its latency). */                            \
  TARGET RT_INLINE void NAME##_actVectors(NAME##_vf *v, int n, const RtEpilogue *ep) {             \
    switch (ep->act) {                                                                             \
    case STRATA_RT_ACT_RELU: /* v <= 0 ? 0 : v: NaN stays */                                       \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = (NAME##_vf)((NAME##_vi)v[i] & ~(NAME##_vi)(v[i] <= 0.0f)); \
      break;                                                                                       \
    case STRATA_RT_ACT_CLIP:                                                                       \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = NAME##_clamp(v[i], ep->lo, ep->hi);             \
      break;                                                                                       \
    case STRATA_RT_ACT_SIGMOID:                                                                    \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = NAME##_gate(v[i], STRATA_RT_ACT_SIGMOID);       \
      break;                                                                                       \
    case STRATA_RT_ACT_SILU:                                                                       \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = NAME##_gate(v[i], STRATA_RT_ACT_SILU);          \
      break;                                                                                       \
    case STRATA_RT_ACT_GELU:                                                                       \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = NAME##_gate(v[i], STRATA_RT_ACT_GELU);          \
      break;                                                                                       \
    case STRATA_RT_ACT_GELU_TANH:                                                                  \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = NAME##_gate(v[i], STRATA_RT_ACT_GELU_TANH);     \
      break;                                                                                       \
    case STRATA_RT_ACT_HARDSWISH:                                                                  \
      RT_UNROLL for (int i = 0; i < n; i++) v[i] = NAME##_hardSwish(v[i]);                         \
      break;                                                                                       \
    }                                                                                              \
  }                                                                                                \
  /* The activation (any) on a contiguous run of n floats: four vectors   \
   * at a time, the tail through one padded vector. */                    \
  TARGET static void NAME##_actRow(float *row, int64_t n, const RtEpilogue *ep) {                  \
    int64_t j = 0;                                                                                 \
    for (; j + 4 * (VW) <= n; j += 4 * (VW)) {                                                     \
      NAME##_vf v[4];                                                                              \
      memcpy(v, row + j, sizeof v);                                                                \
      NAME##_actVectors(v, 4, ep);                                                                 \
      memcpy(row + j, v, sizeof v);                                                                \
    }                                                                                              \
    for (; j + (VW) <= n; j += (VW)) {                                                             \
      NAME##_vf v;                                                                                 \
      memcpy(&v, row + j, sizeof v);                                                               \
      NAME##_actVectors(&v, 1, ep);                                                                \
      memcpy(row + j, &v, sizeof v);                                                               \
    }                                                                                              \
    if (j < n) {                                                                                   \
      NAME##_vf v = {0};                                                                           \
      for (int64_t t = j; t < n; t++) v[t - j] = row[t];                                           \
      NAME##_actVectors(&v, 1, ep);                                                                \
      for (int64_t t = j; t < n; t++) row[t] = v[t - j];                                           \
    }                                                                                              \
  }                                                                                                \
  /* The epilogue's scale and addends on one register pair (a row's 2 *  \
   * VW columns); the activation follows on the whole tile. */            \
  TARGET RT_INLINE void NAME##_rowAddends(NAME##_vf *r0, NAME##_vf *r1, const RtEpilogue *ep,    \
                                           int64_t m, int64_t n0) {                                \
    if (ep->alpha != 1.0f) *r0 *= ep->alpha, *r1 *= ep->alpha;                                     \
    for (int a = 0; a < ep->nadd; a++) {                                                           \
      const RtAddend *ad = &ep->add[a];                                                            \
      const float *p = ad->p + m * ad->sm;                                                         \
      if (ad->sh == 0 && ad->sw == 0) {                                                            \
        float v = ad->beta * p[0];                                                                 \
        *r0 += v, *r1 += v;                                                                        \
      } else {                                                                                     \
        p += (n0 / ep->W) * ad->sh + n0 % ep->W;                                                   \
        *r0 += ad->beta * *(const NAME##_vf *)p;                                                   \
        *r1 += ad->beta * *(const NAME##_vf *)(p + (VW));                                          \
      }                                                                                            \
    }                                                                                              \
  }                                                                                                \
  TARGET static void NAME##_kernel(int64_t kc, const float *restrict a, const float *restrict b,  \
                                   float *restrict c, int64_t ldc, int accumulate,                 \
                                   const RtEpilogue *ep, int64_t m0, int64_t n0) {                 \
    NAME##_vf acc[MR][2];                                                                          \
    RT_UNROLL for (int i = 0; i < (MR); i++) acc[i][0] = acc[i][1] = (NAME##_vf){0};               \
    for (int64_t k = 0; k < kc; k++) {                                                             \
      NAME##_vf b0 = *(const NAME##_vf *)(b + k * 2 * (VW));                                       \
      NAME##_vf b1 = *(const NAME##_vf *)(b + k * 2 * (VW) + (VW));                                \
      RT_UNROLL for (int i = 0; i < (MR); i++) {                                                   \
        NAME##_vf ai = a[k * (MR) + i] - (NAME##_vf){0}; /* a broadcast; x - 0 == x */             \
        acc[i][0] += ai * b0;                                                                      \
        acc[i][1] += ai * b1;                                                                      \
      }                                                                                            \
    }                                                                                              \
    RT_UNROLL for (int i = 0; i < (MR); i++) {                                                     \
      NAME##_vf *row = (NAME##_vf *)(c + i * ldc);                                                 \
      if (accumulate) acc[i][0] += row[0], acc[i][1] += row[1];                                    \
      if (ep) NAME##_rowAddends(&acc[i][0], &acc[i][1], ep, m0 + i, n0);                           \
    }                                                                                              \
    if (ep && ep->act) NAME##_actVectors(&acc[0][0], 2 * (MR), ep);                                \
    RT_UNROLL for (int i = 0; i < (MR); i++) {                                                     \
      NAME##_vf *row = (NAME##_vf *)(c + i * ldc);                                                 \
      row[0] = acc[i][0];                                                                          \
      row[1] = acc[i][1];                                                                          \
    }                                                                                              \
  }                                                                                                \
  /* The first R rows and NV vectors of a tile (a partial tile: rows and \
   * columns past the product's edge are not computed). Fewer than eight  \
   * accumulators would wait on the FMA latency: they are doubled, even   \
   * and odd k summed apart and added at the end. */                       \
  TARGET RT_INLINE void NAME##_tileRows(int64_t kc, const float *restrict a, const float *restrict b, \
                                        float *restrict c, int64_t ldc, int accumulate, const int R,   \
                                        const int NV) {                                              \
    enum { SPLIT = 2 };                                                                            \
    const int S = R * NV < 8 ? SPLIT : 1;                                                          \
    NAME##_vf acc[SPLIT][MR][2];                                                                   \
    RT_UNROLL for (int s = 0; s < S; s++) RT_UNROLL for (int i = 0; i < R; i++)                    \
        RT_UNROLL for (int v = 0; v < NV; v++) acc[s][i][v] = (NAME##_vf){0};                      \
    int64_t k = 0;                                                                                 \
    for (; k + S <= kc; k += S) {                                                                  \
      RT_UNROLL for (int s = 0; s < S; s++) {                                                      \
        const float *bk = b + (k + s) * 2 * (VW), *ak = a + (k + s) * (MR);                        \
        NAME##_vf bv[2];                                                                           \
        RT_UNROLL for (int v = 0; v < NV; v++) bv[v] = *(const NAME##_vf *)(bk + v * (VW));        \
        RT_UNROLL for (int i = 0; i < R; i++) {                                                    \
          NAME##_vf ai = ak[i] - (NAME##_vf){0};                                                   \
          RT_UNROLL for (int v = 0; v < NV; v++) acc[s][i][v] += ai * bv[v];                       \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    for (; k < kc; k++) {                                                                          \
      RT_UNROLL for (int v = 0; v < NV; v++) {                                                     \
        NAME##_vf bv = *(const NAME##_vf *)(b + k * 2 * (VW) + v * (VW));                          \
        RT_UNROLL for (int i = 0; i < R; i++) acc[0][i][v] += (a[k * (MR) + i] - (NAME##_vf){0}) * bv; \
      }                                                                                            \
    }                                                                                              \
    RT_UNROLL for (int i = 0; i < R; i++) RT_UNROLL for (int v = 0; v < NV; v++) {                 \
      NAME##_vf *out = (NAME##_vf *)(c + i * ldc + v * (VW));                                      \
      NAME##_vf sum = acc[0][i][v];                                                                \
      if (S > 1) sum += acc[1][i][v];                                                              \
      *out = accumulate ? *out + sum : sum;                                                        \
    }                                                                                              \
  }                                                                                                \
  TARGET static void NAME##_kernelPart(int64_t kc, const float *a, const float *b, float *c,       \
                                       int64_t ldc, int accumulate, int mr, int nv) {              \
    switch (mr * 2 + (nv > 1)) {                                                                   \
    RT_PART_CASES(NAME, MR)                                                                        \
    default: rtInvariant("partial tile of %d rows and %d vectors", mr, nv);                       \
    }                                                                                              \
  }                                                                                                \
  TARGET static void NAME##_epilogue(float *c, int64_t ldc, int64_t m0, int64_t n0, int64_t mr,   \
                                     int64_t nr, const RtEpilogue *ep) {                           \
    epilogueAddends(c, ldc, m0, n0, mr, nr, ep);                                                      \
    if (!ep->act) return;                                                                          \
    if (ldc == nr || mr == 1) { /* dense rows (the transposed product's C): one run */            \
      NAME##_actRow(c, mr * nr, ep);                                                               \
    } else if (nr % (VW) != 0 && mr * nr <= 4096) {                                                \
      /* rows of a partial tile (N = 49: 17 columns) gathered into one run, \
       * so that a padded vector per row is not a whole gate each */       \
      float run[4096];                                                                             \
      for (int64_t i = 0; i < mr; i++) memcpy(run + i * nr, c + i * ldc, sizeof(float) * (size_t)nr); \
      NAME##_actRow(run, mr * nr, ep);                                                             \
      for (int64_t i = 0; i < mr; i++) memcpy(c + i * ldc, run + i * nr, sizeof(float) * (size_t)nr); \
    } else {                                                                                       \
      for (int64_t i = 0; i < mr; i++) NAME##_actRow(c + i * ldc, nr, ep);                         \
    }                                                                                              \
  }                                                                                                \
  TARGET static void NAME##_window(float *restrict y, const float *const *taps, const float *w,   \
                                   int64_t ntaps, int64_t n) {                                     \
    int64_t o = 0;                                                                                 \
    for (; o + 4 * (VW) <= n; o += 4 * (VW)) { /* four independent FMA chains */                  \
      NAME##_vf a0 = {0}, a1 = {0}, a2 = {0}, a3 = {0};                                            \
      for (int64_t t = 0; t < ntaps; t++) {                                                        \
        const float *x = taps[t] + o;                                                              \
        const float wt = w[t];                                                                     \
        a0 += wt * *(const NAME##_vf *)x;                                                          \
        a1 += wt * *(const NAME##_vf *)(x + (VW));                                                 \
        a2 += wt * *(const NAME##_vf *)(x + 2 * (VW));                                             \
        a3 += wt * *(const NAME##_vf *)(x + 3 * (VW));                                             \
      }                                                                                            \
      *(NAME##_vf *)(y + o) = a0;                                                                  \
      *(NAME##_vf *)(y + o + (VW)) = a1;                                                           \
      *(NAME##_vf *)(y + o + 2 * (VW)) = a2;                                                       \
      *(NAME##_vf *)(y + o + 3 * (VW)) = a3;                                                       \
    }                                                                                              \
    for (; o + (VW) <= n; o += (VW)) {                                                             \
      NAME##_vf acc = {0};                                                                         \
      for (int64_t t = 0; t < ntaps; t++) acc += w[t] * *(const NAME##_vf *)(taps[t] + o);         \
      *(NAME##_vf *)(y + o) = acc;                                                                 \
    }                                                                                              \
    for (; o < n; o++) {                                                                           \
      float acc = 0.0f;                                                                            \
      for (int64_t t = 0; t < ntaps; t++) acc += w[t] * taps[t][o];                                \
      y[o] = acc;                                                                                  \
    }                                                                                              \
  }                                                                                                \
  /* Softmax (or log-softmax) of one contiguous row: the max ignores NaN  \
   * like fmax, a NaN then poisons the sum, as in the reference. */        \
  TARGET static void NAME##_softmaxRow(const float *restrict x, float *restrict y, int64_t n,     \
                                       int logForm) {                                              \
    NAME##_vf vm = -__builtin_inff() - (NAME##_vf){0};                                             \
    int64_t o = 0;                                                                                 \
    for (; o + (VW) <= n; o += (VW)) {                                                             \
      NAME##_vf v = *(const NAME##_vf *)(x + o);                                                   \
      NAME##_vi g = (NAME##_vi)(v > vm);                                                           \
      vm = (NAME##_vf)(((NAME##_vi)vm & ~g) | ((NAME##_vi)v & g));                                 \
    }                                                                                              \
    float mx = -__builtin_inff();                                                                  \
    for (int i = 0; i < (VW); i++) mx = vm[i] > mx ? vm[i] : mx;                                   \
    for (int64_t t = o; t < n; t++) mx = x[t] > mx ? x[t] : mx;                                    \
    NAME##_vf vs = {0}, vmx = mx - (NAME##_vf){0};                                                 \
    for (o = 0; o + (VW) <= n; o += (VW)) {                                                        \
      NAME##_vf e = NAME##_exp(*(const NAME##_vf *)(x + o) - vmx);                                 \
      if (!logForm) *(NAME##_vf *)(y + o) = e;                                                     \
      vs += e;                                                                                     \
    }                                                                                              \
    float sum = 0.0f;                                                                              \
    for (int i = 0; i < (VW); i++) sum += vs[i];                                                   \
    for (int64_t t = o; t < n; t++) { /* the tail through one padded vector */                     \
      NAME##_vf e = NAME##_exp((x[t] - mx) - (NAME##_vf){0});                                      \
      if (!logForm) y[t] = e[0];                                                                   \
      sum += e[0];                                                                                 \
    }                                                                                              \
    if (logForm) {                                                                                 \
      float ls = __builtin_logf(sum);                                                              \
      for (int64_t t = 0; t < n; t++) y[t] = (x[t] - mx) - ls;                                     \
    } else {                                                                                       \
      for (int64_t t = 0; t < n; t++) y[t] /= sum;                                                 \
    }                                                                                              \
  }                                                                                                \
  /* y[0, n) += a * x[0, n) (GEMV rows). */                                                      \
  TARGET static void NAME##_axpy(float *restrict y, const float *restrict x, float a, int64_t n) { \
    typedef float NAME##_u __attribute__((vector_size((VW) * 4), aligned(4)));                     \
    int64_t o = 0;                                                                                 \
    for (; o + 4 * (VW) <= n; o += 4 * (VW))                                                       \
      for (int r = 0; r < 4; r++)                                                                  \
        *(NAME##_u *)(y + o + r * (VW)) += a * *(const NAME##_u *)(x + o + r * (VW));              \
    for (; o + (VW) <= n; o += (VW)) *(NAME##_u *)(y + o) += a * *(const NAME##_u *)(x + o);       \
    for (; o < n; o++) y[o] += a * x[o];                                                           \
  }                                                                                                \
  /* sum of a[k] * b[k], k < n (GEMV with a transposed B). */                                    \
  TARGET static float NAME##_dot(const float *restrict a, const float *restrict b, int64_t n) {    \
    typedef float NAME##_u __attribute__((vector_size((VW) * 4), aligned(4)));                     \
    NAME##_vf acc[4] = {{0}};                                                                      \
    int64_t o = 0;                                                                                 \
    for (; o + 4 * (VW) <= n; o += 4 * (VW))                                                       \
      for (int r = 0; r < 4; r++)                                                                  \
        acc[r] += *(const NAME##_u *)(a + o + r * (VW)) * *(const NAME##_u *)(b + o + r * (VW));   \
    for (; o + (VW) <= n; o += (VW)) acc[0] += *(const NAME##_u *)(a + o) * *(const NAME##_u *)(b + o); \
    NAME##_vf v = (acc[0] + acc[1]) + (acc[2] + acc[3]);                                           \
    float sum = 0.0f;                                                                              \
    for (int i = 0; i < (VW); i++) sum += v[i];                                                    \
    for (; o < n; o++) sum += a[o] * b[o];                                                         \
    return sum;                                                                                    \
  }                                                                                                \
  /* Layer normalization of one contiguous row: mean, then the variance   \
   * of the centered row (two passes, as the reference), then             \
   * (x - mean) / sqrt(var + eps) * scale (+ bias). */                    \
  TARGET static void NAME##_layerNormRow(const float *restrict x, float *restrict y,               \
                                         const float *restrict scale, const float *restrict bias,  \
                                         int64_t n, float eps) {                                   \
    typedef float NAME##_u __attribute__((vector_size((VW) * 4), aligned(4)));                     \
    NAME##_vf acc = {0};                                                                           \
    int64_t o = 0;                                                                                 \
    for (; o + (VW) <= n; o += (VW)) acc += *(const NAME##_u *)(x + o);                            \
    float sum = 0.0f;                                                                              \
    for (int i = 0; i < (VW); i++) sum += acc[i];                                                  \
    for (; o < n; o++) sum += x[o];                                                                \
    const float mean = sum / (float)n;                                                             \
    acc = (NAME##_vf){0};                                                                          \
    for (o = 0; o + (VW) <= n; o += (VW)) {                                                        \
      NAME##_vf d = *(const NAME##_u *)(x + o) - mean;                                             \
      acc += d * d;                                                                                \
    }                                                                                              \
    float ss = 0.0f;                                                                               \
    for (int i = 0; i < (VW); i++) ss += acc[i];                                                   \
    for (; o < n; o++) ss += (x[o] - mean) * (x[o] - mean);                                        \
    const float inv = 1.0f / __builtin_sqrtf(ss / (float)n + eps);                                 \
    for (o = 0; o + (VW) <= n; o += (VW)) {                                                        \
      NAME##_vf v = (*(const NAME##_u *)(x + o) - mean) * inv * *(const NAME##_u *)(scale + o);    \
      if (bias) v += *(const NAME##_u *)(bias + o);                                                \
      *(NAME##_u *)(y + o) = v;                                                                    \
    }                                                                                              \
    for (; o < n; o++) y[o] = (x[o] - mean) * inv * scale[o] + (bias ? bias[o] : 0.0f);            \
  }                                                                                                \
  /* A full B panel of unit-stride rows, each scaled (a 1x1 conv's input \
   * with a squeeze-and-excitation gate, xscale): dst[k * 2VW + j] =      \
   * src[k * rs + j] * scale[k * ss], j < 2 * VW. */                       \
  TARGET static void NAME##_scaledPanel(float *restrict dst, const float *restrict src, int64_t rs, \
                                        int64_t kc, const float *scale, int64_t ss) {              \
    typedef float NAME##_u __attribute__((vector_size((VW) * 4), aligned(4)));                     \
    for (int64_t k = 0; k < kc; k++) {                                                             \
      const float sc = scale[k * ss];                                                              \
      *(NAME##_u *)(dst + k * 2 * (VW)) = *(const NAME##_u *)(src + k * rs) * sc;                   \
      *(NAME##_u *)(dst + k * 2 * (VW) + (VW)) = *(const NAME##_u *)(src + k * rs + (VW)) * sc;     \
    }                                                                                              \
  }                                                                                                \
  /* Global pooling's rows: four vector sums; the max with a NaN flag    \
   * (any NaN gives NaN, as the reference's). */                          \
  TARGET static float NAME##_sumRow(const float *restrict x, int64_t n) {                          \
    typedef float NAME##_u __attribute__((vector_size((VW) * 4), aligned(4)));                     \
    NAME##_vf acc[4] = {{0}};                                                                      \
    int64_t o = 0;                                                                                 \
    for (; o + 4 * (VW) <= n; o += 4 * (VW))                                                       \
      for (int r = 0; r < 4; r++) acc[r] += *(const NAME##_u *)(x + o + r * (VW));                 \
    for (; o + (VW) <= n; o += (VW)) acc[0] += *(const NAME##_u *)(x + o);                         \
    NAME##_vf v = (acc[0] + acc[1]) + (acc[2] + acc[3]);                                           \
    float sum = 0.0f;                                                                              \
    for (int i = 0; i < (VW); i++) sum += v[i];                                                    \
    for (; o < n; o++) sum += x[o];                                                                \
    return sum;                                                                                    \
  }                                                                                                \
  TARGET static float NAME##_maxRow(const float *restrict x, int64_t n) {                          \
    typedef float NAME##_u __attribute__((vector_size((VW) * 4), aligned(4)));                     \
    NAME##_vf vm = -__builtin_inff() - (NAME##_vf){0};                                             \
    NAME##_vi nan = {0};                                                                           \
    int64_t o = 0;                                                                                 \
    for (; o + (VW) <= n; o += (VW)) {                                                             \
      NAME##_vf v = *(const NAME##_u *)(x + o);                                                    \
      NAME##_vi g = (NAME##_vi)(v > vm);                                                           \
      nan |= (NAME##_vi)(v != v);                                                                  \
      vm = (NAME##_vf)(((NAME##_vi)vm & ~g) | ((NAME##_vi)v & g));                                 \
    }                                                                                              \
    float mx = -__builtin_inff();                                                                  \
    bool isNan = false;                                                                            \
    for (int i = 0; i < (VW); i++) mx = vm[i] > mx ? vm[i] : mx, isNan |= nan[i] != 0;             \
    for (; o < n; o++) mx = x[o] > mx ? x[o] : mx, isNan |= x[o] != x[o];                          \
    return isNan ? __builtin_nanf("") : mx;                                                        \
  }                                                                                                \
  /* dst[t] = src[2 * t], t < n, reading src[0 .. 2n - 1] (the caller   \
   * knows whether src[2n - 1] is readable): the stride-2 runs of an      \
   * im2col panel, two loads and a permute per VW of them (the baseline   \
   * build's loop took SSE's 4 a step, half as scalar tails). */          \
  TARGET RT_INLINE void NAME##_even(float *dst, const float *src) {                                \
    NAME##_vf a = *(const NAME##_vf *)src, b = *(const NAME##_vf *)(src + (VW));                   \
    *(NAME##_vf *)dst = __builtin_shufflevector(a, b, RT_EVEN_LANES_##VW);                         \
  }                                                                                                \
  TARGET static void NAME##_copyStride2(float *restrict dst, const float *restrict src, int64_t n) { \
    int64_t t = 0;                                                                                 \
    for (; t + (VW) <= n; t += (VW)) NAME##_even(dst + t, src + 2 * t);                            \
    if (t < n && n >= (VW)) /* the last VW, overlapping the block before */                       \
      NAME##_even(dst + n - (VW), src + 2 * (n - (VW)));                                           \
    else                                                                                           \
      for (; t < n; t++) dst[t] = src[2 * t];                                                      \
  }                                                                                                \
  static const RtIsa NAME##_isa = {#NAME, MR, 2 * (VW), NAME##_kernel, NAME##_epilogue,           \
                                   NAME##_window, NAME##_softmaxRow, NAME##_depthwiseGroup,        \
                                   NAME##_axpy, NAME##_dot, NAME##_layerNormRow,                   \
                                   NAME##_groupedTile, NAME##_sumRow, NAME##_maxRow, NAME##_fewRows,   \
                                   NAME##_actRow, NAME##_scaledPanel, NAME##_copyStride2, NAME##_kernelPart};

/* 1 / d on a vector, for the gates' 1 / (1 + e) (d >= 1, infinity or NaN)
 * and erf's p / q (q < 0): a division where the ISA has nothing faster;
 * on AVX2 and AVX-512 the hardware reciprocal estimate and one Newton step
 * (within 2 ulp; vdivps on 512-bit vectors has a throughput of about 10
 * cycles, as much as the rest of a sigmoid). The step would make 1 / inf
 * a NaN: infinity keeps the estimate's exact 0. */
typedef float rtV4 __attribute__((vector_size(16), aligned(4)));
static inline rtV4 genericRecip(rtV4 d) { return 1.0f / d; }
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
typedef float rtV8 __attribute__((vector_size(32), aligned(4)));
typedef float rtV16 __attribute__((vector_size(64), aligned(4)));
__attribute__((target("avx2,fma"))) static inline rtV8 avx2Recip(rtV8 d) {
  __m256 x = (__m256)d, r = _mm256_rcp_ps(x);
  __m256 y = _mm256_mul_ps(r, _mm256_fnmadd_ps(x, r, _mm256_set1_ps(2.0f)));
  return (rtV8)_mm256_blendv_ps(y, r, _mm256_cmp_ps(x, _mm256_set1_ps(__builtin_inff()), _CMP_EQ_OQ));
}
__attribute__((target("avx512f"))) static inline rtV16 avx512Recip(rtV16 d) {
  __m512 x = (__m512)d, r = _mm512_rcp14_ps(x);
  __m512 y = _mm512_mul_ps(r, _mm512_fnmadd_ps(x, r, _mm512_set1_ps(2.0f)));
  return (rtV16)_mm512_mask_blend_ps(_mm512_cmp_ps_mask(x, _mm512_set1_ps(__builtin_inff()), _CMP_EQ_OQ), y, r);
}
/* The gates' e^v on AVX-512: exp's range reduction and polynomial
 * (Cephes, as NAME_exp), rounding n to nearest (vrndscaleps) and scaling
 * by 2^n with vscalefps, which overflows to infinity itself, instead of
 * the portable version's conversions, floor fix-up, exponent-bit
 * arithmetic and overflow masks: about 13 operations instead of 25, on a
 * SiLU after every convolution of an EfficientNet. v is clamped to
 * [-87.34, 89] first (max and min return their second operand, v, when
 * it is NaN: NaN propagates); below, e^v is 1.2e-38 instead of smaller,
 * which 1 + e^v does not see, and no denormal is made. */
__attribute__((target("avx512f"))) static inline rtV16 avx512GateExp(rtV16 v) {
  __m512 x = _mm512_max_ps(_mm512_set1_ps(-87.3365447f), (__m512)v);
  x = _mm512_min_ps(_mm512_set1_ps(89.0f), x);
  __m512 t = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504088896341f)),
                                  _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m512 f = _mm512_fnmadd_ps(t, _mm512_set1_ps(0.693359375f), x);
  f = _mm512_fmadd_ps(t, _mm512_set1_ps(2.12194440e-4f), f);
  __m512 z = _mm512_mul_ps(f, f);
  __m512 y = _mm512_set1_ps(1.9875691500e-4f);
  y = _mm512_fmadd_ps(y, f, _mm512_set1_ps(1.3981999507e-3f));
  y = _mm512_fmadd_ps(y, f, _mm512_set1_ps(8.3334519073e-3f));
  y = _mm512_fmadd_ps(y, f, _mm512_set1_ps(4.1665795894e-2f));
  y = _mm512_fmadd_ps(y, f, _mm512_set1_ps(1.6666665459e-1f));
  y = _mm512_fmadd_ps(y, f, _mm512_set1_ps(5.0000001201e-1f));
  y = _mm512_add_ps(_mm512_fmadd_ps(y, z, f), _mm512_set1_ps(1.0f));
  return (rtV16)_mm512_scalef_ps(y, t);
}
#endif

RT_DEFINE_ISA(generic, , 4, 6, genericRecip, generic_gateExp)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
RT_DEFINE_ISA(avx2, __attribute__((target("avx2,fma"))), 8, 6, avx2Recip, avx2_gateExp)
RT_DEFINE_ISA(avx512, __attribute__((target("avx512f,avx2,fma"))), 16, 8, avx512Recip, avx512GateExp)
#define RT_HAVE_X86 1
#endif

static const RtIsa *chosen;

static const RtIsa *byName(const char *name) {
#ifdef RT_HAVE_X86
  __builtin_cpu_init();
  bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  bool avx512 = avx2 && __builtin_cpu_supports("avx512f");
  if (!strcmp(name, "auto")) return avx512 ? &avx512_isa : avx2 ? &avx2_isa : &generic_isa;
  if (!strcmp(name, "avx512")) return avx512 ? &avx512_isa : NULL;
  if (!strcmp(name, "avx2")) return avx2 ? &avx2_isa : NULL;
#else
  if (!strcmp(name, "auto")) return &generic_isa;
#endif
  if (!strcmp(name, "generic")) return &generic_isa;
  return NULL;
}

int strataRtSetIsa(const char *name) {
  const RtIsa *isa = name ? byName(name) : NULL;
  if (!isa) return -1;
  __atomic_store_n(&chosen, isa, __ATOMIC_RELEASE);
  return 0;
}

const RtIsa *rtIsa(void) {
  const RtIsa *isa = __atomic_load_n(&chosen, __ATOMIC_ACQUIRE);
  if (isa) return isa;
  const char *env = getenv("STRATA_RT_ISA");
  isa = env ? byName(env) : NULL;
  if (env && !isa)
    fprintf(stderr, "strata runtime: warning: STRATA_RT_ISA=%s is unknown or not supported by "
                    "this CPU; using the widest the host has\n", env);
  if (!isa) isa = byName("auto");
  __atomic_store_n(&chosen, isa, __ATOMIC_RELEASE);
  return isa;
}

const char *strataRtGetIsa(void) { return rtIsa()->name; }

const char *strataRtIsaName(void) { return rtIsa()->name; }
