/* The model cache of the cpu target: a whole executable stored under a key
 * its caller derives from the model and the options (strataExecutableStore,
 * strataExecutableLoad), so that a second run skips the import, the MLIR
 * pipeline and LLVM. DIR/<key>.model holds:
 *
 *   header   magic, file size, the meta part's size and checksum
 *   meta     the object's key in the object cache (objcache.c: the code
 *            itself is not stored twice), the interface (a module of
 *            declarations carrying what the JIT reads of the lowered
 *            module: each function's strata.runtime_results, whether it
 *            keeps shape plans), the caller's entry text, and per weight
 *            its name, size, offset and checksum
 *   weights  4 KiB aligned, each at a 64-byte multiple
 *
 * A load maps the file and binds the weights where they lie (no read, no
 * copy: pages come from the page cache as the code touches them), and
 * lends the runtime the packed forms of the weights its kernels made
 * before the executable was stored (GEMM panels, Winograd-transformed
 * filters), so the first call packs nothing either. Files
 * are written to a name of their own and renamed into place; a file whose
 * size or checksums do not match, or whose object is gone, is a miss. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "cpu_internal.h"
#include "kernels.h"
#include "outfile.h"

static const char kMagic[16] = "STRATA-MODEL-1";
enum { kPage = 4096, kAlign = 64 };

typedef struct {
  char magic[16];
  uint64_t fileSize, metaSize, metaSum, dataOffset, dataSize;
} Header;

void strataCpuCacheKey(const void *const *parts, const size_t *sizes, size_t n, char key[33]) {
  StrataCacheHash h = strataCacheHashInit();
  strataCacheHashMachine(&h, -1); /* the caller's parts name the LLVM level */
  static const char kind[] = "model";
  strataCacheHashBlock(&h, kind, sizeof kind);
  for (size_t i = 0; i < n; i++) strataCacheHashBlock(&h, parts[i], sizes[i]);
  strataCacheHashHex(&h, key);
}

/* ---- A growable byte buffer for the meta part ---- */
typedef struct {
  char *data;
  size_t len, cap;
  bool failed;
} Buf;

static void put(Buf *b, const void *data, size_t n) {
  if (b->failed) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
      b->failed = true;
      return;
    }
    b->data = grown, b->cap = cap;
  }
  memcpy(b->data + b->len, data, n);
  b->len += n;
}

static void putU64(Buf *b, uint64_t v) { put(b, &v, sizeof v); }

static void putText(Buf *b, const char *s, size_t n) {
  putU64(b, n);
  put(b, s, n);
}

static void putCallback(MlirStringRef s, void *user) { put(user, s.data, s.length); }

/* The interface: per function of `lowered` that has them, its
 * strata.runtime_results; the shape-plan table's name if it has one. */
static void putInterface(Buf *b, MlirModule lowered) {
  Buf t = {0};
  static const char kOpen[] = "module {\n", kClose[] = "}\n";
  put(&t, kOpen, sizeof kOpen - 1);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(lowered)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute results = strataOpAttr(op, STRATA_RUNTIME_RESULTS_ATTR), name = strataOpAttr(op, "sym_name");
    if (mlirAttributeIsNull(results) || mlirAttributeIsNull(name)) continue;
    put(&t, "func.func private @", 19);
    mlirAttributePrint(name, putCallback, &t);
    put(&t, "() attributes {" STRATA_RUNTIME_RESULTS_ATTR " = ", strlen(STRATA_RUNTIME_RESULTS_ATTR) + 18);
    mlirAttributePrint(results, putCallback, &t);
    put(&t, "}\n", 2);
  }
  if (strataModuleHasSymbol(mlirModuleGetOperation(lowered), "__strata_shape_plans")) {
    static const char kPlans[] = "func.func private @__strata_shape_plans()\n";
    put(&t, kPlans, sizeof kPlans - 1);
  }
  put(&t, kClose, sizeof kClose - 1);
  if (t.failed) b->failed = true;
  else putText(b, t.data, t.len);
  free(t.data);
}

static size_t alignTo(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* The runtime's packed constants derived from these weights, each with
 * where its source lies: `from` < the weights' count is a weight, else
 * packed constant `from` - count of the list (one derived from another:
 * Winograd's transformed filters are packed again as GEMM panels), which
 * comes before it; `offset` is into that source. */
typedef struct {
  StrataRtPacked p;
  uint64_t from, offset;
} Packed;

/* Where `src` lies among the weights and the first n packed constants of
 * `out`; false if nowhere. */
static bool originOf(const void *src, const StrataParams *params, const Packed *out, size_t n, Packed *q) {
  const unsigned char *at = src;
  for (int k = 0; k < params->count; k++) {
    const unsigned char *lo = params->entries[k].data;
    if (at >= lo && at < lo + params->entries[k].bytes) return q->from = (uint64_t)k, q->offset = (uint64_t)(at - lo), true;
  }
  for (size_t j = 0; j < n; j++) {
    const unsigned char *lo = (const unsigned char *)out[j].p.data;
    if (at >= lo && at < lo + out[j].p.floats * sizeof(float))
      return q->from = (uint64_t)params->count + j, q->offset = (uint64_t)(at - lo), true;
  }
  return false;
}

static Packed *packedOf(const StrataParams *params, size_t *n) {
  *n = 0;
  size_t all = strataRtPackedConstantsList(NULL, 0);
  StrataRtPacked *list = all ? malloc(all * sizeof *list) : NULL;
  Packed *out = list ? malloc(all * sizeof *out) : NULL;
  bool *taken = out ? calloc(all, sizeof *taken) : NULL;
  if (taken) {
    size_t listed = strataRtPackedConstantsList(list, all);
    all = listed < all ? listed : all;
  }
  /* Rounds until none is added: each adds those whose source is placed. */
  for (bool added = taken != NULL; added;) {
    added = false;
    for (size_t i = 0; i < all; i++) {
      if (taken[i]) continue;
      Packed q = {list[i], 0, 0};
      if (!originOf(list[i].src, params, out, *n, &q)) continue;
      out[(*n)++] = q;
      taken[i] = added = true;
    }
  }
  free(taken);
  free(list);
  return out;
}

bool strataJitStore(StrataJit *jit, const char *dir, const char *key, const char *entry, char *why,
                    size_t whySize) {
  MlirModule lowered;
  const StrataParams *params;
  char objKey[33];
  bool warned;
  if (!strataJitCacheParts(jit, &lowered, &params, objKey, &warned)) {
    snprintf(why, whySize, "%s", warned ? "" : "it was compiled without a cache directory");
    return false;
  }
  Buf meta = {0};
  put(&meta, objKey, 32);
  putInterface(&meta, lowered);
  putText(&meta, entry, strlen(entry));
  putU64(&meta, (uint64_t)params->count);
  size_t dataSize = 0;
  for (int i = 0; i < params->count; i++) {
    putText(&meta, params->entries[i].name, strlen(params->entries[i].name));
    putU64(&meta, params->entries[i].bytes);
    putU64(&meta, dataSize);
    putU64(&meta, strataCacheChecksum(params->entries[i].data, params->entries[i].bytes));
    dataSize = alignTo(dataSize + params->entries[i].bytes, kAlign);
  }
  size_t numPacked = 0;
  Packed *packed = packedOf(params, &numPacked);
  const char *isa = strataRtIsaName();
  putText(&meta, isa, strlen(isa));
  putU64(&meta, numPacked);
  for (size_t i = 0; i < numPacked; i++) {
    const StrataRtPacked *q = &packed[i].p;
    putU64(&meta, (uint64_t)(unsigned char)q->kind);
    putU64(&meta, packed[i].from);
    putU64(&meta, packed[i].offset);
    put(&meta, q->key, sizeof q->key);
    putU64(&meta, q->floats);
    putU64(&meta, dataSize);
    putU64(&meta, strataCacheChecksum(q->data, q->floats * sizeof(float)));
    dataSize = alignTo(dataSize + q->floats * sizeof(float), kAlign);
  }
  if (meta.failed) {
    free(meta.data);
    free(packed);
    snprintf(why, whySize, "out of memory");
    return false;
  }
  Header h = {.metaSize = meta.len, .metaSum = strataCacheChecksum(meta.data, meta.len), .dataSize = dataSize};
  memcpy(h.magic, kMagic, sizeof kMagic);
  h.dataOffset = alignTo(sizeof h + meta.len, kPage);
  h.fileSize = h.dataOffset + dataSize;
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s.model", dir, key);
  int err = n > 0 && (size_t)n < sizeof path ? strataCacheMakeDirs(dir) : ENAMETOOLONG;
  StrataRtOutFile out;
  if (err || strataRtOutFileOpen(&out, path, why, whySize) != 0) {
    if (err) snprintf(why, whySize, "%s", strerror(err));
    free(meta.data);
    free(packed);
    return false;
  }
  /* The weights first, then the header and meta before them. */
  static const char zeros[kPage];
  bool ok = fseek(out.f, (long)h.dataOffset, SEEK_SET) == 0;
  size_t at = 0;
  for (int i = 0; ok && i < params->count; i++) {
    const StrataParam *e = &params->entries[i];
    ok = fwrite(e->data, 1, e->bytes, out.f) == e->bytes;
    at += e->bytes;
    size_t pad = alignTo(at, kAlign) - at;
    if (ok && pad) ok = fwrite(zeros, 1, pad, out.f) == pad;
    at += pad;
  }
  for (size_t i = 0; ok && i < numPacked; i++) {
    size_t bytes = packed[i].p.floats * sizeof(float), pad = alignTo(bytes, kAlign) - bytes;
    ok = fwrite(packed[i].p.data, 1, bytes, out.f) == bytes && (!pad || fwrite(zeros, 1, pad, out.f) == pad);
  }
  free(packed);
  ok = ok && fseek(out.f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, out.f) == 1 &&
       fwrite(meta.data, 1, meta.len, out.f) == meta.len;
  size_t gap = h.dataOffset - sizeof h - meta.len;
  ok = ok && fwrite(zeros, 1, gap, out.f) == gap;
  free(meta.data);
  if (ok) return strataRtOutFileCommit(&out, why, whySize) == 0;
  snprintf(why, whySize, "%s", strerror(errno ? errno : EIO));
  strataRtOutFileAbort(&out);
  return false;
}

/* ---- Loading ---- */
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

/* Lets the kernel take back the whole pages of [p, p + n) a checksum
 * brought in: a weight the runtime has packed (getPacked) is not read
 * again, and the others come back from the page cache when the code reads
 * them, so the weights never all count in the process's memory at once. */
static void dropPages(const void *p, size_t n) {
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
    dropPages(e->data, e->bytes);
  }
  return p;
}

/* The file mapped when its size and meta checksum match (each weight's
 * checksum is checked by getParams); NULL else. */
static char *mapWhole(const char *path, Header *h) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat st;
  char *map = MAP_FAILED;
  if (fstat(fd, &st) == 0 && (size_t)st.st_size >= sizeof *h)
    map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
  close(fd);
  if (map == MAP_FAILED) return NULL;
  memcpy(h, map, sizeof *h);
  bool whole = !memcmp(h->magic, kMagic, sizeof kMagic) && h->fileSize == (uint64_t)st.st_size &&
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
  if (!count || !sameIsa) return true;
  if (!(*out = calloc(count, sizeof **out))) return false;
  bool *isSource = calloc(count, sizeof *isSource);
  if (!isSource) return false;
  for (uint64_t i = 0; i < count; i++) {
    StrataRtPacked *q = &(*out)[i];
    uint64_t kind, from, offset, floats, at, sum, nparams = (uint64_t)params->count;
    int64_t pkey[6];
    bool ok = getU64(r, &kind) && getU64(r, &from) && getU64(r, &offset) && (size_t)(r->end - r->p) >= sizeof pkey;
    if (ok) {
      memcpy(pkey, r->p, sizeof pkey);
      r->p += sizeof pkey;
    }
    /* the source: a weight, or a packed constant listed before this one */
    ok = ok && getU64(r, &floats) && getU64(r, &at) && getU64(r, &sum) && kind <= 255 && from < nparams + i &&
         (from < nparams ? offset < params->entries[from].bytes : offset < (*out)[from - nparams].floats * sizeof(float)) &&
         at % kAlign == 0 && at <= dataSize && floats <= (dataSize - at) / sizeof(float) &&
         strataCacheChecksum(data + at, (size_t)floats * sizeof(float)) == sum;
    if (!ok) {
      free(isSource);
      return false;
    }
    const unsigned char *src = from < nparams ? params->entries[from].data + offset
                                              : (const unsigned char *)(*out)[from - nparams].data + offset;
    if (from >= nparams) isSource[from - nparams] = true;
    *q = (StrataRtPacked){(char)kind, src, {0}, (const float *)(const void *)(data + at), (size_t)floats};
    memcpy(q->key, pkey, sizeof pkey);
    ++*n;
  }
  /* A constant packed again is only its copy's key from now on. */
  for (uint64_t i = 0; i < count; i++)
    if (isSource[i]) dropPages((*out)[i].data, (*out)[i].floats * sizeof(float));
  free(isSource);
  return true;
}

StrataJit *strataJitLoad(StrataContext *ctx, const char *dir, const char *key, char **entry) {
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s.model", dir, key);
  Header h;
  char *map = n > 0 && (size_t)n < sizeof path ? mapWhole(path, &h) : NULL;
  if (!map) return NULL;
  Reader r = {map + sizeof h, map + sizeof h + h.metaSize};
  char objKey[33] = {0}, *iface = NULL, *obj = NULL;
  StrataParams *params = NULL;
  StrataRtPacked *packed = NULL;
  size_t objSize = 0, numPacked = 0;
  MlirModule m = {NULL};
  *entry = NULL;
  if ((size_t)(r.end - r.p) < 32) goto miss;
  memcpy(objKey, r.p, 32);
  r.p += 32;
  if (!(iface = getText(&r)) || !(*entry = getText(&r)) || !(params = getParams(&r, map + h.dataOffset, h.dataSize)) ||
      !getPacked(&r, params, map + h.dataOffset, h.dataSize, &packed, &numPacked) ||
      !(obj = strataObjCacheRead(dir, objKey, &objSize)))
    goto miss;
  m = mlirModuleCreateParse(strataContextGetMlir(ctx), mlirStringRefCreateFromCString(iface));
  if (mlirModuleIsNull(m)) goto miss;
  free(iface);
  StrataJit *jit = strataJitFromParts(ctx, m, params, map, h.fileSize, obj, objSize);
  /* Lent to the runtime until the JIT goes (it releases them, then unmaps);
   * one that does not fit is packed again by its first call. */
  for (size_t i = 0; jit && i < numPacked; i++) strataRtPackedConstantsAdd(&packed[i]);
  free(packed);
  return jit;
miss:
  free(packed);
  free(iface);
  free(*entry);
  *entry = NULL;
  free(obj);
  strataParamsDestroy(params);
  munmap(map, h.fileSize);
  return NULL;
}
