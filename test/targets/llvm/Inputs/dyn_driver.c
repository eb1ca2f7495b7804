/* aot-dynamic.test: calls an AOT-compiled function of dynamic shape at two
 * batch sizes; its output comes back through the runtime (results.h). */
#include <stdio.h>
#include <stdlib.h>
#include "dyn.h"
#include "results.h"

typedef struct {
  strata_memref in;
} Call;

static void run(void *p) { _mlir_ciface_d_twice_relu(&((Call *)p)->in); }

int main(void) {
  for (int64_t n = 1; n <= 4; n += 3) {
    float x[12];
    for (int i = 0; i < n * 3; i++) x[i] = (float)(i - 4);
    Call c;
    int64_t shape[2] = {n, 3};
    strata_memref_init(&c.in, x, 2, shape);
    StrataRtResult out[1] = {{0}};
    char err[256];
    strataRtResultsBegin(out, 1);
    int rc = strataRtCall(run, &c, err, sizeof err);
    strataRtResultsEnd();
    if (rc || !out[0].set) return printf("error: %s\n", rc ? err : "no result"), 1;
    printf("n=%lld -> %lldx%lld:", (long long)n, (long long)out[0].dims[0], (long long)out[0].dims[1]);
    for (int i = 0; i < out[0].dims[0] * out[0].dims[1]; i++) printf(" %g", ((float *)out[0].data)[i]);
    printf("\n");
    free(out[0].data);
  }
  return 0;
}
