/* libstrata_rt channel-blocked depthwise convolution and 2-D pooling (max,
 * average), which share its structure: VW channels at a time
 * (VW = the ISA's vector width in floats) are transposed into a zero-padded
 * [Hp][Wp][VW] tile, so that every output pixel of the group is one vector
 * and every tap one aligned vector load and FMA whatever the plane's width
 * (a 7x7 or 14x14 plane has no vector-long rows); the epilogue's per-channel
 * part (bias, relu/clip) runs on the vectors, then the [OH*OW][VW] result is
 * transposed back into the VW output planes. The transposes are VW x VW
 * register transposes (AVX-512, AVX2) over runs of VW pixels of a dense
 * plane; other layouts and the tails go element by element. The
 * activation runs on each output row of the tile too (the gates and
 * hard-swish through the ISA's actRow), the epilogue applied after the
 * transpose only where an addend varies over the pixels. Pooling pads
 * the tile with -inf (max) or 0 (average) and divides by the count of
 * window positions ONNX prescribes. */
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define RT_DW_X86 1
#endif

#define RT_DW_INLINE static inline __attribute__((always_inline))

static int64_t minI(int64_t a, int64_t b) { return a < b ? a : b; }

/* The geometry every ISA's body shares: the padded tile's extent. */
typedef struct {
  int64_t Hp, Wp, c0, nc;
  bool vectorEpilogue; /* every addend is per channel: bias in the vectors */
} DwGroup;

static DwGroup dwGroup(const RtDepthwise *p, int64_t c0, int vw) {
  DwGroup g;
  g.Hp = (p->OH - 1) * p->sh + (p->KH - 1) * p->dh + 1;
  g.Wp = (p->OW - 1) * p->sw + (p->KW - 1) * p->dw + 1;
  g.c0 = c0;
  g.nc = minI(vw, p->C - c0);
  g.vectorEpilogue = true;
  for (int a = 0; p->ep && a < p->ep->nadd; a++)
    if (p->ep->add[a].sh != 0 || p->ep->add[a].sw != 0) g.vectorEpilogue = false;
  return g;
}

static void fill(float *p, float v, int64_t n) {
  for (int64_t i = 0; i < n; i++) p[i] = v;
}

/* Fills the padding of the tile (rows above and below the image, columns
 * left and right of it), which the transposes never write, with `v`. */
static void fillBorder(float *tile, const RtDepthwise *p, const DwGroup *g, int vw, float v) {
  int64_t top = minI(p->ph, g->Hp), bottom = minI(p->ph + p->H, g->Hp);
  int64_t left = minI(p->pw, g->Wp), right = minI(p->pw + p->W, g->Wp);
  fill(tile, v, top * g->Wp * vw);
  if (bottom < g->Hp) fill(tile + bottom * g->Wp * vw, v, (g->Hp - bottom) * g->Wp * vw);
  for (int64_t r = top; r < bottom; r++) {
    float *row = tile + r * g->Wp * vw;
    fill(row, v, left * vw);
    if (right < g->Wp) fill(row + right * vw, v, (g->Wp - right) * vw);
  }
}

/* Average pooling's divisor along one dim at output index o: the window
 * positions inside the input, or with count_include_pad inside the
 * explicitly padded input (never the ceil_mode overhang). */
static int64_t poolHits(int64_t o, int64_t stride, int64_t k, int64_t padBegin, int64_t padEnd, int64_t in,
                        bool includePad) {
  int64_t hits = 0;
  for (int64_t t = 0; t < k; t++) {
    int64_t q = o * stride + t - padBegin;
    hits += includePad ? (q >= -padBegin && q < in + padEnd) : (q >= 0 && q < in);
  }
  return hits;
}

/* Element-by-element transpose of pixels [q0, q1) of the image into the
 * tile (any input strides). */
static void gatherPixels(float *tile, const RtDepthwise *p, const DwGroup *g, int vw, int64_t q0,
                         int64_t q1) {
  for (int64_t q = q0; q < q1; q++) {
    int64_t h = q / p->W, w = q % p->W, r = h + p->ph, col = w + p->pw;
    if (r >= g->Hp || col >= g->Wp) continue;
    float *dst = tile + (r * g->Wp + col) * vw;
    const float *src = p->x + (g->c0) * p->xcs + h * p->xhs + w * p->xws;
    int64_t c = 0;
    for (; c < g->nc; c++) dst[c] = src[c * p->xcs];
    for (; c < vw; c++) dst[c] = 0.0f;
  }
}

/* Element-by-element transpose of result pixels [q0, q1) into the planes. */
static void scatterPixels(const float *out, const RtDepthwise *p, const DwGroup *g, int vw, int64_t q0,
                          int64_t q1) {
  for (int64_t q = q0; q < q1; q++)
    for (int64_t c = 0; c < g->nc; c++) p->y[(g->c0 + c) * p->ycs + q] = out[q * vw + c];
}

/* The per-channel epilogue values of the group: sum of beta * addend. */
static void channelBias(float *bias, const RtDepthwise *p, const DwGroup *g, int vw) {
  for (int c = 0; c < vw; c++) {
    float b = 0.0f;
    for (int a = 0; p->ep && a < p->ep->nadd && c < g->nc; a++)
      b += p->ep->add[a].beta * p->ep->add[a].p[(g->c0 + c) * p->ep->add[a].sm];
    bias[c] = b;
  }
}

/* NAME_depthwiseGroup for vectors of VW floats; TRANSPOSE(rows) transposes
 * VW vectors in place (VW x VW). */
#define RT_DEFINE_DEPTHWISE(NAME, TARGET, VW, TRANSPOSE)                                            \
  typedef float NAME##_dv __attribute__((vector_size((VW) * 4)));                                  \
  typedef int32_t NAME##_di __attribute__((vector_size((VW) * 4)));                                \
  typedef float NAME##_du __attribute__((vector_size((VW) * 4), aligned(4))); /* unaligned */       \
  /* Max over the taps, NaN-propagating like arith.maximumf. */                                   \
  TARGET RT_DW_INLINE NAME##_dv NAME##_max(NAME##_dv a, NAME##_dv b) {                             \
    NAME##_di takeA = (NAME##_di)(a > b) | (NAME##_di)(a != a);                                    \
    return (NAME##_dv)(((NAME##_di)a & takeA) | ((NAME##_di)b & ~takeA));                          \
  }                                                                                                \
  TARGET static void NAME##_windowMax(NAME##_dv *o, const float *row, const int64_t *off,          \
                                      int64_t taps, int64_t step, int64_t OW) {                    \
    int64_t ow = 0;                                                                                \
    for (; ow + 4 <= OW; ow += 4) {                                                                \
      NAME##_dv m[4];                                                                              \
      const float *base = row + ow * step;                                                         \
      for (int r = 0; r < 4; r++) m[r] = *(const NAME##_dv *)(base + off[0] + r * step);           \
      for (int64_t t = 1; t < taps; t++)                                                           \
        for (int r = 0; r < 4; r++)                                                                \
          m[r] = NAME##_max(m[r], *(const NAME##_dv *)(base + off[t] + r * step));                 \
      for (int r = 0; r < 4; r++) o[ow + r] = m[r];                                                \
    }                                                                                              \
    for (; ow < OW; ow++) {                                                                        \
      const float *base = row + ow * step;                                                         \
      NAME##_dv m = *(const NAME##_dv *)(base + off[0]);                                           \
      for (int64_t t = 1; t < taps; t++) m = NAME##_max(m, *(const NAME##_dv *)(base + off[t]));   \
      o[ow] = m;                                                                                   \
    }                                                                                              \
  }                                                                                                \
  /* R (a constant where it is inlined, <= 8) consecutive output pixels  \
   * of a row, one independent FMA chain each: with fewer chains than the \
   * FMA latency times its throughput the units wait (a 7x7 map's rows    \
   * ran one pixel at a time, a 4-cycle chain per tap). */                 \
  TARGET RT_DW_INLINE void NAME##_convPixels(NAME##_dv *o, const float *base, const NAME##_dv *wv, \
                                             const int64_t *off, int64_t taps, int64_t step,       \
                                             NAME##_dv bias, const int R) {                        \
    NAME##_dv acc[8];                                                                              \
    for (int r = 0; r < R; r++) acc[r] = bias;                                                     \
    for (int64_t t = 0; t < taps; t++) {                                                           \
      const float *x = base + off[t];                                                              \
      const NAME##_dv w = wv[t];                                                                   \
      for (int r = 0; r < R; r++) acc[r] += w * *(const NAME##_dv *)(x + r * step);                \
    }                                                                                              \
    for (int r = 0; r < R; r++) o[r] = acc[r];                                                     \
  }                                                                                                \
  TARGET void NAME##_depthwiseGroup(const RtDepthwise *p, int64_t c0) {                            \
    DwGroup g = dwGroup(p, c0, (VW));                                                              \
    int64_t taps = p->KH * p->KW, npx = p->OH * p->OW;                                             \
    float *tile = rtScratch(2, (size_t)(g.Hp * g.Wp * (VW)));                                      \
    float *out = rtScratch(4, (size_t)(npx * (VW)));                                               \
    if (!tile || !out) rtError("out of memory for the depthwise tiles");                           \
    fillBorder(tile, p, &g, (VW), p->kind == RT_WINDOW_MAX ? -__builtin_inff() : 0.0f);           \
    /* In: runs of VW pixels of each dense plane, transposed in registers. */                     \
    int64_t q = 0, plane = p->H * p->W;                                                            \
    if (p->xws == 1 && (p->xhs == p->W || p->H == 1)) {                                            \
      const float *src[VW];                                                                        \
      static const float zeros[VW];                                                                \
      for (int c = 0; c < (VW); c++) src[c] = c < g.nc ? p->x + (c0 + c) * p->xcs : zeros;          \
      int64_t h = 0, w = 0;                                                                        \
      for (; q + (VW) <= plane; q += (VW)) {                                                       \
        NAME##_dv v[VW];                                                                           \
        for (int c = 0; c < (VW); c++)                                                             \
          v[c] = c < g.nc ? (NAME##_dv) * (const NAME##_du *)(src[c] + q) : (NAME##_dv){0};         \
        TRANSPOSE(v);                                                                              \
        for (int i = 0; i < (VW); i++) {                                                           \
          int64_t r = h + p->ph, col = w + p->pw;                                                  \
          if (r < g.Hp && col < g.Wp) *(NAME##_dv *)(tile + (r * g.Wp + col) * (VW)) = v[i];       \
          if (++w == p->W) w = 0, h++;                                                             \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    gatherPixels(tile, p, &g, (VW), q, plane);                                                     \
    /* Weights and the per-channel epilogue as vectors. */                                        \
    NAME##_dv wv[64], bias = {0};                                                                  \
    int64_t off[64];                                                                               \
    for (int64_t t = 0; t < taps; t++) {                                                           \
      int64_t i = t / p->KW, j = t % p->KW;                                                        \
      for (int c = 0; c < (VW); c++)                                                               \
        wv[t][c] = p->kind == RT_WINDOW_AVERAGE ? 1.0f                                             \
                   : c < g.nc && p->w ? p->w[(c0 + c) * p->wcs + i * p->whs + j * p->wws] : 0.0f; \
      off[t] = (i * p->dh * g.Wp + j * p->dw) * (VW);                                              \
    }                                                                                              \
    if (g.vectorEpilogue) {                                                                        \
      float b[VW];                                                                                 \
      channelBias(b, p, &g, (VW));                                                                 \
      for (int c = 0; c < (VW); c++) bias[c] = b[c];                                               \
    }                                                                                              \
    const int act = g.vectorEpilogue && p->ep ? p->ep->act : 0;                                    \
    const NAME##_dv lo = (p->ep ? p->ep->lo : 0.0f) - (NAME##_dv){0};                              \
    const NAME##_dv hi = (p->ep ? p->ep->hi : 0.0f) - (NAME##_dv){0};                              \
    const int64_t step = p->sw * (VW);                                                             \
    for (int64_t oh = 0; oh < p->OH; oh++) {                                                       \
      const float *row = tile + oh * p->sh * g.Wp * (VW);                                          \
      NAME##_dv *o = (NAME##_dv *)(out + oh * p->OW * (VW));                                       \
      if (p->kind == RT_WINDOW_MAX) {                                                              \
        NAME##_windowMax(o, row, off, taps, step, p->OW);                                          \
        continue;                                                                                  \
      }                                                                                            \
      int64_t ow = 0;                                                                              \
      for (; ow + 8 <= p->OW; ow += 8) /* eight independent FMA chains */                         \
        NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 8);                  \
      switch (p->OW - ow) { /* the rest of the row as one block: a 7x7 map's rows whole */        \
      case 7: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 7); break;     \
      case 6: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 6); break;     \
      case 5: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 5); break;     \
      case 4: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 4); break;     \
      case 3: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 3); break;     \
      case 2: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 2); break;     \
      case 1: NAME##_convPixels(o + ow, row + ow * step, wv, off, taps, step, bias, 1); break;     \
      }                                                                                            \
      if (p->kind == RT_WINDOW_AVERAGE) {                                                          \
        int64_t rows = poolHits(oh, p->sh, p->KH, p->ph, p->peh, p->H, p->countPads);              \
        for (int64_t i = 0; i < p->OW; i++)                                                        \
          o[i] /= (float)(rows * poolHits(i, p->sw, p->KW, p->pw, p->pew, p->W, p->countPads));    \
      }                                                                                            \
      if (act == STRATA_RT_ACT_RELU) {                                                             \
        for (int64_t i = 0; i < p->OW; i++) /* v <= 0 ? 0 : v: NaN stays */                        \
          o[i] = (NAME##_dv)((NAME##_di)o[i] & ~(NAME##_di)(o[i] <= 0.0f));                         \
      } else if (act == STRATA_RT_ACT_CLIP) { /* NaN compares false: it stays */                  \
        for (int64_t i = 0; i < p->OW; i++) {                                                      \
          NAME##_di m = (NAME##_di)(o[i] < lo);                                                    \
          NAME##_dv v = (NAME##_dv)(((NAME##_di)o[i] & ~m) | ((NAME##_di)lo & m));                  \
          m = (NAME##_di)(v > hi);                                                                 \
          o[i] = (NAME##_dv)(((NAME##_di)v & ~m) | ((NAME##_di)hi & m));                            \
        }                                                                                          \
      } else if (act) { /* the gates, hard-swish: the ISA's, on the row in cache */               \
        rtIsa()->actRow((float *)o, p->OW * (VW), p->ep);                                          \
      }                                                                                            \
    }                                                                                              \
    /* Out: runs of VW result pixels transposed back into the planes. */                          \
    q = 0;                                                                                         \
    for (; q + (VW) <= npx; q += (VW)) {                                                           \
      NAME##_dv v[VW];                                                                             \
      for (int i = 0; i < (VW); i++) v[i] = *(const NAME##_dv *)(out + (q + i) * (VW));            \
      TRANSPOSE(v);                                                                                \
      for (int c = 0; c < g.nc; c++) *(NAME##_du *)(p->y + (c0 + c) * p->ycs + q) = v[c];          \
    }                                                                                              \
    scatterPixels(out, p, &g, (VW), q, npx);                                                       \
    if (!g.vectorEpilogue)                                                                         \
      for (int64_t c = 0; c < g.nc; c++)                                                           \
        rtIsa()->epilogue(p->y + (c0 + c) * p->ycs, 0, c0 + c, 0, 1, npx, p->ep);                  \
  }

/* Generic (VW = 4): the transpose element by element. */
typedef float rt_dw_v4 __attribute__((vector_size(16)));
RT_DW_INLINE void transpose4(rt_dw_v4 *r) {
  float m[16];
  memcpy(m, r, sizeof m);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) r[i][j] = m[j * 4 + i];
}
RT_DEFINE_DEPTHWISE(generic, , 4, transpose4)

#ifdef RT_DW_X86
__attribute__((target("avx2,fma"))) RT_DW_INLINE void transpose8(__m256 *r) {
  __m256 t[8], u[8];
  for (int i = 0; i < 4; i++) {
    t[2 * i] = _mm256_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm256_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int g = 0; g < 2; g++) { /* rows 4g..4g+3: columns j and 4 + j per 128-bit lane */
    u[4 * g] = _mm256_shuffle_ps(t[4 * g], t[4 * g + 2], 0x44);
    u[4 * g + 1] = _mm256_shuffle_ps(t[4 * g], t[4 * g + 2], 0xEE);
    u[4 * g + 2] = _mm256_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0x44);
    u[4 * g + 3] = _mm256_shuffle_ps(t[4 * g + 1], t[4 * g + 3], 0xEE);
  }
  for (int j = 0; j < 4; j++) {
    r[j] = _mm256_permute2f128_ps(u[j], u[4 + j], 0x20);
    r[4 + j] = _mm256_permute2f128_ps(u[j], u[4 + j], 0x31);
  }
}
#define RT_DW_T8(v) transpose8((__m256 *)(v))
RT_DEFINE_DEPTHWISE(avx2, __attribute__((target("avx2,fma"))), 8, RT_DW_T8)

__attribute__((target("avx512f,avx2,fma"))) RT_DW_INLINE void transpose16(__m512 *r) {
  __m512 t[16];
  for (int i = 0; i < 8; i++) { /* [a0 b0 a1 b1 | a4 b4 a5 b5 | ...], [a2 b2 a3 b3 | ...] */
    t[2 * i] = _mm512_unpacklo_ps(r[2 * i], r[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(r[2 * i], r[2 * i + 1]);
  }
  for (int g = 0; g < 4; g++) { /* r[4g + j]: rows 4g..4g+3, columns j, 4+j, 8+j, 12+j */
    __m512d a = _mm512_castps_pd(t[4 * g]), b = _mm512_castps_pd(t[4 * g + 2]);
    __m512d c = _mm512_castps_pd(t[4 * g + 1]), d = _mm512_castps_pd(t[4 * g + 3]);
    r[4 * g] = _mm512_castpd_ps(_mm512_unpacklo_pd(a, b));
    r[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(a, b));
    r[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(c, d));
    r[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(c, d));
  }
  for (int j = 0; j < 4; j++) { /* row groups 0/1 and 2/3 side by side */
    t[j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0x88);
    t[4 + j] = _mm512_shuffle_f32x4(r[j], r[4 + j], 0xdd);
    t[8 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0x88);
    t[12 + j] = _mm512_shuffle_f32x4(r[8 + j], r[12 + j], 0xdd);
  }
  for (int j = 0; j < 4; j++) {
    r[j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0x88);
    r[8 + j] = _mm512_shuffle_f32x4(t[j], t[8 + j], 0xdd);
    r[4 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0x88);
    r[12 + j] = _mm512_shuffle_f32x4(t[4 + j], t[12 + j], 0xdd);
  }
}
#define RT_DW_T16(v) transpose16((__m512 *)(v))
RT_DEFINE_DEPTHWISE(avx512, __attribute__((target("avx512f,avx2,fma"))), 16, RT_DW_T16)
#endif
