/* Runtime errors as returns: strataRtCall sets a guard on its thread;
 * rtFatal leaves the compiled code through it (see status.h for when it
 * cannot and aborts instead). */
#include "status.h"
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "memref.h"
#include "rt_internal.h"

typedef struct Guard {
  jmp_buf env;
  struct Guard *outer;
  char *err;
  size_t errSize;
  int frameDepth; /* the buffer-arena stack to rewind to */
  bool inRegion;  /* set inside a parallel region's chunk (threadpool.c) */
} Guard;

static _Thread_local Guard *guard;

int strataRtCall(void (*fn)(void *), void *arg, char *err, size_t errSize) {
  Guard g = {.outer = guard, .err = err, .errSize = errSize, .frameDepth = rtFrameDepth(),
             .inRegion = rtInParallelRegion()};
  if (setjmp(g.env)) { /* g is not modified after setjmp: its fields are intact */
    guard = g.outer;
    return -1;
  }
  guard = &g;
  fn(arg);
  guard = g.outer;
  return 0;
}

_Noreturn void rtFatal(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Guard *g = guard;
  if (g && g->inRegion == rtInParallelRegion()) { /* never out of a region's chunk */
    vsnprintf(g->err, g->errSize, fmt, ap);
    va_end(ap);
    rtFrameRewind(g->frameDepth);
    longjmp(g->env, 1);
  }
  fputs("strata runtime: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

void _mlir_ciface_strata_rt_index_error(int64_t index, int64_t axis, int64_t size,
                                        StrataUnrankedMemRef *site) {
  const StrataMemRefDesc *d = site->descriptor;
  rtFatal("%.*s index %lld is out of range for axis %lld of size %lld", (int)d->sizesAndStrides[0],
        (const char *)d->aligned + d->offset, (long long)index, (long long)axis, (long long)size);
}
