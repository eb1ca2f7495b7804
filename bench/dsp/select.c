/* bench/dsp/select (docs/dsp.md): GCD²'s layout and instruction selection
 * on ResNet-50- and TinyBERT-shaped operator graphs and on random DAGs:
 * Agg_Cost (Eq. 4.1, modeled cycles) of the local choice, the partitioned
 * search at 13 and 17 operators a partition, and the exhaustive optimum
 * where it is affordable, with each search's time. Prints a table; not a
 * test.
 *   select */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "strata/dsp.h"

static double nowMs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static const int kCols[] = {1, 2, 4};

/* The dearest conversion of an M x N tensor (as the pass prices an edge). */
static double convert(int64_t M, int64_t N) {
  double worst = 0;
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      double c = strataDspConvertCost(kCols[a], kCols[b], M, N);
      if (c > worst) worst = c;
    }
  return worst;
}

static double vectors(int c, int64_t M, int64_t N) {
  size_t bytes = 0;
  strataDspPackedSize(c, M, N, &bytes);
  return (double)(bytes / STRATA_DSP_VBYTES);
}

/* A MatMul (M x K times K x N) fed by `in` (-1: a graph input). */
static int matmul(StrataDspGraph *g, int in, int64_t M, int64_t K, int64_t N) {
  StrataDspPlan p[3];
  for (int k = 0; k < 3; k++)
    p[k] = (StrataDspPlan){strataDspMatMulCost((StrataDspInstr)(STRATA_DSP_VMPY + k), M, K, N), kCols[k], kCols[k]};
  int v = strataDspGraphAddNode(g, p, 3);
  if (in >= 0) strataDspGraphAddEdge(g, in, v, convert(M, K));
  return v;
}

/* An element-wise op (requant, add, softmax) on M x N, inputs a and b. */
static int eltwise(StrataDspGraph *g, int a, int b, int64_t M, int64_t N, double perVector) {
  StrataDspPlan p[3];
  for (int k = 0; k < 3; k++) p[k] = (StrataDspPlan){perVector * vectors(kCols[k], M, N), kCols[k], kCols[k]};
  int v = strataDspGraphAddNode(g, p, 3);
  if (a >= 0) strataDspGraphAddEdge(g, a, v, convert(M, N));
  if (b >= 0) strataDspGraphAddEdge(g, b, v, convert(M, N));
  return v;
}

/* A layout-transforming op (im2col, transpose, reshape): reads any layout. */
static int reshape(StrataDspGraph *g, int in, int64_t M, int64_t N, int64_t inM, int64_t inN) {
  StrataDspPlan p[3];
  for (int k = 0; k < 3; k++) p[k] = (StrataDspPlan){2 * vectors(1, inM, inN) + vectors(kCols[k], M, N), 0, kCols[k]};
  int v = strataDspGraphAddNode(g, p, 3);
  if (in >= 0) strataDspGraphAddEdge(g, in, v, 0);
  return v;
}

/* ResNet-50's stem and first `blocks` bottlenecks of stage 1 (56x56), as
 * im2col + MatMul per 3x3/7x7 convolution, requant after each, and the
 * residual adds. */
static StrataDspGraph *resnet(int blocks) {
  StrataDspGraph *g = strataDspGraphCreate();
  int64_t P = 56 * 56;
  int x = reshape(g, -1, 112 * 112, 147, 224 * 224, 3);
  x = eltwise(g, matmul(g, x, 112 * 112, 147, 64), -1, 112 * 112, 64, 2);
  x = reshape(g, x, P, 64, 112 * 112, 64); /* max pool 3x3/2 */
  int64_t C = 64;
  for (int b = 0; b < blocks; b++) {
    int shortcut = C == 256 ? x : eltwise(g, matmul(g, x, P, C, 256), -1, P, 256, 2);
    int y = eltwise(g, matmul(g, x, P, C, 64), -1, P, 64, 2);
    y = reshape(g, y, P, 576, P, 64);
    y = eltwise(g, matmul(g, y, P, 576, 64), -1, P, 64, 2);
    y = eltwise(g, matmul(g, y, P, 64, 256), -1, P, 256, 2);
    x = eltwise(g, y, shortcut, P, 256, 1);
    C = 256;
  }
  return g;
}

/* `layers` TinyBERT encoder layers (sequence 128, hidden 312, FFN 1200). */
static StrataDspGraph *tinybert(int layers) {
  StrataDspGraph *g = strataDspGraphCreate();
  int64_t S = 128, H = 312, F = 1200;
  int x = eltwise(g, -1, -1, S, H, 1);
  for (int l = 0; l < layers; l++) {
    int q = eltwise(g, matmul(g, x, S, H, H), -1, S, H, 2);
    int k = eltwise(g, matmul(g, x, S, H, H), -1, S, H, 2);
    int v = eltwise(g, matmul(g, x, S, H, H), -1, S, H, 2);
    int kt = reshape(g, k, H, S, S, H);
    int scores = matmul(g, q, S, H, S);
    strataDspGraphAddEdge(g, kt, scores, 0); /* K^T as weights: no layout */
    int attn = eltwise(g, scores, -1, S, S, 4); /* softmax, requantized */
    int ctx = eltwise(g, matmul(g, attn, S, S, H), -1, S, H, 2);
    strataDspGraphAddEdge(g, v, ctx, 0);
    int o = eltwise(g, matmul(g, ctx, S, H, H), x, S, H, 2);
    int f = eltwise(g, matmul(g, o, S, H, F), -1, S, F, 2);
    x = eltwise(g, matmul(g, f, S, F, H), o, S, H, 2);
  }
  return g;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

/* A random DAG of n MatMul/element-wise/reshape operators on 64..512-sized
 * tensors. */
static StrataDspGraph *randomDag(int n) {
  StrataDspGraph *g = strataDspGraphCreate();
  int64_t M[64];
  for (int i = 0; i < n; i++) {
    int64_t rows = 32 << (next() % 4), cols = 32 << (next() % 4);
    int in = i ? (int)(next() % (unsigned)i) : -1, kind = (int)(next() % 5);
    M[i] = rows;
    if (kind == 0 && in >= 0) reshape(g, in, rows, cols, M[in], cols);
    else if (kind == 1) eltwise(g, in, i > 1 && next() % 2 ? (int)(next() % (unsigned)i) : -1, in >= 0 ? M[in] : rows, cols, 2), M[i] = in >= 0 ? M[in] : rows;
    else matmul(g, in, in >= 0 ? M[in] : rows, cols, 32 << (next() % 4)), M[i] = in >= 0 ? M[in] : rows;
  }
  return g;
}

static void run(const char *name, StrataDspGraph *g, bool exhaustive) {
  int n = strataDspGraphNumNodes(g), *choice = malloc(sizeof(int) * (size_t)n);
  char err[160];
  double cost[4], ms[4];
  const StrataDspSelectMode modes[4] = {STRATA_DSP_SELECT_LOCAL, STRATA_DSP_SELECT_PARTITION, STRATA_DSP_SELECT_PARTITION,
                                        STRATA_DSP_SELECT_EXHAUSTIVE};
  const int caps[4] = {0, 13, 17, 0};
  for (int m = 0; m < 4; m++) {
    cost[m] = ms[m] = -1;
    if (m == 3 && !exhaustive) continue;
    double t0 = nowMs();
    if (!strataDspSelect(g, modes[m], caps[m], choice, err, sizeof err)) {
      printf("%s: %s\n", name, err);
      continue;
    }
    ms[m] = nowMs() - t0;
    cost[m] = strataDspAggCost(g, choice);
  }
  printf("%-22s %4d  %12.0f  %12.0f %8.2f  %12.0f %8.2f", name, n, cost[0], cost[1], ms[1], cost[2], ms[2]);
  if (cost[3] >= 0) printf("  %12.0f %8.2f  local/opt %.3f  part13/opt %.4f\n", cost[3], ms[3], cost[0] / cost[3], cost[1] / cost[3]);
  else printf("  %12s %8s  local/part17 %.3f\n", "-", "-", cost[0] / cost[2]);
  free(choice);
  strataDspGraphDestroy(g);
}

int main(void) {
  printf("%-22s %4s  %12s  %12s %8s  %12s %8s  %12s %8s\n", "graph", "ops", "local", "part(13)", "ms", "part(17)", "ms",
         "exhaustive", "ms");
  run("resnet50 stem+1 block", resnet(1), true);
  run("resnet50 stem+2 blocks", resnet(2), true);
  run("resnet50 stem+3 blocks", resnet(3), false);
  run("tinybert 1 layer", tinybert(1), true);
  run("tinybert 4 layers", tinybert(4), false);
  for (int n = 5; n <= 25; n += 5) {
    char name[32];
    snprintf(name, sizeof name, "random dag %d", n);
    run(name, randomDag(n), true);
  }
  return 0;
}
