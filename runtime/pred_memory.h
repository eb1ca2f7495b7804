/* libstrata_rt memory features of predication (Grape, MICRO '23): the
 * page-based run-length encoding of plan tables (plan_rle.c) and the
 * runtime alias predictor for placeholders (alias_predictor.c). Plain C,
 * no MLIR. docs/pred-memory.md explains both.
 *
 *   size_t cap = strataRtPlanRleBound(bytes);
 *   uint32_t *img = malloc(cap);
 *   size_t imgBytes;
 *   strataRtPlanRleCompress(table, bytes, img, cap, &imgBytes);
 *   ...
 *   if (strataRtPlanRleDecompress(img, imgBytes, out, bytes) != 0) refuse();
 *
 *   StrataRtAliasPredictor *p = strataRtAliasPredictorCreate();
 *   int ph = strataRtAliasAddPlaceholder(p, kvCache, kvBytes);
 *   for (each iteration) {
 *     run(kvCache);                              // reads the placeholder
 *     strataRtAliasPlaceholderDead(p, ph);       // its old contents are dead
 *     StrataRtAliasBuffer *t = strataRtAliasAlloc(p, SITE_42, kvBytes);
 *     produce(t->data);
 *     strataRtAliasCopyIn(p, ph, t->data, kvBytes);  // a self-copy once predicted
 *     strataRtAliasRelease(p, t);
 *   }
 */
#ifndef STRATA_RUNTIME_PRED_MEMORY_H
#define STRATA_RUNTIME_PRED_MEMORY_H

#include <stddef.h>
#include <stdint.h>
#include "memref.h"

/* ---- Page-based run-length encoding of plan tables (plan_rle.c) ----
 * The raw table is read as native-order uint32 words (a byte count that is
 * not a multiple of 4 is padded with zero bytes in the last word), its
 * trailing zero words are dropped, and the rest is cut into pages of
 * STRATA_RT_RLE_PAGE_BYTES. Each page is a sequence of (value, count)
 * uint32 pairs whose counts add up to the page's words: runs never cross
 * a page. The image (uint32 words, native order, so it is read on a host
 * of the compiler's byte order):
 *   [0] magic STRATA_RT_RLE_MAGIC  [1] raw bytes, low 32 bits
 *   [2] raw bytes, high 32 bits    [3] P, the number of encoded pages
 *   [4 .. 4+P]   cumulative words of pairs before page p (P+1 entries,
 *                the first 0), so each page is found, and decompressed,
 *                independently of the others
 *   [5+P ..]     the pairs.
 * Pages past P (the dropped trailing zeros) decompress to zero. */
#define STRATA_RT_RLE_PAGE_BYTES 2048
#define STRATA_RT_RLE_MAGIC 0x454c5253u /* "SRLE" */

/* The largest image compressing `rawBytes` bytes can take (bytes; every
 * page alternating values); 0 if that overflows size_t. */
size_t strataRtPlanRleBound(size_t rawBytes);

/* Compresses src[0..rawBytes) into img (imgCap bytes, 4-byte aligned);
 * the image's size in *imgBytes (a multiple of 4). Returns 0, or -1 if
 * img is too small (nothing past imgCap is written). */
int strataRtPlanRleCompress(const void *src, size_t rawBytes, uint32_t *img, size_t imgCap, size_t *imgBytes);

/* The raw size an image decompresses to, in *rawBytes. Returns 0, or -1
 * if the image's header is not one (bad magic, too short, page count or
 * raw size inconsistent with each other or with imgBytes). */
int strataRtPlanRleRawSize(const uint32_t *img, size_t imgBytes, size_t *rawBytes);

/* Decompresses the image img[0..imgBytes) into dst, which must hold
 * exactly the image's raw size (dstBytes). Every page is checked: offsets
 * in bounds and increasing, an even number of words, counts that are
 * non-zero and add up to the page. Returns 0, or -1 for a corrupt image
 * or a dstBytes that differs from the raw size; never reads outside the
 * image nor writes outside dst (dst's contents are unspecified after a
 * failure). Pages decompress in parallel on the calling thread's
 * environment's thread pool (status.h) when there are many. */
int strataRtPlanRleDecompress(const uint32_t *img, size_t imgBytes, void *dst, size_t dstBytes);

/* ---- Runtime alias predictor (alias_predictor.c) ----
 * A placeholder is a region the caller owns and reads after each step
 * (a KV-cache input); each step something is computed into a fresh buffer
 * and copied into it. The predictor learns which allocation site produces
 * each placeholder's value: the copy into placeholder P of a buffer
 * allocated at site S records S -> P; the next allocation at S is given
 * P's region itself, so that its copy into P is a self-copy (no data
 * moved, a hit). If the copy into P turns out to come from elsewhere (the
 * value was reassigned), that is a miss: the buffer that holds P's region
 * is moved out to fresh memory first (its holder keeps reading it through
 * its StrataRtAliasBuffer), then the data is copied in.
 *
 * The liveness rule it enforces: P's region is handed out only while P is
 * dead, i.e. after strataRtAliasPlaceholderDead(P) (the caller's assertion
 * that nothing reads P's current contents any more: the step's last read of
 * P is done) and before the next copy into P, and only to one buffer at a
 * time. Otherwise the allocation gets fresh memory (counted as refused).
 * A site that has fed two different placeholders is ambiguous and never
 * predicted again. A buffer's contents must not be written after its copy
 * into a placeholder (on a hit it is the placeholder).
 *
 * Everything lives in the predictor the caller creates; it is not
 * thread-safe (one predictor per thread of control). */
typedef struct StrataRtAliasPredictor StrataRtAliasPredictor;

typedef struct {
  void *data;   /* 64-byte aligned; moves only on a miss (see above) */
  size_t bytes;
} StrataRtAliasBuffer;

typedef struct {
  uint64_t allocs;       /* strataRtAliasAlloc calls */
  uint64_t predicted;    /* of them, given a placeholder's region */
  uint64_t refused;      /* predicted but refused by the liveness rule or size */
  uint64_t hits;         /* copies found to be self-copies */
  uint64_t misses;       /* copies into a placeholder whose predicted buffer was not the source */
  uint64_t copies;       /* copies that moved data (misses and unpredicted copies) */
  uint64_t bytesCopied;  /* bytes those moved, evictions included */
  uint64_t evictions;    /* buffers moved out of a placeholder's region on a miss */
} StrataRtAliasStats;

/* A new predictor; NULL if out of memory. Free it with
 * strataRtAliasPredictorDestroy, which frees every buffer it still holds
 * (placeholder regions stay the caller's). */
StrataRtAliasPredictor *strataRtAliasPredictorCreate(void);
void strataRtAliasPredictorDestroy(StrataRtAliasPredictor *p);

/* Registers the caller's region [region, region + bytes) as a placeholder
 * (live: its contents are in use). Returns its id (>= 0), or -1 if out of
 * memory, bytes is 0 or it overlaps a registered placeholder. */
int strataRtAliasAddPlaceholder(StrataRtAliasPredictor *p, void *region, size_t bytes);

/* The caller asserts that placeholder `ph`'s current contents are no longer
 * read. Returns 0, or -1 for an unknown id. */
int strataRtAliasPlaceholderDead(StrataRtAliasPredictor *p, int ph);

/* A buffer of `bytes` for allocation site `site` (any caller-chosen key):
 * the predicted placeholder's region when the rule above allows it, else
 * fresh memory. NULL if out of memory. Owned by the predictor until
 * strataRtAliasRelease. */
StrataRtAliasBuffer *strataRtAliasAlloc(StrataRtAliasPredictor *p, uint64_t site, size_t bytes);

/* Releases a buffer from strataRtAliasAlloc (fresh memory is freed; a
 * placeholder's region goes back to its placeholder). */
void strataRtAliasRelease(StrataRtAliasPredictor *p, StrataRtAliasBuffer *b);

/* Copies src[0..bytes) into placeholder `ph` (bytes at most its size),
 * recording src's allocation site (when src is a buffer of this
 * predictor) as generating ph. A self-copy (src is ph's region) moves
 * nothing. Afterwards ph is live. Returns 0, or -1 for an unknown id, a
 * size beyond the placeholder, or out of memory while evicting (ph then
 * keeps its old contents and the evicted holder its data). */
int strataRtAliasCopyIn(StrataRtAliasPredictor *p, int ph, const void *src, size_t bytes);

/* The counters so far. */
void strataRtAliasGetStats(const StrataRtAliasPredictor *p, StrataRtAliasStats *out);

/* ---- Called by compiled code (kernel_abi.def) ----
 * strata_rt_plan_table(image, rawBytes): the table an image decompresses
 * to, decompressed once into the runtime's constant cache (a corrupt image
 * or another raw size is a runtime error, status.h). */

#endif /* STRATA_RUNTIME_PRED_MEMORY_H */
