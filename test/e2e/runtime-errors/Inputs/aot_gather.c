/* A C driver for index.mlir compiled ahead of time (aot-errors.test): the
 * header's wrappers return a status, and an index out of range comes back
 * as a non-zero status with the runtime's message instead of an abort;
 * the next call runs normally. */
#include <stdio.h>
#include "idx.h"

static void show(const char *what, int rc, const float *y) {
  if (rc) printf("%s: status %d: %s\n", what, rc, strataRtLastError());
  else printf("%s: status 0: %g %g %g | %g %g %g\n", what, y[0], y[1], y[2], y[3], y[4], y[5]);
}

int main(void) {
  float d[12];
  for (int i = 0; i < 12; i++) d[i] = (float)i;
  float y[6] = {0};
  int64_t ok[2] = {1, -1}, hi[2] = {0, 4}, lo[2] = {-5, 0};
  show("ok", idx_gather(d, ok, y), y);
  show("hi", idx_gather(d, hi, y), y);
  void *in[2] = {d, lo}, *out[1] = {y};
  show("lo", idx_gather_run(in, out), y);
  show("again", idx_gather(d, ok, y), y);
  return 0;
}
