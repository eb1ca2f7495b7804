/* Built-in tools that report at run time through instr.probe ops, lowered
 * by instr-to-runtime to the runtime sinks (runtime/instr.h):
 *   trace   - a probe on each f32 output (point=after, the default) and/or
 *             input (point=before); the sink records shape, min, max, mean,
 *             NaN and Inf counts per run;
 *   dump    - like trace after, for the numerics debugger (the sink keeps
 *             a copy of the last value);
 *   profile - a probe before the op (on input 0) and one after it (on output
 *             0); the sink times the op on every run (Chrome trace events).
 * Only the probes a tool needs are emitted. */
#include <stdlib.h>
#include "mlir-c/BuiltinTypes.h"
#include "instr_internal.h"

/* The trace sink reads f32 data; other element types are not traced. */
static bool traceable(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) && mlirTypeIsAF32(mlirShapedTypeGetElementType(t));
}

static void traceInputs(StrataInstrOpContext *c, void *user) {
  (void)user;
  for (intptr_t i = 0; i < strataInstrOpGetNumInputs(c); i++)
    if (traceable(strataInstrOpGetInput(c, i))) strataInstrProbeBefore(c, i);
}

static void traceOutputs(StrataInstrOpContext *c, void *user) {
  (void)user;
  for (intptr_t i = 0; i < strataInstrOpGetNumOutputs(c); i++)
    if (traceable(strataInstrOpGetOutput(c, i))) strataInstrProbeAfter(c, i);
}

StrataInstrTool *instrTraceTool(bool before, bool after) {
  StrataInstrTool *t = strataInstrToolCreate("trace");
  if (!t) return NULL;
  if (before) strataInstrToolAddCallback(t, STRATA_INSTR_BEFORE_FORWARD, traceInputs, NULL);
  if (after) strataInstrToolAddCallback(t, STRATA_INSTR_AFTER_FORWARD, traceOutputs, NULL);
  return t;
}

/* `dump`: the numerics debugger's probes, on the same values as trace's. */
StrataInstrTool *instrDumpTool(void) {
  StrataInstrTool *t = strataInstrToolCreate("dump");
  if (t) strataInstrToolAddCallback(t, STRATA_INSTR_AFTER_FORWARD, traceOutputs, NULL);
  return t;
}

static bool isTensor(MlirValue v) { return mlirTypeIsARankedTensor(mlirValueGetType(v)); }

/* The start probe rides on input 0; the key tells the after-point that the
 * op has one (an op without tensor inputs or outputs is not timed). */
static void profileStart(StrataInstrOpContext *c, void *user) {
  (void)user;
  if (strataInstrOpGetNumInputs(c) < 1 || strataInstrOpGetNumOutputs(c) < 1 ||
      !isTensor(strataInstrOpGetInput(c, 0)) || !isTensor(strataInstrOpGetOutput(c, 0)))
    return;
  if (mlirLogicalResultIsSuccess(strataInstrProbeBefore(c, 0)))
    strataInstrOpSetInt(c, "profile.timed", 1);
}

static void profileStop(StrataInstrOpContext *c, void *user) {
  (void)user;
  int64_t timed = 0;
  if (strataInstrOpGetInt(c, "profile.timed", &timed) && timed) strataInstrProbeAfter(c, 0);
}

StrataInstrTool *instrProfileTool(void) {
  StrataInstrTool *t = strataInstrToolCreate("profile");
  if (!t) return NULL;
  strataInstrToolAddCallback(t, STRATA_INSTR_BEFORE_FORWARD, profileStart, NULL);
  strataInstrToolAddCallback(t, STRATA_INSTR_AFTER_FORWARD, profileStop, NULL);
  return t;
}
