/* T16 (docs/pred-memory.md): the runtime alias predictor over three steps
 * of a KV-cache-like loop. Step 1 records which allocation site produces
 * the placeholder's value; step 2 is given the placeholder's region at that
 * site, so its copy in moves nothing; step 3 reassigns the value (the
 * buffer from the site is kept and read, another one is copied in): a
 * misprediction, detected at the copy, whose holder is moved out of the
 * region first. Every step's placeholder contents and the kept buffer are
 * compared with the same loop computed with plain copies. Then the
 * liveness rule and the API's refusals.
 * RUN: %capi/alias_predictor | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pred_memory.h"

enum { N = 4096, SITE_KV = 42, SITE_OTHER = 7 };

/* One step's "model": reads the cache (its last read of it), writes its
 * output h and returns a scalar. */
static float run(const float *kv, float *h) {
  float s = 0;
  for (int i = 0; i < N; i++) s += kv[i] * (float)(i % 7), h[i] = kv[i] * 0.5f;
  return s;
}

/* The next cache value, from the step's outputs only. */
static void produce(float *out, const float *h, float y, int step) {
  for (int i = 0; i < N; i++) out[i] = h[i] + y * 1e-6f + (float)(step * i % 13);
}

static void printStats(const char *when, const StrataRtAliasPredictor *p) {
  StrataRtAliasStats s;
  strataRtAliasGetStats(p, &s);
  printf("%s: allocs %llu predicted %llu refused %llu hits %llu misses %llu copies %llu bytes %llu evictions %llu\n",
         when, (unsigned long long)s.allocs, (unsigned long long)s.predicted, (unsigned long long)s.refused,
         (unsigned long long)s.hits, (unsigned long long)s.misses, (unsigned long long)s.copies,
         (unsigned long long)s.bytesCopied, (unsigned long long)s.evictions);
}

int main(void) {
  float *kv = calloc(N, sizeof *kv), *ref = calloc(N, sizeof *ref), tmp[N], kept[N], h[N];
  for (int i = 0; i < N; i++) kv[i] = ref[i] = (float)i;
  StrataRtAliasPredictor *p = strataRtAliasPredictorCreate();
  int ph = strataRtAliasAddPlaceholder(p, kv, N * sizeof *kv);
  printf("placeholder %d\n", ph);
  // CHECK: placeholder 0

  for (int step = 1; step <= 3; step++) {
    /* The reference: plain buffers and copies. */
    float yRef = run(ref, h);
    produce(tmp, h, yRef, step);
    if (step == 3) {
      memcpy(kept, tmp, sizeof tmp);
      for (int i = 0; i < N; i++) tmp[i] = -kept[i];
    }
    memcpy(ref, tmp, sizeof tmp);

    float y = run(kv, h);
    strataRtAliasPlaceholderDead(p, ph); /* the step's last read of kv is done */
    StrataRtAliasBuffer *t = strataRtAliasAlloc(p, SITE_KV, N * sizeof(float));
    printf("step %d: site buffer is the placeholder: %s\n", step, t->data == (void *)kv ? "yes" : "no");
    produce(t->data, h, y, step);
    StrataRtAliasBuffer *in = t, *other = NULL;
    if (step == 3) {
      /* The injected reassignment: the value copied in is another
       * buffer; t stays alive and is read after the copy. */
      other = strataRtAliasAlloc(p, SITE_OTHER, N * sizeof(float));
      for (int i = 0; i < N; i++) ((float *)other->data)[i] = -((float *)t->data)[i];
      in = other;
    }
    strataRtAliasCopyIn(p, ph, in->data, N * sizeof(float));
    printf("step %d: placeholder %s", step, memcmp(kv, ref, sizeof tmp) ? "WRONG" : "correct");
    if (step == 3)
      printf(", kept buffer %s, moved out: %s", memcmp(t->data, kept, sizeof kept) ? "WRONG" : "correct",
             t->data != (void *)kv ? "yes" : "no");
    printf("\n");
    strataRtAliasRelease(p, t);
    strataRtAliasRelease(p, other);
    printStats("  counters", p);
  }
  // CHECK: step 1: site buffer is the placeholder: no
  // CHECK: step 1: placeholder correct
  // CHECK:   counters: allocs 1 predicted 0 refused 0 hits 0 misses 0 copies 1 bytes 16384 evictions 0
  // CHECK: step 2: site buffer is the placeholder: yes
  // CHECK: step 2: placeholder correct
  // CHECK:   counters: allocs 2 predicted 1 refused 0 hits 1 misses 0 copies 1 bytes 16384 evictions 0
  // CHECK: step 3: site buffer is the placeholder: yes
  // CHECK: step 3: placeholder correct, kept buffer correct, moved out: yes
  // CHECK:   counters: allocs 4 predicted 2 refused 0 hits 1 misses 1 copies 2 bytes 49152 evictions 1

  /* The liveness rule: the placeholder was just written (live), so the
   * site's next allocation gets fresh memory; once it is dead, the region. */
  StrataRtAliasBuffer *a = strataRtAliasAlloc(p, SITE_KV, N * sizeof(float));
  printf("live placeholder handed out: %s\n", a->data == (void *)kv ? "yes" : "no");
  // CHECK: live placeholder handed out: no
  strataRtAliasRelease(p, a);
  strataRtAliasPlaceholderDead(p, ph);
  a = strataRtAliasAlloc(p, SITE_KV, N * sizeof(float));
  StrataRtAliasBuffer *b = strataRtAliasAlloc(p, SITE_KV, N * sizeof(float));
  printf("dead placeholder handed out: %s, twice: %s\n", a->data == (void *)kv ? "yes" : "no",
         b->data == (void *)kv ? "yes" : "no");
  // CHECK: dead placeholder handed out: yes, twice: no
  strataRtAliasRelease(p, a);
  strataRtAliasRelease(p, b);
  StrataRtAliasBuffer *big = strataRtAliasAlloc(p, SITE_KV, 2 * N * sizeof(float));
  printf("larger than the placeholder handed out: %s\n", big->data == (void *)kv ? "yes" : "no");
  // CHECK: larger than the placeholder handed out: no
  strataRtAliasRelease(p, big);
  printStats("refusals", p);
  // CHECK: refusals: allocs 8 predicted 3 refused 3

  /* A site that feeds two placeholders is never predicted again. */
  float *kv2 = calloc(N, sizeof *kv2);
  int ph2 = strataRtAliasAddPlaceholder(p, kv2, N * sizeof *kv2);
  StrataRtAliasBuffer *c = strataRtAliasAlloc(p, 99, N * sizeof(float));
  memset(c->data, 0, N * sizeof(float));
  strataRtAliasCopyIn(p, ph, c->data, N * sizeof(float));
  strataRtAliasCopyIn(p, ph2, c->data, N * sizeof(float));
  strataRtAliasRelease(p, c);
  strataRtAliasPlaceholderDead(p, ph);
  strataRtAliasPlaceholderDead(p, ph2);
  c = strataRtAliasAlloc(p, 99, N * sizeof(float));
  printf("ambiguous site predicted: %s\n", c->data == (void *)kv || c->data == (void *)kv2 ? "yes" : "no");
  // CHECK: ambiguous site predicted: no
  strataRtAliasRelease(p, c);

  /* Refusals of the API. */
  printf("overlap %d, empty %d, unknown dead %d, unknown copy %d, too large %d\n",
         strataRtAliasAddPlaceholder(p, kv + 8, 64), strataRtAliasAddPlaceholder(p, tmp, 0),
         strataRtAliasPlaceholderDead(p, 5), strataRtAliasCopyIn(p, -1, tmp, 4),
         strataRtAliasCopyIn(p, ph, tmp, 2 * N * sizeof(float)));
  // CHECK: overlap -1, empty -1, unknown dead -1, unknown copy -1, too large -1
  strataRtAliasPredictorDestroy(p);
  free(kv), free(kv2), free(ref);
  return 0;
}
