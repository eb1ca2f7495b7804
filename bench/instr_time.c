/* bench/instr_time: the run-time cost of instrumentation on one model, in
 * one process. The model is compiled four times through the default CPU
 * pipeline -- uninstrumented ("none"), and after --instrument with the
 * `noop` tool (callbacks that record nothing: Amanda's no-op routines), the
 * `trace` tool and the `profile` tool -- and single runs of the four are
 * interleaved, each round in a rotated order, so that this VM's slow and
 * fast phases hit all of them alike. The trace records and profile events
 * stay in the runtime's memory, dropped after each round (outside the
 * timed runs). Checks first that noop left the IR byte-identical and that
 * the four agree on the outputs.
 *   instr_time model.mlir RUNS  ->  lines "<name> <value>":
 *     none|noop|trace|profile <median ms of a run>
 *     pass-noop|pass-trace|pass-profile <ms of the instrument pass (best of 3)>
 *     probes-trace|probes-profile <instr.probe ops inserted> */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "instr.h"
#include "jit_bench.h"
#include "tool_time.h"

enum { VARIANTS = 4 };
static const char *const kNames[VARIANTS] = {"none", "noop", "trace", "profile"};

static void appendText(MlirStringRef s, void *user) { fwrite(s.data, 1, s.length, (FILE *)user); }

/* The module's text with large constants elided (a tool that records
 * nothing touches no constant either). malloc'd. */
static char *moduleText(MlirModule m) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsElideLargeElementsAttrs(flags, 16);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(m), flags, appendText, f);
  mlirOpPrintingFlagsDestroy(flags);
  fclose(f);
  return text;
}

static MlirWalkResult countProbe(MlirOperation op, void *user) {
  *(long *)user += strataOpIsNamed(op, "instr.probe");
  return MlirWalkResultAdvance;
}

/* A clone of `m` instrumented with `tool`; *passMs: the pass's best time
 * over three fresh clones. Null module on failure (diagnostics printed). */
static MlirModule instrumented(StrataContext *ctx, MlirModule m, const char *tool, double *passMs) {
  char pipeline[64];
  snprintf(pipeline, sizeof pipeline, "instrument{tool=%s}", tool);
  MlirModule clone = {NULL};
  *passMs = INFINITY;
  for (int rep = 0; rep < 3; rep++) {
    if (!mlirModuleIsNull(clone)) mlirModuleDestroy(clone);
    clone = mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(m)));
    double t0 = toolNowMs();
    if (mlirLogicalResultIsFailure(strataRunPipeline(ctx, mlirModuleGetOperation(clone), pipeline))) {
      mlirModuleDestroy(clone);
      return (MlirModule){NULL};
    }
    *passMs = fmin(*passMs, toolNowMs() - t0);
  }
  return clone;
}

int main(int argc, char **argv) {
  if (argc != 3) return fprintf(stderr, "usage: instr_time model.mlir RUNS\n"), 2;
  int runs = atoi(argv[2]);
  if (runs < 1) return fprintf(stderr, "instr_time: RUNS must be at least 1\n"), 2;
  Bench b;
  if (!benchLoad(&b, "instr_time", argv[1])) return benchDestroy(&b), 1;
  double passMs[VARIANTS] = {0};
  long probes[VARIANTS] = {0};
  char *plain = moduleText(b.module);
  bool ok = true;
  for (int k = 0; ok && k < VARIANTS; k++) {
    MlirModule v = k ? instrumented(b.ctx, b.module, kNames[k], &passMs[k]) : b.module;
    if (mlirModuleIsNull(v)) {
      fprintf(stderr, "instr_time: --instrument tool=%s failed\n", kNames[k]);
      ok = false;
      break;
    }
    mlirOperationWalk(mlirModuleGetOperation(v), countProbe, &probes[k], MlirWalkPreOrder);
    if (!strcmp(kNames[k], "noop")) {
      char *after = moduleText(v);
      if (!plain || !after || strcmp(plain, after)) fprintf(stderr, "instr_time: the noop tool changed the IR\n"), ok = false;
      free(after);
    }
    ok = ok && benchAddVariant(&b, kNames[k], v, strataCpuPipeline());
    if (k) mlirModuleDestroy(v);
  }
  free(plain);
  if (ok && benchAgree(&b)) {
    double ms[BENCH_MAX_VARIANTS];
    /* the trace records and profile events are dropped after each round */
    benchTime(&b, runs, true, strataRtInstrReset, ms);
    for (int k = 0; k < VARIANTS; k++) printf("%s %.4f\n", kNames[k], ms[k]);
    for (int k = 1; k < VARIANTS; k++) printf("pass-%s %.3f\n", kNames[k], passMs[k]);
    for (int k = 2; k < VARIANTS; k++) printf("probes-%s %ld\n", kNames[k], probes[k]);
  } else {
    ok = false;
  }
  benchDestroy(&b);
  return ok ? 0 : 1;
}
