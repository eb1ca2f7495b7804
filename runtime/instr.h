/* libstrata_rt instrumentation sinks: what instr.probe ops become when the
 * CPU pipeline lowers them (conversions/instr-to-runtime). Records stay in
 * memory and are written as one JSON file, at exit (strataRtInstrSetOutput)
 * or on request (strataRtInstrWrite), never per probe call.
 *
 * The JSON object has two keys:
 *   "traceEvents": Chrome trace events of the `profile` tool, one per op and
 *                  run: {"name", "cat", "ph": "X", "ts", "dur" (microseconds),
 *                  "pid", "tid", "args": {"op_id", "run"}} (Perfetto and
 *                  chrome://tracing open the file); the GPU targets add
 *                  their kernels' device times and each call's host time
 *                  (strataRtInstrAddEvent, below) with args of their own;
 *   "strataTrace": the `trace` tool: {"runs", "dropped", "records": [{"run",
 *                  "op_id", "op", "point", "index", "shape", "min", "max",
 *                  "mean", "nan", "inf"}]} (min/max/mean over the finite
 *                  values; null when there are none).
 * Names arrive as i8 memrefs (the op name, from a constant global). */
#ifndef STRATA_RUNTIME_INSTR_H
#define STRATA_RUNTIME_INSTR_H

#include <stddef.h>
#include <stdint.h>
#include "kernels.h"

enum { STRATA_RT_INSTR_BEFORE = 0, STRATA_RT_INSTR_AFTER = 1 };

/* The sinks compiled code calls, _mlir_ciface_strata_rt_instr_run_begin
 * (a new run, numbered from 0, at the entry of each public function that
 * holds probes), _trace (statistics of an f32 tensor, output/input `index`
 * of op `opId`, at `point`: STRATA_RT_INSTR_*), _profile (the op starts
 * (BEFORE) or ends (AFTER); the end records one complete event timed from
 * the matching start) and _dump (the numerics debugger: a dense copy of
 * the last value output `index` of op `opId` had), are declared by
 * kernels.h from kernel_abi.def. strataRtInstrGetDump returns a dump (NULL
 * if none; rank and dims written); strataRtInstrReset clears them. */
const float *strataRtInstrGetDump(int64_t opId, int64_t index, int *rank, int64_t *dims);

/* Writes the records to `path` now (atomically: temp file, then rename).
 * Returns 0, or -1 if the file cannot be written. */
int strataRtInstrWrite(const char *path);
/* Names the file written at process exit (NULL: none). The path is copied.
 * Returns 0, or -1 if out of memory. */
int strataRtInstrSetOutput(const char *path);
/* Drops every record and the run count. */
void strataRtInstrReset(void);
/* ---- Events timed elsewhere (the GPU targets' kernels, on the device) ----
 * strataRtInstrNowUs: the events' clock (monotonic, microseconds).
 * strataRtInstrRunBegin: starts a run, as compiled code's run_begin does;
 * returns its number. strataRtInstrAddEvent: one complete ("ph": "X")
 * event `name` of category `cat` on track `tid` (pid 1) from host time `ts`
 * (strataRtInstrNowUs's clock) lasting `dur` microseconds; `args` are the
 * members of its "args" object as JSON text without the braces
 * ("\"run\": 0, \"ops\": [\"nn.conv\"]"; copied; the caller escapes
 * strings). An event that cannot be stored is counted as dropped. */
double strataRtInstrNowUs(void);
int64_t strataRtInstrRunBegin(void);
void strataRtInstrAddEvent(const char *name, const char *cat, int tid, double ts, double dur, const char *args);

/* Runs started, trace records and profile events held. */
int64_t strataRtInstrNumRuns(void);
size_t strataRtInstrNumTraceRecords(void);
size_t strataRtInstrNumProfileEvents(void);

#endif /* STRATA_RUNTIME_INSTR_H */
