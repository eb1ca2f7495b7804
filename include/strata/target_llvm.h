/* What is LLVM-specific about the host-CPU target (`cpu`, whose definition
 * strataCompile and the tools use through strata/target.h): its named
 * pipelines, the JIT that runs lowered functions on host tensors, and
 * ahead-of-time compilation to objects, assembly or LLVM IR. */
#ifndef STRATA_TARGET_LLVM_H
#define STRATA_TARGET_LLVM_H

#include <stdbool.h>
#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The textual pipeline `strata-cpu-pipeline` stands for: nn down to the
 * LLVM dialect, with function results turned into out-parameters and a C
 * interface (`_mlir_ciface_<name>`) on every public function. */
const char *strataCpuPipeline(void);
/* The same without nn-to-kernels and strata-buffer-arena: every op through
 * nn-to-linalg and upstream MLIR's loops (the bench baseline). */
const char *strataCpuPipelineUpstream(void);
/* The fusion variants: no fusion at all (kernels without epilogues, a loop
 * nest per op); DNNFusion (nn-fuse planning, then fused code generation);
 * and the part of the latter after planning, for IR that nn-fuse already
 * grouped into blocks. The default pipeline's fusion is fixed-pattern:
 * kernel epilogues only. */
const char *strataCpuPipelineUnfused(void);
const char *strataCpuPipelineFused(void);
const char *strataCpuPipelineFusedCodegen(void);
/* strataCpuPipelineFused() with nn-fuse's latency database at `path`
 * (ownership transfers to the caller: free it with free()). NULL if the path is empty or has a character a pass
 * option cannot hold (space, braces, '=', ',', quotes). */
char *strataCpuPipelineFusedWithProfileDb(const char *path);
/* strataCpuPipelineFused() with nn-fuse's `profile` mode (measure, db,
 * always, never; NULL: measure) and database (NULL: none); ownership
 * transfers to the caller (free it with free()). NULL if a value is empty
 * or has a character a pass option cannot hold. */
char *strataCpuPipelineFusedWith(const char *profile, const char *dbPath);
typedef struct StrataJit StrataJit;

/* Lowers a clone of `module` (nn level or below) through the CPU pipeline and
 * JIT-compiles it at LLVM `optLevel` (0-3). NULL on failure, with
 * diagnostics. `module` is left untouched. Ownership transfers to the
 * caller: destroy it with strataJitDestroy. */
StrataJit *strataJitCreate(StrataContext *ctx, MlirModule module, int optLevel);
/* The same through another pipeline ending in the LLVM dialect with C
 * interfaces (e.g. strataCpuPipelineUpstream()). Ownership as
 * strataJitCreate. */
StrataJit *strataJitCreateWithPipeline(StrataContext *ctx, MlirModule module, const char *pipeline,
                                       int optLevel);
void strataJitDestroy(StrataJit *jit);

/* Calls compiled function `name` with `inputs`, writing into `outputs`, which
 * the caller allocates with the shapes of the original function's results.
 * Fails with a located error when the compiled code reports one at run time
 * (an index read from a tensor out of range, at the op's location; memory
 * the runtime could not allocate, at the function): the call stops there and
 * the outputs are unspecified (runtime/status.h). */
MlirLogicalResult strataJitInvoke(StrataJit *jit, const char *name, StrataTensor *const *inputs,
                                  size_t numInputs, StrataTensor *const *outputs,
                                  size_t numOutputs);

/* ---- Ahead-of-time compilation ---- */
typedef enum { STRATA_AOT_OBJECT, STRATA_AOT_ASM, STRATA_AOT_LLVM_IR } StrataAotKind;

typedef struct {
  StrataAotKind kind;
  int optLevel;         /* 0-3 */
  const char *triple;   /* NULL: the host's */
  const char *cpu;      /* NULL: the host's */
  const char *features; /* NULL: the host's ("+avx2,-avx512f"); "" with an explicit cpu */
} StrataAotOptions;

/* Lowers a clone of `module` through the CPU pipeline and compiles it to an
 * object file, assembly or LLVM IR (length in *size). NULL on failure, with
 * diagnostics. The bytes' ownership transfers to the caller: free them with
 * free(). */
char *strataAotCompile(StrataContext *ctx, MlirModule module, const StrataAotOptions *options,
                       size_t *size);
/* Renames every public function f to <prefix>_f (and its uses), so compiled
 * models link side by side and never define `main`. */
MlirLogicalResult strataAotPrefixSymbols(MlirModule module, const char *prefix);
/* True if `prefix` is a C identifier. */
bool strataAotValidPrefix(const char *prefix);
/* A C header for the public functions of `module` (nn level, before
 * lowering): the `_mlir_ciface_` prototypes, shapes, and inline wrappers
 * over dense buffers. NULL if out of memory. The string's ownership
 * transfers to the caller: free it with free(). */
char *strataAotHeader(MlirModule module, const char *prefix, const char *source);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_TARGET_LLVM_H */
