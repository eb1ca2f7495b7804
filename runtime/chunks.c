/* strata_rt_parallel_chunks: the thread pool for kernels the compiler
 * generates (sparse-to-vector). Generated code has no function of its own
 * to hand the pool, so it passes the address of a chunk function with a
 * fixed signature (StrataRtChunkFn: four 1-D f32 memrefs and an item
 * range) and its buffers; each chunk runs on one thread with that
 * thread's scratch, so chunks never share writable scratch. */
#include <stdint.h>
#include "kernels.h"
#include "rt_internal.h"

enum { CHUNK_SCRATCH_SLOT = 9 };

typedef struct {
  StrataRtChunkFn fn;
  View x, b, y;
  int64_t nx, nb, ny, scratchFloats;
} Chunks;

/* Elements of a dense view; its data pointer already has the offset. */
static int64_t denseSize(const View *v, const char *what) {
  int64_t n = 1, expect = 1;
  for (int d = v->rank - 1; d >= 0; d--) {
    if (v->size[d] != 1 && v->stride[d] != expect) rtInvariant("generated kernel operand %s is not dense", what);
    expect *= v->size[d];
    n *= v->size[d];
  }
  return n;
}

static void runChunk(void *ctx, int64_t begin, int64_t end) {
  const Chunks *c = ctx;
  float *s = c->scratchFloats ? rtScratch(CHUNK_SCRATCH_SLOT, (size_t)c->scratchFloats) : c->y.data;
  if (!s) rtError("out of memory for a generated kernel's scratch of %lld floats", (long long)c->scratchFloats);
  c->fn(c->x.data, c->x.data, 0, c->nx, 1, c->b.data, c->b.data, 0, c->nb, 1, c->y.data, c->y.data, 0, c->ny, 1, s,
        s, 0, c->scratchFloats, 1, begin, end);
}

void _mlir_ciface_strata_rt_parallel_chunks(StrataRtChunkFn fn, StrataUnrankedMemRef *x, StrataUnrankedMemRef *b,
                                            StrataUnrankedMemRef *y, int64_t n, int64_t scratchFloats) {
  rtScratchKernelStart();
  if (n < 0 || scratchFloats < 0) rtInvariant("bad chunk count or scratch size");
  Chunks c = {fn, rtView(x), rtView(b), rtView(y), 0, 0, 0, scratchFloats};
  c.nx = denseSize(&c.x, "x"), c.nb = denseSize(&c.b, "b"), c.ny = denseSize(&c.y, "y");
  rtParallelFor(n, runChunk, &c);
}
