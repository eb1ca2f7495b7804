/* libstrata_rt page-based run-length encoding of plan tables (Grape's
 * metadata compressor; the image format is in pred_memory.h). Compression
 * runs ahead of time, page after page; decompression finds each page
 * through the cumulative-size array, so pages decompress independently:
 * on the environment's thread pool when there are many. Every read of an
 * image is bounds-checked first: a corrupt image is refused, never
 * followed. */
#include <string.h>
#include "kernels.h"
#include "pred_memory.h"
#include "rt_internal.h"

#define PAGE_WORDS (STRATA_RT_RLE_PAGE_BYTES / 4)
#define HEADER_WORDS 4
/* Pages below this many decompress on the calling thread: a parallel
 * region costs more than a few pages. */
#define PARALLEL_PAGES 64

static size_t wordsOf(size_t bytes) { return bytes / 4 + (bytes % 4 != 0); }

size_t strataRtPlanRleBound(size_t rawBytes) {
  size_t words = wordsOf(rawBytes), pages = words / PAGE_WORDS + (words % PAGE_WORDS != 0);
  /* header, P+1 offsets, at most two words per raw word */
  if (words > (SIZE_MAX / 4 - HEADER_WORDS - 1 - pages) / 2) return 0;
  return (HEADER_WORDS + 1 + pages + 2 * words) * 4;
}

/* Raw word i (zero-padded past rawBytes). */
static uint32_t rawWord(const unsigned char *src, size_t rawBytes, size_t i) {
  uint32_t w = 0;
  size_t at = i * 4, n = rawBytes - at < 4 ? rawBytes - at : 4;
  memcpy(&w, src + at, n);
  return w;
}

int strataRtPlanRleCompress(const void *src, size_t rawBytes, uint32_t *img, size_t imgCap, size_t *imgBytes) {
  const unsigned char *s = src;
  size_t rawWords = wordsOf(rawBytes), words = rawWords;
  while (words && rawWord(s, rawBytes, words - 1) == 0) words--; /* trailing zeros */
  /* Whole pages are dropped; the last kept one runs to its end (or the
   * table's), so a page's extent follows from its index alone. */
  size_t pages = words / PAGE_WORDS + (words % PAGE_WORDS != 0);
  size_t capWords = imgCap / 4, at = HEADER_WORDS + 1 + pages;
  if (at > capWords || (uint64_t)pages > UINT32_MAX) return -1;
  img[0] = STRATA_RT_RLE_MAGIC;
  img[1] = (uint32_t)((uint64_t)rawBytes & 0xffffffffu);
  img[2] = (uint32_t)((uint64_t)rawBytes >> 32);
  img[3] = (uint32_t)pages;
  uint32_t *offsets = img + HEADER_WORDS;
  size_t data = at;
  offsets[0] = 0;
  for (size_t p = 0; p < pages; p++) {
    size_t end = (p + 1) * PAGE_WORDS < rawWords ? (p + 1) * PAGE_WORDS : rawWords;
    for (size_t i = p * PAGE_WORDS; i < end;) {
      uint32_t v = rawWord(s, rawBytes, i);
      size_t j = i + 1;
      while (j < end && rawWord(s, rawBytes, j) == v) j++;
      if (at + 2 > capWords) return -1;
      img[at++] = v;
      img[at++] = (uint32_t)(j - i);
      i = j;
    }
    if ((uint64_t)(at - data) > UINT32_MAX) return -1;
    offsets[p + 1] = (uint32_t)(at - data);
  }
  *imgBytes = at * 4;
  return 0;
}

/* The checked header: raw bytes, page count, data words. */
typedef struct {
  size_t rawBytes, pages, words; /* words: raw words that pages cover */
  const uint32_t *offsets, *data;
  size_t dataWords;
} Header;

static int readHeader(const uint32_t *img, size_t imgBytes, Header *h) {
  size_t imgWords = imgBytes / 4;
  if (!img || imgBytes % 4 || imgWords < HEADER_WORDS + 1 || img[0] != STRATA_RT_RLE_MAGIC) return -1;
  uint64_t raw = (uint64_t)img[2] << 32 | img[1];
  if (raw > SIZE_MAX) return -1;
  h->rawBytes = (size_t)raw;
  h->pages = img[3];
  size_t rawWords = wordsOf(h->rawBytes);
  size_t maxPages = rawWords / PAGE_WORDS + (rawWords % PAGE_WORDS != 0);
  if (h->pages > maxPages || h->pages > imgWords - HEADER_WORDS - 1) return -1;
  h->words = h->pages * PAGE_WORDS < rawWords ? h->pages * PAGE_WORDS : rawWords;
  h->offsets = img + HEADER_WORDS;
  h->data = h->offsets + h->pages + 1;
  h->dataWords = imgWords - HEADER_WORDS - 1 - h->pages;
  if (h->offsets[0] != 0 || h->offsets[h->pages] != h->dataWords) return -1;
  return 0;
}

typedef struct {
  const Header *h;
  unsigned char *dst;
  int failed; /* atomic: some page was corrupt */
} Expand;

/* Decompresses page p; -1 if it is corrupt. Offsets were not checked as a
 * whole: each page checks its own pair before use. Zero runs (most of a
 * plan) are memsets, other runs a word loop the compiler vectorizes; only
 * the table's last word may be partial. */
static int expandPage(const Header *h, unsigned char *dst, size_t p) {
  uint32_t b = h->offsets[p], e = h->offsets[p + 1];
  if (b > e || e > h->dataWords || (e - b) % 2) return -1;
  size_t first = p * PAGE_WORDS, end = first + PAGE_WORDS < h->words ? first + PAGE_WORDS : h->words;
  size_t fullWords = h->rawBytes / 4, i = first;
  for (uint32_t k = b; k < e; k += 2) {
    uint32_t v = h->data[k], n = h->data[k + 1];
    if (n == 0 || n > end - i) return -1;
    size_t stop = i + n, full = stop < fullWords ? stop : fullWords;
    if (full > i) {
      if (v == 0) memset(dst + i * 4, 0, (full - i) * 4);
      else
        for (unsigned char *d = dst + i * 4, *dEnd = dst + full * 4; d < dEnd; d += 4) memcpy(d, &v, 4);
    }
    if (stop > full) memcpy(dst + fullWords * 4, &v, h->rawBytes - fullWords * 4); /* the partial last word */
    i = stop;
  }
  return i == end ? 0 : -1;
}

static void expandPages(void *ctx, int64_t begin, int64_t end) {
  Expand *x = ctx;
  for (int64_t p = begin; p < end; p++)
    if (expandPage(x->h, x->dst, (size_t)p)) __atomic_store_n(&x->failed, 1, __ATOMIC_RELAXED);
}

int strataRtPlanRleRawSize(const uint32_t *img, size_t imgBytes, size_t *rawBytes) {
  Header h;
  if (readHeader(img, imgBytes, &h)) return -1;
  *rawBytes = h.rawBytes;
  return 0;
}

int strataRtPlanRleDecompress(const uint32_t *img, size_t imgBytes, void *dst, size_t dstBytes) {
  Header h;
  if (readHeader(img, imgBytes, &h) || h.rawBytes != dstBytes) return -1;
  Expand x = {&h, dst, 0};
  if (h.pages >= PARALLEL_PAGES && !rtInParallelRegion()) rtParallelFor((int64_t)h.pages, expandPages, &x);
  else expandPages(&x, 0, (int64_t)h.pages);
  if (x.failed) return -1;
  size_t covered = h.words * 4 < h.rawBytes ? h.words * 4 : h.rawBytes;
  memset((unsigned char *)dst + covered, 0, h.rawBytes - covered); /* the dropped trailing zeros */
  return 0;
}

/* The decompressed table as the constant cache holds it: a 64-byte status
 * block (byte 0: the image was corrupt), then the table. The cache fills it
 * once, under its lock, and never drops it before the code is unloaded
 * (strataRtReleasePackedConstants), so a corrupt image is reported on every
 * call, not only the first. */
#define STATUS_BYTES 64
typedef struct {
  const uint32_t *img;
  size_t imgBytes, rawBytes;
} PlanJob;

static void expandPlan(float *dst, const void *ctx) {
  const PlanJob *j = ctx;
  unsigned char *d = (unsigned char *)dst;
  int bad = strataRtPlanRleDecompress(j->img, j->imgBytes, d + STATUS_BYTES, j->rawBytes) != 0;
  memset(d, 0, STATUS_BYTES);
  d[0] = (unsigned char)bad;
}

void _mlir_ciface_strata_rt_plan_table(StrataMemRefDesc *out, StrataMemRefDesc *image, int64_t rawBytes) {
  const unsigned char *img = (const unsigned char *)image->aligned + image->offset;
  if ((uintptr_t)img % 4 || image->sizesAndStrides[1] != 1)
    rtInvariant("plan image not a dense, 4-byte aligned byte array");
  size_t imgBytes = (size_t)image->sizesAndStrides[0], raw;
  const uint32_t *words = (const uint32_t *)(const void *)img;
  if (rawBytes < 0 || strataRtPlanRleRawSize(words, imgBytes, &raw) || raw != (size_t)rawBytes)
    rtError("corrupt compressed plan table (%zu bytes) or not of %lld bytes", imgBytes, (long long)rawBytes);
  PlanJob job = {words, imgBytes, raw};
  int64_t key[6] = {(int64_t)imgBytes, rawBytes, 0, 0, 0, 0};
  const float *t = raw <= SIZE_MAX - STATUS_BYTES - 3
                       ? rtConstCacheGet('P', img, key, (STATUS_BYTES + raw + 3) / 4, expandPlan, &job)
                       : NULL;
  if (!t) rtError("out of memory for a plan table of %lld bytes", (long long)rawBytes);
  const unsigned char *table = (const unsigned char *)t;
  if (table[0]) rtError("corrupt compressed plan table (%zu bytes)", imgBytes);
  out->allocated = out->aligned = (void *)(table + STATUS_BYTES);
  out->offset = 0;
  out->sizesAndStrides[0] = rawBytes;
  out->sizesAndStrides[1] = 1;
}
