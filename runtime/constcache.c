/* libstrata_rt cache of buffers derived from constant data (packed GEMM
 * operands, Winograd-transformed weights): keyed by the constant's address,
 * a kind and up to six parameters; filled once, kept until released. One
 * cache for the process (code loaded once may run in several
 * environments); each buffer comes from the environment of the call that
 * filled it and goes back to it on release or when that environment is
 * destroyed, except those a persistent cache lends (strataRtPackedConstantsAdd:
 * never freed here). */
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
  size_t floats;
  StrataRtEnv *env; /* where data came from; NULL: borrowed (strataRtPackedConstantsAdd) */
} Entry;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static Entry *entries;
static size_t count, cap;

/* Room for one more entry (under mu); false if out of memory. */
static bool grow(void) {
  if (count < cap) return true;
  size_t n = cap ? 2 * cap : 64;
  /* the index lives in the default environment: it outlives any other */
  Entry *grown = rtAlloc(strataRtDefaultEnv(), n * sizeof *grown);
  if (!grown) return false;
  if (count) memcpy(grown, entries, count * sizeof *grown);
  rtFree(strataRtDefaultEnv(), entries);
  entries = grown, cap = n;
  return true;
}

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
  if (d && !grow()) {
    rtFree(env, d);
    d = NULL;
  }
  if (!d) {
    pthread_mutex_unlock(&mu);
    return NULL;
  }
  /* Under the lock: a second thread asking waits for it. fill never
   * raises an error (it only reorders or transforms the constant). */
  fill(d, ctx);
  entries[count] = (Entry){kind, src, {0}, d, floats, env};
  memcpy(entries[count].key, key, sizeof entries[count].key);
  count++;
  pthread_mutex_unlock(&mu);
  return d;
}

size_t strataRtPackedConstantsList(StrataRtPacked *out, size_t max) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < count && i < max; i++) {
    out[i] = (StrataRtPacked){entries[i].kind, entries[i].src, {0}, entries[i].data, entries[i].floats};
    memcpy(out[i].key, entries[i].key, sizeof out[i].key);
  }
  size_t n = count;
  pthread_mutex_unlock(&mu);
  return n;
}

bool strataRtPackedConstantsAdd(const StrataRtPacked *p) {
  pthread_mutex_lock(&mu);
  bool ok = grow();
  if (ok) {
    entries[count] = (Entry){p->kind, p->src, {0}, (float *)p->data, p->floats, NULL};
    memcpy(entries[count].key, p->key, sizeof entries[count].key);
    count++;
  }
  pthread_mutex_unlock(&mu);
  return ok;
}

void strataRtReleasePackedConstants(void) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < count; i++)
    if (entries[i].env) rtFree(entries[i].env, entries[i].data);
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
