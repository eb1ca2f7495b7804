/* libstrata_rt grouped convolution without im2col, for groups of a few
 * channels (RegNet's 16-24, ResNeXt's 4-32): per group, an implicit-im2col
 * GEMM of Mg x (Cg KH KW) by (Cg KH KW) x (OH OW) packs a B panel as big as
 * its arithmetic, and its M of 16-24 rows fills a register tile poorly.
 * Here the group's input band is copied once into a zero-padded,
 * phase-split plane per channel (phases.c: every window tap is then a
 * contiguous run over the outputs, whatever the strides, pads and
 * dilations), and a register tile of R output pixels by all (or up to four
 * vectors of) the group's output channels accumulates, for each input
 * channel and tap, one weight vector times R broadcast input values:
 * vectors over output channels, so 7x7 maps waste nothing on the width.
 * The [pixels][channels] tile is then written into the output planes and
 * the epilogue (the ISA's, as the GEMM's tail tiles get) runs on the rows
 * just written. */
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define RT_GROUPED_X86 1
#endif

#define RT_G_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define RT_G_UNROLL RT_G_PRAGMA(clang loop unroll(full))
#else
#define RT_G_UNROLL RT_G_PRAGMA(GCC unroll 16)
#endif
#define RT_G_INLINE static inline __attribute__((always_inline))
#if defined(__GNUC__) || defined(__clang__)
#define RT_G_OPAQUE(p) __asm__("" : "+r"(p))
#else
#define RT_G_OPAQUE(p) (void)0
#endif

/* A last block of N pixels (N < R1; cases past R1 never run). */
#define RT_G_TAIL(NAME, R1, N)                                                                     \
  case (N):                                                                                        \
    NAME##_gblock(pq, P, Cg, toff, taps, wv, MgP, tq, 1, (N) < (R1) ? (N) : (R1));                 \
    break;

/* NAME_groupedTile for vectors of VW floats: NV vectors of output channels
 * by R pixels (R1..R4 for NV = 1..4) of accumulators, at most NVMAX
 * vectors per pass over the input (the registers the ISA has: 32 under
 * AVX-512, 16 otherwise, each pass keeping NV * R accumulators, NV weight
 * vectors and a broadcast live). */
#define RT_DEFINE_GROUPED(NAME, TARGET, VW, NVMAX, R1, R2, R3, R4)                                  \
  typedef float NAME##_gv __attribute__((vector_size((VW) * 4)));                                  \
  TARGET RT_G_INLINE void NAME##_gblock(const float *x, int64_t P, int64_t Cg, const int64_t *toff, \
                                        int64_t taps, const float *w, int64_t MgP, float *out,     \
                                        const int NV, const int R) {                               \
    NAME##_gv acc[4][16];                                                                          \
    RT_G_UNROLL for (int v = 0; v < NV; v++) RT_G_UNROLL for (int r = 0; r < R; r++) acc[v][r] =   \
        (NAME##_gv){0};                                                                            \
    for (int64_t c = 0; c < Cg; c++) {                                                             \
      const float *xc = x + c * P, *wc = w + c * taps * MgP;                                       \
      for (int64_t t = 0; t < taps; t++) {                                                         \
        const float *xt = xc + toff[t];                                                            \
        /* xt opaque: its R taps are then constant offsets from one       \
         * register; otherwise GCC hoists the R sums q + r out of the     \
         * loops and spills them (a GPR reload before every FMA) */       \
        RT_G_OPAQUE(xt);                                                                           \
        NAME##_gv wv[4];                                                                           \
        RT_G_UNROLL for (int v = 0; v < NV; v++) wv[v] = *(const NAME##_gv *)(wc + t * MgP + v * (VW)); \
        RT_G_UNROLL for (int r = 0; r < R; r++) {                                                  \
          NAME##_gv b = xt[r] - (NAME##_gv){0}; /* a broadcast; x - 0 == x */                      \
          RT_G_UNROLL for (int v = 0; v < NV; v++) acc[v][r] += b * wv[v];                         \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
    RT_G_UNROLL for (int r = 0; r < R; r++) RT_G_UNROLL for (int v = 0; v < NV; v++)               \
        *(NAME##_gv *)(out + r * MgP + v * (VW)) = acc[v][r];                                      \
  }                                                                                                \
  TARGET void NAME##_groupedTile(const float *plane, int64_t P, int64_t Cg, const int64_t *toff,   \
                                 int64_t taps, const float *w, int64_t MgP, float *tile,           \
                                 int64_t npx) {                                                    \
    int64_t nvAll = MgP / (VW);                                                                    \
    for (int64_t v0 = 0; v0 < nvAll;) {                                                            \
      /* the channel vectors left split evenly over the passes they need */                      \
      int64_t passes = (nvAll - v0 + (NVMAX) - 1) / (NVMAX);                                       \
      int nv = (int)((nvAll - v0 + passes - 1) / passes);                                          \
      const float *wv = w + v0 * (VW);                                                             \
      float *tv = tile + v0 * (VW);                                                                \
      switch (nv) {                                                                                \
      case 1: {                                                                                    \
        int64_t q = 0;                                                                             \
        for (; q + (R1) <= npx; q += (R1)) NAME##_gblock(plane + q, P, Cg, toff, taps, wv, MgP, tv + q * MgP, 1, (R1)); \
        /* the last block only as wide as the pixels left (a 7x7 map's   \
         * 63-pixel grid: 4 x 14 + 7, not 5 x 14) */                        \
        const float *pq = plane + q;                                                               \
        float *tq = tv + q * MgP;                                                                  \
        switch (npx - q) {                                                                         \
          RT_G_TAIL(NAME, R1, 1) RT_G_TAIL(NAME, R1, 2) RT_G_TAIL(NAME, R1, 3) RT_G_TAIL(NAME, R1, 4)  \
          RT_G_TAIL(NAME, R1, 5) RT_G_TAIL(NAME, R1, 6) RT_G_TAIL(NAME, R1, 7) RT_G_TAIL(NAME, R1, 8)  \
          RT_G_TAIL(NAME, R1, 9) RT_G_TAIL(NAME, R1, 10) RT_G_TAIL(NAME, R1, 11) RT_G_TAIL(NAME, R1, 12) \
          RT_G_TAIL(NAME, R1, 13)                                                                  \
        default: break;                                                                            \
        }                                                                                          \
        break;                                                                                     \
      }                                                                                            \
      case 2:                                                                                      \
        for (int64_t q = 0; q < npx; q += (R2)) NAME##_gblock(plane + q, P, Cg, toff, taps, wv, MgP, tv + q * MgP, 2, (R2)); \
        break;                                                                                     \
      case 3:                                                                                      \
        for (int64_t q = 0; q < npx; q += (R3)) NAME##_gblock(plane + q, P, Cg, toff, taps, wv, MgP, tv + q * MgP, 3, (R3)); \
        break;                                                                                     \
      default:                                                                                     \
        for (int64_t q = 0; q < npx; q += (R4)) NAME##_gblock(plane + q, P, Cg, toff, taps, wv, MgP, tv + q * MgP, 4, (R4)); \
        break;                                                                                     \
      }                                                                                            \
      v0 += nv;                                                                                    \
    }                                                                                              \
  }

RT_DEFINE_GROUPED(generic, , 4, 2, 12, 6, 6, 6)
#ifdef RT_GROUPED_X86
RT_DEFINE_GROUPED(avx2, __attribute__((target("avx2,fma"))), 8, 2, 12, 6, 6, 6)
RT_DEFINE_GROUPED(avx512, __attribute__((target("avx512f,avx2,fma"))), 16, 4, 14, 12, 8, 6)
#endif

typedef struct {
  const float *w;
  int64_t G, Mg, Cg, taps, MgP;
} PackJob;

static void packWeights(float *dst, const void *ctx) {
  const PackJob *j = ctx;
  for (int64_t g = 0; g < j->G; g++)
    for (int64_t c = 0; c < j->Cg; c++)
      for (int64_t t = 0; t < j->taps; t++) {
        float *d = dst + ((g * j->Cg + c) * j->taps + t) * j->MgP;
        for (int64_t m = 0; m < j->MgP; m++)
          d[m] = m < j->Mg ? j->w[((g * j->Mg + m) * j->Cg + c) * j->taps + t] : 0.0f;
      }
}

bool rtGroupedPack(RtGrouped *p) {
  int64_t vw = rtIsa()->nr / 2, taps = p->g.KH * p->g.KW;
  p->MgP = (p->Mg + vw - 1) / vw * vw;
  PackJob j = {p->w, p->G, p->Mg, p->g.C, taps, p->MgP};
  size_t n = (size_t)(p->G * p->g.C * taps * p->MgP);
  if (p->constW) {
    int64_t key[6] = {p->G, p->Mg, p->g.C, taps, p->MgP, 0};
    p->wp = rtConstCacheGet('G', p->w, key, n, packWeights, &j);
  } else {
    float *d = rtScratch(10, n);
    if (d) packWeights(d, &j);
    p->wp = d;
  }
  return p->wp != NULL;
}

int64_t rtGroupedBandRows(const RtConvGeom *g) {
  /* the input rows (all the group's channels) of a band: about 64 KiB,
   * which stays in L2 with the tile while the taps sweep it */
  int64_t Wp = (g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1;
  int64_t perRow = g->C * g->sh * Wp, rows = (16384 + perRow - 1) / perRow;
  return rows < 1 ? 1 : rows > g->OH ? g->OH : rows;
}

void rtGroupedBand(const RtGrouped *p, int64_t gi, int64_t oh0, int64_t oh1) {
  const RtConvGeom *g = &p->g;
  const RtIsa *isa = rtIsa();
  int64_t taps = g->KH * g->KW, rows = oh1 - oh0;
  RtPhasePlane pp = rtPhasePlaneOf(g, rows);
  /* the last pixel block's dropped outputs read past the plane */
  int64_t P = pp.size, npx = rows * pp.Wq;
  int64_t slack = pp.Wq + (g->KW - 1) * g->dw + RT_GROUPED_MAXR;
  float *plane = rtScratch(2, (size_t)(g->C * P + slack));
  float *tile = rtScratch(4, (size_t)((npx + RT_GROUPED_MAXR) * p->MgP));
  int64_t toff[RT_GROUPED_MAXTAPS];
  if (taps > RT_GROUPED_MAXTAPS) rtInvariant("grouped direct convolution over %d taps", RT_GROUPED_MAXTAPS);
  if (!plane || !tile) rtError("out of memory for the grouped convolution's planes");
  const float *x = g->x + gi * g->C * g->cs;
  for (int64_t c = 0; c < g->C; c++) rtFillPhasePlane(plane + c * P, &pp, x + c * g->cs, oh0 * g->sh);
  memset(plane + g->C * P, 0, sizeof(float) * (size_t)slack);
  for (int64_t i = 0; i < g->KH; i++)
    for (int64_t j = 0; j < g->KW; j++) toff[i * g->KW + j] = rtPhaseTapOffset(&pp, i * g->dh, j * g->dw);
  isa->groupedTile(plane, P, g->C, toff, taps, p->wp + gi * g->C * taps * p->MgP, p->MgP, tile, npx);
  /* [pixels][channels] into the planes: rows of OW of each channel */
  float *y = p->y + gi * p->Mg * p->ycs + oh0 * g->OW;
  for (int64_t m = 0; m < p->Mg; m++) {
    float *ym = y + m * p->ycs;
    for (int64_t r = 0; r < rows; r++) {
      const float *src = tile + r * pp.Wq * p->MgP + m;
      for (int64_t ow = 0; ow < g->OW; ow++) ym[r * g->OW + ow] = src[ow * p->MgP];
    }
  }
  const RtEpilogue *ep = p->ep;
  if (ep->nadd || ep->act || ep->alpha != 1.0f)
    isa->epilogue(y, p->ycs, gi * p->Mg, oh0 * g->OW, p->Mg, rows * g->OW, ep);
}
