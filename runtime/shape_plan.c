/* libstrata_rt shape plans (issue 19, SOD² B6): the arena of a dynamic
 * function's intermediates, planned once per shape class.
 * strata-shape-plan (transforms/memory/shape_plan.c) gives each function
 * whose buffers have sizes that follow from its arguments' extents a slot
 * in the module's plan table and a constant description (each buffer's
 * first and last step), and rewrites its allocs and deallocs into the
 * calls below (their contract: kernel_abi.def).
 *
 * A call of a shape class the function keeps no plan for takes its buffers
 * from the heap and records their sizes; at its end they are placed and the
 * plan is kept in the function's cache (at most PLAN_CAP classes, the least
 * recently used evicted). The function's first class searches its plan
 * (strataMemPlanBest: the peak-first walk, and when its arena exceeds the
 * most bytes live at one step, largest-first and best-fit placements too,
 * the smallest kept) and keeps the plan's structure; every later class
 * re-evaluates that structure with its own sizes (strataMemPlanReuse: no
 * search, valid whatever the sizes, as SOD²'s symbolic plan), unless the
 * result is more than twice its lower bound, when it searches and keeps
 * the new structure. A later call of
 * the class opens one arena of the plan's size on the calling thread's
 * frame stack (an empty one without a plan) (frames.c: the same memory every call) and gets each buffer
 * at its planned offset; a buffer larger than its slot (a size that
 * depends on data after all) goes to the heap. The cache is shared by the
 * threads calling the function (a mutex), each call's state is its own.
 *
 * STRATA_SHAPE_PLANS=0 turns the plans off: every call takes its buffers
 * from the heap, as without strata-shape-plan (for measurements).
 *
 * STRATA_SHAPE_PLAN_CHECK=1 checks every placement: a buffer placed over
 * one still live is an internal error, and a released slot is filled with
 * 0xff bytes (NaN as floats), so a read after the planned last use shows
 * in the results. */
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "strata/mem_plan.h"
#include "rt_internal.h"

enum { PLAN_CAP = 16 };

typedef struct {
  int64_t *key;    /* the class: keyLen extents */
  int64_t *offset; /* n: each buffer's slot */
  int64_t *bytes;  /* n: its size */
  int64_t total;   /* the arena */
  int64_t live;    /* the most bytes live at one step: total's lower bound */
  uint64_t used;   /* last use, for eviction */
} Plan;

typedef struct {
  pthread_mutex_t mu;
  int64_t n, keyLen;
  int count;
  uint64_t tick;
  Plan plans[PLAN_CAP];
  /* the structure of the last plan searched (strataMemPlanBest), which a
   * new class re-evaluates before it searches */
  StrataMemPlanShape shape;
} PlanCache;

/* One call's state, in one heap block (_mlir_memref_to_llvm_alloc: freed if
 * the call stops with an error). */
typedef struct {
  PlanCache *cache;
  StrataRtEnv *env;
  int64_t n, keyLen;
  const int64_t *life; /* n pairs: first and last step */
  bool planned;        /* a kept plan serves the call: its arena is open */
  int64_t total, livePeak; /* the plan's arena and live peak */
  StrataMemRefDesc arena;
  int64_t *key, *offset, *bytes; /* the plan's, or (no plan) the sizes met */
  void **heap;                   /* buffers on the heap, by index */
  unsigned char *live;           /* check mode: slots in use */
} CallState;

/* A boolean environment variable, read once into *cache (a benign race:
 * every thread reads the same). */
static bool envFlag(int *cache, const char *name, bool unset) {
  int m = __atomic_load_n(cache, __ATOMIC_RELAXED);
  if (m < 0) {
    const char *e = getenv(name);
    m = e && *e ? strcmp(e, "0") != 0 : unset;
    __atomic_store_n(cache, m, __ATOMIC_RELAXED);
  }
  return m;
}

static bool checkMode(void) {
  static int mode = -1;
  return envFlag(&mode, "STRATA_SHAPE_PLAN_CHECK", false);
}

static bool plansOn(void) {
  static int mode = -1;
  return envFlag(&mode, "STRATA_SHAPE_PLANS", true);
}

/* The elements of a rank-1 i64 memref; their count in *count. */
static int64_t *i64Elements(const StrataUnrankedMemRef *m, int64_t *count) {
  if (!m || m->rank != 1) rtInvariant("shape plan: a table that is not 1-D");
  StrataMemRefDesc *d = m->descriptor;
  *count = d->sizesAndStrides[0];
  if (d->sizesAndStrides[1] != 1 && *count > 1) rtInvariant("shape plan: a strided table");
  return (int64_t *)d->aligned + d->offset;
}

static void freePlan(Plan *p) {
  free(p->key);
  free(p->offset);
  free(p->bytes);
  memset(p, 0, sizeof *p);
}

/* The function's cache in the table, created on first use. */
static PlanCache *cacheOf(int64_t *slot, int64_t n, int64_t keyLen) {
  PlanCache *c = (PlanCache *)(uintptr_t)__atomic_load_n(slot, __ATOMIC_ACQUIRE);
  if (c) {
    if (c->n != n || c->keyLen != keyLen) rtInvariant("shape plan: one function, two layouts");
    return c;
  }
  PlanCache *made = calloc(1, sizeof *made);
  if (!made) rtError("out of memory for a shape plan cache");
  pthread_mutex_init(&made->mu, NULL);
  made->n = n, made->keyLen = keyLen;
  int64_t expected = 0;
  if (__atomic_compare_exchange_n(slot, &expected, (int64_t)(uintptr_t)made, false, __ATOMIC_ACQ_REL,
                                  __ATOMIC_ACQUIRE))
    return made;
  pthread_mutex_destroy(&made->mu);
  free(made);
  return cacheOf(slot, n, keyLen);
}

static Plan *findPlan(PlanCache *c, const int64_t *key) {
  for (int i = 0; i < c->count; i++)
    if (!memcmp(c->plans[i].key, key, sizeof *key * (size_t)c->keyLen)) return &c->plans[i];
  return NULL;
}

static void setDesc(StrataMemRefDesc *out, void *p, int64_t bytes) {
  out->allocated = out->aligned = p;
  out->offset = 0;
  out->sizesAndStrides[0] = bytes;
  out->sizesAndStrides[1] = 1;
}

static void keepPlan(CallState *st, bool serve);

void _mlir_ciface_strata_rt_shape_plan_begin(StrataMemRefDesc *out, StrataUnrankedMemRef *table,
                                             StrataUnrankedMemRef *life, StrataUnrankedMemRef *key,
                                             StrataUnrankedMemRef *sizes) {
  int64_t numTable, numLife, keyLen, numSizes;
  int64_t *tab = i64Elements(table, &numTable), *desc = i64Elements(life, &numLife);
  const int64_t *k = i64Elements(key, &keyLen), *entrySizes = i64Elements(sizes, &numSizes);
  if (numTable < 1 || numLife < 2 || desc[0] < 0 || desc[0] >= tab[0] || tab[0] + 1 > numTable || desc[1] < 0 ||
      numLife != 2 + 2 * desc[1])
    rtInvariant("shape plan: a malformed function description");
  int64_t n = desc[1];
  PlanCache *cache = cacheOf(&tab[1 + desc[0]], n, keyLen);
  size_t bytes = sizeof(CallState) + sizeof(int64_t) * (size_t)(keyLen + 2 * n) + sizeof(void *) * (size_t)n +
                 (size_t)n;
  CallState *st = _mlir_memref_to_llvm_alloc(bytes);
  memset(st, 0, bytes);
  st->cache = cache, st->env = rtCurEnv(), st->n = n, st->keyLen = keyLen, st->life = desc + 2;
  st->heap = (void **)(st + 1);
  st->key = (int64_t *)(st->heap + n);
  st->offset = st->key + keyLen;
  st->bytes = st->offset + n;
  st->live = (unsigned char *)(st->bytes + n);
  memcpy(st->key, k, sizeof *k * (size_t)keyLen);
  pthread_mutex_lock(&cache->mu);
  Plan *p = plansOn() ? findPlan(cache, k) : NULL;
  if (p) {
    p->used = ++cache->tick;
    memcpy(st->offset, p->offset, sizeof *p->offset * (size_t)n);
    memcpy(st->bytes, p->bytes, sizeof *p->bytes * (size_t)n);
    st->total = p->total;
    st->livePeak = p->live;
    st->planned = true;
  }
  pthread_mutex_unlock(&cache->mu);
  bool known = !p && plansOn() && numSizes == n && n > 0;
  for (int64_t i = 0; known && i < n; i++) known = entrySizes[i] >= 0;
  if (known) { /* the class's sizes, computed at entry: planned now, this call served too */
    memcpy(st->bytes, entrySizes, sizeof *entrySizes * (size_t)n);
    keepPlan(st, true);
  } else if (st->planned) {
    __atomic_add_fetch(&st->env->plans.reused, 1, __ATOMIC_RELAXED);
    __atomic_store_n(&st->env->plans.lastArenaBytes, st->total, __ATOMIC_RELAXED);
    __atomic_store_n(&st->env->plans.lastLiveBytes, st->livePeak, __ATOMIC_RELAXED);
  }
  /* an empty frame without a plan: the frames the function pushes next
   * (strata-buffer-arena's) sit at the same depth in every call, so each
   * keeps reusing its own memory */
  _mlir_ciface_strata_rt_frame_push(&st->arena, st->total);
  setDesc(out, st, (int64_t)bytes);
}

static CallState *stateOf(const StrataMemRefDesc *call, int64_t index) {
  CallState *st = call->aligned;
  if (index < 0 || index >= st->n) rtInvariant("shape plan: buffer %lld of %lld", (long long)index, (long long)st->n);
  return st;
}

/* Check mode: buffer i's slot overlaps no live one. */
static void checkSlot(const CallState *st, int64_t i) {
  for (int64_t k = 0; k < st->n; k++)
    if (st->live[k] && st->bytes[k] > 0 && st->bytes[i] > 0 && st->offset[i] < st->offset[k] + st->bytes[k] &&
        st->offset[k] < st->offset[i] + st->bytes[i])
      rtInvariant("shape plan: buffer %lld placed over live buffer %lld", (long long)i, (long long)k);
}

void _mlir_ciface_strata_rt_shape_plan_alloc(StrataMemRefDesc *out, StrataMemRefDesc *call, int64_t index,
                                             int64_t bytes) {
  CallState *st = stateOf(call, index);
  if (bytes < 0) rtInvariant("shape plan: a negative size");
  if (st->heap[index] || st->live[index]) rtInvariant("shape plan: buffer %lld allocated twice", (long long)index);
  if (st->planned && bytes <= st->bytes[index]) {
    if (checkMode()) checkSlot(st, index);
    st->live[index] = 1;
    setDesc(out, (char *)st->arena.aligned + st->offset[index], bytes);
    return;
  }
  void *p = _mlir_memref_to_llvm_alloc((size_t)bytes);
  st->heap[index] = p;
  if (st->planned) __atomic_add_fetch(&st->env->plans.heapBuffers, 1, __ATOMIC_RELAXED);
  else if (bytes > st->bytes[index]) st->bytes[index] = bytes;
  setDesc(out, p, bytes);
}

void _mlir_ciface_strata_rt_shape_plan_free(StrataMemRefDesc *call, int64_t index) {
  CallState *st = stateOf(call, index);
  if (st->heap[index]) {
    _mlir_memref_to_llvm_free(st->heap[index]);
    st->heap[index] = NULL;
  } else if (st->live[index]) {
    if (checkMode()) memset((char *)st->arena.aligned + st->offset[index], 0xff, (size_t)st->bytes[index]);
    st->live[index] = 0;
  }
}

/* SOD²'s plan is symbolic: a new class does not search again but
 * re-evaluates the structure of the plan last searched with its own sizes
 * (strataMemPlanReuse: each buffer on top of those below it in the
 * structure that are live with it, so the plan is valid whatever the
 * sizes). Only a structure that has become wasteful is searched again: an
 * arena more than twice its lower bound (the most bytes live at one
 * step). False to search. */
static bool reuseShape(PlanCache *c, const StrataMemTensor *t, int64_t n, Plan *p) {
  bool reused = false;
  pthread_mutex_lock(&c->mu);
  if (c->shape.order) {
    int64_t total = strataMemPlanReuse(t, (size_t)n, &c->shape, p->offset);
    reused = total >= 0 && (double)total <= (double)p->live * 2;
    if (reused) p->total = total;
  }
  pthread_mutex_unlock(&c->mu);
  return reused;
}

/* Searches the plan of `t` and keeps its structure for the classes after. */
static int64_t searchPlan(PlanCache *c, const StrataMemTensor *t, int64_t n, Plan *p) {
  StrataMemPlanShape shape = {malloc(sizeof(size_t) * (size_t)(n ? n : 1))};
  int64_t total = strataMemPlanBest(t, (size_t)n, p->offset, shape.order ? &shape : NULL);
  if (total < 0 || !shape.order) {
    free(shape.order);
    return total;
  }
  pthread_mutex_lock(&c->mu);
  free(c->shape.order);
  c->shape = shape;
  pthread_mutex_unlock(&c->mu);
  return total;
}

/* Plans the sizes a call without a plan met (at its end), or those its
 * code computed at entry (serve: the call then takes its buffers from the
 * plan), and keeps the plan unless another thread kept one for the class
 * meanwhile. */
static void keepPlan(CallState *st, bool serve) {
  int64_t n = st->n;
  StrataMemTensor *t = calloc((size_t)(n ? n : 1), sizeof *t);
  Plan p = {malloc(sizeof(int64_t) * (size_t)(st->keyLen ? st->keyLen : 1)),
            malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), malloc(sizeof(int64_t) * (size_t)(n ? n : 1)), 0, 0, 0};
  if (!t || !p.key || !p.offset || !p.bytes) {
    free(t);
    freePlan(&p);
    return; /* no plan kept: the next call of the class plans again */
  }
  for (int64_t i = 0; i < n; i++) t[i] = (StrataMemTensor){st->bytes[i], st->life[2 * i], st->life[2 * i + 1]};
  p.live = strataMemPlanLivePeak(t, (size_t)n);
  bool searched = !reuseShape(st->cache, t, n, &p);
  if (searched) p.total = searchPlan(st->cache, t, n, &p);
  free(t);
  if (p.total < 0 && serve) { /* sizes past int64 at entry: the allocs fail cleanly, from the heap */
    freePlan(&p);
    return;
  }
  if (p.total < 0) rtInvariant("shape plan: the buffers cannot be planned");
  memcpy(p.key, st->key, sizeof *p.key * (size_t)st->keyLen);
  memcpy(p.bytes, st->bytes, sizeof *p.bytes * (size_t)n);
  if (serve) {
    memcpy(st->offset, p.offset, sizeof *p.offset * (size_t)n);
    st->total = p.total, st->livePeak = p.live, st->planned = true;
    __atomic_add_fetch(&st->env->plans.atEntry, 1, __ATOMIC_RELAXED);
  }
  PlanCache *c = st->cache;
  pthread_mutex_lock(&c->mu);
  if (findPlan(c, st->key)) {
    pthread_mutex_unlock(&c->mu);
    freePlan(&p);
    return;
  }
  Plan *slot = &c->plans[c->count < PLAN_CAP ? c->count++ : 0];
  if (slot->key) { /* full: the least recently used goes */
    for (int i = 1; i < PLAN_CAP; i++)
      if (c->plans[i].used < slot->used) slot = &c->plans[i];
    freePlan(slot);
    __atomic_add_fetch(&st->env->plans.evicted, 1, __ATOMIC_RELAXED);
  }
  p.used = ++c->tick;
  *slot = p;
  pthread_mutex_unlock(&c->mu);
  __atomic_add_fetch(&st->env->plans.computed, 1, __ATOMIC_RELAXED);
  if (!searched) __atomic_add_fetch(&st->env->plans.rebased, 1, __ATOMIC_RELAXED);
  __atomic_store_n(&st->env->plans.lastArenaBytes, p.total, __ATOMIC_RELAXED);
  __atomic_store_n(&st->env->plans.lastLiveBytes, p.live, __ATOMIC_RELAXED);
}

void _mlir_ciface_strata_rt_shape_plan_end(StrataMemRefDesc *call) {
  CallState *st = call->aligned;
  for (int64_t i = 0; i < st->n; i++) /* a buffer the code did not release */
    if (st->heap[i]) _mlir_memref_to_llvm_free(st->heap[i]);
  _mlir_ciface_strata_rt_frame_pop(&st->arena);
  if (!st->planned && plansOn()) keepPlan(st, false);
  _mlir_memref_to_llvm_free(st);
}

void strataRtShapePlansRelease(int64_t *table) {
  if (!table) return;
  for (int64_t i = 1; i <= table[0]; i++) {
    PlanCache *c = (PlanCache *)(uintptr_t)table[i];
    if (!c) continue;
    for (int k = 0; k < c->count; k++) freePlan(&c->plans[k]);
    free(c->shape.order);
    pthread_mutex_destroy(&c->mu);
    free(c);
    table[i] = 0;
  }
}

void strataRtEnvShapePlanStats(const StrataRtEnv *env, StrataRtShapePlanStats *out) {
  const StrataRtShapePlanStats *s = &(env ? env : strataRtDefaultEnv())->plans;
  out->computed = __atomic_load_n(&s->computed, __ATOMIC_RELAXED);
  out->reused = __atomic_load_n(&s->reused, __ATOMIC_RELAXED);
  out->rebased = __atomic_load_n(&s->rebased, __ATOMIC_RELAXED);
  out->atEntry = __atomic_load_n(&s->atEntry, __ATOMIC_RELAXED);
  out->heapBuffers = __atomic_load_n(&s->heapBuffers, __ATOMIC_RELAXED);
  out->evicted = __atomic_load_n(&s->evicted, __ATOMIC_RELAXED);
  out->lastArenaBytes = __atomic_load_n(&s->lastArenaBytes, __ATOMIC_RELAXED);
  out->lastLiveBytes = __atomic_load_n(&s->lastLiveBytes, __ATOMIC_RELAXED);
}

void strataRtEnvResetShapePlanStats(StrataRtEnv *env) {
  StrataRtShapePlanStats *s = &(env ? env : strataRtDefaultEnv())->plans;
  __atomic_store_n(&s->computed, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->reused, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->rebased, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->atEntry, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->heapBuffers, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->evicted, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->lastArenaBytes, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&s->lastLiveBytes, 0, __ATOMIC_RELAXED);
}
