/* Reading the model cache's files (cachefile.h; modelcache.c writes them),
 * in plain C: the compiler's cache hit and the launcher's read them alike.
 * The file is mapped and its weights bound where they lie (no read, no
 * copy: pages come from the page cache as the code touches them); every
 * size and checksum is checked, and a file that does not match is a miss. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cachefile.h"
#include "rt_symbols.h"

enum { kPage = STRATA_MODEL_PAGE, kAlign = STRATA_MODEL_ALIGN };

typedef struct {
  const char *p, *end;
} Reader;

static bool getU64(Reader *r, uint64_t *v) {
  if ((size_t)(r->end - r->p) < sizeof *v) return false;
  memcpy(v, r->p, sizeof *v);
  r->p += sizeof *v;
  return true;
}

/* A length-prefixed text, as a NUL-terminated copy. */
static char *getText(Reader *r) {
  uint64_t n;
  if (!getU64(r, &n) || n > (uint64_t)(r->end - r->p)) return NULL;
  char *s = strndup(r->p, (size_t)n);
  r->p += n;
  return s;
}

void strataParamsDestroy(StrataParams *p) {
  if (!p) return;
  for (int i = 0; i < p->count; i++) free(p->entries[i].name);
  free(p->entries);
  free(p->blob);
  free(p);
}

/* Lets the kernel take back the whole pages of [p, p + n) a checksum
 * brought in: a weight the runtime has packed (getPacked) is not read
 * again, and the others come back from the page cache when the code reads
 * them, so the weights never all count in the process's memory at once. */
void strataModelDropPages(const void *p, size_t n) {
  uintptr_t lo = ((uintptr_t)p + kPage - 1) / kPage * kPage, hi = ((uintptr_t)p + n) / kPage * kPage;
  if (hi > lo) madvise((void *)lo, hi - lo, MADV_DONTNEED);
}

/* The weights' table: entries into the mapped data, each checked
 * against its checksum. */
static StrataParams *getParams(Reader *r, const char *data, uint64_t dataSize) {
  uint64_t count;
  if (!getU64(r, &count) || count > (uint64_t)(r->end - r->p)) return NULL;
  StrataParams *p = calloc(1, sizeof *p);
  if (!p || !(p->entries = calloc(count ? count : 1, sizeof *p->entries))) {
    free(p);
    return NULL;
  }
  for (uint64_t i = 0; i < count; i++) {
    StrataParam *e = &p->entries[i];
    uint64_t bytes, offset, sum;
    if (!(e->name = getText(r)) || (p->count++, !getU64(r, &bytes)) || !getU64(r, &offset) || !getU64(r, &sum) ||
        offset % kAlign || offset > dataSize || bytes > dataSize - offset ||
        strataCacheChecksum(data + offset, (size_t)bytes) != sum) {
      strataParamsDestroy(p);
      return NULL;
    }
    e->data = (const unsigned char *)data + offset, e->bytes = (size_t)bytes;
    strataModelDropPages(e->data, e->bytes);
  }
  return p;
}

/* The file mapped when its size and meta checksum match (each weight's
 * checksum is checked by getParams); NULL else. */
static char *mapWhole(const char *path, StrataModelHeader *h) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof *h)
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return NULL;
  memcpy(h, map, sizeof *h);
  bool whole = !memcmp(h->magic, STRATA_MODEL_MAGIC, sizeof STRATA_MODEL_MAGIC) && h->fileSize == (uint64_t)st.st_size &&
               h->metaSize <= h->fileSize - sizeof *h && h->dataOffset >= sizeof *h + h->metaSize &&
               h->dataOffset <= h->fileSize && h->dataSize == h->fileSize - h->dataOffset &&
               strataCacheChecksum(map + sizeof *h, h->metaSize) == h->metaSum;
  if (whole) return map;
  munmap(map, (size_t)st.st_size);
  return NULL;
}

/* The packed constants (none when they were made for another instruction
 * set), their sources in the mapped weights; false if the table is bad. */
static bool getPacked(Reader *r, const StrataParams *params, const char *data, uint64_t dataSize,
                      StrataRtPacked **out, size_t *n) {
  char *isa = getText(r);
  uint64_t count;
  *out = NULL, *n = 0;
  if (!isa || !getU64(r, &count) || count > (uint64_t)(r->end - r->p)) {
    free(isa);
    return false;
  }
  bool sameIsa = !strcmp(isa, strataRtIsaName());
  free(isa);
  if (!count) return true;
  StrataRtPacked *list = calloc(count, sizeof *list);
  bool ok = list != NULL;
  for (uint64_t i = 0; ok && i < count; i++) {
    StrataRtPacked *q = &list[i];
    uint64_t kind, from, offset, floats, at, sum, nparams = (uint64_t)params->count;
    int64_t pkey[6];
    ok = getU64(r, &kind) && getU64(r, &from) && getU64(r, &offset) && (size_t)(r->end - r->p) >= sizeof pkey;
    if (ok) {
      memcpy(pkey, r->p, sizeof pkey);
      r->p += sizeof pkey;
    }
    /* the source: a weight, or a packed constant listed before this one */
    ok = ok && getU64(r, &floats) && getU64(r, &at) && getU64(r, &sum) && kind <= 255 && from < nparams + i &&
         (from < nparams ? offset < params->entries[from].bytes : offset < list[from - nparams].floats * sizeof(float)) &&
         at % kAlign == 0 && at <= dataSize && floats <= (dataSize - at) / sizeof(float) &&
         (!sameIsa || strataCacheChecksum(data + at, (size_t)floats * sizeof(float)) == sum);
    if (!ok) break;
    const unsigned char *src = from < nparams ? params->entries[from].data + offset
                                              : (const unsigned char *)list[from - nparams].data + offset;
    *q = (StrataRtPacked){(char)kind, src, {0}, (const float *)(const void *)(data + at), (size_t)floats};
    memcpy(q->key, pkey, sizeof pkey);
    /* As the weights: the checksum's pages go back, and the kernels bring
     * back those they read (a constant packed again is only its copy's key
     * from now on: never read), so the packed forms never all count at once. */
    if (sameIsa) strataModelDropPages(q->data, q->floats * sizeof(float));
  }
  if (ok && sameIsa) *out = list, *n = (size_t)count;
  else free(list);
  return ok;
}

/* The entry's signature: its name, then per input and result the element
 * type, rank and dims; then per result whether the runtime delivers it. */
static bool getSignature(Reader *r, StrataModelFile *m) {
  char *name = getText(r);
  uint64_t numIn, numOut;
  bool ok = name && strlen(name) < sizeof m->entry && getU64(r, &numIn) && getU64(r, &numOut) &&
            numIn <= 1024 && numOut <= 1024;
  if (ok) strcpy(m->entry, name);
  free(name);
  if (!ok) return false;
  m->numIn = (size_t)numIn, m->numOut = (size_t)numOut;
  m->args = calloc(numIn + numOut + 1, sizeof *m->args);
  m->runtimeResult = calloc(numOut + 1, sizeof *m->runtimeResult);
  if (!m->args || !m->runtimeResult) return false;
  for (uint64_t i = 0; i < numIn + numOut; i++) {
    StrataModelArg *a = &m->args[i];
    uint64_t dtype, rank;
    if (!getU64(r, &dtype) || !getU64(r, &rank) || dtype > 255) return false;
    a->dtype = (int)dtype, a->rank = (int)(int64_t)rank;
    if (a->rank < -1 || a->rank > (int)(sizeof a->dims / sizeof a->dims[0])) return false;
    for (int d = 0; d < a->rank; d++) {
      uint64_t v;
      if (!getU64(r, &v) || (int64_t)v < -1) return false;
      a->dims[d] = (int64_t)v;
    }
  }
  for (uint64_t i = 0; i < numOut; i++) {
    uint64_t v;
    if (!getU64(r, &v) || v > 1) return false;
    m->runtimeResult[i] = v;
  }
  return r->p == r->end;
}

bool strataModelFileRead(const char *dir, const char *key, StrataModelFile *m) {
  memset(m, 0, sizeof *m);
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s.model", dir, key);
  StrataModelHeader h;
  if (n <= 0 || (size_t)n >= sizeof path || !(m->map = mapWhole(path, &h))) return false;
  m->mapSize = (size_t)h.fileSize;
  Reader r = {m->map + sizeof h, m->map + sizeof h + h.metaSize};
  const char *data = m->map + h.dataOffset;
  if ((size_t)(r.end - r.p) < 32) goto miss;
  memcpy(m->objKey, r.p, 32);
  r.p += 32;
  if (!(m->iface = getText(&r)) || !(m->entryText = getText(&r)) || !(m->params = getParams(&r, data, h.dataSize)) ||
      !getPacked(&r, m->params, data, h.dataSize, &m->packed, &m->numPacked) || !getSignature(&r, m))
    goto miss;
  return true;
miss:
  strataModelFileFree(m, false);
  return false;
}

void strataModelFileFree(StrataModelFile *m, bool keepMap) {
  free(m->iface);
  free(m->entryText);
  free(m->packed);
  free(m->args);
  free(m->runtimeResult);
  if (!keepMap) {
    strataParamsDestroy(m->params);
    if (m->map) munmap(m->map, m->mapSize);
  }
  memset(m, 0, sizeof *m);
}

void *strataCpuResolveSymbol(void *params, const char *name) {
  const StrataParams *p = params;
  for (int i = 0; p && i < p->count; i++)
    if (!strcmp(p->entries[i].name, name)) return (void *)p->entries[i].data;
  void *addr = strataRtSymbolLookup(name);
  return addr ? addr : dlsym(RTLD_DEFAULT, name);
}
