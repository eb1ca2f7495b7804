/* T17 (docs/pred-memory.md): the page-based run-length encoding of plan
 * tables round-trips every kind of buffer, refuses corrupt images without
 * reading or writing out of bounds (run it under STRATA_SANITIZE=1), and
 * compresses a synthetic argument table (mostly zeros, a few pointers and
 * launch sizes per kernel, as Grape's graphs hold) by at least 10x.
 * RUN: %capi/plan_rle | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pred_memory.h"
#include "status.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)rng;
}

/* Compresses and decompresses buf; prints the sizes and whether the bytes
 * came back. The image is allocated to its exact size, so an overrun shows
 * under ASan. */
static void roundTrip(const char *what, const unsigned char *buf, size_t bytes) {
  size_t cap = strataRtPlanRleBound(bytes), imgBytes = 0, raw = 0;
  uint32_t *img = malloc(cap);
  unsigned char *out = malloc(bytes ? bytes : 1);
  int c = strataRtPlanRleCompress(buf, bytes, img, cap, &imgBytes);
  uint32_t *exact = malloc(imgBytes);
  memcpy(exact, img, imgBytes);
  memset(out, 0xAB, bytes);
  int d = strataRtPlanRleDecompress(exact, imgBytes, out, bytes);
  int s = strataRtPlanRleRawSize(exact, imgBytes, &raw);
  printf("%s: %zu bytes -> %zu, compress %d decompress %d raw %zu %s\n", what, bytes, imgBytes, c, d, raw,
         s == 0 && raw == bytes && (bytes == 0 || !memcmp(buf, out, bytes)) ? "equal" : "DIFFERENT");
  free(img), free(exact), free(out);
}

/* A synthetic kernel-argument table: per kernel a 4 KB parameter block
 * (CUDA's parameter space, which a graph's kernel node reserves) holding a
 * few pointers (shared among kernels, as one graph's kernels pass the same
 * buffers) and launch sizes in its first 100 bytes, the rest zero. */
static unsigned char *argumentTable(size_t kernels, size_t *bytes) {
  *bytes = kernels * 1024 * 4;
  uint32_t *t = calloc(kernels * 1024, 4);
  uint64_t pointers[8];
  for (int i = 0; i < 8; i++) pointers[i] = 0x7f0000000000u + (uint64_t)(next() % 4096) * 4096;
  for (size_t k = 0; k < kernels; k++) {
    uint32_t *a = t + k * 1024;
    int args = 2 + (int)(next() % 5);
    for (int i = 0; i < args; i++) memcpy(a + 2 * i, &pointers[next() % 8], 8);
    a[16] = 1 + next() % 1024, a[17] = 1, a[18] = 1; /* grid */
    a[19] = 128, a[20] = 1, a[21] = 1;               /* block */
    a[22] = 1 + next() % 4096;                        /* an element count */
  }
  return (unsigned char *)t;
}

int main(void) {
  enum { PAGE = STRATA_RT_RLE_PAGE_BYTES };
  unsigned char *buf = calloc(8 * PAGE + 7, 1);

  roundTrip("empty", buf, 0);
  // CHECK: empty: 0 bytes -> 20, compress 0 decompress 0 raw 0 equal
  memset(buf, 0, 8 * PAGE);
  roundTrip("all-zero", buf, 8 * PAGE);
  // CHECK: all-zero: 16384 bytes -> 20, compress 0 decompress 0 raw 16384 equal
  for (size_t i = 0; i < 8 * PAGE + 7; i++) buf[i] = (unsigned char)next();
  roundTrip("random", buf, 8 * PAGE + 7);
  // CHECK: random: 16391 bytes -> {{[0-9]+}}, compress 0 decompress 0 raw 16391 equal
  /* One run across a page boundary (words 500..600 equal) must split. */
  memset(buf, 0, 2 * PAGE);
  for (size_t i = 500 * 4; i < 600 * 4; i++) buf[i] = 0x11;
  roundTrip("page-boundary", buf, 2 * PAGE);
  // CHECK: page-boundary: 4096 bytes -> 60, compress 0 decompress 0 raw 4096 equal
  /* Not a multiple of a page nor of a word, the last byte non-zero. */
  memset(buf, 0, 3 * PAGE + 3);
  buf[3 * PAGE + 2] = 9, buf[17] = 5;
  roundTrip("odd-size", buf, 3 * PAGE + 3);
  // CHECK: odd-size: 6147 bytes -> 84, compress 0 decompress 0 raw 6147 equal
  /* Trailing zeros within the last kept page and whole pages past it. */
  memset(buf, 0, 6 * PAGE);
  buf[PAGE + 40] = 1;
  roundTrip("trailing-zeros", buf, 6 * PAGE);
  // CHECK: trailing-zeros: 12288 bytes -> 60, compress 0 decompress 0 raw 12288 equal

  /* Many pages: decompressed on the thread pool. */
  strataRtSetNumThreads(2);
  size_t tableBytes;
  unsigned char *table = argumentTable(256, &tableBytes);
  roundTrip("argument-table", table, tableBytes);
  // CHECK: argument-table: 1048576 bytes -> {{[0-9]+}}, compress 0 decompress 0 raw 1048576 equal
  size_t cap = strataRtPlanRleBound(tableBytes), imgBytes;
  uint32_t *img = malloc(cap);
  strataRtPlanRleCompress(table, tableBytes, img, cap, &imgBytes);
  double ratio = (double)tableBytes / (double)imgBytes;
  printf("argument table ratio >= 10: %s (%.1f)\n", ratio >= 10 ? "yes" : "no", ratio);
  // CHECK: argument table ratio >= 10: yes

  /* A destination too small for the image is refused. */
  size_t small;
  printf("too small: %d\n", strataRtPlanRleCompress(table, tableBytes, img, 64, &small));
  // CHECK: too small: -1

  /* Corrupt images: each is refused, and dst (of the right size) is never
   * written past its end. */
  unsigned char *out = malloc(tableBytes);
  uint32_t *bad = malloc(imgBytes);
  uint32_t pages = img[3];
  struct {
    const char *what;
    size_t word;
    uint32_t value;
    size_t bytes;
  } cases[] = {
      {"bad magic", 0, 0, imgBytes},
      {"raw size", 1, (uint32_t)tableBytes + 4, imgBytes},
      {"page count", 3, pages + 1, imgBytes},
      {"first offset", 4, 2, imgBytes},
      {"offset past the data", 5, 0x7fffffff, imgBytes},
      {"offsets decreasing", 6, 0, imgBytes},
      {"odd offset", 5, img[5] + 1, imgBytes},
      {"zero count", 5 + pages + 1, 0, imgBytes},
      {"count past the page", 5 + pages + 1, 513, imgBytes},
      {"truncated", 0, STRATA_RT_RLE_MAGIC, imgBytes - 8},
      {"header only", 0, STRATA_RT_RLE_MAGIC, 12},
      {"not whole words", 0, STRATA_RT_RLE_MAGIC, imgBytes - 1},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    memcpy(bad, img, imgBytes);
    bad[cases[i].word] = cases[i].value;
    printf("%s: %d\n", cases[i].what, strataRtPlanRleDecompress(bad, cases[i].bytes, out, tableBytes));
  }
  // CHECK: bad magic: -1
  // CHECK: raw size: -1
  // CHECK: page count: -1
  // CHECK: first offset: -1
  // CHECK: offset past the data: -1
  // CHECK: offsets decreasing: -1
  // CHECK: odd offset: -1
  // CHECK: zero count: -1
  // CHECK: count past the page: -1
  // CHECK: truncated: -1
  // CHECK: header only: -1
  // CHECK: not whole words: -1
  printf("wrong dst size: %d\n", strataRtPlanRleDecompress(img, imgBytes, out, tableBytes - 1));
  // CHECK: wrong dst size: -1
  /* Flipping any single word of the image never reads or writes out of
   * bounds (ASan checks it); most flips are refused. */
  int refused = 0, flips = 0;
  for (size_t w = 0; w < imgBytes / 4; w += 7, flips++) {
    memcpy(bad, img, imgBytes);
    bad[w] ^= 0x80000001u;
    refused += strataRtPlanRleDecompress(bad, imgBytes, out, tableBytes) != 0;
  }
  printf("single-word flips: %s refused\n", refused > flips / 2 ? "most" : "few");
  // CHECK: single-word flips: most refused
  free(bad), free(out), free(img), free(table), free(buf);
  return 0;
}
