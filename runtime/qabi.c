/* The integer kernels' entry points (kernel_abi.def: strata_rt_qmatmul_*,
 * strata_rt_qconv2d_*): memref descriptors and ONNX's parameter shapes to
 * rtQGemm calls (qgemm.h). The parameters are read through the broadcast
 * rules of dialects/nn/ops_qlinear.c's nnQuantParamShape (a 1-D parameter
 * spreads along its kind's axis; one of the tensor's rank broadcasts
 * along its size-1 dims) into one array per row and per column. */
#include <string.h>
#include "kernels.h"
#include "qgemm.h"
#include "rt_internal.h"

/* A memref of any element type: data at `elem`-byte elements. */
typedef struct {
  int rank;
  const uint8_t *data;
  int64_t size[STRATA_RT_MAX_RANK], stride[STRATA_RT_MAX_RANK];
} QView;

static QView qView(const StrataUnrankedMemRef *m, int elem) {
  View v = rtView(m); /* rank checks; data as float * + offset: redone in bytes */
  const StrataMemRefDesc *d = m->descriptor;
  QView q = {v.rank, (const uint8_t *)d->aligned + d->offset * elem, {0}, {0}};
  memcpy(q.size, v.size, sizeof q.size);
  memcpy(q.stride, v.stride, sizeof q.stride);
  return q;
}

/* Element offset of parameter p at index idx of a tensor of `rank` dims;
 * a 1-D parameter of more than one value runs along dim `axis`. */
static int64_t paramOffset(const QView *p, int rank, const int64_t *idx, int axis) {
  if (p->rank == 0) return 0;
  if (p->rank == 1) return p->size[0] == 1 ? 0 : idx[axis] * p->stride[0];
  if (p->rank != rank) rtInvariant("quantization parameter of rank %d for a tensor of rank %d", p->rank, rank);
  int64_t off = 0;
  for (int d = 0; d < rank; d++) off += p->size[d] == 1 ? 0 : idx[d] * p->stride[d];
  return off;
}

/* One operand's parameter read along one axis (`dim` of a tensor of
 * `rank` dims, the other dims of idx fixed) into n i32 (8-bit zero
 * points, bias) or f32 (scales) values. */
typedef enum { Q_U8, Q_S8, Q_I32, Q_F32 } QKind;

static void gatherParam(void *dst, const QView *p, QKind kind, int rank, int64_t *idx, int dim, int axis,
                        int64_t n) {
  for (int64_t i = 0; i < n; i++) {
    idx[dim] = i;
    const uint8_t *e = p->data;
    int64_t off = paramOffset(p, rank, idx, axis);
    switch (kind) {
    case Q_U8: ((int32_t *)dst)[i] = e[off]; break;
    case Q_S8: ((int32_t *)dst)[i] = (int8_t)e[off]; break;
    case Q_I32: ((int32_t *)dst)[i] = ((const int32_t *)e)[off]; break;
    case Q_F32: ((float *)dst)[i] = ((const float *)e)[off]; break;
    }
  }
  idx[dim] = 0;
}

/* Scratch arrays of this call (from the current environment). */
typedef struct {
  void *p[8];
  int n;
} QArrays;

static void *qArray(QArrays *a, int64_t n) {
  void *p = rtAlloc(rtCurEnv(), (size_t)(n > 0 ? n : 1) * 4);
  if (!p || a->n == 8) {
    for (int i = 0; i < a->n; i++) rtFree(rtCurEnv(), a->p[i]);
    rtFree(rtCurEnv(), p);
    rtError("out of memory for quantization parameters");
  }
  return a->p[a->n++] = p;
}

static void qArraysFree(QArrays *a) {
  for (int i = 0; i < a->n; i++) rtFree(rtCurEnv(), a->p[i]);
}

/* The fused clamp of the flags (STRATA_RT_Q_CLAMP): its bounds as the
 * result type's values. */
static void qClamp(RtQOut *out, int64_t f) {
  out->clamp = f & STRATA_RT_Q_CLAMP;
  uint8_t lo = (uint8_t)(f >> STRATA_RT_Q_CLAMP_LO_SHIFT), hi = (uint8_t)(f >> STRATA_RT_Q_CLAMP_HI_SHIFT);
  out->clampLo = out->yUnsigned ? lo : (int8_t)lo, out->clampHi = out->yUnsigned ? hi : (int8_t)hi;
}

/* ---- MatMul ---- */

typedef struct {
  QView a, b, y, azp, bzp, as, bs, ys, yzp, bias;
  int64_t flags;
  bool q8;
} QMatmul;

static void qmatmul(QMatmul *mm) {
  const int64_t f = mm->flags;
  const int ra = mm->a.rank;
  if (ra < 2 || mm->b.rank != 2 || mm->y.rank != ra) rtInvariant("integer matmul needs a of rank >= 2 and a 2-D b");
  const int64_t M = mm->a.size[ra - 2], K = mm->a.size[ra - 1], N = mm->b.size[1];
  if (N > 1 && mm->y.stride[ra - 1] != 1) rtInvariant("integer matmul result must be dense in its last dim");
  int64_t batches = 1;
  for (int d = 0; d < ra - 2; d++) batches *= mm->a.size[d];
  QArrays arr = {{0}, 0};
  bool au = f & STRATA_RT_Q_A_UNSIGNED, bu = f & STRATA_RT_Q_B_UNSIGNED, yu = f & STRATA_RT_Q_Y_UNSIGNED;
  int64_t idx[STRATA_RT_MAX_RANK] = {0}, bidx[2] = {0, 0};
  /* per column: b's zero point, scale, the bias */
  int32_t *zb = qArray(&arr, N);
  if (f & STRATA_RT_Q_HAS_BZP) gatherParam(zb, &mm->bzp, bu ? Q_U8 : Q_S8, 2, bidx, 1, 1, N);
  else memset(zb, 0, (size_t)N * 4);
  float *sb = NULL;
  int32_t *bias = NULL;
  if (mm->q8) {
    gatherParam(sb = qArray(&arr, N), &mm->bs, Q_F32, 2, bidx, 1, 1, N);
    if (f & STRATA_RT_Q_HAS_BIAS) gatherParam(bias = qArray(&arr, N), &mm->bias, Q_I32, 1, bidx, 0, 0, N);
  }
  int32_t *za = qArray(&arr, M), *zy = mm->q8 ? qArray(&arr, M) : NULL;
  float *sa = mm->q8 ? qArray(&arr, M) : NULL, *sy = mm->q8 ? qArray(&arr, M) : NULL;
  RtQOperand B = {mm->b.data, mm->b.stride[0], mm->b.stride[1], NULL, bu, f & STRATA_RT_Q_CONST_B, zb, 1};
  for (int64_t bi = 0; bi < batches; bi++) {
    /* the batch's index and offsets (a and y share the batch dims) */
    int64_t rem = bi, aoff = 0, yoff = 0;
    for (int d = ra - 3; d >= 0; d--) {
      idx[d] = rem % mm->a.size[d], rem /= mm->a.size[d];
      aoff += idx[d] * mm->a.stride[d], yoff += idx[d] * mm->y.stride[d];
    }
    /* per row (rank-2 a: a 1-D parameter runs along dim 0) */
    if (f & STRATA_RT_Q_HAS_AZP) gatherParam(za, &mm->azp, au ? Q_U8 : Q_S8, ra, idx, ra - 2, 0, M);
    else memset(za, 0, (size_t)M * 4);
    RtQOperand A = {mm->a.data + aoff, mm->a.stride[ra - 2], mm->a.stride[ra - 1], NULL, au,
                    (f & STRATA_RT_Q_CONST_A) && batches == 1, za, 1};
    RtQOut out = {0};
    out.ldy = mm->y.stride[ra - 2];
    if (mm->q8) {
      gatherParam(sa, &mm->as, Q_F32, ra, idx, ra - 2, 0, M);
      gatherParam(sy, &mm->ys, Q_F32, ra, idx, ra - 2, 0, M);
      gatherParam(zy, &mm->yzp, yu ? Q_U8 : Q_S8, ra, idx, ra - 2, 0, M);
      out.y8 = (uint8_t *)mm->y.data + yoff;
      out.yUnsigned = yu, out.relu = f & STRATA_RT_Q_RELU, out.hasBias = bias != NULL;
      qClamp(&out, f);
      out.bias = (RtQParam){bias, 0, 1};
      out.sa = (RtQParam){sa, 1, 0}, out.sb = (RtQParam){sb, 0, 1};
      out.sy = (RtQParam){sy, 1, 0}, out.zy = (RtQParam){zy, 1, 0};
    } else {
      out.y32 = (int32_t *)mm->y.data + yoff;
    }
    rtQGemm(M, N, K, &A, &B, &out, !rtInParallelRegion());
  }
  qArraysFree(&arr);
}

void _mlir_ciface_strata_rt_qmatmul_i32(StrataUnrankedMemRef *a, StrataUnrankedMemRef *b,
                                        StrataUnrankedMemRef *y, StrataUnrankedMemRef *azp,
                                        StrataUnrankedMemRef *bzp, int64_t flags) {
  rtScratchKernelStart();
  QMatmul mm = {qView(a, 1), qView(b, 1), qView(y, 4), qView(azp, 1), qView(bzp, 1), {0}, {0}, {0}, {0}, {0},
                flags, false};
  qmatmul(&mm);
}

void _mlir_ciface_strata_rt_qmatmul_q8(StrataUnrankedMemRef *a, StrataUnrankedMemRef *as,
                                       StrataUnrankedMemRef *azp, StrataUnrankedMemRef *b,
                                       StrataUnrankedMemRef *bs, StrataUnrankedMemRef *bzp,
                                       StrataUnrankedMemRef *ys, StrataUnrankedMemRef *yzp,
                                       StrataUnrankedMemRef *bias, StrataUnrankedMemRef *y, int64_t flags) {
  rtScratchKernelStart();
  QMatmul mm = {qView(a, 1),  qView(b, 1),  qView(y, 1),   qView(azp, 1),  qView(bzp, 1),
                qView(as, 4), qView(bs, 4), qView(ys, 4),  qView(yzp, 1),  qView(bias, 4),
                flags | STRATA_RT_Q_HAS_AZP | STRATA_RT_Q_HAS_BZP, true};
  qmatmul(&mm);
}

/* ---- Conv ---- */

typedef struct {
  QView x, w, y, xzp, wzp, xs, ws, ys, yzp, bias;
  int64_t sh, sw, ph, pw, dh, dw, group, flags;
  bool q8;
} QConv;

static void qconv(QConv *c) {
  const int64_t f = c->flags;
  if (c->x.rank != 4 || c->w.rank != 4 || c->y.rank != 4) rtInvariant("integer conv needs NCHW operands");
  const int64_t Nb = c->x.size[0], G = c->group, Cg = c->w.size[1], KH = c->w.size[2], KW = c->w.size[3];
  const int64_t M = c->w.size[0], Mg = M / G, OH = c->y.size[2], OW = c->y.size[3], K = Cg * KH * KW;
  if (c->y.stride[3] != 1 || (OH > 1 && c->y.stride[2] != OW)) rtInvariant("integer conv result must be dense");
  bool xu = f & STRATA_RT_Q_A_UNSIGNED, wu = f & STRATA_RT_Q_B_UNSIGNED, yu = f & STRATA_RT_Q_Y_UNSIGNED;
  QArrays arr = {{0}, 0};
  /* w's rows as one dense [M, K] matrix: a copy when its view is not */
  const uint8_t *w = c->w.data;
  bool dense = c->w.stride[3] == 1 && c->w.stride[2] == KW && c->w.stride[1] == KH * KW && c->w.stride[0] == K;
  bool constW = f & STRATA_RT_Q_CONST_B;
  if (!dense) {
    uint8_t *d = qArray(&arr, (M * K + 3) / 4);
    for (int64_t m = 0, e = 0; m < M; m++)
      for (int64_t ci = 0; ci < Cg; ci++)
        for (int64_t i = 0; i < KH; i++)
          for (int64_t j = 0; j < KW; j++)
            d[e++] = w[m * c->w.stride[0] + ci * c->w.stride[1] + i * c->w.stride[2] + j * c->w.stride[3]];
    w = d, constW = false; /* a fresh copy: not the constant's address */
  }
  int64_t idx[4] = {0};
  int32_t *zw = qArray(&arr, M), zx = 0;
  if (f & STRATA_RT_Q_HAS_BZP) gatherParam(zw, &c->wzp, wu ? Q_U8 : Q_S8, 4, idx, 0, 0, M);
  else memset(zw, 0, (size_t)M * 4);
  if (f & STRATA_RT_Q_HAS_AZP) zx = xu ? c->xzp.data[0] : (int8_t)c->xzp.data[0];
  float *sw = NULL, sx = 0, sy = 0;
  int32_t *bias = NULL, zy = 0;
  if (c->q8) {
    gatherParam(sw = qArray(&arr, M), &c->ws, Q_F32, 4, idx, 0, 0, M);
    if (f & STRATA_RT_Q_HAS_BIAS) gatherParam(bias = qArray(&arr, M), &c->bias, Q_I32, 1, idx, 0, 0, M);
    sx = ((const float *)c->xs.data)[0], sy = ((const float *)c->ys.data)[0];
    zy = yu ? c->yzp.data[0] : (int8_t)c->yzp.data[0];
  }
  /* one input channel per group (depthwise): rows of taps, not GEMMs of one row */
  bool depthwise = Cg == 1 && G > 1 && KH * KW <= RT_QDW_MAX_TAPS;
  for (int64_t b = 0; depthwise && b < Nb; b++) {
    RtQConvGeom geom = {c->x.data + b * c->x.stride[0], G, c->x.size[2], c->x.size[3], c->x.stride[1],
                        c->x.stride[2], c->x.stride[3], KH, KW, c->sh, c->sw, c->ph, c->pw, c->dh, c->dw, OH, OW,
                        (uint8_t)zx};
    RtQOut out = {0};
    out.ldy = c->y.stride[1];
    if (c->q8) {
      out.y8 = (uint8_t *)c->y.data + b * c->y.stride[0];
      out.yUnsigned = yu, out.relu = f & STRATA_RT_Q_RELU, out.hasBias = bias != NULL;
      qClamp(&out, f);
      out.bias = (RtQParam){bias, 1, 0};
      out.sa = (RtQParam){&sx, 0, 0}, out.sb = (RtQParam){sw, 1, 0};
      out.sy = (RtQParam){&sy, 0, 0}, out.zy = (RtQParam){&zy, 0, 0};
    } else {
      out.y32 = (int32_t *)c->y.data + b * c->y.stride[0];
    }
    rtQDepthwise(&geom, G, Mg, w, wu, zw, xu, zx, &out, !rtInParallelRegion());
  }
  for (int64_t b = 0; !depthwise && b < Nb; b++)
    for (int64_t g = 0; g < G; g++) {
      RtQConvGeom geom = {c->x.data + b * c->x.stride[0] + g * Cg * c->x.stride[1],
                          Cg, c->x.size[2], c->x.size[3], c->x.stride[1], c->x.stride[2], c->x.stride[3],
                          KH, KW, c->sh, c->sw, c->ph, c->pw, c->dh, c->dw, OH, OW, (uint8_t)zx};
      /* the weights are A (rows: output channels), the image B */
      RtQOperand A = {w + g * Mg * K, K, 1, NULL, wu, constW, zw + g * Mg, 1};
      RtQOperand B = {NULL, 0, 0, &geom, xu, false, &zx, 0};
      int64_t yoff = b * c->y.stride[0] + g * Mg * c->y.stride[1];
      RtQOut out = {0};
      out.ldy = c->y.stride[1];
      if (c->q8) {
        out.y8 = (uint8_t *)c->y.data + yoff;
        out.yUnsigned = yu, out.relu = f & STRATA_RT_Q_RELU, out.hasBias = bias != NULL;
        qClamp(&out, f);
        out.bias = (RtQParam){bias ? bias + g * Mg : NULL, 1, 0};
        out.sa = (RtQParam){&sx, 0, 0}, out.sb = (RtQParam){sw + g * Mg, 1, 0};
        out.sy = (RtQParam){&sy, 0, 0}, out.zy = (RtQParam){&zy, 0, 0};
      } else {
        out.y32 = (int32_t *)c->y.data + yoff;
      }
      rtQGemm(Mg, OH * OW, K, &A, &B, &out, !rtInParallelRegion());
    }
  qArraysFree(&arr);
}

void _mlir_ciface_strata_rt_qconv2d_i32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *w,
                                        StrataUnrankedMemRef *y, StrataUnrankedMemRef *xzp,
                                        StrataUnrankedMemRef *wzp, int64_t strideH, int64_t strideW, int64_t padH,
                                        int64_t padW, int64_t dilH, int64_t dilW, int64_t group, int64_t flags) {
  rtScratchKernelStart();
  QConv c = {qView(x, 1), qView(w, 1), qView(y, 4), qView(xzp, 1), qView(wzp, 1), {0}, {0}, {0}, {0}, {0},
             strideH, strideW, padH, padW, dilH, dilW, group, flags, false};
  qconv(&c);
}

void _mlir_ciface_strata_rt_qconv2d_q8(StrataUnrankedMemRef *x, StrataUnrankedMemRef *xs,
                                       StrataUnrankedMemRef *xzp, StrataUnrankedMemRef *w,
                                       StrataUnrankedMemRef *ws, StrataUnrankedMemRef *wzp,
                                       StrataUnrankedMemRef *ys, StrataUnrankedMemRef *yzp,
                                       StrataUnrankedMemRef *bias, StrataUnrankedMemRef *y, int64_t strideH,
                                       int64_t strideW, int64_t padH, int64_t padW, int64_t dilH, int64_t dilW,
                                       int64_t group, int64_t flags) {
  rtScratchKernelStart();
  QConv c = {qView(x, 1),  qView(w, 1),  qView(y, 1),  qView(xzp, 1), qView(wzp, 1), qView(xs, 4),
             qView(ws, 4), qView(ys, 4), qView(yzp, 1), qView(bias, 4), strideH, strideW, padH, padW, dilH, dilW,
             group, flags | STRATA_RT_Q_HAS_AZP | STRATA_RT_Q_HAS_BZP, true};
  qconv(&c);
}
