/* libstrata_rt alias predictor for placeholders (Grape's, pred_memory.h
 * states the protocol and the liveness rule). Sites and placeholders are
 * few (tens: one per KV-cache input), so both are plain arrays searched
 * linearly; buffers are individually allocated so that their addresses
 * stay valid for their holders while the predictor's arrays grow. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "pred_memory.h"

typedef struct {
  unsigned char *region;
  size_t bytes;
  bool dead;                   /* strataRtAliasPlaceholderDead since the last copy in */
  StrataRtAliasBuffer *holder; /* the buffer given the region, if any */
} Placeholder;

/* What a site has generated: -1 nothing yet, -2 two placeholders
 * (ambiguous: never predicted), else the placeholder. */
typedef struct {
  uint64_t site;
  int ph;
} Site;

typedef struct {
  StrataRtAliasBuffer pub; /* first: a StrataRtAliasBuffer * is a Buffer * */
  uint64_t site;
  int ph; /* the placeholder whose region it holds, or -1 (fresh memory) */
} Buffer;

struct StrataRtAliasPredictor {
  Placeholder *phs;
  size_t numPhs, capPhs;
  Site *sites;
  size_t numSites, capSites;
  Buffer **live; /* buffers handed out and not released */
  size_t numLive, capLive;
  StrataRtAliasStats stats;
};

StrataRtAliasPredictor *strataRtAliasPredictorCreate(void) { return calloc(1, sizeof(StrataRtAliasPredictor)); }

void strataRtAliasPredictorDestroy(StrataRtAliasPredictor *p) {
  if (!p) return;
  for (size_t i = 0; i < p->numLive; i++) {
    if (p->live[i]->ph < 0) free(p->live[i]->pub.data);
    free(p->live[i]);
  }
  free(p->live);
  free(p->phs);
  free(p->sites);
  free(p);
}

int strataRtAliasAddPlaceholder(StrataRtAliasPredictor *p, void *region, size_t bytes) {
  unsigned char *r = region;
  if (!r || bytes == 0 || p->numPhs >= (size_t)INT32_MAX) return -1;
  for (size_t i = 0; i < p->numPhs; i++)
    if (r < p->phs[i].region + p->phs[i].bytes && p->phs[i].region < r + bytes) return -1;
  Placeholder *grown = strataGrow(p->phs, &p->capPhs, p->numPhs + 1, sizeof *grown);
  if (!grown) return -1;
  p->phs = grown;
  p->phs[p->numPhs] = (Placeholder){r, bytes, false, NULL};
  return (int)p->numPhs++;
}

static Placeholder *placeholder(StrataRtAliasPredictor *p, int ph) {
  return ph >= 0 && (size_t)ph < p->numPhs ? &p->phs[ph] : NULL;
}

int strataRtAliasPlaceholderDead(StrataRtAliasPredictor *p, int ph) {
  Placeholder *h = placeholder(p, ph);
  if (!h) return -1;
  h->dead = true;
  return 0;
}

static Site *findSite(StrataRtAliasPredictor *p, uint64_t site) {
  for (size_t i = 0; i < p->numSites; i++)
    if (p->sites[i].site == site) return &p->sites[i];
  return NULL;
}

static void *freshMemory(size_t bytes) {
  size_t rounded = (bytes + 63) / 64 * 64;
  return rounded >= bytes ? aligned_alloc(64, rounded ? rounded : 64) : NULL;
}

StrataRtAliasBuffer *strataRtAliasAlloc(StrataRtAliasPredictor *p, uint64_t site, size_t bytes) {
  Buffer **live = strataGrow(p->live, &p->capLive, p->numLive + 1, sizeof *live);
  Buffer *b = live ? malloc(sizeof *b) : NULL;
  if (!b) return NULL;
  p->live = live;
  *b = (Buffer){{NULL, bytes}, site, -1};
  p->stats.allocs++;
  const Site *s = findSite(p, site);
  if (s && s->ph >= 0) {
    Placeholder *h = &p->phs[s->ph];
    /* The liveness rule: dead, not already given out, large enough. */
    if (h->dead && !h->holder && bytes <= h->bytes) {
      b->pub.data = h->region;
      b->ph = s->ph;
      h->holder = &b->pub;
      p->stats.predicted++;
    } else {
      p->stats.refused++;
    }
  }
  if (!b->pub.data && !(b->pub.data = freshMemory(bytes))) {
    free(b);
    return NULL;
  }
  p->live[p->numLive++] = b;
  return &b->pub;
}

static Buffer *findLive(StrataRtAliasPredictor *p, const void *data, size_t *at) {
  for (size_t i = 0; i < p->numLive; i++)
    if (p->live[i]->pub.data == data) {
      if (at) *at = i;
      return p->live[i];
    }
  return NULL;
}

void strataRtAliasRelease(StrataRtAliasPredictor *p, StrataRtAliasBuffer *pub) {
  size_t at;
  Buffer *b = pub ? findLive(p, pub->data, &at) : NULL;
  if (!b || &b->pub != pub) return;
  if (b->ph >= 0) p->phs[b->ph].holder = NULL;
  else free(b->pub.data);
  p->live[at] = p->live[--p->numLive];
  free(b);
}

/* Records that a buffer from `site` was copied into placeholder ph. */
static int recordSite(StrataRtAliasPredictor *p, uint64_t site, int ph) {
  Site *s = findSite(p, site);
  if (s) {
    if (s->ph != ph) s->ph = -2; /* fed two placeholders: ambiguous */
    return 0;
  }
  Site *grown = strataGrow(p->sites, &p->capSites, p->numSites + 1, sizeof *grown);
  if (!grown) return -1;
  p->sites = grown;
  p->sites[p->numSites++] = (Site){site, ph};
  return 0;
}

int strataRtAliasCopyIn(StrataRtAliasPredictor *p, int ph, const void *src, size_t bytes) {
  Placeholder *h = placeholder(p, ph);
  if (!h || bytes > h->bytes || (!src && bytes)) return -1;
  Buffer *from = findLive(p, src, NULL);
  if (from && recordSite(p, from->site, ph)) return -1;
  if (src == h->region) {
    p->stats.hits++; /* the predicted buffer itself: nothing moves */
  } else {
    Buffer *holder = (Buffer *)h->holder;
    if (holder) {
      /* A misprediction: the buffer given ph's region is not the value
       * copied in. Move its data out before ph is overwritten. */
      void *moved = freshMemory(holder->pub.bytes);
      if (!moved) return -1;
      memcpy(moved, h->region, holder->pub.bytes);
      holder->pub.data = moved;
      holder->ph = -1;
      h->holder = NULL;
      p->stats.evictions++;
      p->stats.bytesCopied += holder->pub.bytes;
      p->stats.misses++;
    }
    memmove(h->region, src, bytes);
    p->stats.copies++;
    p->stats.bytesCopied += bytes;
  }
  h->dead = false;
  return 0;
}

void strataRtAliasGetStats(const StrataRtAliasPredictor *p, StrataRtAliasStats *out) { *out = p->stats; }
