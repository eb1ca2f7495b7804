/* libstrata_rt resize (nn.resize of the last two dims with the static
 * tables nn-to-kernels computes): threaded over output rows; under the
 * avx512 ISA the nearest and bilinear rows take 8 columns a step, their
 * taps permuted out of a 16-column window of the input row where every
 * block's taps fit one (upsampling, mild downsampling), else gathered.
 * The arithmetic is nn-to-linalg's and the interpreter's, step for step:
 * per output, over the taps (H's varying fastest), the product of the
 * dims' weights times the input widened to f64, added to a sum from 0.0
 * unless the weight is zero, then rounded to f32. So the kernel's result
 * is the interpreter's bit for bit; this file is compiled without
 * floating-point contraction (runtime/CMakeLists.txt) so that w * v + a
 * is not fused into one rounding. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

typedef struct {
  View x;
  float *y;
  int lead; /* kept dims in front of the two resized ones */
  int64_t OH, OW, ys;
  int th, tw;
  bool nearest, wide; /* wide: the AVX-512 rows (the runtime's ISA is avx512, with VL) */
  const int64_t *hRow;  /* th x OH: input row index times x's row stride */
  const double *hW;     /* th x OH weights */
  const int64_t *wOff;  /* tw x OW: input column times x's column stride */
  const double *wW;     /* tw x OW weights */
  /* The window form (AVX-512, unit column stride, nearest or bilinear):
   * the taps of each 8 columns j..j+7 lie within 16 input columns from
   * win[j / 8].base, at win[j / 8].rel[tap][lane]; the row loads those 16
   * and permutes instead of gathering. NULL where a block spans more. */
  const struct RsWindow *win;
  int64_t inW;
} Resize;

typedef struct RsWindow {
  int64_t base;
  int32_t rel[2][8];
} RsWindow;

/* The common bilinear row: two taps on each dim, both weighted. */
static void bilinearRow(float *restrict y, const float *r0, const float *r1, double h0, double h1,
                        const int64_t *restrict o0, const int64_t *restrict o1, const double *restrict w0,
                        const double *restrict w1, int64_t n) {
  for (int64_t j = 0; j < n; j++) {
    double v00 = r0[o0[j]], v10 = r1[o0[j]], v01 = r0[o1[j]], v11 = r1[o1[j]];
    double a = 0.0, w;
    w = h0 * w0[j];
    a += w != 0.0 ? w * v00 : 0.0;
    w = h1 * w0[j];
    a += w != 0.0 ? w * v10 : 0.0;
    w = h0 * w1[j];
    a += w != 0.0 ? w * v01 : 0.0;
    w = h1 * w1[j];
    a += w != 0.0 ? w * v11 : 0.0;
    y[j] = (float)a;
  }
}

static void nearestRow(float *restrict y, const float *r0, const int64_t *restrict o0, int64_t n) {
  for (int64_t j = 0; j < n; j++) y[j] = r0[o0[j]];
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define RS_AVX512 __attribute__((target("avx512f,avx512vl")))

/* The lanes of the 8 columns from j of a row of n: all but in the tail. */
static inline __mmask8 lanes8(int64_t n, int64_t j) {
  return n - j >= 8 ? 0xff : (__mmask8)((1u << (n - j)) - 1);
}

/* a + (w != 0 ? w * v : 0) on 8 lanes: the zero-masked product is +0. */
RS_AVX512 static inline __m512d addTerm(__m512d a, __m512d w, __m512d v) {
  return _mm512_add_pd(a, _mm512_maskz_mul_pd(_mm512_cmp_pd_mask(w, _mm512_setzero_pd(), _CMP_NEQ_UQ), w, v));
}

/* bilinearRow's sum on 8 columns from their taps vHW (H tap, W tap) and
 * the W weights c0, c1 (the H weights vh0, vh1 broadcast), rounded to f32. */
RS_AVX512 static inline __m256 bilinear8(__m512d vh0, __m512d vh1, __m512d c0, __m512d c1, __m512d v00, __m512d v10,
                                         __m512d v01, __m512d v11) {
  __m512d a = _mm512_setzero_pd();
  a = addTerm(a, _mm512_mul_pd(vh0, c0), v00);
  a = addTerm(a, _mm512_mul_pd(vh1, c0), v10);
  a = addTerm(a, _mm512_mul_pd(vh0, c1), v01);
  a = addTerm(a, _mm512_mul_pd(vh1, c1), v11);
  return _mm512_cvtpd_ps(a);
}

/* bilinearRow 8 columns a step: the four taps gathered, widened to f64. */
RS_AVX512 static void bilinearRow512(float *y, const float *r0, const float *r1, double h0, double h1,
                                     const int64_t *o0, const int64_t *o1, const double *w0, const double *w1,
                                     int64_t n) {
  const __m512d vh0 = _mm512_set1_pd(h0), vh1 = _mm512_set1_pd(h1);
  const __m256 none = _mm256_setzero_ps();
  for (int64_t j = 0; j < n; j += 8) {
    __mmask8 m = lanes8(n, j);
    __m512i i0 = _mm512_maskz_loadu_epi64(m, o0 + j), i1 = _mm512_maskz_loadu_epi64(m, o1 + j);
    __m512d c0 = _mm512_maskz_loadu_pd(m, w0 + j), c1 = _mm512_maskz_loadu_pd(m, w1 + j);
    __m512d v00 = _mm512_cvtps_pd(_mm512_mask_i64gather_ps(none, m, i0, r0, 4));
    __m512d v10 = _mm512_cvtps_pd(_mm512_mask_i64gather_ps(none, m, i0, r1, 4));
    __m512d v01 = _mm512_cvtps_pd(_mm512_mask_i64gather_ps(none, m, i1, r0, 4));
    __m512d v11 = _mm512_cvtps_pd(_mm512_mask_i64gather_ps(none, m, i1, r1, 4));
    _mm256_mask_storeu_ps(y + j, m, bilinear8(vh0, vh1, c0, c1, v00, v10, v01, v11));
  }
}

/* The 16 input columns from `base` (zeros past the row's end). */
RS_AVX512 static inline __m512 window16(const float *r, int64_t base, int64_t inW) {
  int64_t left = inW - base;
  return _mm512_maskz_loadu_ps(left >= 16 ? 0xffff : (__mmask16)((1u << left) - 1), r + base);
}

/* The 8 window columns rel[0..8) (the upper lanes are not used). */
RS_AVX512 static inline __m256 pick(__m512 w, const int32_t *rel) {
  __m512i i = _mm512_castsi256_si512(_mm256_loadu_si256((const __m256i *)rel));
  return _mm512_castps512_ps256(_mm512_permutexvar_ps(i, w));
}

/* bilinearRow512 with the taps permuted out of two 16-column windows. */
RS_AVX512 static void bilinearRowWindow(float *y, const float *r0, const float *r1, double h0, double h1,
                                        const Resize *z) {
  const __m512d vh0 = _mm512_set1_pd(h0), vh1 = _mm512_set1_pd(h1);
  const double *w0 = z->wW, *w1 = z->wW + z->OW;
  for (int64_t j = 0; j < z->OW; j += 8) {
    const RsWindow *b = &z->win[j / 8];
    __mmask8 m = lanes8(z->OW, j);
    __m512 a0 = window16(r0, b->base, z->inW), a1 = window16(r1, b->base, z->inW);
    __m512d c0 = _mm512_maskz_loadu_pd(m, w0 + j), c1 = _mm512_maskz_loadu_pd(m, w1 + j);
    __m256 y8 = bilinear8(vh0, vh1, c0, c1, _mm512_cvtps_pd(pick(a0, b->rel[0])), _mm512_cvtps_pd(pick(a1, b->rel[0])),
                          _mm512_cvtps_pd(pick(a0, b->rel[1])), _mm512_cvtps_pd(pick(a1, b->rel[1])));
    _mm256_mask_storeu_ps(y + j, m, y8);
  }
}

RS_AVX512 static void nearestRowWindow(float *y, const float *r0, const Resize *z) {
  for (int64_t j = 0; j < z->OW; j += 8) {
    const RsWindow *b = &z->win[j / 8];
    _mm256_mask_storeu_ps(y + j, lanes8(z->OW, j), pick(window16(r0, b->base, z->inW), b->rel[0]));
  }
}

RS_AVX512 static void nearestRow512(float *y, const float *r0, const int64_t *o0, int64_t n) {
  for (int64_t j = 0; j < n; j += 8) {
    __mmask8 m = lanes8(n, j);
    __m512i i0 = _mm512_maskz_loadu_epi64(m, o0 + j);
    _mm256_mask_storeu_ps(y + j, m, _mm512_mask_i64gather_ps(_mm256_setzero_ps(), m, i0, r0, 4));
  }
}
#endif

/* Any taps (1, 2 or 4 per dim; a dim of one tap unweighted). */
static void generalRow(const Resize *z, float *y, const float *const *rows, const double *h) {
  bool weightH = z->th > 1, weightW = z->tw > 1;
  for (int64_t j = 0; j < z->OW; j++) {
    double a = 0.0;
    for (int kw = 0; kw < z->tw; kw++)
      for (int kh = 0; kh < z->th; kh++) {
        double v = rows[kh][z->wOff[kw * z->OW + j]];
        if (!weightH && !weightW) {
          a += v;
          continue;
        }
        double w = weightH ? (weightW ? h[kh] * z->wW[kw * z->OW + j] : h[kh]) : z->wW[kw * z->OW + j];
        a += w != 0.0 ? w * v : 0.0;
      }
    y[j] = (float)a;
  }
}

static void resizeTask(void *ctx, int64_t begin, int64_t end) {
  const Resize *z = ctx;
  for (int64_t u = begin; u < end; u++) {
    int64_t plane = u / z->OH, oh = u % z->OH, off = 0;
    for (int d = z->lead - 1; d >= 0; d--) { /* the plane's offset in x */
      off += plane % z->x.size[d] * z->x.stride[d];
      plane /= z->x.size[d];
    }
    const float *base = z->x.data + off;
    float *y = z->y + u * z->ys;
    const float *rows[4];
    double h[4];
    for (int k = 0; k < z->th; k++) rows[k] = base + z->hRow[k * z->OH + oh], h[k] = z->hW[k * z->OH + oh];
    bool bilinear = !z->nearest && z->th == 2 && z->tw == 2;
#if defined(__x86_64__) && defined(__GNUC__)
    if (z->win && z->nearest) {
      nearestRowWindow(y, rows[0], z);
      continue;
    }
    if (z->win && bilinear) {
      bilinearRowWindow(y, rows[0], rows[1], h[0], h[1], z);
      continue;
    }
    if (z->wide && z->nearest) {
      nearestRow512(y, rows[0], z->wOff, z->OW);
      continue;
    }
    if (z->wide && bilinear) {
      bilinearRow512(y, rows[0], rows[1], h[0], h[1], z->wOff, z->wOff + z->OW, z->wW, z->wW + z->OW, z->OW);
      continue;
    }
#endif
    if (z->nearest) nearestRow(y, rows[0], z->wOff, z->OW);
    else if (bilinear)
      bilinearRow(y, rows[0], rows[1], h[0], h[1], z->wOff, z->wOff + z->OW, z->wW, z->wW + z->OW, z->OW);
    else generalRow(z, y, rows, h);
  }
}

/* The window form's blocks in scratch slot 2, or NULL where it does not
 * apply (see Resize). */
static const RsWindow *windows(const Resize *z) {
  bool form = z->nearest || (z->th == 2 && z->tw == 2);
  if (!z->wide || !form || z->x.stride[z->x.rank - 1] != 1) return NULL;
  int64_t blocks = (z->OW + 7) / 8;
  RsWindow *win = (RsWindow *)rtScratch(2, (size_t)blocks * sizeof(RsWindow) / sizeof(float));
  if (!win) return NULL; /* the gathers need no memory */
  for (int64_t b = 0; b < blocks; b++) {
    int64_t lo = INT64_MAX, hi = -1;
    for (int t = 0; t < z->tw; t++)
      for (int64_t j = 8 * b; j < 8 * b + 8 && j < z->OW; j++) {
        int64_t o = z->wOff[t * z->OW + j];
        lo = o < lo ? o : lo, hi = o > hi ? o : hi;
      }
    if (hi - lo >= 16) return NULL;
    win[b].base = lo;
    for (int t = 0; t < 2; t++)
      for (int k = 0; k < 8; k++) {
        int64_t j = 8 * b + k;
        win[b].rel[t][k] = t < z->tw && j < z->OW ? (int32_t)(z->wOff[t * z->OW + j] - lo) : 0;
      }
  }
  return win;
}

/* The table of one dim: taps x out indices (f64), then taps x out weights. */
static const double *table(StrataUnrankedMemRef *t, int taps, int64_t out) {
  const StrataMemRefDesc *d = t->descriptor;
  if (t->rank != 1 || d->sizesAndStrides[0] != 2 * taps * out || d->sizesAndStrides[1] != 1)
    rtInvariant("resize: a table is not 2 x taps x the output extent");
  return (const double *)d->aligned + d->offset;
}

/* Indices times stride as int64 in scratch slot `slot`, checked. */
static int64_t *offsets(int slot, const double *idx, int taps, int64_t out, int64_t in, int64_t stride) {
  int64_t n = taps * out, *o = (int64_t *)rtScratch(slot, (size_t)(2 * n));
  if (!o) rtError("out of memory for the resize tables");
  for (int64_t i = 0; i < n; i++) {
    double v = idx[i];
    if (!(v >= 0 && v < (double)in)) rtInvariant("resize: a table index is outside the input");
    o[i] = (int64_t)v * stride;
  }
  return o;
}

void _mlir_ciface_strata_rt_resize2d_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *th,
                                         StrataUnrankedMemRef *tw, StrataUnrankedMemRef *y, int64_t tapsH,
                                         int64_t tapsW, int64_t nearest) {
  rtScratchKernelStart();
  Resize z;
  z.x = rtView(x);
  View yv = rtView(y);
  int r = z.x.rank;
  if (r < 2 || yv.rank != r || tapsH < 1 || tapsH > 4 || tapsW < 1 || tapsW > 4 || (nearest && (tapsH != 1 || tapsW != 1)))
    rtInvariant("resize expects x and y of one rank >= 2 and 1-4 taps per dim");
  for (int d = 0; d < r - 2; d++)
    if (yv.size[d] != z.x.size[d]) rtInvariant("resize keeps the dims before the last two");
  z.lead = r - 2, z.th = (int)tapsH, z.tw = (int)tapsW, z.nearest = nearest != 0;
#if defined(__x86_64__) && defined(__GNUC__)
  z.wide = !strcmp(strataRtIsaName(), "avx512") && __builtin_cpu_supports("avx512vl");
#else
  z.wide = false;
#endif
  z.OH = yv.size[r - 2], z.OW = yv.size[r - 1], z.ys = z.OW, z.y = yv.data;
  int64_t rows = z.OH;
  for (int d = 0; d < r - 2; d++) rows *= yv.size[d];
  if (rows == 0 || z.OW == 0) return;
  const double *hT = table(th, z.th, z.OH), *wT = table(tw, z.tw, z.OW);
  z.hRow = offsets(0, hT, z.th, z.OH, z.x.size[r - 2], z.x.stride[r - 2]);
  z.wOff = offsets(1, wT, z.tw, z.OW, z.x.size[r - 1], z.x.stride[r - 1]);
  z.hW = hT + z.th * z.OH, z.wW = wT + z.tw * z.OW;
  z.inW = z.x.size[r - 1];
  z.win = windows(&z);
  rtParallelFor(rows, resizeTask, &z);
}
