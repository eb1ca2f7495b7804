/* libstrata_rt blocked GEMM (the BLIS loop nest): NC x KC panels of B and
 * MC x KC blocks of A are packed into the microkernel's MR/NR layouts, B
 * straight from the image when it is an implicit im2col; the epilogue runs
 * on each output tile while it is in cache. The pool splits the larger of
 * M and N. */
#include <stdbool.h>
#include <string.h>
#include "rt_internal.h"

enum { KC = 256, MC_PANELS = 16, NC = 2048 };

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

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

/* One NR-column panel of an implicit im2col, rows k0..k0+kc. */
static void packConvPanel(float *dst, const RtConvGeom *g, int64_t k0, int64_t kc, int64_t n0,
                          int64_t nr, int NR) {
  int64_t oh[64], ow[64];
  for (int64_t j = 0; j < nr; j++) oh[j] = (n0 + j) / g->OW, ow[j] = (n0 + j) % g->OW;
  bool oneRow = nr == NR && oh[0] == oh[nr - 1] && g->sw == 1 && g->ws == 1;
  int64_t KK = g->KH * g->KW;
  int64_t c = k0 / KK, r = k0 % KK, ki = r / g->KW, kj = r % g->KW;
  for (int64_t k = 0; k < kc; k++) {
    float *d = dst + k * NR;
    const float *plane = g->x + c * g->cs;
    if (oneRow) {
      int64_t ih = oh[0] * g->sh - g->ph + ki * g->dh;
      int64_t iw = ow[0] - g->pw + kj * g->dw;
      if (ih < 0 || ih >= g->H) {
        memset(d, 0, sizeof(float) * (size_t)NR);
      } else if (iw >= 0 && iw + NR <= g->W) {
        memcpy(d, plane + ih * g->hs + iw, sizeof(float) * (size_t)NR);
      } else {
        const float *row = plane + ih * g->hs;
        for (int64_t j = 0; j < NR; j++) d[j] = (iw + j >= 0 && iw + j < g->W) ? row[iw + j] : 0.0f;
      }
    } else {
      for (int64_t j = 0; j < nr; j++) {
        int64_t ih = oh[j] * g->sh - g->ph + ki * g->dh, iw = ow[j] * g->sw - g->pw + kj * g->dw;
        d[j] = (ih >= 0 && ih < g->H && iw >= 0 && iw < g->W) ? plane[ih * g->hs + iw * g->ws] : 0.0f;
      }
      for (int64_t j = nr; j < NR; j++) d[j] = 0.0f;
    }
    if (++kj == g->KW) {
      kj = 0;
      if (++ki == g->KH) ki = 0, c++;
    }
  }
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
    if (m->cs == 1 && nr == NR) {
      for (int64_t k = 0; k < kc; k++) memcpy(dst + k * NR, src + k * m->rs, sizeof(float) * (size_t)NR);
    } else {
      for (int64_t j = 0; j < nr; j++)
        for (int64_t k = 0; k < kc; k++) dst[k * NR + j] = src[k * m->rs + j * m->cs];
      for (int64_t j = nr; j < NR; j++)
        for (int64_t k = 0; k < kc; k++) dst[k * NR + j] = 0.0f;
    }
  }
}

void rtEpilogueTile(float *c, int64_t ldc, int64_t m0, int64_t n0, int64_t mr, int64_t nr,
                    const RtEpilogue *ep) {
  for (int64_t i = 0; i < mr; i++) {
    float *row = c + i * ldc;
    if (ep->alpha != 1.0f)
      for (int64_t j = 0; j < nr; j++) row[j] *= ep->alpha;
    for (int a = 0; a < ep->nadd; a++) {
      const RtAddend *ad = &ep->add[a];
      const float *base = ad->p + (m0 + i) * ad->sm;
      int64_t h = n0 / ep->W, w = n0 % ep->W;
      if (ad->sh == 0 && ad->sw == 0) {
        float v = ad->beta * base[0];
        for (int64_t j = 0; j < nr; j++) row[j] += v;
        continue;
      }
      for (int64_t j = 0; j < nr; j++) {
        row[j] += ad->beta * base[h * ad->sh + w * ad->sw];
        if (++w == ep->W) w = 0, h++;
      }
    }
    if (ep->act == 1) {
      for (int64_t j = 0; j < nr; j++) row[j] = row[j] > 0.0f ? row[j] : 0.0f;
    } else if (ep->act == 2) {
      for (int64_t j = 0; j < nr; j++)
        row[j] = row[j] < ep->lo ? ep->lo : row[j] > ep->hi ? ep->hi : row[j];
    }
  }
}

static bool trivialEpilogue(const RtEpilogue *ep) {
  return ep->alpha == 1.0f && ep->nadd == 0 && ep->act == 0;
}

/* The serial blocked GEMM over rows [m0, m1) and columns [n0, n1). */
static void gemmBlock(int tid, int64_t m0, int64_t m1, int64_t n0, int64_t n1, int64_t K, RtMat A,
                      const RtBSrc *B, float *C, int64_t ldc, const RtEpilogue *ep) {
  const RtIsa *isa = rtIsa();
  const int MR = isa->mr, NR = isa->nr;
  const int64_t MC = (int64_t)MR * MC_PANELS, NCB = NC / NR * NR;
  float tile[16 * 64];
  if (K == 0) {
    for (int64_t i = m0; i < m1; i++) memset(C + i * ldc + n0, 0, sizeof(float) * (size_t)(n1 - n0));
    if (!trivialEpilogue(ep)) rtEpilogueTile(C + m0 * ldc + n0, ldc, m0, n0, m1 - m0, n1 - n0, ep);
    return;
  }
  float *bp = rtScratch(tid, 0, (size_t)(KC * NCB));
  float *ap = rtScratch(tid, 1, (size_t)(KC * MC));
  if (!bp || !ap) rtFatal("out of memory for GEMM packing buffers");
  for (int64_t jc = n0; jc < n1; jc += NCB) {
    int64_t nc = min64(NCB, n1 - jc);
    for (int64_t pc = 0; pc < K; pc += KC) {
      int64_t kc = min64(KC, K - pc);
      bool last = pc + kc >= K;
      packB(bp, B, pc, kc, jc, nc, NR);
      for (int64_t ic = m0; ic < m1; ic += MC) {
        int64_t mc = min64(MC, m1 - ic);
        packA(ap, A, ic, mc, pc, kc, MR);
        for (int64_t jr = 0; jr < nc; jr += NR) {
          int64_t nr = min64(NR, nc - jr);
          for (int64_t ir = 0; ir < mc; ir += MR) {
            int64_t mr = min64(MR, mc - ir);
            float *c = C + (ic + ir) * ldc + jc + jr;
            if (mr == MR && nr == NR) {
              isa->kernel(kc, ap + ir * kc, bp + jr * kc, c, ldc, pc > 0);
            } else {
              isa->kernel(kc, ap + ir * kc, bp + jr * kc, tile, NR, 0);
              for (int64_t i = 0; i < mr; i++)
                for (int64_t j = 0; j < nr; j++)
                  c[i * ldc + j] = pc > 0 ? c[i * ldc + j] + tile[i * NR + j] : tile[i * NR + j];
            }
            if (last && !trivialEpilogue(ep)) rtEpilogueTile(c, ldc, ic + ir, jc + jr, mr, nr, ep);
          }
        }
      }
    }
  }
}

typedef struct {
  int64_t M, N, K, unit;
  bool splitN;
  RtMat A;
  const RtBSrc *B;
  float *C;
  int64_t ldc;
  const RtEpilogue *ep;
} GemmTask;

static void gemmTask(void *ctx, int tid, int64_t begin, int64_t end) {
  const GemmTask *t = ctx;
  int64_t lo = begin * t->unit, hi = min64(end * t->unit, t->splitN ? t->N : t->M);
  if (t->splitN) gemmBlock(tid, 0, t->M, lo, hi, t->K, t->A, t->B, t->C, t->ldc, t->ep);
  else gemmBlock(tid, lo, hi, 0, t->N, t->K, t->A, t->B, t->C, t->ldc, t->ep);
}

void rtGemm(int64_t M, int64_t N, int64_t K, RtMat A, RtBSrc B, float *C, int64_t ldc,
            const RtEpilogue *ep, int tid) {
  if (M <= 0 || N <= 0) return;
  const RtIsa *isa = rtIsa();
  /* Splitting N repeats the packing of A per thread, splitting M that of B:
   * split the larger dimension. */
  GemmTask t = {M, N, K, 0, N >= M, A, &B, C, ldc, ep};
  t.unit = t.splitN ? isa->nr : isa->mr;
  int64_t units = ((t.splitN ? N : M) + t.unit - 1) / t.unit;
  if (tid < 0) rtParallelFor(units, gemmTask, &t);
  else gemmTask(&t, tid, 0, units);
}
