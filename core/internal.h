/* core/ internals shared between the core's files (not public API). */
#ifndef STRATA_CORE_INTERNAL_H
#define STRATA_CORE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"
#include "strata/context.h"
#include "strata/dialect.h"
#include "strata/pass.h"
#include "strata/session.h"
#include "strata/target.h"

/* ---- Growable string buffer ---- */
typedef struct {
  char *data;
  size_t len, cap;
} StrataStr;
void strataStrAppend(StrataStr *s, const char *text, size_t n);
void strataStrAppendf(StrataStr *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strataStrAppendv(StrataStr *s, const char *fmt, va_list ap);
void strataStrFree(StrataStr *s);
/* An MlirStringCallback appending to a StrataStr passed as user data. */
void strataStrCallback(MlirStringRef chunk, void *user);
/* Levenshtein distance, for "did you mean" suggestions. */
size_t strataEditDistance(const char *a, const char *b);

/* ---- Sessions from the model cache (core/session_file.c) ---- */
/* A session of an executable the model cache gave and of the module
 * holding its entry's declaration (both taken, also on failure). */
StrataSession *strataSessionAdopt(StrataContext *ctx, MlirModule module, StrataExecutable *exe);
/* After its first successful call, the session stores its executable in
 * the model cache `dir` under `key` (a warning if it cannot). */
void strataSessionStoreAfterFirstCall(StrataSession *s, const char *dir, const char *key);

/* ---- Context internals ---- */
typedef struct {
  StrataSeverity severity;
  char *file; /* NULL if the location has none */
  unsigned line, col;
  char *location;
  char *message;
} StrataBufferedDiag;

/* A dense_resource attribute strataResourceAttrGet made, and its bytes. */
typedef struct {
  const void *attr; /* MlirAttribute.ptr: attributes are uniqued */
  const void *data;
  size_t bytes;
} StrataBlobRecord;

struct StrataContext {
  MlirContext mlir;
  MlirDiagnosticHandlerID handler;
  StrataDiagnosticCallback callback;
  void *callbackUser;
  size_t errorCount;
  /* While `capturing`, diagnostics are buffered instead of delivered. */
  bool capturing;
  StrataBufferedDiag *captured;
  size_t numCaptured, capCaptured;

  const StrataDialectDef **dialects;
  size_t numDialects, capDialects;

  const StrataPassDef **passes;
  MlirTypeID *passTypeIds;
  size_t numPasses, capPasses;
  MlirTypeIDAllocator typeIdAllocator;

  const StrataTargetDef **targets; /* core/target.c */
  size_t numTargets, capTargets;

  StrataRuntimeOptions runtime; /* core/context.c */
  struct StrataRtEnv *rtEnv;    /* created on first use */

  StrataBlobRecord *blobs; /* core/blobs.c */
  size_t numBlobs, capBlobs;
};

MlirLogicalResult strataDiagnosticHandler(MlirDiagnostic diag, void *user);
void strataCaptureBegin(StrataContext *ctx);
/* Stops capturing; delivers the buffered diagnostics if `deliver`. */
void strataCaptureEnd(StrataContext *ctx, bool deliver);

/* Instantiates a registered Strata pass with options ("a=1 b=2"); errors at loc. */
MlirPass strataCreatePassInstance(StrataContext *ctx, const StrataPassDef *def,
                                  const char *options, MlirLocation loc);

/* False, with an error at `loc`, if a row of `d` cannot be loaded: a type
 * constraint that is neither a family nor a type, an attribute without a
 * name, an enum without choices (core/opdef.c). */
bool strataDialectDefCheck(StrataContext *ctx, const StrataDialectDef *d, MlirLocation loc);

/* A context with MLIR's dialects, passes and translations but none of
 * Strata's own: registry.c's strataContextCreate adds those (core/context.c). */
StrataContext *strataContextCreateBare(void);
/* context.c: the offset past what MLIR's lexer skips between tokens from
 * s[i] on: spaces, tabs, line ends, NUL bytes (whitespace to it when not
 * the buffer's end) and // comments. */
size_t strataSkipMlirTrivia(const char *s, size_t n, size_t i);
/* resources.c: after parsing `text` into `op`, checks each dense_resource
 * attribute against the size of its blob in the text's resource section;
 * false after located errors. */
bool strataCheckResourceBlobs(StrataContext *ctx, const char *text, size_t n, MlirOperation op);

/* ---- Interpreter internals (interp.c, interp_upstream.c) ---- */
/* The value the interpreter holds for v (owned by it), or NULL. */
StrataTensor *strataInterpGet(StrataInterp *in, MlirValue v);
/* Makes t (taken) v's value; false (t destroyed) when out of memory. */
bool strataInterpSet(StrataInterp *in, MlirValue v, StrataTensor *t);
/* The tensor type a value of type t is held as (scalars, index: rank 0). */
MlirType strataInterpHeldType(MlirType t);
/* A copy the caller owns; NULL for NULL or out of memory. */
StrataTensor *strataTensorCopy(const StrataTensor *t);
/* func.call: marks `func` active (false, nothing changed, when it already
 * is -- recursion -- or STRATA_INTERP_MAX_CALLS calls are active); Leave
 * ends the innermost call. */
enum { STRATA_INTERP_MAX_CALLS = 64 };
bool strataInterpEnterCall(StrataInterp *in, MlirOperation func);
void strataInterpLeaveCall(StrataInterp *in);
/* Runs an upstream op (scf, tensor, arith, func.call) the interpreter has
 * semantics for; *handled is false (nothing emitted) for any other op. */
MlirLogicalResult strataInterpretUpstream(StrataInterp *in, MlirOperation op, bool *handled);

#endif /* STRATA_CORE_INTERNAL_H */
