/* libstrata_rt layer normalization: rows over the trailing dims [axis,
 * rank), each normalized by the ISA's row kernel; scale and bias broadcast
 * over the row (made dense once per call when they are not). */
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

typedef struct {
  View x;
  float *y;
  const float *scale, *bias;
  int axis;
  int64_t len;
  float eps;
  bool rowsDense; /* x's dims [axis, rank) are one contiguous run */
} LayerNorm;

/* x's element offset of row r (the dims before axis). */
static int64_t rowOffset(const View *x, int axis, int64_t r) {
  int64_t off = 0;
  for (int d = axis - 1; d >= 0; d--) off += (r % x->size[d]) * x->stride[d], r /= x->size[d];
  return off;
}

static void layerNormTask(void *ctx, int64_t r0, int64_t r1) {
  const LayerNorm *ln = ctx;
  const RtIsa *isa = rtIsa();
  float *row = NULL;
  for (int64_t r = r0; r < r1; r++) {
    const float *x = ln->x.data + rowOffset(&ln->x, ln->axis, r);
    if (!ln->rowsDense) { /* gather the row */
      if (!row && !(row = rtScratch(3, (size_t)ln->len))) rtError("out of memory for layer norm rows");
      rtGather(row, x, ln->x.rank - ln->axis, ln->x.size + ln->axis, ln->x.stride + ln->axis);
      x = row;
    }
    isa->layerNormRow(x, ln->y + r * ln->len, ln->scale, ln->bias, ln->len, ln->eps);
  }
}

/* A scale/bias view broadcast over the normalized dims as a dense row:
 * itself when it already is one, else a copy in scratch slot `slot`. */
static const float *denseParam(const View *p, const View *x, int axis, int64_t len, int slot) {
  int64_t st[STRATA_RT_MAX_RANK], expect = 1;
  int nr = x->rank - axis;
  if (p->rank > nr) rtInvariant("layer norm scale/bias broadcasts beyond the normalized dims");
  rtBroadcastStrides(p, nr, x->size + axis, st);
  bool dense = true;
  for (int d = nr - 1; d >= 0; d--) {
    if (x->size[axis + d] != 1 && st[d] != expect) dense = false;
    expect *= x->size[axis + d];
  }
  if (dense) return p->data;
  float *out = rtScratch(slot, (size_t)len);
  if (!out) rtError("out of memory for layer norm parameters");
  rtGather(out, p->data, nr, x->size + axis, st);
  return out;
}

void _mlir_ciface_strata_rt_layernorm_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *scale,
                                          StrataUnrankedMemRef *bias, StrataUnrankedMemRef *y, int64_t axis,
                                          int64_t hasBias, float eps) {
  rtScratchKernelStart();
  LayerNorm ln;
  ln.x = rtView(x);
  View yv = rtView(y), sv = rtView(scale);
  if (axis < 0 || axis >= ln.x.rank || yv.rank != ln.x.rank) rtInvariant("layernorm: bad operands or axis");
  ln.axis = (int)axis;
  ln.eps = eps;
  ln.len = 1;
  int64_t rows = 1, expect = 1;
  ln.rowsDense = true;
  for (int d = ln.x.rank - 1; d >= 0; d--) {
    if (d >= axis) {
      ln.len *= ln.x.size[d];
      if (ln.x.size[d] != 1 && ln.x.stride[d] != expect) ln.rowsDense = false;
      expect *= ln.x.size[d];
    } else {
      rows *= ln.x.size[d];
    }
  }
  int64_t stride = 1; /* y is the kernel's fresh dense buffer */
  for (int d = yv.rank - 1; d >= 0; d--) {
    if (yv.size[d] != ln.x.size[d] || (yv.size[d] != 1 && yv.stride[d] != stride))
      rtInvariant("layernorm result must be dense and of x's shape");
    stride *= yv.size[d];
  }
  ln.y = yv.data;
  if (ln.len == 0 || rows == 0) return;
  /* Scratch slots 0 and 1 (GEMM panels) are free here; 3 holds gathered rows. */
  ln.scale = denseParam(&sv, &ln.x, ln.axis, ln.len, 0);
  View bv;
  if (hasBias) bv = rtView(bias);
  ln.bias = hasBias ? denseParam(&bv, &ln.x, ln.axis, ln.len, 1) : NULL;
  rtParallelFor(rows, layerNormTask, &ln);
}
