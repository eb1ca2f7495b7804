/* bench/pred/placeholders (B5, docs/pred-memory.md): Grape's alias
 * predictor on 27 KV-cache-like placeholders (GPT-2's count: 12 layers'
 * keys and values and three more), 12 heads x 128 positions x 64 floats
 * (384 KB) each. A step: the "model" reads every placeholder and writes its
 * present value into its own output buffer; then input prep makes each
 * placeholder's next value -- a beam reorder of the present rows
 * (index_select over the 12 head-rows, as HF's reorder_cache creates a new
 * tensor) into a freshly allocated buffer -- and copies it into the
 * placeholder. Baseline: buffers from a caching allocator (reused, as
 * PyTorch's), produce, copy. Aliased: buffers from the runtime alias
 * predictor keyed by the placeholder's site; once predicted, the buffer is
 * the placeholder and the copy moves nothing. The two run interleaved step
 * by step in one process on their own placeholders, and their placeholders
 * are compared after every step. Prints bytes copied and the median input-
 * prep time of each, and their ratios. Not a test.
 *   placeholders [steps] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "pred_memory.h"

enum { PLACEHOLDERS = 27, HEADS = 12, POSITIONS = 128, DIM = 64, ROW = POSITIONS * DIM, FLOATS = HEADS * ROW };

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* The model's step: reads placeholder kv, writes its present value. */
static float modelStep(const float *kv, float *present, int step) {
  float s = 0;
  for (int i = 0; i < FLOATS; i++) s += kv[i], present[i] = kv[i] * 0.5f + (float)((i + step) % 5);
  return s;
}

/* The next input: the present rows in beam order. */
static void reorder(float *dst, const float *present, int step) {
  for (int h = 0; h < HEADS; h++) memcpy(dst + h * ROW, present + ((h * 5 + step) % HEADS) * ROW, ROW * sizeof(float));
}

static int byDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  int steps = argc > 1 ? atoi(argv[1]) : 40;
  if (steps < 2 || steps > 10000) return 1;
  size_t bytes = FLOATS * sizeof(float);
  float *base[PLACEHOLDERS], *alias[PLACEHOLDERS], *present[PLACEHOLDERS], *pool[PLACEHOLDERS];
  StrataRtAliasPredictor *p = strataRtAliasPredictorCreate();
  int ph[PLACEHOLDERS];
  for (int k = 0; k < PLACEHOLDERS; k++) {
    base[k] = aligned_alloc(64, bytes), alias[k] = aligned_alloc(64, bytes);
    present[k] = aligned_alloc(64, bytes), pool[k] = aligned_alloc(64, bytes);
    for (int i = 0; i < FLOATS; i++) base[k][i] = alias[k][i] = (float)((i * 7 + k) % 11);
    memset(pool[k], 0, bytes); /* touched: the caching allocator's blocks are warm */
    ph[k] = strataRtAliasAddPlaceholder(p, alias[k], bytes);
  }
  double *baseMs = malloc(sizeof(double) * (size_t)steps), *aliasMs = malloc(sizeof(double) * (size_t)steps);
  unsigned long long baseCopied = 0;
  int mismatches = 0;
  volatile float sink = 0;
  for (int step = 0; step < steps; step++) {
    /* Baseline. */
    for (int k = 0; k < PLACEHOLDERS; k++) sink += modelStep(base[k], present[k], step);
    double t0 = nowMs();
    for (int k = 0; k < PLACEHOLDERS; k++) {
      float *t = pool[k];
      reorder(t, present[k], step);
      memcpy(base[k], t, bytes);
      baseCopied += bytes;
    }
    baseMs[step] = nowMs() - t0;
    /* Aliased: the same computation on its own placeholders. */
    for (int k = 0; k < PLACEHOLDERS; k++) {
      sink += modelStep(alias[k], present[k], step);
      strataRtAliasPlaceholderDead(p, ph[k]); /* the step's last read of it */
    }
    t0 = nowMs();
    for (int k = 0; k < PLACEHOLDERS; k++) {
      StrataRtAliasBuffer *t = strataRtAliasAlloc(p, (uint64_t)k, bytes);
      if (!t) return 1;
      reorder(t->data, present[k], step);
      strataRtAliasCopyIn(p, ph[k], t->data, bytes);
      strataRtAliasRelease(p, t);
    }
    aliasMs[step] = nowMs() - t0;
    for (int k = 0; k < PLACEHOLDERS; k++) mismatches += memcmp(base[k], alias[k], bytes) != 0;
  }
  StrataRtAliasStats s;
  strataRtAliasGetStats(p, &s);
  /* Medians over the steps after the first (the aliased one records). */
  qsort(baseMs + 1, (size_t)steps - 1, sizeof(double), byDouble);
  qsort(aliasMs + 1, (size_t)steps - 1, sizeof(double), byDouble);
  double b = baseMs[1 + (steps - 1) / 2], a = aliasMs[1 + (steps - 1) / 2];
  printf("placeholders %d of %zu bytes, steps %d\n", PLACEHOLDERS, bytes, steps);
  printf("placeholders-equal %s\n", mismatches ? "NO" : "yes");
  printf("bytes-copied baseline %llu aliased %llu ratio %.1f\n", baseCopied, (unsigned long long)s.bytesCopied,
         s.bytesCopied ? (double)baseCopied / (double)s.bytesCopied : 0.0);
  printf("predictor hits %llu misses %llu copies %llu refused %llu\n", (unsigned long long)s.hits,
         (unsigned long long)s.misses, (unsigned long long)s.copies, (unsigned long long)s.refused);
  printf("input-prep-ms baseline %.3f aliased %.3f speedup %.2f\n", b, a, b / a);
  strataRtAliasPredictorDestroy(p);
  for (int k = 0; k < PLACEHOLDERS; k++) free(base[k]), free(alias[k]), free(present[k]), free(pool[k]);
  free(baseMs), free(aliasMs);
  return sink == 12345.f;
}
