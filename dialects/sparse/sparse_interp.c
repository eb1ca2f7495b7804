/* The sparse ops' reference interpreter kernels. sparse.pattern_conv
 * convolves its dense weights (checked against the pattern set, since a
 * non-constant w is only known now). sparse.fkw_conv and sparse.csr_conv
 * decode their arrays into each output channel's taps (channel, row,
 * column, weight) in the order a dense convolution visits them, and
 * convolve those: the formats are checked by the same golden tests as a
 * decoding to dense weights would be, but memory and time follow the
 * nonzeros, not M x C/group x kh x kw (kernel_shape and the input's channel
 * count can make that product huge while the arrays stay small).
 *
 * Every operand is checked against the op at run time: a '?' in a type
 * lets a tensor of another size through verification. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/context.h"
#include "strata/support.h"
#include "strata/tensor.h"
#include "sparse_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

typedef struct {
  int64_t c, r, q;
  float v;
} Tap;

/* Taps of output channel m: tap[start[m]..start[m+1]). */
typedef struct {
  int64_t M, *start;
  Tap *tap;
} Taps;

static void tapsFree(Taps *t) { free(t->start), free(t->tap); }

/* The run-time operands against the op: x a 4-D f32 tensor whose channels
 * divide by group (*Cg per group), the bias M values, and y [N, M, OH, OW]
 * (allocated here when the result type is dynamic). */
static bool checkOperands(MlirOperation op, const SparseWindow *w, int64_t M, const StrataTensor *X,
                          const StrataTensor *B, StrataTensor **Y, int64_t *Cg) {
  char why[160];
  if (X->dtype != STRATA_DTYPE_F32 || X->rank != 4 || X->dims[1] % w->group) {
    strataEmitOpError(op, "interpreter: x must be a 4-D f32 tensor whose channels divide by group %lld",
                      (long long)w->group);
    return false;
  }
  if (M % w->group) {
    strataEmitOpError(op, "interpreter: %lld output channels do not divide by group %lld", (long long)M,
                      (long long)w->group);
    return false;
  }
  if (B && (B->dtype != STRATA_DTYPE_F32 || B->rank != 1 || B->dims[0] != M)) {
    strataEmitOpError(op, "interpreter: b must hold %lld f32 values (one per output channel)", (long long)M);
    return false;
  }
  int64_t out[4] = {X->dims[0], M, 0, 0};
  for (int d = 0; d < 2; d++)
    if (!sparseWindowOutDim(w, d, X->dims[2 + d], &out[2 + d], why, sizeof why)) {
      strataEmitOpError(op, "interpreter: %s", why);
      return false;
    }
  if (!*Y) *Y = strataTensorCreate(STRATA_DTYPE_F32, 4, out);
  if (!*Y) {
    strataEmitOpError(op, "interpreter: out of memory for the %lldx%lldx%lldx%lld result", (long long)out[0],
                      (long long)out[1], (long long)out[2], (long long)out[3]);
    return false;
  }
  if ((*Y)->rank != 4 || memcmp((*Y)->dims, out, sizeof out)) {
    strataEmitOpError(op, "interpreter: the result must be %lldx%lldx%lldx%lld for this input", (long long)out[0],
                      (long long)out[1], (long long)out[2], (long long)out[3]);
    return false;
  }
  *Cg = X->dims[1] / w->group;
  return true;
}

/* y = conv(x, taps) + b. Indices stay in range: oh*stride + r*dilation is
 * below the padded input extent (sparseWindowOutDim), and taps' channels
 * are below Cg. Accumulates in double, in the taps' order. */
static void convolveTaps(const StrataTensor *X, const Taps *t, const SparseWindow *w, const StrataTensor *B,
                         StrataTensor *Y) {
  int64_t N = X->dims[0], C = X->dims[1], H = X->dims[2], Wd = X->dims[3];
  int64_t M = t->M, OH = Y->dims[2], OW = Y->dims[3], Cg = C / w->group, Mg = M / w->group;
  const float *x = X->data;
  float *y = Y->data;
  for (int64_t n = 0; n < N; n++)
    for (int64_t m = 0; m < M; m++) {
      const float *xg = x + (n * C + m / Mg * Cg) * H * Wd;
      for (int64_t oh = 0; oh < OH; oh++)
        for (int64_t ow = 0; ow < OW; ow++) {
          double acc = B ? ((const float *)B->data)[m] : 0.0;
          for (int64_t k = t->start[m]; k < t->start[m + 1]; k++) {
            const Tap *p = &t->tap[k];
            int64_t ih = oh * w->strides[0] + p->r * w->dilations[0] - w->pads[0];
            int64_t iw = ow * w->strides[1] + p->q * w->dilations[1] - w->pads[1];
            if (ih >= 0 && ih < H && iw >= 0 && iw < Wd) acc += (double)xg[(p->c * H + ih) * Wd + iw] * (double)p->v;
          }
          y[((n * M + m) * OH + oh) * OW + ow] = (float)acc;
        }
    }
}

static bool tapsAlloc(Taps *t, int64_t M, int64_t n) {
  t->M = M;
  t->start = calloc((size_t)M + 1, sizeof *t->start);
  t->tap = malloc(sizeof *t->tap * (size_t)(n ? n : 1));
  return t->start && t->tap;
}

static int compareTaps(const void *a, const void *b) {
  const Tap *x = a, *y = b;
  if (x->c != y->c) return (x->c > y->c) - (x->c < y->c);
  if (x->r != y->r) return (x->r > y->r) - (x->r < y->r);
  return (x->q > y->q) - (x->q < y->q);
}

/* FKW: stored filter s computes output channel reorder[s] (a permutation:
 * each channel once); a kernel's taps are its mask's bits in increasing
 * order. Sorting a filter's taps by channel then gives the dense order. */
static bool fkwTaps(const SparseFkw *f, Taps *t) {
  if (!tapsAlloc(t, f->M, f->numWeights)) return false;
  for (int64_t s = 0; s < f->M; s++) {
    const int64_t *st = f->stride + s * (f->P + 1);
    for (int64_t p = 0; p < f->P; p++) t->start[f->reorder[s] + 1] += (st[p + 1] - st[p]) * sparsePopcount(f->masks[p]);
  }
  for (int64_t m = 0; m < f->M; m++) t->start[m + 1] += t->start[m];
  int64_t at = 0; /* into weight: kernels in stored order */
  for (int64_t s = 0; s < f->M; s++) {
    const int64_t *st = f->stride + s * (f->P + 1);
    int64_t m = f->reorder[s], j = t->start[m];
    for (int64_t p = 0; p < f->P; p++)
      for (int64_t k = st[p]; k < st[p + 1]; k++)
        for (int b = 0; b < SPARSE_KERNEL; b++)
          if (f->masks[p] >> b & 1)
            t->tap[j++] = (Tap){f->index[f->offset[s] + k], b / 3, b % 3, f->weight[at++]};
    qsort(t->tap + t->start[m], (size_t)(j - t->start[m]), sizeof *t->tap, compareTaps);
  }
  return true;
}

/* CSR: a row's columns (c*kh + r)*kw + q increase, the dense order. */
static bool csrTaps(const SparseCsr *c, const SparseWindow *w, Taps *t) {
  if (!tapsAlloc(t, c->M, c->rowPtr[c->M])) return false;
  int64_t kh = w->kernel[0], kw = w->kernel[1];
  for (int64_t m = 0; m <= c->M; m++) t->start[m] = c->rowPtr[m];
  for (int64_t j = 0; j < c->rowPtr[c->M]; j++)
    t->tap[j] = (Tap){c->col[j] / (kh * kw), c->col[j] / kw % kh, c->col[j] % kw, c->val[j]};
  return true;
}

MlirLogicalResult sparseInterpFkw(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  SparseWindow w;
  SparseFkw f;
  Taps t = {0};
  int64_t Cg;
  if (!sparseWindowGet(op, &w) || !sparseFkwFromOp(op, &f)) return fail();
  const StrataTensor *B = mlirOperationGetNumOperands(op) > 1 ? x[1] : NULL;
  bool good = checkOperands(op, &w, f.M, x[0], B, y, &Cg);
  if (good && Cg != f.C)
    strataEmitOpError(op, "interpreter: x has %lld channels per group, the arrays %lld", (long long)Cg, (long long)f.C),
        good = false;
  if (good && !fkwTaps(&f, &t)) strataEmitOpError(op, "out of memory"), good = false;
  if (good) convolveTaps(x[0], &t, &w, B, y[0]);
  tapsFree(&t);
  sparseFkwFree(&f);
  return good ? ok() : fail();
}

MlirLogicalResult sparseInterpCsr(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  SparseWindow w;
  SparseCsr c;
  Taps t = {0};
  int64_t Cg;
  if (!sparseWindowGet(op, &w) || !sparseCsrFromOp(op, &c)) return fail();
  const StrataTensor *B = mlirOperationGetNumOperands(op) > 1 ? x[1] : NULL;
  bool good = checkOperands(op, &w, c.M, x[0], B, y, &Cg);
  if (good && Cg != sparseChannelsPerGroup(op))
    strataEmitOpError(op, "interpreter: x has %lld channels per group, its type %lld", (long long)Cg,
                      (long long)sparseChannelsPerGroup(op)),
        good = false;
  if (good && !csrTaps(&c, &w, &t)) strataEmitOpError(op, "out of memory"), good = false;
  if (good) convolveTaps(x[0], &t, &w, B, y[0]);
  tapsFree(&t);
  sparseCsrFree(&c);
  return good ? ok() : fail();
}

/* Dense weights W [M][Cg][3][3]: every kernel zero or inside a mask (the
 * op's contract, which the verifier checks only for constants), then their
 * nonzeros as taps. */
MlirLogicalResult sparseInterpPattern(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  SparseWindow w;
  int64_t masks[SPARSE_MAX_PATTERNS], P, Cg;
  if (!sparseWindowGet(op, &w) || !sparsePatternSetOf(op, masks, &P)) return fail();
  const StrataTensor *W = x[1], *B = mlirOperationGetNumOperands(op) > 2 ? x[2] : NULL;
  if (W->dtype != STRATA_DTYPE_F32 || W->rank != 4 || W->dims[2] != 3 || W->dims[3] != 3) {
    strataEmitOpError(op, "interpreter: w must be a f32 tensor of 3x3 kernels");
    return fail();
  }
  int64_t M = W->dims[0];
  if (!checkOperands(op, &w, M, x[0], B, y, &Cg)) return fail();
  if (W->dims[1] != Cg) {
    strataEmitOpError(op, "interpreter: w has %lld channels per kernel, x %lld per group", (long long)W->dims[1],
                      (long long)Cg);
    return fail();
  }
  const float *wd = W->data;
  int64_t n = 0;
  for (int64_t i = 0; i < M * Cg; i++) {
    int id = sparseKernelPattern(wd + i * SPARSE_KERNEL, masks, (int)P);
    if (id == SPARSE_NO_PATTERN) {
      strataEmitOpError(op, "interpreter: the kernel of filter %lld, input channel %lld (support 0x%03llx) fits no "
                        "pattern of the set", (long long)(i / Cg), (long long)(i % Cg),
                        (unsigned long long)sparseSupport(wd + i * SPARSE_KERNEL));
      return fail();
    }
    if (id >= 0) n += sparsePopcount(sparseSupport(wd + i * SPARSE_KERNEL));
  }
  Taps t = {0};
  bool good = tapsAlloc(&t, M, n);
  if (!good) strataEmitOpError(op, "out of memory");
  for (int64_t m = 0, j = 0; good && m < M; m++) {
    t.start[m] = j;
    for (int64_t c = 0; c < Cg; c++)
      for (int b = 0; b < SPARSE_KERNEL; b++) {
        float v = wd[(m * Cg + c) * SPARSE_KERNEL + b];
        if (v != 0.0f) t.tap[j++] = (Tap){c, b / 3, b % 3, v};
      }
    t.start[m + 1] = j;
  }
  if (good) convolveTaps(x[0], &t, &w, B, y[0]);
  tapsFree(&t);
  return good ? ok() : fail();
}
