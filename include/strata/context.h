/* Strata context: the one object everything hangs off.
 *
 * A StrataContext owns an MlirContext with every upstream dialect registered,
 * all upstream passes and LLVM IR translations registered, and Strata's own
 * IRDL dialects loaded from definitions embedded in the library. It holds no
 * process-global state of its own: two contexts are fully independent (MLIR's
 * pass registry, filled by mlirRegisterAllPasses, is upstream's and
 * idempotent). The library never exits the process; errors come back as
 * results and are explained through the diagnostic callback.
 */
#ifndef STRATA_CONTEXT_H
#define STRATA_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include "mlir-c/IR.h"
#include "mlir-c/Diagnostics.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct StrataContext StrataContext;
typedef struct StrataDialectDef StrataDialectDef;
typedef struct StrataOpDef StrataOpDef;
typedef struct StrataPassDef StrataPassDef;

/* ---- Diagnostics ----------------------------------------------------------- */

typedef enum {
  STRATA_SEVERITY_ERROR,
  STRATA_SEVERITY_WARNING,
  STRATA_SEVERITY_NOTE,
  STRATA_SEVERITY_REMARK,
} StrataSeverity;

/* One diagnostic as delivered to the host. `file` is NULL when the location
 * has no file (then line/col are 0); `location` is always a printable string
 * ("file:line:col" or MLIR's location syntax). Notes attached to an error are
 * delivered as separate calls right after it, with severity NOTE. */
typedef struct {
  StrataSeverity severity;
  const char *file;
  unsigned line, col;
  const char *location;
  const char *message;
} StrataDiagnostic;

typedef void (*StrataDiagnosticCallback)(const StrataDiagnostic *diag, void *user);

/* The default callback: prints "file:line:col: error: message" to stderr. */
void strataPrintDiagnostic(const StrataDiagnostic *diag, void *user);

/* ---- Context ---------------------------------------------------------------- */

/* Creates a context with all upstream dialects, passes and translations
 * registered and Strata's dialects, passes and targets loaded, and
 * transfers ownership to the caller: destroy it with strataContextDestroy.
 * Returns NULL (after printing the reason) only if a built-in definition
 * fails to load, which is a build defect. */
StrataContext *strataContextCreate(void);
/* Destroys the context and what it owns (its runtime environment too):
 * every executable, JIT and module made through it must be gone. */
void strataContextDestroy(StrataContext *ctx);

MlirContext strataContextGetMlir(StrataContext *ctx);

/* ---- The runtime compiled code runs in ----
 * Code compiled through a context (strataCompile's executables, the JIT)
 * runs in the context's runtime environment: the memory libstrata_rt
 * allocates for it (buffer arenas, scratch and packing buffers, packed
 * constants) comes from the context's allocator, and its kernels use the
 * context's thread pool, not the process's. A failed allocation, or one
 * beyond `limit`, is an error strataExecutableInvoke returns. */

/* A host allocator in the style of Lua's lua_Alloc: alloc(user, NULL, 0, n)
 * allocates n bytes (NULL on failure), alloc(user, p, n, 0) frees p. It is
 * never asked to resize, needs only malloc's alignment and is called from
 * the kernels' threads concurrently (it must be thread-safe). */
typedef void *(*StrataAllocFn)(void *user, void *ptr, size_t oldSize, size_t newSize);

typedef struct {
  StrataAllocFn alloc; /* NULL: malloc and free */
  void *user;
  size_t limit;   /* at most this many bytes held at once; 0: no cap */
  int numThreads; /* the kernels' threads, 1-64; 0: 1 */
} StrataRuntimeOptions;

/* Sets how the context's compiled code gets memory and threads (`options`
 * is copied; NULL: malloc, no cap, one thread). The thread count may change
 * at any time; the allocator and limit only before the first run, after
 * which changing them is an error. */
MlirLogicalResult strataContextSetRuntime(StrataContext *ctx, const StrataRuntimeOptions *options);
/* The context's runtime environment (libstrata_rt's StrataRtEnv, created on
 * first use; owned by the context), for a target's invoke: run compiled
 * code with strataRtCallIn(env, ...). NULL after an error if it cannot be
 * allocated. */
struct StrataRtEnv *strataContextGetRuntimeEnv(StrataContext *ctx);

/* Replaces the diagnostic callback (NULL restores the default). */
void strataContextSetDiagnosticCallback(StrataContext *ctx, StrataDiagnosticCallback cb,
                                        void *user);

/* Number of errors reported through this context since creation or the last
 * reset; tools use it to decide exit codes. */
size_t strataContextErrorCount(StrataContext *ctx);
void strataContextResetErrorCount(StrataContext *ctx);

/* Emits an error at `loc` through the owning context's diagnostic callback;
 * printf-style. (The MLIR C API can only emit errors; put any explanation in
 * the message.) */
void strataEmitError(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Emits a warning, note or remark at `loc` through the diagnostic callback
 * of the Strata context owning it (stderr if none does); printf-style.
 * Passes use them to say what they did, e.g. that they changed a model's
 * weights. (An error goes through strataEmitError.) */
void strataEmitDiagnostic(StrataSeverity severity, MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* An error about `op`, as every op-level check words it: "'<op name>' op
 * <message>", at the op's location. */
void strataEmitOpError(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The Strata context that owns an MLIR context (NULL if none does). */
StrataContext *strataContextFromMlir(MlirContext mlir);

/* Writes `loc` as diagnostics show it ("file:line:col", or "file: node 'N'"
 * for an imported ONNX node) into `buf`, truncated to `size`. For code that
 * must carry a location as text, e.g. into compiled code for its run-time
 * errors. */
void strataLocationFormat(MlirLocation loc, char *buf, size_t size);

/* Emits an error located by text (as strataLocationFormat writes it) through
 * `ctx`'s diagnostic callback; printf-style. */
void strataEmitErrorText(StrataContext *ctx, const char *location, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- Strata dialects and ops ------------------------------------------------ */

/* Registers a dialect defined outside Strata (an embedder's), as the
 * built-in ones are: loads its IRDL definition -- def->irdlSource, or the
 * one strataDialectGenerateIrdl makes from its op tables when that is NULL
 * -- and from then on strataVerify checks its ops by their definitions, the
 * interpreter runs them by their kernels and instrumentation observes those
 * marked STRATA_OP_OBSERVABLE. `def` and its tables are not copied: they
 * must outlive the context. Fails, with an error and nothing registered, if
 * a dialect of that name is loaded, an op is not named "<dialect>.<op>" or
 * the IRDL does not load. */
MlirLogicalResult strataContextRegisterDialect(StrataContext *ctx, const StrataDialectDef *def);

/* Loaded Strata dialects (nn, ...) and their C op definitions. */
size_t strataContextNumDialects(StrataContext *ctx);
const StrataDialectDef *strataContextGetDialect(StrataContext *ctx, size_t i);
/* The C definition of a Strata op by full name ("nn.conv2d"), or NULL. */
const StrataOpDef *strataContextLookupOpDef(StrataContext *ctx, MlirStringRef name);
const StrataOpDef *strataContextGetOpDef(StrataContext *ctx, MlirOperation op);

/* Refuses types Strata cannot handle (strataCheckType: shapes whose element
 * count overflows int64, zero-width integer types) on every result, block
 * argument and elements attribute, then runs MLIR's verifier and every
 * Strata op's C verifier (shapes, attribute values) under `root`. Errors go
 * to the diagnostic callback. */
MlirLogicalResult strataVerify(StrataContext *ctx, MlirOperation root);

/* Parses `source` (MLIR text or bytecode) named `sourceName` (used in
 * locations) into a module; NULL module on failure with diagnostics emitted.
 * Exactly `source.length` bytes are read: the buffer needs no trailing NUL
 * (text is copied into a NUL-terminated buffer first, because MLIR's lexer
 * reads up to a terminator; bytecode is read by length). Text naming a
 * zero-width integer type (i0, si0, ui0) is refused with a located error
 * before MLIR sees it: MLIR's printer crashes on such dense elements, and
 * its verifier prints the ops it reports (bytecode cannot be scanned; there
 * strataVerify refuses the type). Does not run Strata's C verifiers (call
 * strataVerify). The module's ownership transfers to the caller: destroy it
 * with mlirModuleDestroy. */
MlirModule strataParseModule(StrataContext *ctx, MlirStringRef source, const char *sourceName);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_CONTEXT_H */
