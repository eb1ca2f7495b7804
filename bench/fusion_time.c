/* bench/fusion_time: times one model compiled with each fusion mode of the
 * CPU pipeline -- none, fixed (kernel epilogues), dnnfusion -- in one
 * process, interleaving single runs of the three so that this VM's slow and
 * fast phases hit all of them alike (separate processes minutes apart
 * differed by up to 20% on the same code). Checks the three agree first.
 *   fusion_time model.mlir RUNS [PROFILE_DB] [--tiling]  ->  "<mode> <median ms>" lines
 * --tiling adds the plan that fuses every profile cell (nn-fuse
 * profile=always) compiled twice, with and without fused-blocks-tile:
 * "always" and "always-untiled", the same blocks with and without one loop
 * nest per block. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "jit_bench.h"

/* `pipeline` without its fused-blocks-tile step (malloc'd). */
static char *withoutTiling(const char *pipeline) {
  static const char step[] = "func.func(fused-blocks-tile),";
  const char *at = strstr(pipeline, step);
  char *p = malloc(strlen(pipeline) + 1);
  if (!p || !at) return free(p), NULL;
  size_t head = (size_t)(at - pipeline);
  memcpy(p, pipeline, head);
  strcpy(p + head, at + sizeof step - 1);
  return p;
}

int main(int argc, char **argv) {
  if (argc < 3) return fprintf(stderr, "usage: fusion_time model.mlir RUNS [PROFILE_DB] [--tiling]\n"), 2;
  int runs = atoi(argv[2]);
  const char *db = NULL;
  bool tiling = false;
  for (int i = 3; i < argc; i++) {
    if (!strcmp(argv[i], "--tiling")) tiling = true;
    else if (!db && argv[i][0] != '-') db = argv[i];
    else return fprintf(stderr, "fusion_time: unexpected argument '%s'\n", argv[i]), 2;
  }
  Bench b;
  if (runs < 1) return fprintf(stderr, "fusion_time: RUNS must be at least 1\n"), 2;
  if (!benchLoad(&b, "fusion_time", argv[1])) return benchDestroy(&b), 1;
  char *withDb = db ? strataCpuPipelineFusedWithProfileDb(db) : NULL;
  char *always = tiling ? strataCpuPipelineFusedWith("always", NULL) : NULL;
  char *untiled = always ? withoutTiling(always) : NULL;
  bool ok = (!db || withDb) && (!tiling || untiled);
  if (!ok) fprintf(stderr, "fusion_time: cannot build the pipelines (database path '%s')\n", db ? db : "");
  ok = ok && benchAddVariant(&b, "none", b.module, strataCpuPipelineUnfused()) &&
       benchAddVariant(&b, "fixed", b.module, strataCpuPipeline()) &&
       benchAddVariant(&b, "dnnfusion", b.module, withDb ? withDb : strataCpuPipelineFused()) &&
       (!tiling || (benchAddVariant(&b, "always", b.module, always) &&
                    benchAddVariant(&b, "always-untiled", b.module, untiled))) &&
       benchAgree(&b);
  if (ok) {
    double ms[BENCH_MAX_VARIANTS];
    benchTime(&b, runs, tiling, NULL, ms);
    for (int k = 0; k < b.variants; k++) printf("%s %.4f\n", b.names[k], ms[k]);
  }
  free(withDb);
  free(always);
  free(untiled);
  benchDestroy(&b);
  return ok ? 0 : 1;
}
