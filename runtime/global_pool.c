/* libstrata_rt global pooling (nn.global_average_pool, nn.global_max_pool
 * and the ReduceMean/ReduceMax over all spatial dims with kept dims that
 * nn-to-kernels routes here): one reduction per (image, channel) over the
 * spatial extent, a contiguous row in NCHW (the ISA's sumRow/maxRow);
 * rows of another layout are gathered first. Threaded over the rows:
 * EfficientNet-B0's squeeze-and-excitation gates run 17 of them. */
#include "kernels.h"
#include "rt_internal.h"

typedef struct {
  View x;
  int64_t C, S; /* channels, spatial elements per row */
  bool dense;   /* each row one unit-stride run */
  float *y;
  int64_t yn, yc; /* y's strides of image and channel */
  int64_t kind;
} GlobalPool;

static void globalPoolTask(void *ctx, int64_t begin, int64_t end) {
  const GlobalPool *gp = ctx;
  const RtIsa *isa = rtIsa();
  int sp = gp->x.rank - 2;
  float *row = gp->dense ? NULL : rtScratch(3, (size_t)gp->S);
  if (!gp->dense && !row) rtError("out of memory for global pooling rows");
  for (int64_t i = begin; i < end; i++) {
    int64_t n = i / gp->C, c = i % gp->C;
    const float *src = gp->x.data + n * gp->x.stride[0] + c * gp->x.stride[1];
    if (!gp->dense) {
      rtGather(row, src, sp, gp->x.size + 2, gp->x.stride + 2);
      src = row;
    }
    float v = gp->kind == RT_WINDOW_MAX ? isa->maxRow(src, gp->S) : isa->sumRow(src, gp->S) / (float)gp->S;
    gp->y[n * gp->yn + c * gp->yc] = v;
  }
}

void _mlir_ciface_strata_rt_global_pool_f32(StrataUnrankedMemRef *x, StrataUnrankedMemRef *y, int64_t kind) {
  rtScratchKernelStart();
  GlobalPool gp;
  gp.x = rtView(x);
  View yv = rtView(y);
  int r = gp.x.rank;
  bool yOk = (yv.rank == r || yv.rank == 2) && yv.size[0] == gp.x.size[0] && yv.size[1] == gp.x.size[1];
  for (int d = 2; d < yv.rank; d++) yOk = yOk && yv.size[d] == 1;
  if (r < 3 || !yOk) rtInvariant("global pooling expects [N, C, spatial...] into [N, C(, 1...)]");
  if (kind != RT_WINDOW_MAX && kind != RT_WINDOW_AVERAGE) rtInvariant("global pooling: bad kind");
  gp.C = gp.x.size[1], gp.S = 1, gp.kind = kind;
  int64_t expected = 1;
  gp.dense = true;
  for (int d = r - 1; d >= 2; d--) {
    gp.S *= gp.x.size[d];
    if (gp.x.size[d] != 1 && gp.x.stride[d] != expected) gp.dense = false;
    expected *= gp.x.size[d];
  }
  gp.y = yv.data, gp.yn = yv.stride[0], gp.yc = yv.stride[1];
  /* whole rows per chunk; rtParallelFor splits [0, N * C) */
  if (gp.S > 0) rtParallelFor(gp.x.size[0] * gp.C, globalPoolTask, &gp);
}
