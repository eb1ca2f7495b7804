/* The launcher: the `strata-run` users run. It links no LLVM and no MLIR
 * (libstrata_rt, libc, libm and the plain parts of the cpu target's cache),
 * so a run it serves maps a few pages of code instead of the ~90 MB of
 * libLLVM and libMLIR the dynamic loader relocates. It serves a plain run
 * of a model file from the model cache; for a miss, or any option it does
 * not serve, it executes the full driver, strata-run-full beside it, with
 * the same arguments, so everything else behaves as before. */
#ifndef STRATA_RUN_LAUNCHER_H
#define STRATA_RUN_LAUNCHER_H

#include <stdbool.h>
#include <stddef.h>

#define LAUNCH_MAX_OUTPUTS 64

typedef struct {
  const char *file;
  const char *outputs[LAUNCH_MAX_OUTPUTS];
  int numOutputs;
  unsigned long long seed;
  long repeat, threads;
  size_t maxMemory;
  bool quiet;
  const char *cacheDir;
  char cacheBuf[4096];
  char codeArgs[4096]; /* the options that shape the code, as the full driver keys them */
  size_t codeArgsLen;
} LaunchOptions;

/* The arguments when the launcher can serve them all (the same values the
 * full driver would accept); false for anything else. */
bool launchParse(int argc, char **argv, LaunchOptions *o);

/* Serves the run from the model cache: true once it printed the results
 * (and wrote the --output files); false, having printed nothing, on a
 * miss or anything the full driver should handle. `fullDriver` is the
 * driver's path (its build ID is in the key). */
bool launchServe(const LaunchOptions *o, const char *fullDriver);

#endif /* STRATA_RUN_LAUNCHER_H */
