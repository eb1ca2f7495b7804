/* libstrata_rt frame stack: the arenas strata-buffer-arena plans. Each
 * thread has a stack of slots; a call's push takes the slot at the current
 * depth (growing it only if too small) and its pop releases it, so the
 * same function on the same thread reuses the same memory every run, and
 * nested or concurrent calls get their own. */
#include <pthread.h>
#include <stdlib.h>
#include "kernels.h"
#include "memref.h"
#include "rt_internal.h"

typedef struct {
  void *p;
  int64_t cap;
} Slot;

typedef struct {
  Slot *slots;
  int depth, count;
} Frames;

static pthread_key_t key;
static pthread_once_t keyOnce = PTHREAD_ONCE_INIT;
static _Thread_local Frames frames;

static void freeFrames(Frames *f) {
  for (int i = 0; i < f->count; i++) free(f->slots[i].p);
  free(f->slots);
  *f = (Frames){NULL, 0, 0};
}

static void threadExit(void *arg) { freeFrames(arg); }
static void processExit(void) { freeFrames(&frames); } /* the exiting (main) thread */
static void makeKey(void) {
  pthread_key_create(&key, threadExit);
  atexit(processExit);
}

int rtFrameDepth(void) { return frames.depth; }

/* A call left through an error (status.c) never pops its frames. */
void rtFrameRewind(int depth) {
  if (depth < frames.depth) frames.depth = depth;
}

void _mlir_ciface_strata_rt_frame_push(StrataMemRefDesc *out, int64_t bytes) {
  Frames *f = &frames;
  if (f->depth == f->count) {
    pthread_once(&keyOnce, makeKey);
    Slot *grown = realloc(f->slots, sizeof *grown * (size_t)(f->count + 8));
    if (!grown) rtFatal("out of memory for a buffer arena");
    for (int i = f->count; i < f->count + 8; i++) grown[i] = (Slot){NULL, 0};
    f->slots = grown;
    f->count += 8;
    pthread_setspecific(key, f);
  }
  Slot *s = &f->slots[f->depth];
  if (s->cap < bytes) {
    free(s->p);
    s->cap = (bytes + 63) / 64 * 64;
    s->p = aligned_alloc(64, (size_t)(s->cap ? s->cap : 64));
    if (!s->p) {
      s->cap = 0;
      rtFatal("out of memory for a buffer arena of %lld bytes", (long long)bytes);
    }
  }
  f->depth++;
  out->allocated = out->aligned = s->p;
  out->offset = 0;
  out->sizesAndStrides[0] = bytes;
  out->sizesAndStrides[1] = 1;
}

void _mlir_ciface_strata_rt_frame_pop(StrataMemRefDesc *arena) {
  Frames *f = &frames;
  if (f->depth == 0 || f->slots[f->depth - 1].p != arena->allocated)
    rtFatal("buffer arena released out of order");
  f->depth--;
}

void _mlir_ciface_strata_rt_frame_slot(StrataMemRefDesc *out, StrataMemRefDesc *arena, int64_t offset,
                                       int64_t bytes) {
  if (offset < 0 || bytes < 0 || offset + bytes > arena->sizesAndStrides[0])
    rtFatal("buffer arena slot out of range");
  out->allocated = out->aligned = (char *)arena->aligned + arena->offset + offset;
  out->offset = 0;
  out->sizesAndStrides[0] = bytes;
  out->sizesAndStrides[1] = 1;
}
