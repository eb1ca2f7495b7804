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
 * registered and Strata's dialects loaded. Returns NULL (after printing the
 * reason) only if an embedded dialect definition fails to load, which is a
 * build defect. */
StrataContext *strataContextCreate(void);
void strataContextDestroy(StrataContext *ctx);

MlirContext strataContextGetMlir(StrataContext *ctx);

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

/* Loaded Strata dialects (nn, ...) and their C op definitions. */
size_t strataContextNumDialects(StrataContext *ctx);
const StrataDialectDef *strataContextGetDialect(StrataContext *ctx, size_t i);
/* The C definition of a Strata op by full name ("nn.conv2d"), or NULL. */
const StrataOpDef *strataLookupOpDef(StrataContext *ctx, MlirStringRef name);
const StrataOpDef *strataGetOpDef(StrataContext *ctx, MlirOperation op);

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
 * strataVerify). */
MlirModule strataParseModule(StrataContext *ctx, MlirStringRef source, const char *sourceName);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_CONTEXT_H */
