/* Instrumentation as a pass (Amanda, ASPLOS '24, at compile time).
 *
 * A tool registers callbacks for the points around an operator. Each
 * callback is an *analysis routine*: it runs once per op, at compile time,
 * sees an op context, and records *actions* (insert computation before the
 * op on chosen inputs, after it on chosen outputs, or replace it). The
 * actions are applied after the walk and then run every time the compiled
 * code runs, as ordinary IR (masks, QDQ pairs) or as `instr.probe` ops that
 * the CPU pipeline lowers to calls of runtime sinks (runtime/instr.h).
 *
 *   static void onConv(StrataInstrOpContext *op, void *user) {
 *     if (!strcmp(strataInstrOpGetName(op), "nn.conv"))
 *       strataInstrProbeAfter(op, 0);               // trace its output
 *   }
 *   StrataInstrTool *t = strataInstrToolCreate("mytrace");
 *   strataInstrToolAddCallback(t, STRATA_INSTR_AFTER_FORWARD, onConv, NULL);
 *   strataInstrument(ctx, module, &t, 1, NULL);
 *   strataInstrToolDestroy(t);
 *
 * Ops visited: the observable ops of every registered dialect (those whose
 * op table, or dialect, marks them STRATA_OP_OBSERVABLE: every `nn` op but
 * nn.constant, and an embedder's ops that ask for it), in pre-order, each
 * with its stable `instr.op_id` (see --instr-assign-ids).
 * A run that records no action leaves the IR byte-identical (ids are only
 * written when something is instrumented).
 */
#ifndef STRATA_INSTRUMENT_H
#define STRATA_INSTRUMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The `instr` dialect (instr.probe). */
extern const StrataDialectDef strataInstrDialect;

/* ---- Op ids ---------------------------------------------------------------- */

/* The attribute holding an op's stable id. */
#define STRATA_INSTR_OP_ID_ATTR "instr.op_id"

/* True for the ops instrumentation sees: strataOpIsObservable (ops of any
 * dialect loaded in `ctx` marked STRATA_OP_OBSERVABLE, not constants). */
bool strataInstrIsTarget(StrataContext *ctx, MlirOperation op);
/* The op's `instr.op_id`, or -1 if it has none. */
int64_t strataInstrGetOpId(MlirOperation op);
/* Gives every target op under `root` without an id the next free one (after
 * the largest existing id), in pre-order. Returns how many were assigned. */
int64_t strataInstrAssignIds(StrataContext *ctx, MlirOperation root);

/* ---- Probes ------------------------------------------------------------------ */

/* True for an instr.probe; with `tool` non-NULL, only for that tool's. */
bool strataInstrIsProbe(MlirOperation op, const char *tool);
/* True for a probe of `tool` (NULL: any) at `point` ("before"/"after") of
 * `op` (its op_id is op's instr.op_id, which must be set). */
bool strataInstrIsProbeOf(MlirOperation probe, const char *tool, const char *point, MlirOperation op);
/* `v` under the chain of probes (of `tool`; NULL: any) that passes it on. */
MlirValue strataInstrThroughProbes(MlirValue v, const char *tool);

/* ---- Tools ------------------------------------------------------------------- */

/* Amanda's four instrumentation points. Strata has no automatic
 * differentiation yet: the backward points are part of the API so tools can
 * be written against it, but no op reaches them (their callbacks never run). */
typedef enum {
  STRATA_INSTR_BEFORE_FORWARD = 0,
  STRATA_INSTR_AFTER_FORWARD = 1,
  STRATA_INSTR_BEFORE_BACKWARD = 2, /* unused until Strata has autodiff */
  STRATA_INSTR_AFTER_BACKWARD = 3,  /* unused until Strata has autodiff */
  STRATA_INSTR_NUM_POINTS
} StrataInstrPoint;

typedef struct StrataInstrTool StrataInstrTool;
typedef struct StrataInstrOpContext StrataInstrOpContext;

/* An analysis routine: inspects `op`, records actions. */
typedef void (*StrataInstrCallback)(StrataInstrOpContext *op, void *user);
/* Called once after a successful run, when the actions have been applied
 * (a static tool prints its totals here). */
typedef void (*StrataInstrFinishFn)(void *user);

/* A tool named `name` (copied) with no callbacks and no dependencies, or
 * NULL if out of memory. Ownership transfers to the caller: destroy it with
 * strataInstrToolDestroy. */
StrataInstrTool *strataInstrToolCreate(const char *name);
void strataInstrToolDestroy(StrataInstrTool *tool);
const char *strataInstrToolGetName(const StrataInstrTool *tool);
/* Sets the callback of `point` (one per point; a later call replaces it). */
void strataInstrToolAddCallback(StrataInstrTool *tool, StrataInstrPoint point,
                                StrataInstrCallback fn, void *user);
void strataInstrToolSetFinish(StrataInstrTool *tool, StrataInstrFinishFn fn, void *user);
/* `tool` consumes what `dependency` writes into op contexts: at every point
 * the dependency's callback runs first. Not owned; it must outlive `tool`'s
 * use. Dependencies need not be passed to strataInstrument themselves. */
void strataInstrToolDependsOn(StrataInstrTool *tool, StrataInstrTool *dependency);

/* Runs the tools over every target op under `root` whose name matches one of
 * the comma-separated globs in `ops` ('*' and '?'; NULL or "" = all):
 * for each op, the BEFORE_FORWARD callbacks, then the AFTER_FORWARD ones,
 * each time in dependency order (a tool shared by several others runs once).
 * Then applies the recorded actions and calls the finish callbacks.
 * Fails with a located error, leaving the IR unchanged, on a malformed
 * `ops` (a character no op name or glob has, an empty item), a dependency
 * cycle (naming the tools on it) or an invalid action (a second replace, an
 * index out of range, a builder returning no value or a value of another
 * type). */
MlirLogicalResult strataInstrument(StrataContext *ctx, MlirOperation root,
                                   StrataInstrTool *const *tools, size_t numTools, const char *ops);

/* ---- The op context --------------------------------------------------------- */

StrataContext *strataInstrOpGetContext(const StrataInstrOpContext *op);
MlirOperation strataInstrOpGetOperation(const StrataInstrOpContext *op);
const char *strataInstrOpGetName(const StrataInstrOpContext *op); /* "nn.conv" */
int64_t strataInstrOpGetId(const StrataInstrOpContext *op);
StrataInstrPoint strataInstrOpGetPoint(const StrataInstrOpContext *op);
bool strataInstrOpIsForward(const StrataInstrOpContext *op); /* always true for now */
/* The tool whose callback is running. */
const char *strataInstrOpGetToolName(const StrataInstrOpContext *op);
intptr_t strataInstrOpGetNumInputs(const StrataInstrOpContext *op);
MlirValue strataInstrOpGetInput(const StrataInstrOpContext *op, intptr_t i);
intptr_t strataInstrOpGetNumOutputs(const StrataInstrOpContext *op);
MlirValue strataInstrOpGetOutput(const StrataInstrOpContext *op, intptr_t i);
/* An attribute of the op by name (null attribute if absent). */
MlirAttribute strataInstrOpGetAttribute(const StrataInstrOpContext *op, const char *name);

/* The per-op key/value store, shared by every tool and point of one op
 * (Amanda's OpContext dict). Setting a key replaces its value. Strings are
 * copied. Getters fail (false / NULL) if the key is absent or holds another
 * kind; an integer reads as a double too. */
typedef enum {
  STRATA_INSTR_VALUE_NONE,
  STRATA_INSTR_VALUE_INT,
  STRATA_INSTR_VALUE_DOUBLE,
  STRATA_INSTR_VALUE_STRING,
} StrataInstrValueKind;
void strataInstrOpSetInt(StrataInstrOpContext *op, const char *key, int64_t value);
void strataInstrOpSetDouble(StrataInstrOpContext *op, const char *key, double value);
void strataInstrOpSetString(StrataInstrOpContext *op, const char *key, const char *value);
StrataInstrValueKind strataInstrOpGetKind(const StrataInstrOpContext *op, const char *key);
bool strataInstrOpGetInt(const StrataInstrOpContext *op, const char *key, int64_t *out);
bool strataInstrOpGetDouble(const StrataInstrOpContext *op, const char *key, double *out);
const char *strataInstrOpGetString(const StrataInstrOpContext *op, const char *key);

/* ---- Actions ------------------------------------------------------------------ */

/* Builds the inserted computation on `value` with `b` (positioned where it
 * must go) and returns the value that replaces it: same type. `user` is the
 * pointer given with the action; it must live until strataInstrument returns. */
typedef MlirValue (*StrataInstrBuildFn)(StrataBuilder *b, MlirLocation loc, MlirValue value,
                                        void *user);
/* Builds a replacement of the whole op from its (possibly already
 * instrumented) inputs: writes one value per output, each of the output's
 * type. Returns false if it cannot. */
typedef bool (*StrataInstrReplaceFn)(StrataBuilder *b, MlirLocation loc, const MlirValue *inputs,
                                     intptr_t numInputs, MlirValue *outputs, intptr_t numOutputs,
                                     void *user);

/* Input `input` of the op becomes fn(input) for this op only. Several
 * insert-befores on one input chain in the order recorded. (A NULL fn
 * inserts an instr.probe, as strataInstrProbeBefore does; likewise after.) */
MlirLogicalResult strataInstrInsertBefore(StrataInstrOpContext *op, intptr_t input,
                                          StrataInstrBuildFn fn, void *user);
/* Output `output` of the op is followed by fn(output), which replaces it in
 * the uses that come after the op; the inserted computation itself reads the
 * op's own result. */
MlirLogicalResult strataInstrInsertAfter(StrataInstrOpContext *op, intptr_t output,
                                         StrataInstrBuildFn fn, void *user);
/* Replaces the op (at most once per op: a second replace, by any tool, is a
 * located error and fails the run). Insert-befores apply to its inputs
 * first, insert-afters to the replacement's outputs. */
MlirLogicalResult strataInstrReplace(StrataInstrOpContext *op, StrataInstrReplaceFn fn, void *user);
/* Probe actions: an `instr.probe` of the calling tool (tool = its name,
 * op_id, op_name, index, point, the op's location) on an input / output. */
MlirLogicalResult strataInstrProbeBefore(StrataInstrOpContext *op, intptr_t input);
MlirLogicalResult strataInstrProbeAfter(StrataInstrOpContext *op, intptr_t output);

/* Builds an instr.probe of `value` at `b`; returns its result. */
MlirValue strataInstrBuildProbe(StrataBuilder *b, MlirLocation loc, MlirValue value, int64_t opId,
                                const char *point, const char *tool, const char *opName,
                                int64_t index);

/* ---- Built-in tools ---------------------------------------------------------- */

typedef struct {
  const char *point; /* "before", "after", "both" or NULL: the tool's default */
  double sparsity;   /* prune: fraction of weights zeroed, in [0, 1] */
} StrataInstrBuiltinOptions;

/* Creates built-in tool `name` ("flops", "trace", "profile", "prune",
 * "fakequant", "dump", "noop"); NULL
 * with a located error at `loc` for an unknown name or an option the tool
 * cannot take. Ownership transfers to the caller: destroy it with
 * strataInstrToolDestroy. */
StrataInstrTool *strataInstrBuiltinTool(const char *name, const StrataInstrBuiltinOptions *options,
                                        MlirLocation loc);
/* The names, comma-separated, for messages and help. */
const char *strataInstrBuiltinToolNames(void);

/* ---- Numerics debugger ------------------------------------------------------ */

typedef struct {
  double atol, rtol;    /* a value diverges where |jit - ref| > atol + rtol * |ref| */
  const char *pipeline; /* the lowering to check; NULL: strataCpuPipeline() */
  int optLevel;         /* LLVM optimization level */
  const char *dumpDir;  /* if set: op<ID>_<INDEX>.jit.npy and .ref.npy per value */
} StrataDebugNumericsOptions;

typedef struct {
  size_t compared; /* op outputs compared */
  bool diverged;   /* then the first one (in execution order) that diverged: */
  int64_t opId, index;
  char opName[64];
  char location[256];
  double maxAbsError;
} StrataDebugNumericsReport;

/* Instruments a copy of `module` with the `dump` tool (every f32 op output),
 * compiles it through the pipeline and runs function `entry` (NULL: the
 * first public one) on `inputs`, runs the reference interpreter on the same
 * IR, and compares every op's outputs: the report names the first op whose
 * compiled result diverges. Fails (located errors) only if it cannot run. */
MlirLogicalResult strataDebugNumerics(StrataContext *ctx, MlirModule module, const char *entry,
                                      StrataTensor *const *inputs, size_t numInputs,
                                      const StrataDebugNumericsOptions *options,
                                      StrataDebugNumericsReport *report);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_INSTRUMENT_H */
