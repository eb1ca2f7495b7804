/* libstrata_rt blocked GEMM (the BLIS loop nest): NC x KC panels of B and
 * MC x KC blocks of A are packed into the microkernel's MR/NR layouts, B
 * straight from the image when it is an implicit im2col; the epilogue runs
 * on each output tile while it is in cache. The pool splits the larger of
 * M and N. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

enum { KC = 512, MC_PANELS = 16, NC = 2048 };

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The K block: K split evenly into the fewest blocks of at most KC (576
 * is 2 x 288, not 512 + 64: fewer passes over C with a short block), a
 * multiple of 8. Packed constants use the same blocking. */
static int64_t blockK(int64_t K) {
  int64_t blocks = (K + KC - 1) / KC, kc = (K + blocks - 1) / blocks;
  kc = (kc + 7) / 8 * 8;
  return kc > KC ? KC : kc < 1 ? 1 : kc;
}

/* ap[(i / MR) * MR * kc + k * MR + i % MR] = A(i0 + i, k0 + k), zero-padded. */
static void packA(float *ap, RtMat A, int64_t i0, int64_t mc, int64_t k0, int64_t kc, int MR) {
  for (int64_t ip = 0; ip < mc; ip += MR) {
    float *dst = ap + ip * kc;
    int64_t mr = min64(MR, mc - ip);
    for (int64_t i = 0; i < mr; i++) {
      const float *src = A.p + (i0 + ip + i) * A.rs + k0 * A.cs;
      for (int64_t k = 0; k < kc; k++) dst[k * MR + i] = src[k * A.cs];
    }
    for (int64_t i = mr; i < MR; i++)
      for (int64_t k = 0; k < kc; k++) dst[k * MR + i] = 0.0f;
  }
}

/* One NR-column panel of an implicit im2col, rows k0..k0+kc, read
 * straight from the image: the panel's columns split into runs within one
 * output row; per row k a run is a strided copy of the image columns its
 * windows read (scaled by the channel's xscale when there is one), with
 * zeros where they fall in the padding (no padded copy of the image is
 * made). */
static void packConvPanel(float *dst, const RtConvGeom *g, int64_t k0, int64_t kc, int64_t n0,
                          int64_t nr, int NR) {
  int64_t runOh[64], runOw[64], runJ[65];
  int runs = 0;
  for (int64_t j = 0; j < nr;) {
    int64_t oh = (n0 + j) / g->OW, ow = (n0 + j) % g->OW, len = min64(nr - j, g->OW - ow);
    runOh[runs] = oh, runOw[runs] = ow, runJ[runs++] = j;
    j += len;
  }
  runJ[runs] = nr;
  int64_t KK = g->KH * g->KW, sw = g->sw, step = g->sw * g->ws;
  void (*const copyStride2)(float *, const float *, int64_t) = rtIsa()->copyStride2;
  const int64_t last = (g->C - 1) * g->cs + (g->H - 1) * g->hs + (g->W - 1) * g->ws; /* the image's */
  int64_t c = k0 / KK, r = k0 % KK, ki = r / g->KW, kj = r % g->KW;
  for (int64_t k = 0; k < kc; k++) {
    float *d = dst + k * NR;
    const float *plane = g->x + c * g->cs;
    for (int q = 0; q < runs; q++) {
      float *o = d + runJ[q];
      int64_t len = runJ[q + 1] - runJ[q];
      int64_t ih = runOh[q] * g->sh + ki * g->dh - g->ph, iw0 = runOw[q] * sw + kj * g->dw - g->pw;
      /* t in [lo, hi) reads image column iw0 + t * sw inside [0, W) */
      int64_t lo = 0, hi = 0;
      if (ih >= 0 && ih < g->H && iw0 < g->W) {
        /* no division on the common paths: it cost more than the copy (a
         * strided run inside the row, most of a stride-2 layer's, needs none) */
        if (sw == 1)
          lo = iw0 >= 0 ? 0 : -iw0, hi = min64(len, g->W - iw0);
        else if (iw0 >= 0 && iw0 + (len - 1) * sw < g->W)
          lo = 0, hi = len;
        else if (sw == 2) /* shifts (operands >= 0): stride-2 stems divide on every row */
          lo = iw0 >= 0 ? 0 : (-iw0 + 1) / 2, hi = min64(len, (g->W - 1 - iw0) / 2 + 1);
        else
          lo = iw0 >= 0 ? 0 : (-iw0 + sw - 1) / sw, hi = min64(len, (g->W - 1 - iw0) / sw + 1);
        if (lo > hi) lo = hi;
      }
      for (int64_t t = 0; t < lo; t++) o[t] = 0.0f;
      if (hi > lo) {
        const float *src = plane + ih * g->hs + (iw0 + lo * sw) * g->ws;
        float *out = o + lo;
        int64_t n = hi - lo;
        if (g->xscale) {
          const float sc = g->xscale[c * g->xss];
          if (step == 1)
            for (int64_t t = 0; t < n; t++) out[t] = src[t] * sc;
          else
            for (int64_t t = 0; t < n; t++) out[t] = src[t * step] * sc;
        } else if (step == 1)
          for (int64_t t = 0; t < n; t++) out[t] = src[t];
        else if (step == 2 && (src - g->x) + 2 * n - 1 <= last) /* stride-2 convs; it reads src[2n - 1] */
          copyStride2(out, src, n);
        else if (step == 2)
          copyStride2(out, src, n - 1), out[n - 1] = src[2 * (n - 1)];
        else
          for (int64_t t = 0; t < n; t++) out[t] = src[t * step];
      }
      for (int64_t t = hi; t < len; t++) o[t] = 0.0f;
    }
    for (int64_t j = nr; j < NR; j++) d[j] = 0.0f;
    if (++kj == g->KW) {
      kj = 0;
      if (++ki == g->KH) ki = 0, c++;
    }
  }
}

/* dst[k * NR + j] = src[k * rs + j]: a full panel of unit-stride rows. The
 * row length is a constant in each branch, so the copies are inline vector
 * moves, not a memcpy call per 128-byte row (small-M GEMMs, e.g. 1x1
 * convolutions to 16-32 channels, pack more than they compute per row). */
static void copyRows(float *restrict dst, const float *restrict src, int64_t rs, int64_t kc, int NR) {
#define RT_COPY_ROWS(W)                                                   \
  for (int64_t k = 0; k < kc; k++)                                        \
    for (int j = 0; j < (W); j++) dst[k * (W) + j] = src[k * rs + j];
  switch (NR) {
  case 32: RT_COPY_ROWS(32) break;
  case 16: RT_COPY_ROWS(16) break;
  case 8: RT_COPY_ROWS(8) break;
  default:
    for (int64_t k = 0; k < kc; k++) memcpy(dst + k * NR, src + k * rs, sizeof(float) * (size_t)NR);
  }
#undef RT_COPY_ROWS
}

/* bp[(j / NR) * NR * kc + k * NR + j % NR] = B(k0 + k, j0 + j), zero-padded. */
static void packB(float *bp, const RtBSrc *B, int64_t k0, int64_t kc, int64_t j0, int64_t nc,
                  int NR) {
  for (int64_t jp = 0; jp < nc; jp += NR) {
    float *dst = bp + jp * kc;
    int64_t nr = min64(NR, nc - jp);
    if (B->conv) {
      packConvPanel(dst, B->conv, k0, kc, j0 + jp, nr, NR);
      continue;
    }
    const RtMat *m = &B->mat;
    const float *src = m->p + k0 * m->rs + (j0 + jp) * m->cs;
    if (B->rowScale && m->cs == 1 && nr == NR && NR == rtIsa()->nr) { /* the ISA's own panel width */
      rtIsa()->scaledPanel(dst, src, m->rs, kc, B->rowScale + k0 * B->rss, B->rss);
    } else if (B->rowScale) {
      for (int64_t k = 0; k < kc; k++) {
        const float sc = B->rowScale[(k0 + k) * B->rss], *row = src + k * m->rs;
        float *d = dst + k * NR;
        if (m->cs == 1)
          for (int64_t j = 0; j < nr; j++) d[j] = row[j] * sc;
        else
          for (int64_t j = 0; j < nr; j++) d[j] = row[j * m->cs] * sc;
        for (int64_t j = nr; j < NR; j++) d[j] = 0.0f;
      }
    } else if (m->cs == 1 && nr == NR) {
      copyRows(dst, src, m->rs, kc, NR);
    } else {
      for (int64_t j = 0; j < nr; j++)
        for (int64_t k = 0; k < kc; k++) dst[k * NR + j] = src[k * m->rs + j * m->cs];
      for (int64_t j = nr; j < NR; j++)
        for (int64_t k = 0; k < kc; k++) dst[k * NR + j] = 0.0f;
    }
  }
}

/* ---- Packed constants ----
 * A constant operand is packed once, whole, and kept: for each blockK block of
 * k, all its MR (A) or NR (B) panels, so that the block (pc, i0) is at
 * pc * padded + i0 * kc whatever blocking or thread split a call uses. */
static int64_t roundUp(int64_t v, int64_t r) { return (v + r - 1) / r * r; }

typedef struct {
  char kind;
  RtMat m;
  int64_t rows, cols, padded, K;
  int r;
} PackJob;

static void packWhole(float *dst, const void *ctx) {
  const PackJob *j = ctx;
  const int64_t KB = blockK(j->K);
  for (int64_t pc = 0; pc < j->K; pc += KB) {
    int64_t kc = min64(KB, j->K - pc);
    if (j->kind == 'A') packA(dst + pc * j->padded, j->m, 0, j->rows, pc, kc, j->r);
    else packB(dst + pc * j->padded, &(RtBSrc){j->m, NULL, NULL, 0}, pc, kc, 0, j->cols, j->r);
  }
}

/* The packed form of constant A (kind 'A', rows M, cols K, panels of MR) or
 * B ('B', rows K, cols N, panels of NR); NULL if out of memory. */
static const float *packedConstant(char kind, RtMat m, int64_t rows, int64_t cols, int r) {
  PackJob j = {kind, m, rows, cols, roundUp(kind == 'A' ? rows : cols, r), kind == 'A' ? cols : rows, r};
  int64_t key[6] = {m.rs, m.cs, rows, cols, r, 0};
  return rtConstCacheGet(kind, m.p, key, (size_t)(j.padded * j.K), packWhole, &j);
}

/* Whether a full tile at column n0 can take the epilogue in the
 * microkernel's registers: every addend is one value per row (a channel
 * bias), a unit-stride run within one (h) row of the addend, or dense
 * over (h, w) (sh == W, sw == 1: a residual of the output's own shape),
 * where the tile's columns are one run whichever rows they cross. */
static bool epilogueInRegisters(const RtEpilogue *ep, int64_t n0, int NR) {
  for (int a = 0; a < ep->nadd; a++) {
    const RtAddend *ad = &ep->add[a];
    bool perRow = ad->sh == 0 && ad->sw == 0;
    bool dense = ad->sw == 1 && ad->sh == ep->W;
    bool run = ad->sw == 1 && n0 / ep->W == (n0 + NR - 1) / ep->W;
    if (!perRow && !dense && !run) return false;
  }
  return true;
}

static bool trivialEpilogue(const RtEpilogue *ep) {
  return ep->alpha == 1.0f && ep->nadd == 0 && ep->act == 0;
}

typedef struct {
  int64_t M, N, K, unit;
  bool splitN, swap; /* swap: computed as C^T = B^T A^T (gemmBlockSwapped) */
  RtMat A;
  const RtBSrc *B;
  float *C;
  int64_t ldc;
  const RtEpilogue *ep;
  const float *preA, *preB; /* packed constants, or NULL */
} GemmTask;

/* The serial blocked GEMM over rows [m0, m1) and columns [n0, n1). */
static void gemmBlock(const GemmTask *t, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  const int64_t K = t->K, ldc = t->ldc;
  const RtMat A = t->A;
  const RtBSrc *B = t->B;
  float *C = t->C;
  const RtEpilogue *ep = t->ep;
  const RtIsa *isa = rtIsa();
  const int MR = isa->mr, NR = isa->nr;
  const int64_t MC = (int64_t)MR * MC_PANELS, NCB = NC / NR * NR;
  float tile[16 * 64];
  if (K == 0) {
    for (int64_t i = m0; i < m1; i++) memset(C + i * ldc + n0, 0, sizeof(float) * (size_t)(n1 - n0));
    if (!trivialEpilogue(ep)) isa->epilogue(C + m0 * ldc + n0, ldc, m0, n0, m1 - m0, n1 - n0, ep);
    return;
  }
  /* packing buffers of this product's blocks, not of the largest blocks:
   * a small product keeps small scratch */
  const int64_t KB = blockK(K);
  float *bp = t->preB ? NULL : rtScratch(0, (size_t)(KB * roundUp(min64(NCB, n1 - n0), NR)));
  float *ap = t->preA ? NULL : rtScratch(1, (size_t)(KB * roundUp(min64(MC, m1 - m0), MR)));
  if ((!bp && !t->preB) || (!ap && !t->preA)) rtError("out of memory for GEMM packing buffers");
  const int64_t Mpad = roundUp(t->M, MR), Npad = roundUp(t->N, NR);
  for (int64_t jc = n0; jc < n1; jc += NCB) {
    int64_t nc = min64(NCB, n1 - jc);
    for (int64_t pc = 0; pc < K; pc += KB) {
      int64_t kc = min64(KB, K - pc);
      bool last = pc + kc >= K;
      if (t->preB) bp = (float *)t->preB + pc * Npad + jc * kc;
      else packB(bp, B, pc, kc, jc, nc, NR);
      for (int64_t ic = m0; ic < m1; ic += MC) {
        int64_t mc = min64(MC, m1 - ic);
        if (t->preA) ap = (float *)t->preA + pc * Mpad + ic * kc;
        else packA(ap, A, ic, mc, pc, kc, MR);
        for (int64_t jr = 0; jr < nc; jr += NR) {
          int64_t nr = min64(NR, nc - jr);
          for (int64_t ir = 0; ir < mc; ir += MR) {
            int64_t mr = min64(MR, mc - ir);
            float *c = C + (ic + ir) * ldc + jc + jr;
            bool full = mr == MR && nr == NR, fused = false;
            if (full) {
              fused = last && !trivialEpilogue(ep) && epilogueInRegisters(ep, jc + jr, NR);
              isa->kernel(kc, ap + ir * kc, bp + jr * kc, c, ldc, pc > 0, fused ? ep : NULL, ic + ir,
                          jc + jr);
            } else {
              isa->kernelPart(kc, ap + ir * kc, bp + jr * kc, tile, NR, 0, (int)mr, nr > NR / 2 ? 2 : 1);
              for (int64_t i = 0; i < mr; i++)
                for (int64_t j = 0; j < nr; j++)
                  c[i * ldc + j] = pc > 0 ? c[i * ldc + j] + tile[i * NR + j] : tile[i * NR + j];
            }
            if (last && !fused && !trivialEpilogue(ep)) isa->epilogue(c, ldc, ic + ir, jc + jr, mr, nr, ep);
          }
        }
      }
    }
  }
}

/* The same product computed as C^T = B^T A^T, for outputs with few columns
 * and many rows (a 7x7 feature map of 512 channels: N = 49 wastes a
 * quarter of the NR-wide tiles; its 49 rows in MR-high tiles waste 1/8):
 * B's columns are packed as the microkernel's A panels (packB with MR-wide
 * panels gives that layout, im2col included), A^T as its B panels (cached
 * when A is constant). The tiles accumulate in a padded C^T block in
 * scratch, transposed into C once at the end, then the epilogue runs. */
static void gemmBlockSwapped(const GemmTask *t, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  const int64_t K = t->K, ldc = t->ldc;
  const RtBSrc At = {{t->A.p, t->A.cs, t->A.rs, t->A.constant}, NULL, NULL, 0};
  const RtIsa *isa = rtIsa();
  const int MR = isa->mr, NR = isa->nr;
  const int64_t MC = (int64_t)MR * MC_PANELS, NCB = NC / NR * NR, Mpad = roundUp(t->M, NR);
  const int64_t rows = roundUp(n1 - n0, MR), ldt = roundUp(m1 - m0, NR);
  const int64_t KB = blockK(K);
  float *bp = t->preA ? NULL : rtScratch(0, (size_t)(KB * roundUp(min64(NCB, m1 - m0), NR)));
  float *ap = rtScratch(1, (size_t)(KB * roundUp(min64(MC, n1 - n0), MR)));
  float *ct = rtScratch(8, (size_t)(rows * ldt));
  if ((!bp && !t->preA) || !ap || !ct) rtError("out of memory for GEMM packing buffers");
  for (int64_t jc = m0; jc < m1; jc += NCB) { /* C rows: the swapped product's columns */
    int64_t nc = min64(NCB, m1 - jc);
    for (int64_t pc = 0; pc < K; pc += KB) {
      int64_t kc = min64(KB, K - pc);
      if (t->preA) bp = (float *)t->preA + pc * Mpad + jc * kc;
      else packB(bp, &At, pc, kc, jc, nc, NR);
      for (int64_t ic = n0; ic < n1; ic += MC) { /* C columns: its rows */
        int64_t mc = min64(MC, n1 - ic);
        packB(ap, t->B, pc, kc, ic, mc, MR);
        for (int64_t jr = 0; jr < nc; jr += NR)
          for (int64_t ir = 0; ir < mc; ir += MR) {
            /* a partial tile (7x7 maps: 49 rows, the last of one) computes
             * only its rows and vectors; ct has room for whole tiles */
            int64_t mr = min64(MR, mc - ir), nr = min64(NR, nc - jr);
            float *c = ct + (ic - n0 + ir) * ldt + (jc - m0 + jr);
            if (mr == MR && nr == NR) isa->kernel(kc, ap + ir * kc, bp + jr * kc, c, ldt, pc > 0, NULL, 0, 0);
            else isa->kernelPart(kc, ap + ir * kc, bp + jr * kc, c, ldt, pc > 0, (int)mr, nr > NR / 2 ? 2 : 1);
          }
      }
    }
  }
  enum { TB = 32 };
  for (int64_t i0 = m0; i0 < m1; i0 += TB)
    for (int64_t j0 = n0; j0 < n1; j0 += TB) {
      int64_t i1 = min64(i0 + TB, m1), j1 = min64(j0 + TB, n1);
      for (int64_t i = i0; i < i1; i++)
        for (int64_t j = j0; j < j1; j++) t->C[i * ldc + j] = ct[(j - n0) * ldt + (i - m0)];
    }
  if (!trivialEpilogue(t->ep)) isa->epilogue(t->C + m0 * ldc + n0, ldc, m0, n0, m1 - m0, n1 - n0, t->ep);
}

static void gemmTask(void *ctx, int64_t begin, int64_t end) {
  const GemmTask *t = ctx;
  int64_t lo = begin * t->unit, hi = min64(end * t->unit, t->splitN ? t->N : t->M);
  void (*block)(const GemmTask *, int64_t, int64_t, int64_t, int64_t) = t->swap ? gemmBlockSwapped : gemmBlock;
  if (t->splitN) block(t, 0, t->M, lo, hi);
  else block(t, lo, hi, 0, t->N);
}

/* Cycles per k of the tiles covering a rows x cols product (rows on the
 * microkernel's MR side): a tile of r rows and v vectors issues r v FMAs
 * and r + v loads, two of either a cycle, and no less than half the FMA
 * latency (partial tiles split their accumulators in two, kernelPart). */
static double tileCycles(int64_t r, int64_t v) {
  double c = (double)(r * v > r + v ? r * v : r + v) / 2.0;
  return c < 2.0 ? 2.0 : c;
}

static double productCycles(int64_t rows, int64_t cols, int MR, int NR) {
  int64_t fr = rows / MR, rr = rows % MR, fc = cols / NR, rc = cols % NR, rv = rc == 0 ? 0 : rc > NR / 2 ? 2 : 1;
  double c = (double)fr * (double)fc * tileCycles(MR, 2);
  if (rv) c += (double)fr * tileCycles(MR, rv);
  if (rr) c += (double)fc * tileCycles(rr, 2) + (rv ? tileCycles(rr, rv) : 0.0);
  return c;
}

/* Whether C^T = B^T A^T pays: the cycles its tiles save (7x7 maps: 49
 * columns are one whole and one half-empty 32-wide panel, while 49 rows
 * are six 8-high tiles and a one-row partial tile) against the
 * transposition of C, a couple of cycles an element. */
static bool swapPays(int64_t M, int64_t N, int64_t K, int MR, int NR) {
  double direct = productCycles(M, N, MR, NR), swapped = productCycles(N, M, MR, NR);
  return (direct - swapped) * (double)K > 2.0 * (double)M * (double)N;
}

/* ---- GEMV: one row of A (a linear layer on one token, a classifier) ----
 * Packing B for the microkernel would copy all of it to use one row of
 * each MR-high tile: instead B is streamed once, as rows (y += a_k B_k,
 * the y block staying in L1) or, when B is transposed, as dot products. */
enum { GEMV_BLOCK = 2048 };

typedef struct {
  int64_t N, K;
  RtMat A, B;
  float *C;
  const RtEpilogue *ep;
  const float *a; /* A's row made contiguous, for the dot form */
} GemvTask;

static void gemvTask(void *ctx, int64_t begin, int64_t end) {
  const GemvTask *t = ctx;
  const RtIsa *isa = rtIsa();
  int64_t j0 = begin * 64, j1 = min64(end * 64, t->N);
  for (int64_t jb = j0; jb < j1; jb += GEMV_BLOCK) {
    int64_t n = min64(GEMV_BLOCK, j1 - jb);
    float *y = t->C + jb;
    if (t->B.cs == 1) {
      memset(y, 0, sizeof(float) * (size_t)n);
      for (int64_t k = 0; k < t->K; k++) isa->axpy(y, t->B.p + k * t->B.rs + jb, t->A.p[k * t->A.cs], n);
    } else if (t->B.rs == 1) {
      for (int64_t j = 0; j < n; j++) y[j] = isa->dot(t->a, t->B.p + (jb + j) * t->B.cs, t->K);
    } else {
      for (int64_t j = 0; j < n; j++) {
        float s = 0.0f;
        for (int64_t k = 0; k < t->K; k++) s += t->A.p[k * t->A.cs] * t->B.p[k * t->B.rs + (jb + j) * t->B.cs];
        y[j] = s;
      }
    }
    if (!trivialEpilogue(t->ep)) isa->epilogue(y, 0, 0, jb, 1, n, t->ep);
  }
}

static void gemv(int64_t N, int64_t K, RtMat A, RtMat B, float *C, const RtEpilogue *ep, bool parallel) {
  GemvTask t = {N, K, A, B, C, ep, A.p};
  if (B.cs != 1 && B.rs == 1 && A.cs != 1) {
    float *a = rtScratch(1, (size_t)K);
    if (!a) rtError("out of memory for GEMV");
    for (int64_t k = 0; k < K; k++) a[k] = A.p[k * A.cs];
    t.a = a;
  }
  int64_t units = (N + 63) / 64;
  if (parallel) rtParallelFor(units, gemvTask, &t);
  else gemvTask(&t, 0, units);
}

/* ---- Few rows (fewrows.c): the small-row version of a matmul ----
 * B is read unpacked with unit column stride; a constant B stored
 * otherwise (a transposed weight) is copied row-major once and kept. */
typedef struct {
  int64_t M, N, K, ldc;
  RtMat A;
  const float *b;
  int64_t brs;
  float *C;
  const RtEpilogue *ep;
} FewRowsTask;

static void fewRowsTask(void *ctx, int64_t begin, int64_t end) {
  const FewRowsTask *t = ctx;
  const RtIsa *isa = rtIsa();
  int64_t j0 = begin * 64, j1 = min64(end * 64, t->N);
  isa->fewRows(t->M, j1 - j0, t->K, t->A.p, t->A.rs, t->A.cs, t->b + j0, t->brs, t->C + j0, t->ldc);
  if (!trivialEpilogue(t->ep)) isa->epilogue(t->C + j0, t->ldc, 0, j0, t->M, j1 - j0, t->ep);
}

static void rowMajorWhole(float *dst, const void *ctx) {
  const PackJob *j = ctx;
  for (int64_t k = 0; k < j->rows; k++)
    for (int64_t n = 0; n < j->cols; n++) dst[k * j->cols + n] = j->m.p[k * j->m.rs + n * j->m.cs];
}

bool rtGemmFewRows(int64_t M, int64_t N, int64_t K, RtMat A, RtBSrc B, float *C, int64_t ldc, const RtEpilogue *ep,
                   bool parallel) {
  /* one row: rtGemm's GEMV streams B without the strips' register blocking */
  if (M < 2 || M > RT_FEW_ROWS || N <= 0 || B.conv || B.rowScale) return false;
  const float *b = B.mat.p;
  int64_t brs = B.mat.rs;
  if (B.mat.cs != 1 || N == 1) {
    if (!B.mat.constant) return false;
    PackJob j = {'R', B.mat, K, N, N, K, 1};
    int64_t key[6] = {B.mat.rs, B.mat.cs, K, N, 1, 1};
    b = rtConstCacheGet('R', B.mat.p, key, (size_t)(K * N), rowMajorWhole, &j);
    if (!b) rtError("out of memory for a GEMM operand");
    brs = N;
  }
  FewRowsTask t = {M, N, K, ldc, A, b, brs, C, ep};
  int64_t units = (N + 63) / 64;
  if (parallel) rtParallelFor(units, fewRowsTask, &t);
  else fewRowsTask(&t, 0, units);
  return true;
}

void rtGemm(int64_t M, int64_t N, int64_t K, RtMat A, RtBSrc B, float *C, int64_t ldc,
            const RtEpilogue *ep, bool parallel) {
  if (M <= 0 || N <= 0) return;
  if (M == 1 && K > 0 && !B.conv && !B.rowScale) {
    gemv(N, K, A, B.mat, C, ep, parallel);
    return;
  }
  const RtIsa *isa = rtIsa();
  /* Splitting N repeats the packing of A per thread, splitting M that of B:
   * split the larger dimension. */
  GemmTask t = {M, N, K, 0, N >= M, false, A, &B, C, ldc, ep, NULL, NULL};
  t.swap = swapPays(M, N, K, isa->mr, isa->nr);
  if (t.swap) {
    /* preA holds A^T packed as the swapped product's B panels. */
    if (A.constant) t.preA = packedConstant('B', (RtMat){A.p, A.cs, A.rs, true}, K, M, isa->nr);
  } else {
    if (K > 0 && A.constant) t.preA = packedConstant('A', A, M, K, isa->mr);
    if (K > 0 && !B.conv && !B.rowScale && B.mat.constant) t.preB = packedConstant('B', B.mat, K, N, isa->nr);
  }
  t.unit = (t.splitN != t.swap) ? isa->nr : isa->mr; /* tile widths along the split dim */
  int64_t units = ((t.splitN ? N : M) + t.unit - 1) / t.unit;
  if (parallel) rtParallelFor(units, gemmTask, &t);
  else gemmTask(&t, 0, units);
}
