/* strata-run's jobs, one file each: its options (options.c), loading the
 * model and its inputs (model.c), compiling and running it through a
 * target or the interpreter and reporting (execute.c); main.c runs them in
 * turn. */
#ifndef STRATA_RUN_H
#define STRATA_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include "strata/strata.h"

#define MAX_IO 1024 /* graph inputs and outputs (calibration models list every activation) */

typedef enum { MODE_JIT, MODE_INTERPRET, MODE_COMPARE } Mode;

typedef struct {
  const char *file, *entry;
  const char *inputs[MAX_IO], *outputs[MAX_IO];
  int numInputs, numOutputs;
  const char *inputShapes[MAX_IO]; /* --input-shape NAME=DIMS: random inputs' dynamic dims */
  int numInputShapes;
  const char *shapesFile; /* --shapes: a sweep of shapes through one compile */
  bool allFunctions;      /* --all-functions: each public function, one compile (each.c) */
  const char *outputDir;  /* --output-dir: with --all-functions, DIR/NAME.K.npy per result */
  Mode mode;
  long repeat, threads, optLevel;
  size_t maxMemory; /* --max-memory; 0: no cap */
  const char *target;
  bool listTargets, listDevices;
  const char *device; /* --device: the target's device number; NULL: $STRATA_DEVICE, else 0 */
  bool upstream;
  const char *fusion, *fuseDb, *fuseProfile;
  StrataSparseOptions sparse; /* --sparse*: mode NULL when not asked */
  const char *instrument, *traceOut, *dumpDir;
  const char *predicate; /* --predicate: masked or skip; NULL when not asked */
  bool quantized;        /* --quantized int8: nn-qdq-to-qlinear first */
  bool debugNumerics;
  unsigned long long seed;
  double atol, rtol;
  bool quiet;
  bool stats; /* --stats: the device work of a call */
  const char *cacheDir; /* the compile cache; NULL: none */
  bool noCache;
  char cacheBuf[4096];  /* the default cacheDir's text */
  char codeArgs[4096];  /* the options that shape the code, each NUL-terminated (cached.c) */
  size_t codeArgsLen;
  bool codeArgsOverflow;
} Options;

/* Parses the command line: 0 to go on, -1 to exit successfully (--help,
 * --version), 1 after an error message. */
int parseArgs(int argc, char **argv, Options *o);

/* Everything one run holds, freed by runStateDestroy. */
typedef struct {
  StrataContext *ctx;
  char *text;
  MlirModule module;
  MlirOperation func;
  char entry[256];
  MlirType ftype;
  size_t numIn, numOut, numRef;
  StrataTensor *inputs[MAX_IO], *outputs[MAX_IO], **ref;
  StrataExecutable *exe;
  bool mapped;        /* text is a mapping of the model file (strataModelBytesRelease) */
  size_t textLen;
  bool cacheable;     /* the model may be stored in the model cache under cacheKey */
  char cacheKey[33];
  double loadMs;      /* a hit: the time the model cache took */
} RunState;

/* model.c: reads, imports or parses, verifies and instruments the model;
 * then finds the entry function and makes its inputs (read or random).
 * False after an error message. */
bool loadModel(RunState *r, const Options *o);
bool prepareEntry(RunState *r, const Options *o);
/* The part of prepareEntry after r->func is set: its signature, checked
 * against the options, and the inputs. */
bool describeEntry(RunState *r, const Options *o);
/* cached.c: the model cache. loadCached reads the model file and, when the
 * run may use the cache (the cpu target, the compiled code only, a cache
 * directory), looks it up by the file's bytes and the options that shape
 * the code: on a hit (*hit) the run has its entry, inputs and executable
 * without importing or compiling; on a miss loadModel goes on from the
 * bytes read. False after an error message. storeCached keeps the
 * executable a miss compiled (a warning when it cannot). */
bool loadCached(RunState *r, const Options *o, bool *hit);
void storeCached(RunState *r, const Options *o);
/* The inputs, random (seeded) or read; `specs` (NAME=DIMS, NAME an input's
 * ONNX name or its number) give the dims that input types leave dynamic.
 * Replaces r->inputs. False after an error message. */
bool makeInputs(RunState *r, const Options *o, const char *const *specs, int numSpecs);
void runStateDestroy(RunState *r);

/* execute.c. What the options ask of strataCompile. */
StrataCompileOptions compileOptions(const Options *o);
/* r->outputs: a tensor per result of r->ftype; false after an error message. */
bool createOutputs(RunState *r);
/* Runs the interpreter, the target or both, as the mode says. */
bool execute(RunState *r, const Options *o);
/* sweep.c: --shapes: runs every shape of the file through one compile. */
bool sweepShapes(RunState *r, const Options *o);
/* each.c: --all-functions: compiles the module once and runs each public
 * function on its own inputs; false if any failed (each reported). */
bool runAllFunctions(RunState *r, const Options *o);
/* Compares per output (--compare); true if all are within tolerance. */
bool compareOutputs(StrataTensor *const *jit, StrataTensor *const *ref, size_t n, const Options *o);
/* Prints and writes the outputs, compares (--compare), writes the trace. */
bool report(RunState *r, const Options *o);
/* --debug-numerics: true if it ran and found no divergence. */
bool debugNumerics(RunState *r, const Options *o);

#endif /* STRATA_RUN_H */
