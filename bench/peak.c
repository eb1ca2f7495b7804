/* Measures single-core fp32 FMA throughput: independent FMA chains on the
 * widest vectors the compiler targets (-march=native). Prints GFLOP/s. */
#include <stdio.h>
#include <time.h>

#define CHAINS 12
typedef float vec __attribute__((vector_size(32)));

int main(void) {
  vec acc[CHAINS], a = {0.9999f, 0.9999f, 0.9999f, 0.9999f, 0.9999f, 0.9999f, 0.9999f, 0.9999f};
  vec b = {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f}; /* acc -> b / (1 - a): stays finite */
  for (int i = 0; i < CHAINS; i++) acc[i] = b * (float)i;
  long iters = 200000000 / CHAINS;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (long n = 0; n < iters; n++)
#pragma GCC unroll 12
    for (int i = 0; i < CHAINS; i++) acc[i] = acc[i] * a + b;
  clock_gettime(CLOCK_MONOTONIC, &t1);
  float sink = 0;
  for (int i = 0; i < CHAINS; i++) sink += acc[i][0];
  double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
  double flops = (double)iters * CHAINS * 8 * 2;
  if (sink < 0) return 1; /* keeps the chains live; never true */
  printf("%.2f\n", flops / s / 1e9);
  return 0;
}
