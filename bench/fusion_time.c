/* bench/fusion_time: times one model compiled with each fusion mode of the
 * CPU pipeline -- none, fixed (kernel epilogues), dnnfusion -- in one
 * process, interleaving single runs of the three so that this VM's slow and
 * fast phases hit all of them alike (separate processes minutes apart
 * differed by up to 20% on the same code). Checks the three agree first.
 *   fusion_time model.mlir RUNS [PROFILE_DB]  ->  "<mode> <median ms>" lines */
#include <stdio.h>
#include <stdlib.h>
#include "jit_bench.h"

int main(int argc, char **argv) {
  if (argc < 3) return fprintf(stderr, "usage: fusion_time model.mlir RUNS [PROFILE_DB]\n"), 2;
  int runs = atoi(argv[2]);
  Bench b;
  if (runs < 1) return fprintf(stderr, "fusion_time: RUNS must be at least 1\n"), 2;
  if (!benchLoad(&b, "fusion_time", argv[1])) return benchDestroy(&b), 1;
  char *withDb = argc > 3 ? strataCpuPipelineFusedWithProfileDb(argv[3]) : NULL;
  bool ok = benchAddVariant(&b, "none", b.module, strataCpuPipelineUnfused()) &&
            benchAddVariant(&b, "fixed", b.module, strataCpuPipeline()) &&
            benchAddVariant(&b, "dnnfusion", b.module, withDb ? withDb : strataCpuPipelineFused()) &&
            benchAgree(&b);
  if (ok) {
    double ms[BENCH_MAX_VARIANTS];
    benchTime(&b, runs, false, NULL, ms);
    for (int k = 0; k < b.variants; k++) printf("%s %.4f\n", b.names[k], ms[k]);
  }
  free(withDb);
  benchDestroy(&b);
  return ok ? 0 : 1;
}
