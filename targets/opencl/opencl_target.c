/* The `opencl` target: the GPU targets' kernel-level lowering
 * (gpu_pipeline.h), OpenCL C from opencl_emit.c, host plans from
 * gpu_host.c, run through the OpenCL runtime (runtime/opencl.h) on the
 * device StrataCompileOptions.device or $STRATA_DEVICE names. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/support.h"
#include "strata/target.h"
#include "gpu_pipeline.h"
#include "gpu_profile.h"
#include "instr.h"
#include "opencl.h"
#include "opencl_internal.h"

typedef struct {
  char name[256];
  MlirLocation loc;
  GpuPlan plan;
  StrataClBuffer **constants; /* by plan buffer: the constant globals' device copies, or NULL */
  GpuProfile profile;         /* the steps' labels, when profiling */
} HostFunc;

typedef struct {
  StrataContext *ctx;
  MlirModule module; /* the lowered module (owned): the locations errors point at */
  StrataClDevice *dev;
  StrataClProgram *program;
  HostFunc *funcs;
  size_t numFuncs;
  bool profiling; /* the profile tool: every launch timed (gpu_profile.h) */
} ClExecutable;

static void destroy(void *p) {
  ClExecutable *x = p;
  if (!x) return;
  for (size_t i = 0; i < x->numFuncs; i++) {
    for (size_t b = 0; x->funcs[i].constants && b < x->funcs[i].plan.numBuffers; b++)
      strataClBufferDestroy(x->funcs[i].constants[b]);
    free(x->funcs[i].constants);
    gpuProfileFree(&x->funcs[i].profile);
    gpuPlanFree(&x->funcs[i].plan);
  }
  free(x->funcs);
  strataClProgramDestroy(x->program);
  strataClClose(x->dev);
  if (!mlirModuleIsNull(x->module)) mlirModuleDestroy(x->module);
  free(x);
}

static bool writeProgram(MlirModule lowered, ClText *out, size_t *numKernels) {
  return clEmitProgram(mlirModuleGetOperation(lowered), out, numKernels);
}

static void *compile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                     const StrataCompileOptions *options) {
  (void)def;
  MlirOperation m = mlirModuleGetOperation(lowered);
  MlirLocation loc = mlirOperationGetLocation(m);
  ClExecutable *x = calloc(1, sizeof *x);
  if (!x) {
    mlirModuleDestroy(lowered);
    strataEmitError(loc, "out of memory");
    return NULL;
  }
  x->module = lowered;
  x->ctx = ctx;
  ClText source = {0};
  size_t numKernels, copies = 0;
  char err[1024];
  int index = gpuDeviceIndex(options, loc, "OpenCL");
  bool ok = index >= 0 && writeProgram(lowered, &source, &numKernels);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!gpuIsHost(op)) continue;
    HostFunc *grown = realloc(x->funcs, (x->numFuncs + 1) * sizeof *grown);
    if (!grown) {
      strataEmitOpError(op, "out of memory");
      ok = false;
      break;
    }
    x->funcs = grown;
    HostFunc *f = &x->funcs[x->numFuncs];
    *f = (HostFunc){0};
    MlirStringRef name = mlirStringAttrGetValue(strataOpAttr(op, "sym_name"));
    snprintf(f->name, sizeof f->name, "%.*s", (int)name.length, name.data);
    f->loc = mlirOperationGetLocation(op);
    ok = gpuPlanBuild(m, op, "opencl", &f->plan, &copies);
    if (ok) x->numFuncs++;
    if (ok && gpuProfileWanted(m) && !gpuProfileInit(&f->profile, m, &f->plan))
      ok = false, strataEmitOpError(op, "out of memory");
  }
  x->profiling = ok && gpuProfileWanted(m);
  if (ok && !(x->dev = strataClOpen(index, err, sizeof err))) {
    strataEmitError(loc, "opencl target: %s", err);
    ok = false;
  }
  if (ok && x->profiling && !strataClEnableProfiling(x->dev, err, sizeof err)) {
    strataEmitError(loc, "opencl target: the profile tool: %s", err);
    ok = false;
  }
  /* The weights go to the device once, not at every call. */
  for (size_t i = 0; ok && i < x->numFuncs; i++) {
    HostFunc *f = &x->funcs[i];
    if (!(f->constants = calloc(f->plan.numBuffers ? f->plan.numBuffers : 1, sizeof *f->constants))) {
      strataEmitError(loc, "out of memory");
      ok = false;
    }
    for (size_t b = 0; ok && b < f->plan.numBuffers; b++)
      if (f->plan.buffers[b].constant &&
          !(f->constants[b] = strataClBufferCreate(x->dev, f->plan.buffers[b].bytes, f->plan.buffers[b].init->data, err,
                                                   sizeof err))) {
        strataEmitError(f->loc, "opencl target: %s", err);
        ok = false;
      }
  }
  if (ok && strstr(source.data, "cl_khr_fp64") && !strataClDeviceHasFp64(x->dev)) {
    strataEmitError(loc, "opencl target: the model computes in f64 and device '%s' has no double precision "
                    "(cl_khr_fp64)", strataClDeviceName(x->dev));
    ok = false;
  }
  char *log = NULL;
  if (ok && !(x->program = strataClBuild(x->dev, source.data, &log, err, sizeof err))) {
    /* The emitter's output is meant to build: a log here is an emitter bug
     * or a device limit (strata-translate --target opencl writes the
     * program the log's line numbers refer to). */
    strataEmitError(loc, "opencl target: %s on '%s'; the build log:\n%s", err, strataClDeviceName(x->dev),
                    log ? log : "(none)");
    ok = false;
  }
  free(log);
  free(source.data);
  if (!ok) {
    destroy(x);
    return NULL;
  }
  return x;
}

/* Plan buffer `i` of a call: a constant's compile-time copy or the call's own. */
static StrataClBuffer *bufferOf(const HostFunc *f, StrataClBuffer **buffers, int i) {
  return f->constants[i] ? f->constants[i] : buffers[i];
}

/* True if a kernel reported a failed run-time check (the message in `err`: the
 * site's text -- its location, a tab, the op -- then what went wrong; *at
 * its launch), or the record could not be read. */
static bool checkFailed(ClExecutable *x, const GpuPlan *plan, StrataClBuffer *errors, MlirLocation *at, char *err,
                       size_t errSize) {
  uint8_t record[CL_ERROR_RECORD_BYTES];
  if (!strataClRead(x->dev, errors, 0, record, sizeof record, err, errSize)) return true;
  int32_t flag;
  int64_t r[3 + GPU_CHECK_VALUES];
  memcpy(&flag, record, sizeof flag);
  memcpy(r, record + 8, sizeof r);
  if (!flag) return false;
  gpuCheckMessage(plan, r[0], r[1], r[2], r + 3, at, err, errSize);
  return true;
}

/* Adds a profiled call's events: each launch's device time from its
 * profiling event, placed after the call's start by its distance from the
 * first launch's enqueueing. */
static void recordCall(const HostFunc *f, int64_t run, double hostStart, const long *eventOf,
                       const StrataClTiming *times) {
  const GpuPlan *plan = &f->plan;
  GpuStepTime *t = calloc(plan->numSteps ? plan->numSteps : 1, sizeof *t);
  if (!t) return;
  double origin = -1;
  for (size_t s = 0; s < plan->numSteps; s++) {
    if (eventOf[s] < 0) continue;
    const StrataClTiming *e = &times[eventOf[s]];
    t[s] = (GpuStepTime){true, (double)e->start, (double)e->end};
    if (origin < 0) origin = (double)e->queued;
  }
  gpuProfileRecordCall(&f->profile, "opencl", f->name, run, hostStart, strataRtInstrNowUs(), origin < 0 ? 0 : origin, t);
  free(t);
}

static MlirLogicalResult invoke(void *p, const char *name, StrataTensor *const *inputs, size_t numInputs,
                                StrataTensor *const *outputs, size_t numOutputs) {
  ClExecutable *x = p;
  HostFunc *f = NULL;
  for (size_t i = 0; i < x->numFuncs && !f; i++)
    if (!strcmp(x->funcs[i].name, name)) f = &x->funcs[i];
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(x->module));
  if (!f) {
    strataEmitError(loc, "opencl target: no compiled public function '%s'", name);
    return mlirLogicalResultFailure();
  }
  const GpuPlan *plan = &f->plan;
  if (!gpuPlanCheckCall(plan, name, f->loc, inputs, numInputs, outputs, numOutputs)) return mlirLogicalResultFailure();
  char err[1024] = "";
  bool ok = true;
  int64_t run = x->profiling ? strataRtInstrRunBegin() : 0;
  double hostStart = x->profiling ? strataRtInstrNowUs() : 0;
  StrataClBuffer **buffers = calloc(plan->numBuffers ? plan->numBuffers : 1, sizeof *buffers);
  StrataClArg *args = NULL;
  /* Profiling: the launch (event) number of each step, or -1. */
  long *eventOf = x->profiling ? calloc(plan->numSteps ? plan->numSteps : 1, sizeof *eventOf) : NULL;
  StrataClTiming *times = x->profiling ? calloc(plan->numSteps ? plan->numSteps : 1, sizeof *times) : NULL;
  if (!buffers || (x->profiling && (!eventOf || !times))) ok = false, snprintf(err, sizeof err, "out of memory");
  for (size_t i = 0; ok && i < plan->numBuffers; i++) {
    if (f->constants[i]) continue; /* uploaded at compile time */
    const void *init = i < numInputs ? inputs[i]->data : plan->buffers[i].init ? plan->buffers[i].init->data : NULL;
    ok = (buffers[i] = strataClBufferCreate(x->dev, plan->buffers[i].bytes, init, err, sizeof err)) != NULL;
  }
  static const uint8_t kNoError[CL_ERROR_RECORD_BYTES];
  StrataClBuffer *errors = NULL;
  if (ok && plan->reportsErrors)
    ok = (errors = strataClBufferCreate(x->dev, sizeof kNoError, kNoError, err, sizeof err)) != NULL;
  MlirLocation at = f->loc;
  for (size_t s = 0; ok && s < plan->numSteps; s++) {
    const GpuStep *step = &plan->steps[s];
    StrataClArg *grown = realloc(args, (step->numArgs + 2) * sizeof *grown);
    if (!grown) {
      ok = false, snprintf(err, sizeof err, "out of memory");
      break;
    }
    args = grown;
    for (size_t a = 0; a < step->numArgs; a++)
      args[a] = step->args[a].buffer >= 0 ? (StrataClArg){.buffer = bufferOf(f, buffers, step->args[a].buffer)}
                                          : (StrataClArg){.value = step->args[a].bytes, .size = step->args[a].size};
    uint64_t stepNumber = s;
    if (step->reportsErrors) {
      args[step->numArgs] = (StrataClArg){.buffer = errors};
      args[step->numArgs + 1] = (StrataClArg){.value = &stepNumber, .size = sizeof stepNumber};
    }
    at = step->loc;
    char kernel[160];
    if (step->kind == GPU_STEP_COPY) clCopyKernelName(step->copy, kernel, sizeof kernel);
    else clKernelName(mlirStringRefCreateFromCString(step->module), mlirStringRefCreateFromCString(step->func), kernel,
                      sizeof kernel);
    size_t pending = strataClNumPending(x->dev);
    ok = strataClLaunch(x->dev, x->program, kernel, args, step->numArgs + (step->reportsErrors ? 2 : 0),
                        step->global, step->local, err, sizeof err);
    if (eventOf) eventOf[s] = strataClNumPending(x->dev) > pending ? (long)pending : -1;
  }
  if (ok) at = f->loc, ok = strataClFinishTimed(x->dev, times, err, sizeof err);
  if (ok && errors) ok = !checkFailed(x, plan, errors, &at, err, sizeof err);
  for (size_t i = 0; ok && i < numOutputs; i++)
    ok = strataClRead(x->dev, bufferOf(f, buffers, plan->results[i].buffer), plan->results[i].offset, outputs[i]->data,
                      plan->results[i].bytes, err, sizeof err);
  if (ok && x->profiling) recordCall(f, run, hostStart, eventOf, times);
  free(eventOf);
  free(times);
  if (!ok) {
    strataClFinish(x->dev, err + strlen(err), 0); /* drain the queue before freeing its buffers */
    /* An index error carries its op's location as text, up to a tab (as
     * the CPU target reports it). */
    char *tab = strchr(err, '\t');
    if (tab) *tab = '\0', strataEmitErrorText(x->ctx, err, "%s", tab + 1);
    else strataEmitError(at, "opencl target: %s", err);
  }
  strataClBufferDestroy(errors);
  for (size_t i = 0; buffers && i < plan->numBuffers; i++) strataClBufferDestroy(buffers[i]);
  free(buffers);
  free(args);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static bool callStats(void *p, const char *name, StrataCallStats *stats) {
  const ClExecutable *x = p;
  for (size_t i = 0; i < x->numFuncs; i++)
    if (!strcmp(x->funcs[i].name, name)) return gpuPlanCallStats(&x->funcs[i].plan, stats), true;
  return false;
}

static char *emit(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                  const StrataEmitOptions *options, size_t *size) {
  (void)def, (void)ctx, (void)options;
  ClText source = {0};
  size_t numKernels;
  if (!writeProgram(lowered, &source, &numKernels)) {
    free(source.data);
    return NULL;
  }
  /* The host side is checked too: what strata-run could not launch is not
   * written either. */
  MlirOperation m = mlirModuleGetOperation(lowered);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
  size_t copies = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    GpuPlan plan;
    if (!gpuIsHost(op)) continue;
    if (!gpuPlanBuild(m, op, "opencl", &plan, &copies)) {
      free(source.data);
      return NULL;
    }
    gpuPlanFree(&plan);
  }
  *size = source.len;
  return source.data;
}

static char *listDevices(const StrataTargetDef *def, StrataContext *ctx, MlirLocation loc) {
  (void)def, (void)ctx;
  char err[512];
  char *text = strataClListDevices(err, sizeof err);
  if (!text) strataEmitError(loc, "opencl target: %s", err);
  return text;
}

const StrataTargetDef strataOpenclTarget = {
    .name = "opencl",
    .summary = "OpenCL C kernels through the ICD loader (PoCL runs them on the CPU)",
    .pipelines =
        {
            [STRATA_FUSION_FIXED] = strataGpuPipelineText,
            [STRATA_FUSION_NONE] = strataGpuPipelineUnfusedText,
            [STRATA_FUSION_DNNFUSION] = strataGpuPipelineFusedText,
            [STRATA_FUSION_PLANNED] = strataGpuPipelineFusedCodegenText,
        },
    .dialects = "nn,instr",
    .prelude = "gpu-profile-probes{target=opencl}",
    .compile = compile,
    .invoke = invoke,
    .destroy = destroy,
    .callStats = callStats,
    .emitFormats = "cl",
    .emit = emit,
    .listDevices = listDevices,
};
