/* Sessions: a model's entry function, compiled once and called many times,
 * with its signature in Strata's own terms (dtypes and dims, no MLIR
 * types). It is what an embedder without the MLIR C API at hand needs --
 * Python's ctypes (python/strata), other languages' FFIs:
 *
 *   MlirModule m = strataImportOnnxFile(ctx, "model.onnx", NULL);
 *   StrataSession *s = strataSessionCreate(ctx, m, NULL);  (takes m)
 *   if (!s) ...;                                (errors went to the callback)
 *   StrataTensor *outs[1];
 *   strataSessionRun(s, inputs, 1, outs, 1);    (outs[0] is the caller's)
 *   strataSessionDestroy(s);
 */
#ifndef STRATA_SESSION_H
#define STRATA_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"
#include "strata/target.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *entry;  /* the function to call; NULL: the module's first public one */
  const char *target; /* a registered target that runs code in-process, or
                         "interpreter" (the reference interpreter); NULL: "cpu" */
  const char *passes; /* a pipeline run on the module before compiling
                         ("instrument{tool=profile}"); NULL: none */
  StrataCompileOptions compile; /* as for strataCompile (zero: fixed fusion, level 0) */
} StrataSessionOptions;

typedef struct StrataSession StrataSession;

/* Verifies `module`, runs options->passes on it and compiles its entry
 * function (options NULL: the defaults above with optLevel 2). Takes
 * ownership of `module`, also on failure; a null module (a failed import)
 * gives NULL with no further message. NULL after located errors. Destroy
 * the session with strataSessionDestroy. */
StrataSession *strataSessionCreate(StrataContext *ctx, MlirModule module, const StrataSessionOptions *options);
/* A session of the model in file `path` (ONNX, its external data beside
 * it; or MLIR text or bytecode), as strataSessionCreate makes of it. With
 * options->compile.cacheDir set and a target that keeps a model cache
 * (cpu), a file opened before with the same options is served from that
 * cache: no import, no passes, no compile (strataSessionFromCache says
 * so); otherwise the session stores its executable there after its first
 * successful call (with the weights' packed forms, which that call made).
 * The key covers the file's bytes and every field of the options; an ONNX
 * model with external data is never stored. NULL after located errors. */
StrataSession *strataSessionCreateFromFile(StrataContext *ctx, const char *path, const StrataSessionOptions *options);
/* True if the session's executable came from the model cache. */
bool strataSessionFromCache(const StrataSession *s);
size_t strataSessionNumInputs(const StrataSession *s);
size_t strataSessionNumOutputs(const StrataSession *s);
/* Input (or output, with `output`) i's dtype, rank and dims (-1: dynamic);
 * false if i is out of range or its type is not a ranked tensor of a
 * Strata dtype. `dims` holds STRATA_MAX_RANK entries. */
bool strataSessionGetType(const StrataSession *s, bool output, size_t i, StrataDType *dtype, int *rank,
                          int64_t *dims);
/* Input (or output) i's name, the ONNX graph's (an `onnx.name` argument or
 * result attribute of the entry function), as a NUL-terminated string in
 * buf (truncated to size - 1 bytes); returns its length, 0 when it has none
 * or i is out of range. Sessions from the model cache have the names too. */
size_t strataSessionGetName(const StrataSession *s, bool output, size_t i, char *buf, size_t size);
/* Calls the entry function: `inputs` must match the input types (a
 * mismatch is a located error naming the input). On success outputs[0..n)
 * receive new tensors, which the caller destroys with strataTensorDestroy;
 * on failure they are NULL. */
MlirLogicalResult strataSessionRun(StrataSession *s, StrataTensor *const *inputs, size_t numInputs,
                                   StrataTensor **outputs, size_t numOutputs);
void strataSessionDestroy(StrataSession *s);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_SESSION_H */
