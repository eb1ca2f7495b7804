/* Targets: what Strata compiles a model for. A target is a table of data and
 * callbacks (a StrataTargetDef) registered on a context like passes and
 * dialects: its lowering pipelines by fusion mode, which nn ops it runs as
 * library kernels (what fusion planning asks), how it compiles and invokes a
 * model in-process, and how it writes code ahead of time. The host CPU
 * (`cpu`, through LLVM) is built in; embedders register their own.
 *
 *   StrataExecutable *exe = strataCompile(ctx, module, "cpu",
 *       &(StrataCompileOptions){.fusion = STRATA_FUSION_DNNFUSION, .optLevel = 3});
 *   if (!exe) ...;                                   (errors went to the callback)
 *   strataExecutableInvoke(exe, "main", inputs, 2, outputs, 1);
 *   strataExecutableDestroy(exe);
 *
 *   static const StrataTargetDef kToy = {
 *     .name = "toy", .summary = "...",
 *     .pipelines = {[STRATA_FUSION_FIXED] = "func.func(nn-fold)"},
 *     .compile = toyCompile, .invoke = toyInvoke, .destroy = toyDestroy,
 *   };
 *   strataContextRegisterTarget(ctx, &kToy);
 */
#ifndef STRATA_TARGET_H
#define STRATA_TARGET_H

#include <stdbool.h>
#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How a model is fused on its way down, each mode one pipeline of the
 * target. */
typedef enum {
  STRATA_FUSION_FIXED,     /* the target's fixed patterns (cpu: kernel epilogues); the default */
  STRATA_FUSION_NONE,      /* no fusion at all (cpu: kernels without epilogues, a loop nest per op) */
  STRATA_FUSION_DNNFUSION, /* nn-fuse planning, then fused code generation */
  STRATA_FUSION_PLANNED,   /* the fused code generation alone, for IR nn-fuse already grouped */
  STRATA_FUSION_BASELINE,  /* no Strata optimization (cpu: upstream MLIR's loops, no kernels) */
} StrataFusionMode;
#define STRATA_NUM_FUSION_MODES 5

/* "fixed", "none", "dnnfusion", "planned", "baseline". */
const char *strataFusionModeName(StrataFusionMode mode);
/* Parses a name strataFusionModeName gives; false if it is none of them. */
bool strataParseFusionMode(const char *name, StrataFusionMode *mode);

typedef struct {
  StrataFusionMode fusion;
  int optLevel;              /* the target's code generator level, 0-3 (LLVM's -O) */
  const char *pipeline;      /* non-NULL: lower with this textual pipeline instead */
  const char *fuseProfile;   /* dnnfusion: nn-fuse's profile mode (measure, db, always,
                                never); NULL: the pipeline's own */
  const char *fuseProfileDb; /* dnnfusion: nn-fuse's latency database file; NULL: none */
  const char *cacheDir;      /* a compile cache there, for targets that keep one (cpu: object
                                code keyed by the lowered module, options and host CPU);
                                NULL: none */
  const char *device;        /* targets with a device choice (opencl): its number, as
                                the target's listDevices prints it; NULL: $STRATA_DEVICE,
                                else 0 */
} StrataCompileOptions;

/* Ahead-of-time output. */
typedef struct {
  StrataCompileOptions compile; /* the lowering, as for strataCompile */
  const char *format;           /* one of the target's emitFormats; NULL: its first */
  const char *triple;           /* the machine; NULL: the target's default (cpu: the host) */
  const char *cpu;
  const char *features;         /* cpu: "+avx2,-avx512f"; NULL: the host's, "" with a cpu */
} StrataEmitOptions;

typedef struct StrataTargetDef StrataTargetDef;

/* What one call of a compiled function does on a device, as planned:
 * kernel launches and buffer copies (strataExecutableCallStats). */
typedef struct {
  size_t launches, copies;
} StrataCallStats;

struct StrataTargetDef {
  const char *name;    /* "cpu", as --target and nn-fuse{target=...} name it */
  const char *summary; /* one line */
  /* Textual pipelines (strataParsePipeline syntax) from nn to what `compile`
   * and `emit` take, by StrataFusionMode; NULL: the target has no such
   * mode; "": no lowering at all. A dnnfusion pipeline that runs nn-fuse
   * takes strataCompile's profile options into its nn-fuse{...}. */
  const char *pipelines[STRATA_NUM_FUSION_MODES];
  /* The registered Strata dialects those pipelines lower, comma-separated
   * ("nn,instr"); NULL: any. strataCompile and strataEmit refuse a model
   * with an op of another registered dialect (at the op) before lowering,
   * unless the caller gives its own pipeline. */
  const char *dialects;
  /* A textual pipeline run before whichever of `pipelines` lowers the
   * model (not before a caller's own pipeline); NULL: none. The GPU
   * targets take the profile tool's probes out there (gpu-profile-probes),
   * so every fusion mode's planning and kernels are the plain model's. */
  const char *prelude;

  /* Library kernels, as fusion planning (nn-fuse{target=NAME}) sees them.
   * isKernel: `op` becomes a call to a library kernel, which reads its
   * inputs from memory (NULL: the target has no kernels). absorbsPrologue:
   * the kernel of `kernelOp` folds in `producer` anyway (NULL: none does).
   * absorbsEpilogue: the kernel takes `consumer` into its call (NULL: any
   * epilogue the fusion table allows). */
  bool (*isKernel)(const StrataTargetDef *def, MlirOperation op);
  bool (*absorbsPrologue)(const StrataTargetDef *def, MlirOperation producer,
                          MlirOperation kernelOp);
  bool (*absorbsEpilogue)(const StrataTargetDef *def, MlirOperation kernelOp,
                          MlirOperation consumer);

  /* In-process execution (NULL compile: the target only emits code).
   * compile takes ownership of `lowered` (a lowered clone of the caller's
   * module), also on failure, and returns the target's executable state, or
   * NULL after located errors through `ctx`. invoke calls public function
   * `name` with `inputs`, writing `outputs` (allocated by the caller with the
   * shapes of the function's results); errors are located. destroy frees the
   * state and what it holds. */
  void *(*compile)(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                   const StrataCompileOptions *options);
  MlirLogicalResult (*invoke)(void *executable, const char *name, StrataTensor *const *inputs,
                              size_t numInputs, StrataTensor *const *outputs, size_t numOutputs);
  void (*destroy)(void *executable);
  /* True if the executable's code came from options->cacheDir (NULL: the
   * target keeps no cache). */
  bool (*fromCache)(void *executable);
  /* The model cache (NULL: the target keeps none; strataExecutableStore
   * and strataExecutableLoad). cacheKey: the key of byte strings `parts`
   * (a model, the options that shaped its code) for this target, machine
   * and build of Strata, as 32 hex digits and a NUL. store: writes the
   * executable to cacheDir under `key` with the caller's text `entry`;
   * false with the reason in `why`. load: the executable stored there,
   * its entry text (malloc'ed) in *entry; NULL on a miss, silently. */
  void (*cacheKey)(const StrataTargetDef *def, const void *const *parts, const size_t *sizes, size_t n,
                   char key[33]);
  bool (*store)(void *executable, const char *cacheDir, const char *key, const char *entry, char *why,
                size_t whySize);
  void *(*load)(const StrataTargetDef *def, StrataContext *ctx, const char *cacheDir, const char *key,
                char **entry);
  /* The launches and copies a call of public function `name` makes
   * (false: no such function). NULL: the target launches no device
   * kernels (cpu). */
  bool (*callStats)(void *executable, const char *name, StrataCallStats *stats);

  /* Ahead-of-time output (NULL emit: none). emitFormats lists what emit
   * writes, comma-separated, the default first ("obj,asm,llvm"). emit
   * compiles `lowered` (borrowed) to malloc'ed bytes, their count in *size;
   * NULL after located errors. emitHeader writes a C header for the public
   * functions of the nn-level `module` as `prefix`_<name> (malloc'ed; NULL
   * if out of memory); NULL: the target writes none. */
  const char *emitFormats;
  char *(*emit)(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                const StrataEmitOptions *options, size_t *size);
  char *(*emitHeader)(const StrataTargetDef *def, MlirModule module, const char *prefix,
                      const char *source);

  /* The devices the target can run on, one per line, numbered as
   * StrataCompileOptions.device names them (malloc'ed; free it with free()).
   * NULL after an error at `loc` (no driver, no device). NULL listDevices:
   * the target has no device choice. */
  char *(*listDevices)(const StrataTargetDef *def, StrataContext *ctx, MlirLocation loc);

  void *userData; /* for the callbacks */
};

/* ---- Registry (per context) ---- */

/* Registers a target with the context. `def` must outlive the context.
 * Fails (with a diagnostic) if the name is taken or missing. */
MlirLogicalResult strataContextRegisterTarget(StrataContext *ctx, const StrataTargetDef *def);
size_t strataContextNumTargets(StrataContext *ctx);
const StrataTargetDef *strataContextGetTarget(StrataContext *ctx, size_t i);
/* The target named `name`, or NULL. */
const StrataTargetDef *strataContextLookupTarget(StrataContext *ctx, const char *name);
/* strataContextLookupTarget, emitting an error at `loc` that lists the registered
 * targets when there is none by that name. */
const StrataTargetDef *strataContextResolveTarget(StrataContext *ctx, const char *name,
                                           MlirLocation loc);
/* Writes the registered targets' names, comma-separated ("cpu, toy"), into
 * `buf`, truncated to `size`. */
void strataContextFormatTargetNames(StrataContext *ctx, char *buf, size_t size);

/* ---- Compiling and running ---- */

/* The textual lowering `options` select on `def` (options->pipeline, else
 * the pipeline of options->fusion with the nn-fuse profile options put in).
 * NULL after an error at `loc` if the target has no such mode or a profile
 * option cannot be written as a pass option. The string's ownership
 * transfers to the caller: free it with free(). */
char *strataTargetPipeline(StrataContext *ctx, const StrataTargetDef *def,
                           const StrataCompileOptions *options, MlirLocation loc);

typedef struct StrataExecutable StrataExecutable;

/* Lowers a clone of `module` (nn level or below; `module` is left
 * untouched) through target `target` (NULL: "cpu") as `options` say (NULL:
 * fixed fusion, level 2) and compiles it for in-process calls. NULL on
 * failure, with located errors (an unknown target lists the registered
 * ones). Ownership transfers to the caller: destroy it with
 * strataExecutableDestroy. */
StrataExecutable *strataCompile(StrataContext *ctx, MlirModule module, const char *target,
                                const StrataCompileOptions *options);
/* Calls compiled public function `name` with `inputs`, writing into
 * `outputs`, which the caller allocates with the shapes of the original
 * function's results. Inputs of a type with dynamic dims may have any
 * extents there; an output of such a type (strataTensorCreateForResult)
 * gets the extents and a new buffer from the call (targets that compile
 * dynamic shapes: cpu). Errors (a missing function, an error the compiled
 * code reports at run time) are located; the outputs are then unspecified. */
MlirLogicalResult strataExecutableInvoke(StrataExecutable *exe, const char *name,
                                         StrataTensor *const *inputs, size_t numInputs,
                                         StrataTensor *const *outputs, size_t numOutputs);
/* The user's compile cache directory, written into `buf`: $STRATA_CACHE_DIR
 * when set (NULL when it is set but empty: no cache), else
 * $XDG_CACHE_HOME/strata, else $HOME/.cache/strata; NULL when none of
 * them is set or the path does not fit. What strata-run and the Python
 * session use by default (strataCompile itself caches nothing unless
 * StrataCompileOptions.cacheDir says where). */
const char *strataDefaultCacheDir(char *buf, size_t size);
/* True if the executable's code came from the compile cache
 * (StrataCompileOptions.cacheDir) instead of being compiled. */
bool strataExecutableFromCache(const StrataExecutable *exe);
/* The model cache: a whole executable kept under a key its caller makes
 * from the model's bytes and the options that shape its code, so that a
 * later process gets it back without importing, lowering or compiling the
 * model (strata-run does this for the cpu target; docs/performance.md,
 * "Time to a first result"). The key covers `parts`, the target, the
 * machine and this build of Strata; the caller must put in `parts`
 * everything that shaped the code (a model whose weights live in other
 * files is not one byte string: leave it uncached). False if the target
 * keeps no model cache. */
bool strataExecutableCacheKey(StrataContext *ctx, const char *target, const void *const *parts,
                              const size_t *sizes, size_t n, char key[33]);
/* The key of a model's `size` bytes at `bytes` and of `options`: the bytes
 * are hashed in slices (each chained to the last), and when `mapped` says
 * they are a read-only mapping of the model's file, each slice's pages are
 * given back to the kernel once hashed (they come back from the page cache
 * if read again), so the model never counts whole in the process's memory.
 * What strata-run and strataSessionCreateFromFile use. */
bool strataExecutableCacheKeyOfModel(StrataContext *ctx, const char *target, const void *bytes, size_t size,
                                     bool mapped, const void *options, size_t optionsSize, char key[33]);
/* The slicing of strataExecutableCacheKeyOfModel with the key of each
 * slice's parts (the chain so far, the slice, and `options` with the last)
 * from `keyOf` (false: no key): plain C, for a process that does not load
 * MLIR yet makes the same keys (the launcher strata-run). */
typedef bool (*StrataKeyOfPartsFn)(void *user, const void *const *parts, const size_t *sizes, size_t n,
                                   char key[33]);
bool strataModelCacheKeyOfBytes(StrataKeyOfPartsFn keyOf, void *user, const void *bytes, size_t size, bool mapped,
                                const void *options, size_t optionsSize, char key[33]);
/* A model file's bytes, for strataExecutableCacheKeyOfModel and an
 * importer: mapped read-only when `path` is a regular file that is not
 * empty (*mapped), read whole otherwise (a pipe). NULL with the reason in
 * `why`. Give them back with strataModelBytesRelease. */
char *strataModelBytesRead(const char *path, size_t *size, bool *mapped, char *why, size_t whySize);
void strataModelBytesRelease(char *bytes, size_t size, bool mapped);
/* Stores `exe` (compiled with a StrataCompileOptions.cacheDir of
 * `cacheDir`) under `key`, with the declaration of `entry` (the function
 * callers invoke, as it was before lowering: its signature and argument
 * attributes), and the packed forms of its weights the runtime made in
 * the calls so far. False with the reason in `why` (nothing is left
 * behind); an empty reason when it was reported already (the code itself
 * could not be cached: a warning said so). */
bool strataExecutableStore(StrataExecutable *exe, const char *cacheDir, const char *key, MlirOperation entry,
                           char *why, size_t whySize);
/* The executable stored under `key`, and in *entry a new module holding
 * the stored declaration (the caller destroys both); NULL on a miss (no
 * such entry, a damaged one, another build of Strata), with no message. */
StrataExecutable *strataExecutableLoad(StrataContext *ctx, const char *target, const char *cacheDir,
                                       const char *key, MlirModule *entry);
/* What a call of compiled function `name` launches on the device (kernels,
 * copies); false if the target launches no device kernels or there is no
 * such function. */
bool strataExecutableCallStats(const StrataExecutable *exe, const char *name, StrataCallStats *stats);
/* The target an executable was compiled for. */
const StrataTargetDef *strataExecutableGetTarget(const StrataExecutable *exe);
void strataExecutableDestroy(StrataExecutable *exe);

/* Lowers a clone of `module` through target `target` (NULL: "cpu") and
 * writes it ahead of time as `options` say (NULL: the default format).
 * NULL on failure, with located errors (also when the target has no
 * emitter or no such format). The bytes' ownership (their count in *size)
 * transfers to the caller: free them with free(). */
char *strataEmit(StrataContext *ctx, MlirModule module, const char *target,
                 const StrataEmitOptions *options, size_t *size);
/* Measures a candidate kernel, for tuners (nn-fuse's profile cells,
 * sparse-tune): compiles `module` for `target` (NULL: "cpu") as `options`
 * say and times its public function `kernel` on seeded random inputs (the
 * best of five batches' per-call average, each batch >= 2 ms), less the
 * same for `baseline` (a function taking the same inputs and computing
 * nothing; NULL: none) -- in ns, >= 0; < 0 on failure, with located errors. */
double strataMeasureKernel(StrataContext *ctx, MlirModule module, const char *target,
                           const StrataCompileOptions *options, const char *kernel,
                           const char *baseline);
/* Measures kernels against each other, for a tuner's final choice:
 * compiles `module` once and times its public functions kernels[0..n),
 * which take the same inputs, on the same seeded random inputs: `rounds`
 * rounds, each a batch (>= 2 ms) of every kernel, their order rotated
 * from round to round so that a load that comes and goes falls on all of
 * them. ns[k] (n entries, the caller's) is kernel k's median over the
 * rounds of a batch's per-call average. Failure (with located errors) if
 * a kernel is missing, does not compile or fails to run. */
MlirLogicalResult strataMeasureKernelsInterleaved(StrataContext *ctx, MlirModule module, const char *target,
                                                  const StrataCompileOptions *options, const char *const *kernels,
                                                  int n, int rounds, double *ns);

/* True if `format` is one of `def`'s emitFormats. */
bool strataTargetHasFormat(const StrataTargetDef *def, const char *format);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_TARGET_H */
