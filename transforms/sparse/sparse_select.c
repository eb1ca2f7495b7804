/* --sparse-pattern-select: PatDNN's pattern set, taken from the model itself.
 * Each nonzero 3x3 kernel of each nn.conv with constant f32 weights votes
 * for its natural pattern (the centre plus its size-1 largest-magnitude
 * neighbours); the `count` most frequent (ties: the lower mask) become the
 * module attribute `sparse.patterns`, which sparse-pattern-prune projects
 * onto. With print-histogram the whole histogram is printed as a remark:
 * every mask of the family (centre set, popcount `size`, 56 masks for the
 * paper's 4), with its count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sparse_xform.h"

typedef struct {
  int64_t mask, count;
} Bin;

/* Most votes first; ties: the lower mask. */
static int byVotes(const void *a, const void *b) {
  const Bin *x = a, *y = b;
  if (x->count != y->count) return x->count > y->count ? -1 : 1;
  return x->mask < y->mask ? -1 : x->mask > y->mask;
}

/* Votes of every nonzero 3x3 kernel of the module's convolutions. */
static void vote(MlirOperation module, int size, int64_t hist[512], int64_t *kernels, int64_t *convs) {
  static const char *const kConv[] = {"nn.conv"};
  StrataOpList ops = {0};
  sparsePassCollect(module, kConv, 1, &ops);
  for (size_t i = 0; i < ops.count; i++) {
    SparseConv c;
    char why[160];
    if (!sparsePassReadConv(ops.ops[i], &c, why, sizeof why)) continue;
    if (c.kh == 3 && c.kw == 3) {
      ++*convs;
      for (int64_t k = 0; k < c.M * c.C; k++) {
        const float *k9 = c.w + k * SPARSE_KERNEL;
        if (!sparseSupport(k9)) continue;
        hist[sparseNaturalPattern(k9, size)]++;
        ++*kernels;
      }
    }
    sparsePassFreeConv(&c);
  }
  strataOpListDestroy(&ops);
}

static void runSelect(StrataPassRun *run, MlirOperation module) {
  int64_t count = strataPassGetInt(run, "count"), size = strataPassGetInt(run, "size");
  if (count < 1 || count > SPARSE_MAX_PATTERNS || size < 1 || size > SPARSE_KERNEL) {
    strataEmitError(mlirOperationGetLocation(module),
                    "sparse-pattern-select: count must be 1 to %d and size 1 to %d (got count=%lld size=%lld)",
                    SPARSE_MAX_PATTERNS, SPARSE_KERNEL, (long long)count, (long long)size);
    strataPassSignalFailure(run);
    return;
  }
  int64_t hist[512] = {0}, kernels = 0, convs = 0;
  vote(module, (int)size, hist, &kernels, &convs);
  /* The family: every mask a natural pattern of this size can be. */
  Bin bins[512];
  int numBins = 0, voted = 0;
  for (int64_t m = 0; m < 512; m++)
    if ((m >> SPARSE_CENTRE_BIT & 1) && sparsePopcount(m) == size) {
      bins[numBins++] = (Bin){m, hist[m]};
      voted += hist[m] > 0;
    }
  if (strataPassGetBool(run, "print-histogram")) {
    char text[2048];
    int at = 0;
    for (int i = 0; i < numBins; i++)
      at += snprintf(text + at, sizeof text - (size_t)at, " 0x%03llx:%lld", (unsigned long long)bins[i].mask,
                     (long long)bins[i].count);
    sparsePassRemark(module, "sparse-pattern-select: natural patterns of %lld kernels in %lld convolutions, %d bins:%s",
                     (long long)kernels, (long long)convs, numBins, text);
  }
  if (!kernels) {
    sparsePassRemark(module, "sparse-pattern-select: no nonzero 3x3 kernel of an f32 nn.conv with constant "
                             "weights; sparse.patterns not set");
    return;
  }
  qsort(bins, (size_t)numBins, sizeof *bins, byVotes);
  int k = voted < count ? voted : (int)count;
  int64_t masks[SPARSE_MAX_PATTERNS], covered = 0;
  char text[SPARSE_MAX_PATTERNS * 8 + 1];
  int at = 0;
  for (int i = 0; i < k; i++) {
    masks[i] = bins[i].mask;
    covered += bins[i].count;
    at += snprintf(text + at, sizeof text - (size_t)at, "%s0x%03llx", i ? "," : "", (unsigned long long)masks[i]);
  }
  sparsePassSetModulePatterns(module, masks, k);
  if (strataPassGetBool(run, "print-histogram"))
    sparsePassRemark(module, "sparse-pattern-select: top %d: [%s], the natural pattern of %lld of the %lld kernels",
                     k, text, (long long)covered, (long long)kernels);
}

static const StrataPassOptionDef kOptions[] = {
    {"count", STRATA_OPTION_INT, "8", "How many patterns to select (the paper uses 8)"},
    {"size", STRATA_OPTION_INT, "4", "Entries of a natural pattern, centre included (the paper: 4)"},
    {"print-histogram", STRATA_OPTION_BOOL, "false", "Print the natural-pattern histogram and the choice as remarks"},
};

const StrataPassDef sparsePatternSelectPass = {
    .name = "sparse-pattern-select",
    .summary = "Select the most frequent natural 3x3 kernel patterns of the module (sets sparse.patterns)",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = SPARSE_COUNT(kOptions),
    .run = runSelect,
};
