/* libstrata_rt entry points called from compiled code: decode the unranked
 * memref descriptors (any rank, strides, broadcast), then run the GEMM,
 * implicit-im2col or depthwise kernels with their fused epilogues. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "memref.h"
#include "rt_internal.h"

typedef struct {
  View add[2];
  int64_t st[2][STRATA_RT_MAX_RANK];
} Addends;

static void addends(Addends *a, StrataUnrankedMemRef *add0, StrataUnrankedMemRef *add1, int64_t nadd,
                    const View *y) {
  if (nadd < 0 || nadd > 2) rtInvariant("bad epilogue operand count");
  StrataUnrankedMemRef *m[2] = {add0, add1};
  for (int i = 0; i < nadd; i++) {
    a->add[i] = rtView(m[i]);
    rtBroadcastStrides(&a->add[i], y->rank, y->size, a->st[i]);
  }
}

/* ---- matmul ---- */

typedef struct {
  View a, b, y;
  Addends ad;
  int nb, mDim, nDim; /* y's batch dim count; y dims of m and n (-1: absent) */
  int64_t M, N, K, batches;
  int64_t yRowStride; /* y's stride between rows (of the m dim, or folded batches) */
  RtMat A, B;
  RtEpilogue ep;
  bool fewRows; /* the few-rows GEMM where it applies (strata_rt_matmul_few_rows_f32) */
} Matmul;

/* Whether dims [from, to] of a view collapse into one dim; *stride gets
 * its stride, that of the innermost dim longer than 1 (a size-1 dim's
 * stride is never used: a transposed view can give it any value). */
static bool collapsible(const int64_t *size, const int64_t *st, int from, int to, int64_t *stride) {
  int64_t expected = -1;
  *stride = st[to];
  for (int d = to; d >= from; d--) {
    if (size[d] == 1) continue;
    if (expected < 0) *stride = st[d];
    else if (st[d] != expected) return false;
    expected = st[d] * size[d];
  }
  return true;
}

/* [batch..., M, K] x [K, N]: when b is shared by every batch and the batch
 * dims of a, y and the addends collapse into their row dim, the batches
 * are one GEMM with batch * M rows (e.g. a linear layer over [S, B, D]). */
static void foldBatchIntoRows(Matmul *mm) {
  if (mm->batches <= 1 || mm->mDim < 0 || mm->a.rank != mm->y.rank) return;
  for (int d = 0; d < mm->b.rank - 2; d++)
    if (mm->b.size[d] != 1) return;
  int last = mm->y.rank - 2; /* the m dim of a and y */
  int64_t as, ys, adds[2];
  if (mm->A.rs != mm->a.stride[last]) return; /* transposed a: rows are not the m dim */
  if (!collapsible(mm->a.size, mm->a.stride, 0, last, &as) || !collapsible(mm->y.size, mm->y.stride, 0, last, &ys))
    return;
  for (int k = 0; k < mm->ep.nadd; k++)
    if (!collapsible(mm->y.size, mm->ad.st[k], 0, last, &adds[k])) return;
  mm->A.rs = as;
  mm->yRowStride = ys;
  for (int k = 0; k < mm->ep.nadd; k++)
    mm->ep.add[k].sm = adds[k];
  mm->M *= mm->batches;
  mm->batches = 1;
  mm->nb = 0;
}

static void matmulBatch(const Matmul *mm, int64_t bi, bool parallel) {
  int64_t ao = 0, bo = 0, yo = 0, addo[2] = {0, 0}, rem = bi;
  for (int d = mm->nb - 1; d >= 0; d--) {
    int64_t i = rem % mm->y.size[d];
    rem /= mm->y.size[d];
    yo += i * mm->y.stride[d];
    int da = d - (mm->nb - (mm->a.rank - 2)), db = d - (mm->nb - (mm->b.rank - 2));
    if (mm->a.rank > 2 && da >= 0 && mm->a.size[da] != 1) ao += i * mm->a.stride[da];
    if (mm->b.rank > 2 && db >= 0 && mm->b.size[db] != 1) bo += i * mm->b.stride[db];
    for (int k = 0; k < mm->ep.nadd; k++) addo[k] += i * mm->ad.st[k][d];
  }
  RtMat A = mm->A, B = mm->B;
  A.p += ao;
  B.p += bo;
  RtEpilogue ep = mm->ep;
  for (int k = 0; k < ep.nadd; k++) ep.add[k].p += addo[k];
  int64_t ldc = mm->yRowStride;
  RtBSrc bs = {B, NULL, NULL, 0};
  if (!mm->fewRows || !rtGemmFewRows(mm->M, mm->N, mm->K, A, bs, mm->y.data + yo, ldc, &ep, parallel))
    rtGemm(mm->M, mm->N, mm->K, A, bs, mm->y.data + yo, ldc, &ep, parallel);
}

static void matmulTask(void *ctx, int64_t begin, int64_t end) {
  for (int64_t b = begin; b < end; b++) matmulBatch(ctx, b, false);
}

static void matmulF32(StrataUnrankedMemRef *a, StrataUnrankedMemRef *b, StrataUnrankedMemRef *y,
                      StrataUnrankedMemRef *add0, StrataUnrankedMemRef *add1, int64_t transA, int64_t transB,
                      int64_t constant, int64_t nadd, float alpha, float beta0, float beta1, int64_t act, float lo,
                      float hi, bool fewRows) {
  rtScratchKernelStart();
  Matmul mm;
  mm.fewRows = fewRows;
  mm.a = rtView(a), mm.b = rtView(b), mm.y = rtView(y);
  int ra = mm.a.rank, rb = mm.b.rank, ry = mm.y.rank;
  if (ra < 1 || rb < 1) rtInvariant("matmul operands must have rank >= 1");
  mm.nb = ry - (ra >= 2) - (rb >= 2);
  mm.mDim = ra >= 2 ? ry - 1 - (rb >= 2) : -1;
  mm.nDim = rb >= 2 ? ry - 1 : -1;
  bool constA = constant & 1, constB = constant & 2;
  if (ra == 1) mm.A = (RtMat){mm.a.data, 0, mm.a.stride[0], constA}, mm.M = 1, mm.K = mm.a.size[0];
  else mm.A = (RtMat){mm.a.data, mm.a.stride[ra - 2], mm.a.stride[ra - 1], constA}, mm.M = mm.a.size[ra - 2], mm.K = mm.a.size[ra - 1];
  if (transA && ra >= 2) {
    int64_t t = mm.A.rs;
    mm.A.rs = mm.A.cs, mm.A.cs = t, t = mm.M, mm.M = mm.K, mm.K = t;
  }
  if (rb == 1) mm.B = (RtMat){mm.b.data, mm.b.stride[0], 0, constB}, mm.N = 1;
  else mm.B = (RtMat){mm.b.data, mm.b.stride[rb - 2], mm.b.stride[rb - 1], constB}, mm.N = mm.b.size[rb - 1];
  if (transB && rb >= 2) {
    int64_t t = mm.B.rs;
    mm.B.rs = mm.B.cs, mm.B.cs = t, mm.N = mm.b.size[rb - 2];
  }
  if (mm.N > 1 && mm.y.stride[mm.nDim] != 1) rtInvariant("matmul result must be dense in its last dim");
  addends(&mm.ad, add0, add1, nadd, &mm.y);
  mm.ep = (RtEpilogue){alpha, (int)nadd, {{0}}, mm.N, (int)act, lo, hi};
  float beta[2] = {beta0, beta1};
  for (int k = 0; k < nadd; k++)
    mm.ep.add[k] = (RtAddend){mm.ad.add[k].data, mm.mDim >= 0 ? mm.ad.st[k][mm.mDim] : 0, 0,
                              mm.nDim >= 0 ? mm.ad.st[k][mm.nDim] : 0, beta[k]};
  mm.batches = 1;
  for (int d = 0; d < mm.nb; d++) mm.batches *= mm.y.size[d];
  mm.yRowStride = mm.mDim >= 0 ? mm.y.stride[mm.mDim] : 0;
  foldBatchIntoRows(&mm);
  if (mm.batches >= rtNumThreads() && mm.batches > 1) rtParallelFor(mm.batches, matmulTask, &mm);
  else
    for (int64_t bi = 0; bi < mm.batches; bi++) matmulBatch(&mm, bi, true);
}

void _mlir_ciface_strata_rt_matmul_f32(StrataUnrankedMemRef *a, StrataUnrankedMemRef *b,
                                       StrataUnrankedMemRef *y, StrataUnrankedMemRef *add0,
                                       StrataUnrankedMemRef *add1, int64_t transA, int64_t transB,
                                       int64_t constant, int64_t nadd, float alpha, float beta0, float beta1,
                                       int64_t act, float lo, float hi) {
  matmulF32(a, b, y, add0, add1, transA, transB, constant, nadd, alpha, beta0, beta1, act, lo, hi, false);
}

void _mlir_ciface_strata_rt_matmul_few_rows_f32(StrataUnrankedMemRef *a, StrataUnrankedMemRef *b,
                                                StrataUnrankedMemRef *y, StrataUnrankedMemRef *add0,
                                                StrataUnrankedMemRef *add1, int64_t transA, int64_t transB,
                                                int64_t constant, int64_t nadd, float alpha, float beta0,
                                                float beta1, int64_t act, float lo, float hi) {
  static int enabled = -1; /* STRATA_FEW_ROWS=0: the general GEMM (read once, as STRATA_RT_WINOGRAD) */
  if (enabled < 0) {
    const char *off = getenv("STRATA_FEW_ROWS");
    enabled = !(off && !strcmp(off, "0"));
  }
  matmulF32(a, b, y, add0, add1, transA, transB, constant, nadd, alpha, beta0, beta1, act, lo, hi, enabled);
}

/* ---- conv2d ---- */

typedef struct {
  View x, w, y;
  Addends ad;
  View xscale;        /* [N or 1, C, 1, 1]; data NULL when not scaled */
  RtConvGeom g;       /* per image and group: x (and xscale) are set per task */
  int64_t G, Cg, Mg;  /* groups, input and output channels per group */
  RtEpilogue ep;
  bool constW;
} Conv;

/* Output element strides of a 4-D conv (N, M, OH, OW) for rank-3 (1-D conv) views. */
static int64_t dim4(const View *v, const int64_t *st, int d) {
  if (v->rank == 4) return st[d];
  return d == 2 ? 0 : st[d == 3 ? 2 : d];
}

static RtEpilogue convEpilogue(const Conv *cv, int64_t n, int64_t m0) {
  RtEpilogue ep = cv->ep;
  for (int k = 0; k < ep.nadd; k++) {
    const int64_t *st = cv->ad.st[k];
    ep.add[k].p = cv->ad.add[k].data + n * st[0] + m0 * st[1];
    ep.add[k].sm = st[1];
    ep.add[k].sh = dim4(&cv->y, st, 2);
    ep.add[k].sw = dim4(&cv->y, st, 3);
  }
  return ep;
}

static float *yPlane(const Conv *cv, int64_t n, int64_t m) {
  return cv->y.data + n * cv->y.stride[0] + m * cv->y.stride[1];
}

static void convGemm(const Conv *cv, int64_t n, int64_t g, bool parallel) {
  RtConvGeom geom = cv->g;
  geom.x = cv->x.data + n * cv->x.stride[0] + g * cv->Cg * cv->x.stride[1];
  int64_t K = cv->Cg * geom.KH * geom.KW, N = geom.OH * geom.OW;
  RtMat A = {cv->w.data + g * cv->Mg * cv->w.stride[0], cv->w.stride[0], 1, cv->constW};
  RtBSrc B = {{0}, &geom, NULL, 0};
  if (cv->xscale.data) {
    const View *s = &cv->xscale;
    geom.xscale = s->data + (s->size[0] == 1 ? 0 : n * s->stride[0]) + g * cv->Cg * s->stride[1];
    geom.xss = s->stride[1];
  }
  bool direct = geom.KH == 1 && geom.KW == 1 && geom.sh == 1 && geom.sw == 1 && geom.ph == 0 &&
                geom.pw == 0 && geom.ws == 1 && (geom.hs == geom.W || geom.H == 1);
  if (direct) B = (RtBSrc){{geom.x, geom.cs, 1, false}, NULL, geom.xscale, geom.xss};
  RtEpilogue ep = convEpilogue(cv, n, g * cv->Mg);
  rtGemm(cv->Mg, N, K, A, B, yPlane(cv, n, g * cv->Mg), cv->y.stride[1], &ep, parallel);
}

static void convGemmTask(void *ctx, int64_t begin, int64_t end) {
  const Conv *cv = ctx;
  for (int64_t i = begin; i < end; i++) convGemm(cv, i / cv->G, i % cv->G, false);
}

/* Depthwise (one input channel per group). The input plane is copied
 * into a zero-padded scratch plane split by row and column phase
 * (rtFillPhasePlane). Then output (oh, ow), placed at oh * Wq + ow of a
 * Wq-wide plane, reads tap (i, j) at a fixed offset from there: every tap
 * is one contiguous run over the whole plane, so one window call computes
 * it (all taps accumulated in registers; the Wq - OW columns past each row
 * are computed and dropped), then the plane gets its epilogue. */
static void depthwisePlane(const Conv *cv, int64_t n, int64_t m) {
  const RtConvGeom *g = &cv->g;
  const RtIsa *isa = rtIsa();
  int64_t c = m / cv->Mg, taps = g->KH * g->KW;
  if (taps > 64) rtInvariant("depthwise kernels over 64 taps are not supported");
  RtPhasePlane pp = rtPhasePlaneOf(g, g->OH);
  int64_t Wq = pp.Wq;
  /* The dropped columns of the last row read up to one row past the end. */
  int64_t slack = Wq + (g->KW - 1) * g->dw;
  float *pad = rtScratch(2, (size_t)(pp.size + slack));
  float *wide = rtScratch(4, (size_t)(g->OH * Wq));
  if (!pad || !wide) rtError("out of memory for the depthwise scratch planes");
  memset(pad + pp.size, 0, sizeof(float) * (size_t)slack);
  rtFillPhasePlane(pad, &pp, cv->x.data + n * cv->x.stride[0] + c * cv->x.stride[1], 0);
  const float *wp = cv->w.data + m * cv->w.stride[0];
  int64_t wsh = cv->w.rank == 4 ? cv->w.stride[2] : 0, wsw = cv->w.stride[cv->w.rank - 1];
  float w[64];
  const float *tp[64];
  for (int64_t i = 0; i < g->KH; i++)
    for (int64_t j = 0; j < g->KW; j++) {
      w[i * g->KW + j] = wp[i * wsh + j * wsw];
      tp[i * g->KW + j] = pad + rtPhaseTapOffset(&pp, i * g->dh, j * g->dw);
    }
  isa->windowRow(wide, tp, w, taps, g->OH * Wq);
  float *yp = yPlane(cv, n, m);
  int64_t yhs = cv->y.rank == 4 ? cv->y.stride[2] : 0;
  RtEpilogue ep = convEpilogue(cv, n, 0);
  for (int64_t oh = 0; oh < g->OH; oh++) memcpy(yp + oh * yhs, wide + oh * Wq, sizeof(float) * (size_t)g->OW);
  /* The plane is dense (OW-long rows): one epilogue call covers it. */
  if (ep.nadd || ep.act) isa->epilogue(yp, 0, m, 0, 1, g->OH * g->OW, &ep);
}

static void depthwiseTask(void *ctx, int64_t begin, int64_t end) {
  const Conv *cv = ctx;
  int64_t M = cv->y.size[1];
  for (int64_t i = begin; i < end; i++) depthwisePlane(cv, i / M, i % M);
}

/* The channel-blocked depthwise kernel (depthwise.c) for one image and VW
 * channels: pure depthwise only (one output channel per input channel). */
static void depthwiseBlockTask(void *ctx, int64_t begin, int64_t end) {
  const Conv *cv = ctx;
  const RtIsa *isa = rtIsa();
  int64_t vw = isa->nr / 2, groups = (cv->y.size[1] + vw - 1) / vw;
  const RtConvGeom *g = &cv->g;
  for (int64_t i = begin; i < end; i++) {
    int64_t n = i / groups;
    RtEpilogue ep = convEpilogue(cv, n, 0);
    RtDepthwise p = {RT_WINDOW_CONV, cv->x.data + n * cv->x.stride[0], cv->y.size[1], g->H, g->W, g->cs, g->hs, g->ws,
                     cv->w.data, cv->w.stride[0], cv->w.rank == 4 ? cv->w.stride[2] : 0,
                     cv->w.stride[cv->w.rank - 1], g->KH, g->KW, g->sh, g->sw, g->ph, g->pw, g->dh, g->dw,
                     yPlane(cv, n, 0), cv->y.stride[1], g->OH, g->OW, &ep, 0, 0, false};
    isa->depthwiseGroup(&p, (i % groups) * vw);
  }
}

/* Which depthwise kernel: the channel-blocked one for pure depthwise
 * (measured on MobileNetV2's layers on an AVX-512 host it is 1.2x faster
 * than the per-plane kernel on 112x112 planes, 3-10x on 7x7 and 14x14
 * ones); the per-plane one for channel multipliers. STRATA_RT_DEPTHWISE=
 * plane|blocked forces one where both apply (the tests run both). */
static bool useBlockedDepthwise(const Conv *cv) {
  static int mode = -1; /* 0 auto, 1 plane, 2 blocked */
  if (mode < 0) {
    const char *e = getenv("STRATA_RT_DEPTHWISE");
    mode = e && !strcmp(e, "plane") ? 1 : e && !strcmp(e, "blocked") ? 2 : 0;
  }
  if (cv->Mg != 1 || cv->g.KH * cv->g.KW > 64) return false;
  return mode != 1;
}

/* Winograd F(2x2, 3x3) where it pays: 3x3, unit strides and dilations, no
 * groups, and (measured on ResNet-18's layers) at least 64 input and
 * output channels and 32 tiles (64 channels at 56x56: 1.6 -> 1.2 ms on an
 * AVX-512 host): below that the transforms' memory traffic and the GEMMs'
 * short K or N cost more than the 2.25x fewer multiplications save.
 * STRATA_RT_WINOGRAD=0
 * turns it off (the implicit-im2col GEMM then runs), as does an input
 * scale (its transform does not apply one). */
static bool useWinograd(const Conv *cv) {
  static int enabled = -1;
  if (enabled < 0) {
    const char *e = getenv("STRATA_RT_WINOGRAD");
    enabled = !(e && !strcmp(e, "0"));
  }
  const RtConvGeom *g = &cv->g;
  return enabled && !cv->xscale.data && cv->x.rank == 4 && g->KH == 3 && g->KW == 3 && g->sh == 1 && g->sw == 1 &&
         g->dh == 1 && g->dw == 1 && cv->Cg >= 64 && cv->Mg >= 64 &&
         ((g->OH + 1) / 2) * ((g->OW + 1) / 2) >= 32;
}

static bool winograd(const Conv *cv, int64_t n) {
  const RtConvGeom *g = &cv->g;
  RtEpilogue ep = convEpilogue(cv, n, 0);
  RtWinograd p = {cv->x.data + n * cv->x.stride[0], cv->Cg, g->H, g->W, g->cs, g->hs, g->ws,
                  cv->w.data, cv->constW, cv->Mg, yPlane(cv, n, 0), cv->y.stride[1], g->OH, g->OW,
                  g->ph, g->pw, &ep};
  return rtWinogradConv3x3(&p);
}

/* The direct kernel (grouped.c) runs convolutions with a few output
 * channels per group where, measured (docs/performance.md), it beats the
 * implicit-im2col GEMM, whose B panel packing costs as much as its
 * arithmetic when M is small:
 * - grouped: 2..64 input and output channels per group (RegNetX-400MF's
 *   and ResNeXt-like layers);
 * - ungrouped: at most 64 output channels, a window of more than one tap
 *   and at least 64 products per output (Cg KH KW: 3-channel 3x3 stems pack
 *   too little to lose), where Winograd does not apply (0.52-0.95x the
 *   GEMM's time on 3x3 layers of 16-256 input and 16-64 output channels;
 *   ResNet's 7x7 stem 0.84x). A 1x1 convolution is a GEMM reading the
 *   image in place: it stays one.
 * At most 64 taps either way. STRATA_RT_GROUPED=gemm|direct forces one
 * where both apply (the tests run both). */

static bool useGroupedDirect(const Conv *cv) {
  static int mode = -1; /* 0 auto, 1 gemm, 2 direct */
  if (mode < 0) {
    const char *e = getenv("STRATA_RT_GROUPED");
    mode = e && !strcmp(e, "gemm") ? 1 : e && !strcmp(e, "direct") ? 2 : 0;
  }
  const RtConvGeom *g = &cv->g;
  int64_t taps = g->KH * g->KW;
  if (cv->Cg < 2 || cv->Mg < 1 || cv->xscale.data || taps > RT_GROUPED_MAXTAPS || (cv->G == 1 && taps == 1))
    return false;
  if (mode != 0) return mode == 2;
  if (cv->G > 1) return cv->Cg <= 64 && cv->Mg <= 64;
  return cv->Mg <= 64 && cv->Cg * taps >= 64 && !useWinograd(cv);
}

typedef struct {
  const Conv *cv;
  RtGrouped p; /* x, y, ep set per task */
  int64_t bands, rows;
} GroupedRun;

static void groupedTask(void *ctx, int64_t begin, int64_t end) {
  const GroupedRun *gr = ctx;
  const Conv *cv = gr->cv;
  int64_t perImage = cv->G * gr->bands;
  for (int64_t i = begin; i < end; i++) {
    int64_t n = i / perImage, gi = i % perImage / gr->bands, b = i % gr->bands;
    RtEpilogue ep = convEpilogue(cv, n, 0);
    RtGrouped p = gr->p;
    p.g.x = cv->x.data + n * cv->x.stride[0];
    p.y = yPlane(cv, n, 0);
    p.ep = &ep;
    int64_t oh1 = (b + 1) * gr->rows;
    rtGroupedBand(&p, gi, b * gr->rows, oh1 < p.g.OH ? oh1 : p.g.OH);
  }
}

/* Threads over (image, group, band of output rows). */
static void groupedDirect(const Conv *cv, int64_t images) {
  GroupedRun gr = {cv, {cv->g, cv->G, cv->Mg, 0, cv->w.data, cv->constW, NULL, NULL, cv->y.stride[1], NULL}, 0, 0};
  if (!rtGroupedPack(&gr.p)) rtError("out of memory for the grouped convolution's weights");
  gr.rows = rtGroupedBandRows(&cv->g);
  /* at least two tasks per thread where the rows allow (an ungrouped
   * layer on a small map is otherwise one band: one thread) */
  int64_t want = 2 * rtNumThreads(), have = images * cv->G * ((cv->g.OH + gr.rows - 1) / gr.rows);
  if (have < want) {
    int64_t bands = (want + images * cv->G - 1) / (images * cv->G);
    int64_t rows = (cv->g.OH + bands - 1) / bands;
    if (rows < gr.rows) gr.rows = rows < 1 ? 1 : rows;
  }
  gr.bands = (cv->g.OH + gr.rows - 1) / gr.rows;
  rtParallelFor(images * cv->G * gr.bands, groupedTask, &gr);
}

/* Weights seen through a strided view (a slice of a bigger tensor): copied
 * into the thread's dense scratch slot 3 (not cached as a constant: the
 * slot is reused). */
static void densifyWeights(Conv *cv) {
  View *w = &cv->w;
  int64_t n = 1;
  for (int i = 0; i < w->rank; i++) n *= w->size[i];
  float *d = rtScratch(3, (size_t)n);
  if (!d) rtError("out of memory for conv weights");
  rtGather(d, w->data, w->rank, w->size, w->stride);
  int64_t stride = 1;
  for (int i = w->rank - 1; i >= 0; i--) w->stride[i] = stride, stride *= w->size[i];
  w->data = d;
  cv->constW = false;
}

void _mlir_ciface_strata_rt_conv2d_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *w,
                                       StrataUnrankedMemRef *y, StrataUnrankedMemRef *add0,
                                       StrataUnrankedMemRef *add1, StrataUnrankedMemRef *xscale,
                                       int64_t scaled, int64_t strideH, int64_t strideW,
                                       int64_t padH, int64_t padW, int64_t dilH, int64_t dilW,
                                       int64_t group, int64_t constant, int64_t nadd, float beta0, float beta1,
                                       int64_t act, float lo, float hi) {
  rtScratchKernelStart();
  Conv cv;
  cv.x = rtView(x), cv.w = rtView(w), cv.y = rtView(y);
  int r = cv.x.rank;
  if ((r != 3 && r != 4) || cv.w.rank != r || cv.y.rank != r || group < 1)
    rtInvariant("conv2d expects NCHW (or NCW) operands of one rank and group >= 1");
  bool is2d = r == 4;
  cv.G = group;
  cv.constW = constant & 1;
  cv.Cg = cv.w.size[1];
  cv.Mg = cv.y.size[1] / group;
  cv.g = (RtConvGeom){NULL, cv.Cg, is2d ? cv.x.size[2] : 1, cv.x.size[r - 1], cv.x.stride[1],
                      is2d ? cv.x.stride[2] : 0, cv.x.stride[r - 1], is2d ? cv.w.size[2] : 1,
                      cv.w.size[r - 1], is2d ? strideH : 1, strideW, is2d ? padH : 0, padW,
                      is2d ? dilH : 1, dilW, is2d ? cv.y.size[2] : 1, cv.y.size[r - 1], NULL, 0};
  cv.xscale.data = NULL;
  if (scaled) {
    cv.xscale = rtView(xscale);
    const View *v = &cv.xscale;
    if (group != 1 || cv.Cg == 1 || v->rank != r || (v->size[0] != 1 && v->size[0] != cv.x.size[0]) ||
        v->size[1] != cv.x.size[1] || v->size[r - 1] != 1 || (is2d && v->size[2] != 1))
      rtInvariant("conv2d input scale must be [N or 1, C, 1(, 1)] on a group-1, non-depthwise conv");
  }
  bool yDense = cv.y.stride[r - 1] == 1 && (!is2d || cv.y.stride[2] == cv.y.size[3] || cv.y.size[2] == 1);
  bool wDense = cv.w.stride[r - 1] == 1 && (!is2d || cv.w.stride[2] == cv.w.size[3]) &&
                cv.w.stride[1] == cv.w.size[r - 1] * (is2d ? cv.w.size[2] : 1);
  if (!yDense) rtInvariant("conv2d result must be dense");
  if (!wDense) densifyWeights(&cv);
  addends(&cv.ad, add0, add1, nadd, &cv.y);
  cv.ep = (RtEpilogue){1.0f, (int)nadd, {{0}}, cv.g.OW, (int)act, lo, hi};
  cv.ep.add[0].beta = beta0;
  cv.ep.add[1].beta = beta1;
  int64_t images = cv.x.size[0];
  if (cv.Cg == 1 && useBlockedDepthwise(&cv)) {
    int64_t vw = rtIsa()->nr / 2;
    rtParallelFor(images * ((cv.y.size[1] + vw - 1) / vw), depthwiseBlockTask, &cv);
  } else if (cv.Cg == 1 && cv.Mg >= 1) {
    rtParallelFor(images * cv.y.size[1], depthwiseTask, &cv);
  } else if (useGroupedDirect(&cv)) {
    groupedDirect(&cv, images);
  } else if (cv.G == 1) {
    for (int64_t n = 0; n < images; n++)
      if (!useWinograd(&cv) || !winograd(&cv, n)) convGemm(&cv, n, 0, true);
  } else {
    rtParallelFor(images * cv.G, convGemmTask, &cv);
  }
}

/* ---- 2-D pooling (max, average) ---- */

typedef struct {
  View x, y;
  RtDepthwise p; /* per image: x, y set per task */
  int64_t groups;
} Pool;

static void poolTask(void *ctx, int64_t begin, int64_t end) {
  const Pool *pl = ctx;
  const RtIsa *isa = rtIsa();
  for (int64_t i = begin; i < end; i++) {
    int64_t n = i / pl->groups;
    RtDepthwise p = pl->p;
    p.x = pl->x.data + n * pl->x.stride[0];
    p.y = pl->y.data + n * pl->y.stride[0];
    isa->depthwiseGroup(&p, (i % pl->groups) * (isa->nr / 2));
  }
}

void _mlir_ciface_strata_rt_pool2d_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *y, int64_t kind,
                                       int64_t kernelH, int64_t kernelW, int64_t strideH, int64_t strideW,
                                       int64_t padH, int64_t padW, int64_t padEndH, int64_t padEndW,
                                       int64_t dilH, int64_t dilW, int64_t countIncludePad) {
  rtScratchKernelStart();
  Pool pl;
  pl.x = rtView(x), pl.y = rtView(y);
  int r = pl.x.rank;
  bool is2d = r == 4;
  if ((r != 3 && r != 4) || pl.y.rank != r || pl.x.size[0] != pl.y.size[0] || pl.x.size[1] != pl.y.size[1])
    rtInvariant("pool2d expects NCHW (or NCW) operands of one rank");
  if ((kind != RT_WINDOW_MAX && kind != RT_WINDOW_AVERAGE) || kernelH * kernelW > 64 || kernelH < 1 ||
      kernelW < 1)
    rtInvariant("pool2d: bad kind or window");
  bool yDense = pl.y.stride[r - 1] == 1 && (!is2d || pl.y.stride[2] == pl.y.size[3] || pl.y.size[2] == 1);
  if (!yDense) rtInvariant("pool2d result must be dense");
  pl.p = (RtDepthwise){(int)kind, NULL, pl.x.size[1], is2d ? pl.x.size[2] : 1, pl.x.size[r - 1],
                       pl.x.stride[1], is2d ? pl.x.stride[2] : 0, pl.x.stride[r - 1], NULL, 0, 0, 0,
                       is2d ? kernelH : 1, kernelW, is2d ? strideH : 1, strideW, is2d ? padH : 0, padW,
                       is2d ? dilH : 1, dilW, NULL, pl.y.stride[1], is2d ? pl.y.size[2] : 1,
                       pl.y.size[r - 1], NULL, is2d ? padEndH : 0, padEndW, countIncludePad != 0};
  int64_t vw = rtIsa()->nr / 2;
  pl.groups = (pl.p.C + vw - 1) / vw;
  if (pl.p.OH > 0 && pl.p.OW > 0) rtParallelFor(pl.x.size[0] * pl.groups, poolTask, &pl);
}

/* ---- softmax ---- */

typedef struct {
  View x, y;
  int axis;
  int64_t len, inner;
  int logForm;
} Softmax;

/* Rows are (outer, inner) pairs; a row runs along the axis. Contiguous
 * rows go straight through the ISA's row kernel, others through the
 * thread's scratch. */
static void softmaxTask(void *ctx, int64_t r0, int64_t r1) {
  const Softmax *sm = ctx;
  const RtIsa *isa = rtIsa();
  float *buf = NULL;
  for (int64_t r = r0; r < r1; r++) {
    int64_t o = r / sm->inner, i = r % sm->inner, rem = o, xo = 0;
    /* x offset of (o, i): o spans the dims before the axis, i those after. */
    for (int d = sm->axis - 1; d >= 0; d--) xo += (rem % sm->x.size[d]) * sm->x.stride[d], rem /= sm->x.size[d];
    rem = i;
    for (int d = sm->x.rank - 1; d > sm->axis; d--) xo += (rem % sm->x.size[d]) * sm->x.stride[d], rem /= sm->x.size[d];
    int64_t xs = sm->x.stride[sm->axis];
    float *y = sm->y.data + o * sm->len * sm->inner + i;
    const float *x = sm->x.data + xo;
    if (xs == 1 && sm->inner == 1) {
      isa->softmaxRow(x, y, sm->len, sm->logForm);
      continue;
    }
    if (!buf && !(buf = rtScratch(3, (size_t)(2 * sm->len)))) rtError("out of memory for softmax rows");
    for (int64_t j = 0; j < sm->len; j++) buf[j] = x[j * xs];
    isa->softmaxRow(buf, buf + sm->len, sm->len, sm->logForm);
    for (int64_t j = 0; j < sm->len; j++) y[j * sm->inner] = buf[sm->len + j];
  }
}

void _mlir_ciface_strata_rt_softmax_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *y, int64_t axis,
                                        int64_t logForm) {
  rtScratchKernelStart();
  Softmax sm;
  sm.x = rtView(x), sm.y = rtView(y);
  if (sm.x.rank != sm.y.rank || axis < 0 || axis >= sm.x.rank) rtInvariant("softmax: bad operands or axis");
  int64_t outer = 1;
  sm.axis = (int)axis;
  sm.len = sm.x.size[axis];
  sm.inner = 1;
  sm.logForm = (int)logForm;
  for (int d = 0; d < sm.x.rank; d++) {
    if (d < axis) outer *= sm.x.size[d];
    if (d > axis) sm.inner *= sm.x.size[d];
  }
  int64_t stride = 1; /* y is the kernel's fresh dense buffer */
  for (int d = sm.y.rank - 1; d >= 0; d--) {
    if (sm.y.size[d] != 1 && sm.y.stride[d] != stride) rtInvariant("softmax result must be dense");
    stride *= sm.y.size[d];
  }
  if (sm.len > 0) rtParallelFor(outer * sm.inner, softmaxTask, &sm);
}
