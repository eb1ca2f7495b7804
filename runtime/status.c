/* Runtime errors as returns: strataRtCall/strataRtCallIn set a guard on
 * their thread; rtError leaves the compiled code through it (see status.h
 * for when it cannot and aborts instead, and for the invariants). */
#include "status.h"
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "memref.h"
#include "rt_internal.h"

typedef struct Guard {
  jmp_buf env;
  struct Guard *outer;
  RtThread *thread; /* whose buffer-arena stack to rewind, */
  int frameDepth;   /* to this depth */
  bool inRegion;    /* set inside a parallel region's chunk (threadpool.c) */
  RtBlock *volatile blocks; /* what compiled code allocated in the call and holds */
  RtScratchMark scratch;    /* t's kernel scratch when the call began (scratch.c) */
} Guard;

static _Thread_local Guard *guard;
static _Thread_local char lastError[512];

const char *strataRtLastError(void) { return lastError; }

/* One lock for every guard's list: compiled code may free a block on
 * another thread than the one that allocated it (a parallel region's
 * chunk), and both ends of a node's neighbours must change together. */
static pthread_mutex_t blocksMu = PTHREAD_MUTEX_INITIALIZER;

static void push(RtBlock **head, RtBlock *b) {
  b->next = *head;
  if (b->next) b->next->pprev = &b->next;
  b->pprev = head;
  *head = b;
}

void rtBlockTrack(RtBlock *b) {
  Guard *g = guard;
  b->next = NULL;
  b->pprev = NULL;
  if (!g) return;
  pthread_mutex_lock(&blocksMu);
  push((RtBlock **)&g->blocks, b);
  pthread_mutex_unlock(&blocksMu);
}

void rtBlockUntrack(RtBlock *b) {
  pthread_mutex_lock(&blocksMu);
  if (b->pprev) {
    *b->pprev = b->next;
    if (b->next) b->next->pprev = b->pprev;
    b->pprev = NULL;
  }
  pthread_mutex_unlock(&blocksMu);
}

/* The blocks g lists, unlisted: to g->outer's list (a call that returned),
 * or freed (an error exit: the code that held them is gone, and no other
 * thread runs it any more: a region raises its error once it is over). */
static void releaseBlocks(Guard *g, bool drop) {
  pthread_mutex_lock(&blocksMu);
  RtBlock *b = g->blocks;
  g->blocks = NULL;
  for (RtBlock *next; b && !drop; b = next) {
    next = b->next;
    b->pprev = NULL;
    if (g->outer) push((RtBlock **)&g->outer->blocks, b);
  }
  pthread_mutex_unlock(&blocksMu);
  for (RtBlock *next; b; b = next) {
    next = b->next;
    rtFree(g->thread->env, b);
  }
}

/* fn(arg) under a guard on the calling thread's state t. */
static int guarded(RtThread *t, void (*fn)(void *), void *arg, char *err, size_t errSize) {
  Guard g = {.outer = guard, .thread = t, .frameDepth = t->depth, .inRegion = rtInParallelRegion(),
             .scratch = rtScratchMarkOf(t)};
  if (setjmp(g.env)) { /* only g.blocks changes after setjmp, and it is volatile */
    guard = g.outer;
    releaseBlocks(&g, true);
    rtScratchRelease(t, &g.scratch);
    if (err && errSize) snprintf(err, errSize, "%s", lastError);
    return -1;
  }
  guard = &g;
  fn(arg);
  guard = g.outer;
  if (g.blocks) releaseBlocks(&g, false);
  rtScratchRelease(t, &g.scratch);
  return 0;
}

const RtScratchMark *rtGuardScratchMark(const RtThread *t) {
  Guard *g = guard;
  return g && g->thread == t ? &g->scratch : NULL;
}

int strataRtCallIn(StrataRtEnv *env, void (*fn)(void *), void *arg, char *err, size_t errSize) {
  RtThread *t = rtThreadFor(env ? env : strataRtDefaultEnv());
  if (!t) {
    snprintf(lastError, sizeof lastError, "out of memory for the runtime's state of this thread");
    if (err && errSize) snprintf(err, errSize, "%s", lastError);
    return -1;
  }
  RtThread *saved = rtCurThread;
  rtCurThread = t;
  int rc = guarded(t, fn, arg, err, errSize);
  rtCurThread = saved;
  return rc;
}

int strataRtCall(void (*fn)(void *), void *arg, char *err, size_t errSize) {
  return strataRtCallIn(rtCurEnv(), fn, arg, err, errSize);
}

_Noreturn void rtError(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  Guard *g = guard;
  if (g && g->inRegion == rtInParallelRegion()) { /* never out of a region's chunk */
    vsnprintf(lastError, sizeof lastError, fmt, ap);
    va_end(ap);
    rtFrameRewind(g->thread, g->frameDepth);
    longjmp(g->env, 1);
  }
  fputs("strata runtime: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort(); /* no caller to return the error to (status.h) */
}

_Noreturn void rtInvariant(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("strata runtime: internal error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort(); /* a broken invariant: the listed cases in status.h */
}

void strataRtIndexErrorText(char *buf, size_t size, const char *text, int n, int64_t index, int64_t axis,
                            int64_t extent) {
  snprintf(buf, size, "%.*s index %lld is out of range for axis %lld of size %lld", n, text, (long long)index,
           (long long)axis, (long long)extent);
}

void strataRtShapeErrorText(char *buf, size_t size, const char *text, int n, int64_t kind, int64_t operand,
                            int64_t dim, int64_t got, int64_t want) {
  if (kind == 1)
    snprintf(buf, size, "%.*s dim %lld of operand %lld is %lld after padding at run time, smaller than the window (%lld)", n,
            text, (long long)dim, (long long)operand, (long long)got, (long long)want);
  else if (kind == 2)
    snprintf(buf, size, "%.*s cannot reshape %lld elements to a shape of %lld elements", n, text, (long long)got,
            (long long)want);
  else if (kind == 3)
    snprintf(buf, size, "%.*s element %lld of operand %lld is %lld at run time, below %lld", n, text, (long long)dim,
            (long long)operand, (long long)got, (long long)want);
  else if (kind == 4)
    snprintf(buf, size, "%.*s operand %lld must not be %lld at run time", n, text, (long long)operand, (long long)want);
  else if (kind == 5)
    snprintf(buf, size, "%.*s pads of dim %lld do not fit its run-time extent %lld (a result extent of %lld; edge, wrap and "
            "reflect need elements to copy, reflect pads smaller than the extent)",
            n, text, (long long)dim, (long long)got, (long long)want);
  else if (kind == 6)
    snprintf(buf, size, "%.*s axis %lld (element %lld of operand %lld) is out of range [%lld, %lld) at run time", n, text,
            (long long)got, (long long)dim, (long long)operand, -(long long)want, (long long)want);
  else if (kind == 7)
    snprintf(buf, size, "%.*s operand %lld names axis %lld %lld times at run time", n, text, (long long)operand, (long long)dim,
            (long long)got);
  else if (kind == 8)
    snprintf(buf, size, "%.*s split sizes (operand %lld) add up to %lld at run time, not the extent %lld of the axis", n, text,
            (long long)operand, (long long)got, (long long)want);
  else if (kind == 10)
    snprintf(buf, size, "%.*s scale %lld (operand %lld) is not positive at run time", n, text, (long long)dim, (long long)operand);
  else if (kind == 9)
    snprintf(buf, size, "%.*s k = %lld (operand %lld) is outside [0, %lld] at run time", n, text, (long long)got,
            (long long)operand, (long long)want);
  else if (kind == 11)
    snprintf(buf, size, "%.*s operand %lld has %lld elements at run time, more than the %lld it may have", n, text,
            (long long)operand, (long long)got, (long long)want);
  else if (kind == 13)
    snprintf(buf, size, "%.*s operand %lld holds the index %lld at run time, outside [0, %lld)", n, text, (long long)operand,
            (long long)got, (long long)want);
  else if (kind == 12)
    snprintf(buf, size, "%.*s operand %lld is outside [0, 1] at run time", n, text, (long long)operand);
  else if (kind == 15)
    snprintf(buf, size, "%.*s operand %lld holds %lld at run time, outside [%lld, %lld]", n, text, (long long)operand,
            (long long)got, (long long)dim, (long long)want);
  else if (kind == 14)
    snprintf(buf, size, "%.*s operand %lld holds %lld at run time, outside [0, %lld]", n, text, (long long)operand,
            (long long)got, (long long)want);
  else if (kind == 17)
    snprintf(buf, size, "%.*s dim %lld of operand %lld is %lld at run time, not a multiple of %lld", n, text,
            (long long)dim, (long long)operand, (long long)got, (long long)want);
  else if (kind == 18)
    snprintf(buf, size, "%.*s dim %lld of operand %lld is %lld at run time, more than the %lld of operand 0", n, text,
            (long long)dim, (long long)operand, (long long)got, (long long)want);
  else if (kind == 16)
    snprintf(buf, size, "%.*s dim %lld of argument %lld is %lld at run time where %lld is needed (the model gives it one "
            "size with an earlier argument's dim: the same symbol)", n, text, (long long)dim, (long long)operand,
            (long long)got, (long long)want);
  else
    snprintf(buf, size, "%.*s dim %lld of operand %lld is %lld at run time where %lld is needed (shapes that disagree, or an "
            "extent of 1 broadcast at run time, which dynamic shapes do not compile)",
            n, text, (long long)dim, (long long)operand, (long long)got, (long long)want);
}

void _mlir_ciface_strata_rt_index_error(int64_t index, int64_t axis, int64_t size, StrataUnrankedMemRef *site) {
  const StrataMemRefDesc *d = site->descriptor;
  char msg[sizeof lastError];
  strataRtIndexErrorText(msg, sizeof msg, (const char *)d->aligned + d->offset, (int)d->sizesAndStrides[0], index,
                         axis, size);
  rtError("%s", msg);
}

void _mlir_ciface_strata_rt_shape_error(int64_t kind, int64_t operand, int64_t dim, int64_t got, int64_t want,
                                        StrataUnrankedMemRef *site) {
  const StrataMemRefDesc *d = site->descriptor;
  char msg[sizeof lastError];
  strataRtShapeErrorText(msg, sizeof msg, (const char *)d->aligned + d->offset, (int)d->sizesAndStrides[0], kind,
                         operand, dim, got, want);
  rtError("%s", msg);
}
