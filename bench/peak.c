/* Measures single-core fp32 FMA throughput: independent FMA chains on the
 * widest vectors the host has (built with -march=native: 16 floats under
 * AVX-512, 8 under AVX/AVX2). Prints GFLOP/s. */
#include <stdio.h>
#include <time.h>

#if defined(__AVX512F__)
#define VW 16
#else
#define VW 8
#endif
#define CHAINS 12
typedef float vec __attribute__((vector_size(VW * 4)));

int main(void) {
  vec acc[CHAINS], a, b;
  for (int l = 0; l < VW; l++) a[l] = 0.9999f, b[l] = 0.5f; /* acc -> b / (1 - a): stays finite */
  for (int i = 0; i < CHAINS; i++) acc[i] = b * (float)i;
  long iters = 400000000 / CHAINS;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long n = 0; n < iters; n++)
#pragma GCC unroll 12
    for (int i = 0; i < CHAINS; i++) acc[i] = acc[i] * a + b;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  float sink = 0;
  for (int i = 0; i < CHAINS; i++) sink += acc[i][0];
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  double flops = (double)iters * CHAINS * VW * 2;
  if (sink < 0) return 1; /* keeps the chains live; never true */
  printf("%.2f\n", flops / s / 1e9);
  return 0;
}
