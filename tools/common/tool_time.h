/* Timing shared by strata-run and the bench/ harnesses. */
#ifndef STRATA_TOOL_TIME_H
#define STRATA_TOOL_TIME_H

#include <stddef.h>

/* Monotonic wall time in milliseconds. */
double toolNowMs(void);
/* The median of v[0..n) (n > 0); sorts v. */
double toolMedian(double *v, size_t n);

#endif
