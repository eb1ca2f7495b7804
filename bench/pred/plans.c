/* bench/pred/plans (B4, docs/pred-memory.md): Grape's metadata compressor
 * on 1024 shape-specialised plan tables. Each table is a synthetic
 * CUDA-graph-like argument table for one sequence length s = 1..1024:
 * 446 kernel nodes (GPT-2's operator count, Grape's Table 1), each a 1 KB
 * parameter record of which a kernel uses its first 6-16 words (buffer
 * pointers, shared by the graph's kernels and offset by the shape; grid and
 * block sizes; element counts depending on s); the rest is zero, the
 * unused argument space Grape measured. Only the compressed images are
 * kept (as Grape keeps them); each "replay" decompresses its table into
 * one shared buffer. Prints raw and image bytes and their ratio, and the
 * median time to decompress one table as a fraction of one run of a model
 * (default bench/pred/mlp.mlir, GPT-2's MLP at s = 128) timed in the same
 * process. Not a test.
 *   plans [model.mlir|.onnx] [runs] [record-bytes]    (from the worktree root;
 *   record-bytes a multiple of 4, 64 to 4096, default 1024) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "../jit_bench.h"
#include "pred_memory.h"

enum { SHAPES = 1024, KERNELS = 446 };
/* Words per kernel record (bytes / 4): 256 by default, the third argument. */
static size_t recordWords = 256;

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static uint64_t rng;
static uint32_t next(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (uint32_t)rng;
}

/* The argument table of the graph for sequence length s. The kernels'
 * kinds (how many pointers and sizes) are the same for every s: one
 * model's graphs differ in sizes and buffer offsets, not in structure. */
static void buildTable(uint32_t *t, int s) {
  memset(t, 0, (size_t)KERNELS * recordWords * 4);
  rng = 0x2545f4914f6cdd1du; /* the same kernels for every shape */
  uint64_t pool = 0x7f3a00000000u;
  for (int k = 0; k < KERNELS; k++) {
    uint32_t *r = t + (size_t)k * recordWords;
    int pointers = 2 + (int)(next() % 4), sizes = 2 + (int)(next() % 4);
    for (int i = 0; i < pointers; i++) {
      uint64_t p = pool + (uint64_t)(next() % 64) * 0x100000u + (uint64_t)s * 3072u * 4u * (next() % 3);
      memcpy(r + 2 * i, &p, 8);
    }
    uint32_t *z = r + 2 * pointers;
    z[0] = (uint32_t)(s * 768 + 255) / 256, z[1] = 1, z[2] = 1; /* grid */
    z[3] = 256, z[4] = 1, z[5] = 1;                               /* block */
    for (int i = 0; i < sizes; i++) z[6 + i] = (uint32_t)s * (1u + next() % 8);
  }
}

static int byDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  const char *model = argc > 1 ? argv[1] : "bench/pred/mlp.mlir";
  int runs = argc > 2 ? atoi(argv[2]) : 20;
  long record = argc > 3 ? atol(argv[3]) : 1024;
  if (runs < 1 || record < 64 || record > 4096 || record % 4) {
    fprintf(stderr, "usage: plans [model] [runs >= 1] [record-bytes: 64..4096, a multiple of 4]\n");
    return 2;
  }
  recordWords = (size_t)record / 4;
  size_t rawBytes = (size_t)KERNELS * recordWords * 4, cap = strataRtPlanRleBound(rawBytes);
  uint32_t *table = malloc(rawBytes), *shared = malloc(rawBytes), *scratch = malloc(cap);
  uint32_t *images[SHAPES];
  size_t imageBytes[SHAPES], rawTotal = 0, imageTotal = 0;
  double compressMs = 0;
  for (int s = 1; s <= SHAPES; s++) {
    buildTable(table, s);
    double t0 = nowMs();
    if (strataRtPlanRleCompress(table, rawBytes, scratch, cap, &imageBytes[s - 1])) return 1;
    compressMs += nowMs() - t0;
    images[s - 1] = malloc(imageBytes[s - 1]);
    memcpy(images[s - 1], scratch, imageBytes[s - 1]);
    rawTotal += rawBytes, imageTotal += imageBytes[s - 1];
  }
  /* Every image decompresses to its table (checked on a sample). */
  for (int s = 1; s <= SHAPES; s += 97) {
    buildTable(table, s);
    if (strataRtPlanRleDecompress(images[s - 1], imageBytes[s - 1], shared, rawBytes) ||
        memcmp(shared, table, rawBytes)) {
      fprintf(stderr, "plans: table %d does not round-trip\n", s);
      return 1;
    }
  }
  /* Decompression: each table once per round, in shape order. */
  enum { ROUNDS = 5 };
  double perTable[ROUNDS];
  for (int r = 0; r < ROUNDS; r++) {
    double t0 = nowMs();
    for (int s = 0; s < SHAPES; s++) strataRtPlanRleDecompress(images[s], imageBytes[s], shared, rawBytes);
    perTable[r] = (nowMs() - t0) / SHAPES;
  }
  qsort(perTable, ROUNDS, sizeof *perTable, byDouble);

  Bench b;
  double runMs;
  if (!benchLoad(&b, "plans", model) || !benchAddVariant(&b, "model", b.module, strataCpuPipeline())) return 1;
  benchTime(&b, runs, false, NULL, &runMs);
  benchDestroy(&b);

  printf("tables %d (%d kernel records of %zu bytes each)\n", SHAPES, KERNELS, recordWords * 4);
  printf("raw-bytes %zu\n", rawTotal);
  printf("rle-bytes %zu\n", imageTotal);
  printf("ratio %.2f\n", (double)rawTotal / (double)imageTotal);
  printf("compress-ms-total %.1f\n", compressMs);
  printf("decompress-ms-per-table %.4f\n", perTable[ROUNDS / 2]);
  printf("run-ms %.3f (%s)\n", runMs, model);
  printf("decompress-fraction-of-run %.4f%%\n", 100 * perTable[ROUNDS / 2] / runMs);
  for (int s = 0; s < SHAPES; s++) free(images[s]);
  free(table), free(shared), free(scratch);
  return 0;
}
