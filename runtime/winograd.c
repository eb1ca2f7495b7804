/* libstrata_rt Winograd convolution F(2x2, 3x3) for 3x3, stride 1,
 * dilation 1, ungrouped convolutions (Lavin & Gray): per image, the input
 * is cut into 4x4 patches overlapping by 2 (one per 2x2 output tile) and
 * transformed, V = B^T d B; the weights once, U = G g G^T (cached, then
 * packed as GEMM constants); the 16 element-wise products become 16 GEMMs
 * M[xi] = U[xi] (M x C) * V[xi] (C x tiles); the output transform
 * Y = A^T M A gives each 2x2 tile, then the epilogue runs per output row.
 * 2.25x fewer multiplications than the direct form. The tiles go through
 * in bands (runs of tiles in row-major order, a multiple of the
 * microkernel's NR wide, so the GEMMs waste no columns) whose V and M
 * together hold no more floats than the layer's input and output (at
 * least BAND_MIN_FLOATS, 1 MiB, for the GEMMs' sake; at most
 * BAND_MAX_FLOATS, 4 MiB): V and M of a whole image are 16 x (C + M)
 * floats per tile, 4x the input and output, 32 MiB for a 64-channel layer
 * at 252x252. */
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"

/* U[xi][m][c] = (G g G^T)[xi] for the dense [M][C][3][3] weights w. */
static void transformWeights(const float *w, int64_t M, int64_t C, float *u) {
  for (int64_t m = 0; m < M; m++)
    for (int64_t c = 0; c < C; c++) {
      const float *g = w + (m * C + c) * 9;
      float t[4][3]; /* G g */
      for (int j = 0; j < 3; j++) {
        t[0][j] = g[j];
        t[1][j] = 0.5f * (g[j] + g[3 + j] + g[6 + j]);
        t[2][j] = 0.5f * (g[j] - g[3 + j] + g[6 + j]);
        t[3][j] = g[6 + j];
      }
      for (int i = 0; i < 4; i++) { /* (G g) G^T */
        float r[4] = {t[i][0], 0.5f * (t[i][0] + t[i][1] + t[i][2]), 0.5f * (t[i][0] - t[i][1] + t[i][2]),
                      t[i][2]};
        for (int j = 0; j < 4; j++) u[((int64_t)(i * 4 + j) * M + m) * C + c] = r[j];
      }
    }
}

typedef struct {
  const float *w;
  int64_t M, C;
} UJob;

static void fillU(float *u, const void *ctx) {
  const UJob *j = ctx;
  transformWeights(j->w, j->M, j->C, u);
}

/* The transformed weights: cached by address when constant, else computed
 * into the calling thread's scratch slot 4. NULL if out of memory. */
static const float *weightsU(const float *w, bool constant, int64_t M, int64_t C) {
  size_t n = (size_t)(16 * M * C);
  if (!constant) {
    float *u = rtScratch(4, n);
    if (u) transformWeights(w, M, C, u);
    return u;
  }
  UJob j = {w, M, C};
  int64_t key[6] = {M, C, 0, 0, 0, 0};
  return rtConstCacheGet('W', w, key, n, fillU, &j);
}

/* V and M of a band together: about the floats of the layer's input and
 * output, within these bounds, and at least NR tiles. */
enum { BAND_MIN_FLOATS = 1 << 18, BAND_MAX_FLOATS = 1 << 20 };

/* The distance of V's (or M's) planes for `floats` floats a plane: an odd
 * multiple of 64 bytes, so that the 16 rows the transforms stream at once
 * (one per plane) fall in different cache sets; planes a multiple of 4 KiB
 * apart (64 channels x a multiple of 16 tiles) made the transforms 1.5x
 * slower. */
static int64_t planeStride(int64_t floats) { return floats + (48 - floats % 32) % 32; }

/* The tiles of a band (of `tiles` in all): V and M hold 16 x (C + M)
 * floats per tile. */
static int64_t bandTiles(const RtWinograd *p, int64_t tiles) {
  int64_t budget = p->C * p->H * p->W + p->M * p->OH * p->OW, nr = rtIsa()->nr;
  budget = budget < BAND_MIN_FLOATS ? BAND_MIN_FLOATS : budget > BAND_MAX_FLOATS ? BAND_MAX_FLOATS : budget;
  int64_t t = budget / (16 * (p->C + p->M)) / nr * nr;
  if (t < nr) t = nr;
  return t < tiles ? t : tiles;
}

typedef struct {
  const RtWinograd *p;
  const float *u;
  float *v, *mm;
  int64_t TH, TW, T; /* T: the tiles of the band, V's and M's row length */
  int64_t xv, xm;    /* the distance of V's and M's 16 planes (xi) */
  int64_t t0, t1;    /* the band's tiles (row-major: th * TW + tw) */
} Job;

/* The band's tiles in tile row th: columns [*lo, *hi). */
static void bandCols(const Job *j, int64_t th, int64_t *lo, int64_t *hi) {
  int64_t r0 = th * j->TW;
  *lo = j->t0 > r0 ? j->t0 - r0 : 0;
  *hi = j->t1 < r0 + j->TW ? j->t1 - r0 : j->TW;
}


/* One padded patch row split into even (E[k] = d[2k]) and odd (O[k] =
 * d[2k + 1]) columns, k < L, where d[q] is image column q - pw of row xr
 * (NULL: a row in the padding) and zero outside [0, W). The columns
 * inside the image are a branch-free loop, unit-stride or not. */
RT_CLONES static void splitRow(float *restrict E, float *restrict O, const float *restrict xr, int64_t L,
                               int64_t pw, int64_t W, int64_t ws) {
  if (!xr) {
    memset(E, 0, sizeof(float) * (size_t)L);
    memset(O, 0, sizeof(float) * (size_t)L);
    return;
  }
  /* k with 0 <= 2k - pw and 2k + 1 - pw < W: both columns inside */
  int64_t lo = (pw + 1) / 2, hi = (W + pw) / 2; /* [lo, hi) */
  if (hi > L) hi = L;
  if (lo > hi) lo = hi;
  for (int64_t k = 0; k < lo; k++) {
    int64_t q0 = 2 * k - pw, q1 = q0 + 1;
    E[k] = q0 >= 0 && q0 < W ? xr[q0 * ws] : 0.0f;
    O[k] = q1 >= 0 && q1 < W ? xr[q1 * ws] : 0.0f;
  }
  const float *x0 = xr + (2 * lo - pw) * ws;
  if (ws == 1)
    for (int64_t k = lo; k < hi; k++) E[k] = x0[2 * (k - lo)], O[k] = x0[2 * (k - lo) + 1];
  else
    for (int64_t k = lo; k < hi; k++) E[k] = x0[2 * (k - lo) * ws], O[k] = x0[(2 * (k - lo) + 1) * ws];
  for (int64_t k = hi; k < L; k++) {
    int64_t q0 = 2 * k - pw, q1 = q0 + 1;
    E[k] = q0 >= 0 && q0 < W ? xr[q0 * ws] : 0.0f;
    O[k] = q1 >= 0 && q1 < W ? xr[q1 * ws] : 0.0f;
  }
}

/* Row a of B^T d B for a row of tiles: u = s1 * d[r1] + s2 * d[r2] (row a
 * of B^T d, from the patch's split rows), then B's columns: v0 = u0 - u2,
 * v1 = u1 + u2, v2 = u2 - u1, v3 = u1 - u3 (u's columns: u0 = E[tw],
 * u1 = O[tw], u2 = E[tw + 1], u3 = O[tw + 1]). */
RT_CLONES static void transformRow(float *restrict v0, float *restrict v1, float *restrict v2, float *restrict v3,
                                   const float *restrict e1, const float *restrict o1, const float *restrict e2,
                                   const float *restrict o2, float s1, float s2, int64_t TW) {
  for (int64_t tw = 0; tw < TW; tw++) {
    float t0 = s1 * e1[tw] + s2 * e2[tw], t1 = s1 * o1[tw] + s2 * o2[tw];
    float t2 = s1 * e1[tw + 1] + s2 * e2[tw + 1], t3 = s1 * o1[tw + 1] + s2 * o2[tw + 1];
    v0[tw] = t0 - t2;
    v1[tw] = t1 + t2;
    v2[tw] = t2 - t1;
    v3[tw] = t1 - t3;
  }
}

/* V[xi][c][t] = (B^T d B)[xi] for the 4x4 input patch d of each tile t,
 * one row of tiles at a time: the patch rows are padded and split into
 * even and odd columns, so every transform term is a unit-stride vector
 * loop over the tiles of the row. */
static void inputRow(const RtWinograd *p, const Job *j, int64_t c, int64_t th, float *buf) {
  const int64_t TW = j->TW, L = TW + 1;
  float *E = buf, *O = buf + 4 * L; /* E[a][k] = d row a, column 2k; O: 2k + 1 */
  const float *x = p->x + c * p->xcs;
  for (int a = 0; a < 4; a++) {
    int64_t r = 2 * th - p->ph + a;
    splitRow(E + a * L, O + a * L, r >= 0 && r < p->H ? x + r * p->xhs : NULL, L, p->pw, p->W, p->xws);
  }
  int64_t xs = j->xv, lo, hi;
  bandCols(j, th, &lo, &hi);
  float *v = j->v + c * j->T + th * TW + lo - j->t0;
  for (int a = 0; a < 4; a++) {
    /* B^T rows: d0 - d2, d1 + d2, d2 - d1, d1 - d3, as s1 * d[r1] + s2 * d[r2] */
    const int r1 = a == 0 ? 0 : 1, r2 = a == 3 ? 3 : 2;
    const float s1 = a == 2 ? -1.0f : 1.0f, s2 = a == 1 || a == 2 ? 1.0f : -1.0f;
    transformRow(v + (a * 4 + 0) * xs, v + (a * 4 + 1) * xs, v + (a * 4 + 2) * xs, v + (a * 4 + 3) * xs,
                 E + r1 * L + lo, O + r1 * L + lo, E + r2 * L + lo, O + r2 * L + lo, s1, s2, hi - lo);
  }
}

static void inputTask(void *ctx, int64_t c0, int64_t c1) {
  const Job *j = ctx;
  float *buf = rtScratch(5, (size_t)(8 * (j->TW + 1)));
  if (!buf) rtError("out of memory for the Winograd transform");
  for (int64_t c = c0; c < c1; c++)
    for (int64_t th = j->t0 / j->TW; th * j->TW < j->t1; th++) inputRow(j->p, j, c, th, buf);
}

static void gemmTask(void *ctx, int64_t x0, int64_t x1) {
  const Job *j = ctx;
  const RtWinograd *p = j->p;
  RtEpilogue none = {1.0f, 0, {{0}}, j->T, 0, 0.0f, 0.0f};
  for (int64_t xi = x0; xi < x1; xi++) {
    /* U is a constant only when the weights are: else it is scratch, filled
     * anew per call, at an address other kernels reuse (the packed-constant
     * cache, keyed by address, served an earlier call's weights) */
    RtMat A = {j->u + xi * p->M * p->C, p->C, 1, p->constW};
    RtBSrc B = {{j->v + xi * j->xv, j->T, 1, false}, NULL, NULL, 0};
    rtGemm(p->M, j->T, p->C, A, B, j->mm + xi * j->xm, j->T, &none, false);
  }
}

/* Y = A^T M A for a row of tiles: o0/o1 get output rows 2th and 2th + 1,
 * even and odd columns interleaved, from the 16 rows of M (s + i * xs,
 * i = 4r + b: element (r, b) of each tile's 4x4 M). */
RT_CLONES static void outputTiles(float *restrict o0, float *restrict o1, const float *restrict s, int64_t xs,
                                  int64_t TW) {
  for (int64_t tw = 0; tw < TW; tw++) {
    float t0[4], t1[4];
    for (int b = 0; b < 4; b++) {
      float v0 = s[b * xs + tw], v1 = s[(4 + b) * xs + tw], v2 = s[(8 + b) * xs + tw], v3 = s[(12 + b) * xs + tw];
      t0[b] = v0 + v1 + v2;
      t1[b] = v1 - v2 - v3;
    }
    o0[2 * tw] = t0[0] + t0[1] + t0[2];
    o0[2 * tw + 1] = t0[1] - t0[2] - t0[3];
    o1[2 * tw] = t1[0] + t1[1] + t1[2];
    o1[2 * tw + 1] = t1[1] - t1[2] - t1[3];
  }
}

/* The band's tiles in tile row th of channel m into the output (the
 * image's last row and column cut where OH or OW is odd), then the
 * epilogue on what they wrote. */
static void outputRow(const RtWinograd *p, const Job *j, int64_t m, int64_t th, float *buf) {
  int64_t lo, hi;
  bandCols(j, th, &lo, &hi);
  const int64_t n = hi - lo, c0 = 2 * lo, c1 = 2 * hi < p->OW ? 2 * hi : p->OW;
  const float *s = j->mm + m * j->T + th * j->TW + lo - j->t0;
  float *y = p->y + m * p->ycs;
  if (2 * hi <= p->OW && 2 * th + 1 < p->OH) { /* whole tiles: straight into y */
    outputTiles(y + 2 * th * p->OW + c0, y + (2 * th + 1) * p->OW + c0, s, j->xm, n);
  } else {
    outputTiles(buf, buf + 2 * n, s, j->xm, n);
    for (int a = 0; a < 2 && 2 * th + a < p->OH; a++)
      memcpy(y + (2 * th + a) * p->OW + c0, buf + a * 2 * n, sizeof(float) * (size_t)(c1 - c0));
  }
  if (p->ep->nadd || p->ep->act || p->ep->alpha != 1.0f)
    for (int64_t oh = 2 * th; oh < 2 * th + 2 && oh < p->OH; oh++)
      rtIsa()->epilogue(y + oh * p->OW + c0, 0, m, oh * p->OW + c0, 1, c1 - c0, p->ep);
}

static void outputTask(void *ctx, int64_t m0, int64_t m1) {
  const Job *j = ctx;
  float *buf = rtScratch(5, (size_t)(4 * j->TW));
  if (!buf) rtError("out of memory for the Winograd transform");
  for (int64_t m = m0; m < m1; m++)
    for (int64_t th = j->t0 / j->TW; th * j->TW < j->t1; th++) outputRow(j->p, j, m, th, buf);
}

bool rtWinogradConv3x3(const RtWinograd *p) {
  Job j = {.p = p, .TH = (p->OH + 1) / 2, .TW = (p->OW + 1) / 2};
  if (j.TH == 0 || j.TW == 0 || p->M == 0) return true; /* no output */
  const int64_t tiles = j.TH * j.TW, band = bandTiles(p, tiles);
  j.u = weightsU(p->w, p->constW, p->M, p->C);
  j.v = rtScratch(6, (size_t)(16 * planeStride(p->C * band)));
  j.mm = rtScratch(7, (size_t)(16 * planeStride(p->M * band)));
  if (!j.u || !j.v || !j.mm) return false;
  for (j.t0 = 0; j.t0 < tiles; j.t0 = j.t1) {
    j.t1 = j.t0 + band < tiles ? j.t0 + band : tiles;
    j.T = j.t1 - j.t0;
    j.xv = planeStride(p->C * j.T), j.xm = planeStride(p->M * j.T);
    rtParallelFor(p->C, inputTask, &j);
    rtParallelFor(16, gemmTask, &j);
    rtParallelFor(p->M, outputTask, &j);
  }
  return true;
}
