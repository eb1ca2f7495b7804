/* libstrata_rt frame stack: the arenas strata-buffer-arena plans. Each
 * thread has a stack of slots in its environment; a call's push takes the
 * slot at the current depth (growing it only if too small) and its pop
 * releases it, so the same function on the same thread reuses the same
 * memory every run, and nested or concurrent calls get their own. The
 * memory comes from the environment's allocator and goes when the thread
 * exits or the environment is destroyed (env.c). */
#include <string.h>
#include "kernels.h"
#include "memref.h"
#include "rt_internal.h"

int rtFrameDepth(void) { return rtCur()->depth; }

/* A call left through an error (status.c) never pops its frames. */
void rtFrameRewind(RtThread *t, int depth) {
  if (t && depth < t->depth) t->depth = depth;
}

void _mlir_ciface_strata_rt_frame_push(StrataMemRefDesc *out, int64_t bytes) {
  RtThread *f = rtCur();
  if (f->depth == f->count) {
    RtSlot *grown = rtAlloc(f->env, sizeof *grown * (size_t)(f->count + 8));
    if (!grown) rtError("out of memory for a buffer arena");
    if (f->count) memcpy(grown, f->slots, sizeof *grown * (size_t)f->count);
    for (int i = f->count; i < f->count + 8; i++) grown[i] = (RtSlot){NULL, 0};
    rtFree(f->env, f->slots);
    f->slots = grown;
    f->count += 8;
  }
  RtSlot *s = &f->slots[f->depth];
  if (s->cap < bytes) {
    rtFreeKept(f->env, s->p);
    s->cap = (bytes + 63) / 64 * 64;
    s->p = rtAllocKept(f->env, (size_t)s->cap);
    if (!s->p) {
      s->cap = 0;
      rtError("out of memory for a buffer arena of %lld bytes", (long long)bytes);
    }
  }
  f->depth++;
  out->allocated = out->aligned = s->p;
  out->offset = 0;
  out->sizesAndStrides[0] = bytes;
  out->sizesAndStrides[1] = 1;
}

void _mlir_ciface_strata_rt_frame_pop(StrataMemRefDesc *arena) {
  RtThread *f = rtCur();
  if (f->depth == 0 || f->slots[f->depth - 1].p != arena->allocated)
    rtInvariant("buffer arena released out of order");
  f->depth--;
}

void _mlir_ciface_strata_rt_frame_slot(StrataMemRefDesc *out, StrataMemRefDesc *arena, int64_t offset,
                                       int64_t bytes) {
  if (offset < 0 || bytes < 0 || offset + bytes > arena->sizesAndStrides[0])
    rtInvariant("buffer arena slot out of range");
  out->allocated = out->aligned = (char *)arena->aligned + arena->offset + offset;
  out->offset = 0;
  out->sizesAndStrides[0] = bytes;
  out->sizesAndStrides[1] = 1;
}
