/* libstrata_rt cache of buffers derived from constant data (packed GEMM
 * operands, Winograd-transformed weights): keyed by the constant's address,
 * a kind and up to six parameters; filled once, kept until released. */
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
} Entry;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static Entry *entries;
static size_t count, cap;

const float *rtConstCacheGet(char kind, const void *src, const int64_t key[6], size_t floats,
                             RtDeriveFn fill, const void *ctx) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < count; i++)
    if (entries[i].kind == kind && entries[i].src == src && !memcmp(entries[i].key, key, sizeof entries[i].key)) {
      float *d = entries[i].data;
      pthread_mutex_unlock(&mu);
      return d;
    }
  size_t bytes = (floats * sizeof(float) + 63) / 64 * 64;
  float *d = floats <= SIZE_MAX / sizeof(float) - 64 ? aligned_alloc(64, bytes ? bytes : 64) : NULL;
  if (d && count == cap) {
    size_t n = cap ? 2 * cap : 64;
    Entry *grown = realloc(entries, n * sizeof *grown);
    if (grown) entries = grown, cap = n;
  }
  if (!d || count == cap) {
    free(d);
    pthread_mutex_unlock(&mu);
    return NULL;
  }
  fill(d, ctx); /* under the lock: a second thread asking waits for it */
  entries[count] = (Entry){kind, src, {0}, d};
  memcpy(entries[count].key, key, sizeof entries[count].key);
  count++;
  pthread_mutex_unlock(&mu);
  return d;
}

void strataRtReleasePackedConstants(void) {
  pthread_mutex_lock(&mu);
  for (size_t i = 0; i < count; i++) free(entries[i].data);
  free(entries);
  entries = NULL;
  count = cap = 0;
  pthread_mutex_unlock(&mu);
}
