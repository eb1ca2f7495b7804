/* libstrata_rt kernel scratch: the slots rtScratch hands out are carved
 * from one buffer per thread (per environment), a stack: a slot asked for
 * again gets its memory back while it is large enough, and grows in place
 * when it is the newest. A kernel's slots are released when the next
 * kernel starts (rtScratchKernelStart) or the chunk or strataRtCall that
 * took them ends (status.c), so one kernel's GEMM panels and another's
 * Winograd tiles use the same bytes: the buffer is as large as the most
 * one kernel holds at once. Before, each slot kept its own largest size
 * from call to call, and a CNN held the sum of its kernels' largest
 * scratch (at 160 px ResNet-18's Winograd tiles, pooling tiles and
 * im2col panels together: 2.3x its arena).
 *
 * What does not fit the buffer (it grows while a call runs) is a block
 * beside it until the stack is empty again; then the buffer is regrown to
 * the most the stack has held, so a shape's later calls allocate nothing. */
#include <string.h>
#include "rt_internal.h"

struct RtScratchExtra {
  RtScratchExtra *next;
};

enum { EXTRA_HEADER = 64 }; /* keeps the data 64-byte aligned */

RtScratchMark rtScratchMarkOf(const RtThread *t) { return t->scratch.cur; }

/* Regrows the buffer to the most the stack has held, once it is empty
 * (nothing points into it). Out of memory: no buffer (the next slots are
 * blocks beside it). */
static void regrow(RtThread *t) {
  RtScratch *s = &t->scratch;
  if (s->cur.top || s->high <= s->cap) return;
  rtFreeKept(t->env, s->base);
  s->base = rtAllocKept(t->env, s->high);
  s->cap = s->base ? s->high : 0;
}

void rtScratchRelease(RtThread *t, const RtScratchMark *m) {
  RtScratch *s = &t->scratch;
  while (s->cur.extra && s->cur.extra != m->extra) {
    RtScratchExtra *e = s->cur.extra;
    s->cur.extra = e->next;
    rtFreeKept(t->env, e);
  }
  s->cur = *m;
  regrow(t);
}

void rtScratchFree(RtThread *t) {
  RtScratchMark empty = {0};
  t->scratch.high = 0; /* no regrowing on the way out */
  rtScratchRelease(t, &empty);
  rtFreeKept(t->env, t->scratch.base);
  t->scratch = (RtScratch){0};
}

void rtScratchKernelStart(void) {
  RtThread *t = rtCur();
  static const RtScratchMark empty;
  const RtScratchMark *m = rtGuardScratchMark(t);
  if (m) rtScratchRelease(t, m);
  else if (!rtInParallelRegion()) rtScratchRelease(t, &empty); /* no call around it: no kernel runs */
}

float *rtScratch(int which, size_t floats) {
  if (which < 0 || which >= RT_SCRATCH_SLOTS || floats > (SIZE_MAX - 127) / sizeof(float)) return NULL;
  RtThread *t = rtCur();
  RtScratch *s = &t->scratch;
  RtScratchSlot *sl = &s->cur.slot[which];
  size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
  if (!bytes) bytes = 64;
  if (sl->p && sl->bytes >= bytes) return (float *)sl->p;
  /* the newest slot, inside the buffer: grows in place */
  if (sl->p && sl->at + sl->bytes == s->cur.top && sl->at + bytes <= s->cap && sl->p == s->base + sl->at) {
    sl->bytes = bytes;
    s->cur.top = sl->at + bytes;
    if (s->cur.top > s->high) s->high = s->cur.top;
    return (float *)sl->p;
  }
  if (bytes > SIZE_MAX - s->cur.top) return NULL;
  char *p;
  if (s->cur.top + bytes <= s->cap) {
    p = s->base + s->cur.top;
  } else {
    if (bytes > SIZE_MAX - EXTRA_HEADER) return NULL;
    RtScratchExtra *e = rtAllocKept(t->env, bytes + EXTRA_HEADER);
    if (!e) return NULL;
    e->next = s->cur.extra;
    s->cur.extra = e;
    p = (char *)e + EXTRA_HEADER;
  }
  *sl = (RtScratchSlot){p, s->cur.top, bytes};
  s->cur.top += bytes;
  if (s->cur.top > s->high) s->high = s->cur.top;
  return (float *)p;
}
