/* libstrata_rt Winograd convolution F(2x2, 3x3) for 3x3, stride 1,
 * dilation 1, ungrouped convolutions (Lavin & Gray): per image, the input
 * is cut into 4x4 patches overlapping by 2 (one per 2x2 output tile) and
 * transformed, V = B^T d B; the weights once, U = G g G^T (cached, then
 * packed as GEMM constants); the 16 element-wise products become 16 GEMMs
 * M[xi] = U[xi] (M x C) * V[xi] (C x tiles); the output transform
 * Y = A^T M A gives each 2x2 tile, then the epilogue runs per output row.
 * 2.25x fewer multiplications than the direct form. The tiles go through
 * in bands of tile rows whose V and M fit a fixed budget (BAND_FLOATS):
 * V and M of a whole image are 16 x (C + M) floats per tile, 32 MiB for a
 * 64-channel layer at 252x252, where a band needs 4 MiB. */
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

/* V and M of a band together: at most this many floats (4 MiB), and at
 * least one row of tiles. */
enum { BAND_FLOATS = 1 << 20 };

typedef struct {
  const RtWinograd *p;
  const float *u;
  float *v, *mm;
  int64_t TH, TW, T; /* T: the tiles of the band, V's and M's row length */
  int64_t th0, th1;  /* the band's tile rows */
} Job;

#if defined(__x86_64__) && defined(__GNUC__)
#define RT_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RT_CLONES
#endif

/* V[xi][c][t] = (B^T d B)[xi] for the 4x4 input patch d of each tile t,
 * one row of tiles at a time: the patch rows are padded and split into
 * even and odd columns, so every transform term is a unit-stride vector
 * loop over the tiles of the row. */
RT_CLONES static void inputRow(const RtWinograd *p, const Job *j, int64_t c, int64_t th, float *buf) {
  const int64_t TW = j->TW, L = TW + 1;
  float *E = buf, *O = buf + 4 * L; /* E[a][k] = d row a, column 2k; O: 2k + 1 */
  const float *x = p->x + c * p->xcs;
  for (int a = 0; a < 4; a++) {
    int64_t r = 2 * th - p->ph + a;
    bool in = r >= 0 && r < p->H;
    for (int64_t k = 0; k < L; k++) {
      int64_t q0 = 2 * k - p->pw, q1 = q0 + 1;
      E[a * L + k] = in && q0 >= 0 && q0 < p->W ? x[r * p->xhs + q0 * p->xws] : 0.0f;
      O[a * L + k] = in && q1 >= 0 && q1 < p->W ? x[r * p->xhs + q1 * p->xws] : 0.0f;
    }
  }
  int64_t xs = p->C * j->T;
  float *v = j->v + c * j->T + (th - j->th0) * TW;
  for (int a = 0; a < 4; a++) {
    float *v0 = v + (a * 4 + 0) * xs, *v1 = v + (a * 4 + 1) * xs, *v2 = v + (a * 4 + 2) * xs,
          *v3 = v + (a * 4 + 3) * xs;
    /* row a of B^T d, from d's rows (d[r][b] at column tw: b = 0 E[tw], 1 O[tw], 2 E[tw+1], 3 O[tw+1]) */
    /* B^T rows: d0 - d2, d1 + d2, d2 - d1, d1 - d3, as s1 * d[r1] + s2 * d[r2] */
    const int r1 = a == 0 ? 0 : 1, r2 = a == 3 ? 3 : 2;
    const float s1 = a == 2 ? -1.0f : 1.0f, s2 = a == 1 || a == 2 ? 1.0f : -1.0f;
    const float *e1 = E + r1 * L, *o1 = O + r1 * L, *e2 = E + r2 * L, *o2 = O + r2 * L;
    for (int64_t tw = 0; tw < TW; tw++) {
      float t0 = s1 * e1[tw] + s2 * e2[tw], t1 = s1 * o1[tw] + s2 * o2[tw];
      float t2 = s1 * e1[tw + 1] + s2 * e2[tw + 1], t3 = s1 * o1[tw + 1] + s2 * o2[tw + 1];
      v0[tw] = t0 - t2;
      v1[tw] = t1 + t2;
      v2[tw] = t2 - t1;
      v3[tw] = t1 - t3;
    }
  }
}

static void inputTask(void *ctx, int64_t c0, int64_t c1) {
  const Job *j = ctx;
  float *buf = rtScratch(5, (size_t)(8 * (j->TW + 1)));
  if (!buf) rtError("out of memory for the Winograd transform");
  for (int64_t c = c0; c < c1; c++)
    for (int64_t th = j->th0; th < j->th1; th++) inputRow(j->p, j, c, th, buf);
}

static void gemmTask(void *ctx, int64_t x0, int64_t x1) {
  const Job *j = ctx;
  const RtWinograd *p = j->p;
  RtEpilogue none = {1.0f, 0, {{0}}, j->T, 0, 0.0f, 0.0f};
  for (int64_t xi = x0; xi < x1; xi++) {
    RtMat A = {j->u + xi * p->M * p->C, p->C, 1, true};
    RtBSrc B = {{j->v + xi * p->C * j->T, j->T, 1, false}, NULL, NULL, 0};
    rtGemm(p->M, j->T, p->C, A, B, j->mm + xi * p->M * j->T, j->T, &none, false);
  }
}

/* Y = A^T M A for a row of tiles of channel m: unit-stride loops over the
 * tiles into the two output rows (even and odd columns interleaved). */
RT_CLONES static void outputRow(const RtWinograd *p, const Job *j, int64_t m, int64_t th, float *buf) {
  const int64_t TW = j->TW, xs = p->M * j->T;
  const float *s = j->mm + m * j->T + (th - j->th0) * TW;
  float *out = buf; /* out[a][2 * tw + b] */
  for (int64_t tw = 0; tw < TW; tw++) {
    float v[4][4];
    for (int r = 0; r < 4; r++)
      for (int b = 0; b < 4; b++) v[r][b] = s[(r * 4 + b) * xs + tw];
    float t0[4], t1[4];
    for (int b = 0; b < 4; b++) {
      t0[b] = v[0][b] + v[1][b] + v[2][b];
      t1[b] = v[1][b] - v[2][b] - v[3][b];
    }
    out[2 * tw] = t0[0] + t0[1] + t0[2];
    out[2 * tw + 1] = t0[1] - t0[2] - t0[3];
    out[2 * TW + 2 * tw] = t1[0] + t1[1] + t1[2];
    out[2 * TW + 2 * tw + 1] = t1[1] - t1[2] - t1[3];
  }
  float *y = p->y + m * p->ycs;
  for (int a = 0; a < 2 && 2 * th + a < p->OH; a++)
    memcpy(y + (2 * th + a) * p->OW, out + a * 2 * TW, sizeof(float) * (size_t)p->OW);
}

static void outputTask(void *ctx, int64_t m0, int64_t m1) {
  const Job *j = ctx;
  const RtWinograd *p = j->p;
  const RtIsa *isa = rtIsa();
  float *buf = rtScratch(5, (size_t)(4 * j->TW));
  if (!buf) rtError("out of memory for the Winograd transform");
  const int64_t oh1 = 2 * j->th1 < p->OH ? 2 * j->th1 : p->OH;
  for (int64_t m = m0; m < m1; m++) {
    for (int64_t th = j->th0; th < j->th1; th++) outputRow(p, j, m, th, buf);
    float *y = p->y + m * p->ycs;
    if (p->ep->nadd || p->ep->act || p->ep->alpha != 1.0f)
      for (int64_t oh = 2 * j->th0; oh < oh1; oh++) isa->epilogue(y + oh * p->OW, 0, m, oh * p->OW, 1, p->OW, p->ep);
  }
}

bool rtWinogradConv3x3(const RtWinograd *p) {
  Job j = {p, NULL, NULL, NULL, (p->OH + 1) / 2, (p->OW + 1) / 2, 0, 0, 0};
  if (j.TH == 0 || j.TW == 0 || p->M == 0) return true; /* no output */
  int64_t rows = BAND_FLOATS / (16 * (p->C + p->M) * j.TW);
  if (rows < 1) rows = 1;
  if (rows > j.TH) rows = j.TH;
  j.u = weightsU(p->w, p->constW, p->M, p->C);
  j.v = rtScratch(6, (size_t)(16 * p->C * rows * j.TW));
  j.mm = rtScratch(7, (size_t)(16 * p->M * rows * j.TW));
  if (!j.u || !j.v || !j.mm) return false;
  for (j.th0 = 0; j.th0 < j.TH; j.th0 = j.th1) {
    j.th1 = j.th0 + rows < j.TH ? j.th0 + rows : j.TH;
    j.T = (j.th1 - j.th0) * j.TW;
    rtParallelFor(p->C, inputTask, &j);
    rtParallelFor(16, gemmTask, &j);
    rtParallelFor(p->M, outputTask, &j);
  }
  return true;
}
