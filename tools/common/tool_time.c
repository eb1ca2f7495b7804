/* Timing shared by strata-run and the bench/ harnesses. */
#include "tool_time.h"
#include <stdlib.h>
#include <time.h>

double toolNowMs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double toolMedian(double *v, size_t n) {
  qsort(v, n, sizeof *v, cmpDouble);
  return v[n / 2];
}
