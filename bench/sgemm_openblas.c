/* OpenBLAS cblas_sgemm timing: M N K REPEATS -> median milliseconds. */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  if (argc != 5) return fprintf(stderr, "usage: sgemm_openblas M N K REPEATS\n"), 1;
  int m = atoi(argv[1]), n = atoi(argv[2]), k = atoi(argv[3]), r = atoi(argv[4]);
  float *a = malloc(sizeof(float) * (size_t)m * k), *b = malloc(sizeof(float) * (size_t)k * n),
        *c = malloc(sizeof(float) * (size_t)m * n);
  double *t = malloc(sizeof(double) * (size_t)r);
  if (!a || !b || !c || !t || r < 1) return 1;
  for (long i = 0; i < (long)m * k; i++) a[i] = (float)(i % 7) * 0.1f;
  for (long i = 0; i < (long)k * n; i++) b[i] = (float)(i % 5) * 0.1f;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
  for (int i = 0; i < r; i++) {
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1, a, k, b, n, 0, c, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    t[i] = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-6;
  }
  qsort(t, (size_t)r, sizeof *t, cmp);
  printf("%.4f\n", t[r / 2]);
  return 0;
}
