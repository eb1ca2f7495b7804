/* libstrata_rt cache of buffers derived from constant data (packed GEMM
 * operands, Winograd-transformed weights): keyed by the constant's address,
 * a kind and up to six parameters; filled once, kept until released. One
 * cache for the process (code loaded once may run in several
 * environments); each buffer comes from the environment of the call that
 * filled it and goes back to it on release or when that environment is
 * destroyed. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "rt_internal.h"

typedef struct {
  char kind;
  const void *src;
  int64_t key[6];
  float *data;
  StrataRtEnv *env;
} Entry;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static Entry *entries;
static size_t count, cap;

const float *rtConstCacheGet(char kind, const void *src, const int64_t key[6], size_t floats,
                             RtDeriveFn fill, const void *ctx) {
  StrataRtEnv *env = rtCur()->env;
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < count; i++)
    if (entries[i].kind == kind && entries[i].src == src && !memcmp(entries[i].key, key, sizeof entries[i].key)) {
      float *d = entries[i].data;
      pthread_mutex_unlock(&mu);
      return d;
    }
  float *d = floats <= SIZE_MAX / sizeof(float) ? rtAlloc(env, floats * sizeof(float)) : NULL;
  if (d && count == cap) {
    size_t n = cap ? 2 * cap : 64;
    /* the index lives in the default environment: it outlives any other */
    Entry *grown = rtAlloc(strataRtDefaultEnv(), n * sizeof *grown);
    if (grown) {
      if (count) memcpy(grown, entries, count * sizeof *grown);
      rtFree(strataRtDefaultEnv(), entries);
      entries = grown, cap = n;
    }
  }
  if (!d || count == cap) {
    rtFree(env, d);
    pthread_mutex_unlock(&mu);
    return NULL;
  }
  /* Under the lock: a second thread asking waits for it. fill never
   * raises an error (it only reorders or transforms the constant). */
  fill(d, ctx);
  entries[count] = (Entry){kind, src, {0}, d, env};
  memcpy(entries[count].key, key, sizeof entries[count].key);
  count++;
  pthread_mutex_unlock(&mu);
  return d;
}

void strataRtReleasePackedConstants(void) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < count; i++) rtFree(entries[i].env, entries[i].data);
  rtFree(strataRtDefaultEnv(), entries);
  entries = NULL;
  count = cap = 0;
  pthread_mutex_unlock(&mu);
}

void rtConstCacheDropEnv(StrataRtEnv *env) {
  pthread_mutex_lock(&mu);
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    if (entries[i].env == env) rtFree(env, entries[i].data);
    else entries[kept++] = entries[i];
  }
  count = kept;
  pthread_mutex_unlock(&mu);
}
