/* The `vulkan` target: the GPU targets' kernel-level lowering
 * (gpu_pipeline.h), SPIR-V from vulkan_spirv.c, host plans from gpu_host.c,
 * run through the Vulkan runtime (runtime/vulkan.h) on the device
 * StrataCompileOptions.device or $STRATA_DEVICE names. Everything a call
 * needs is made at compile time: the buffers of every plan (the weights
 * filled once), a pipeline per launch, and a command buffer per public
 * function recorded once; a call writes its inputs, submits, waits for the
 * fence and reads its results. $STRATA_VK_VALIDATION=1 runs with the
 * Khronos validation layer, any message of which fails the compile or call. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "strata/target.h"
#include "gpu_pipeline.h"
#include "gpu_profile.h"
#include "instr.h"
#include "vulkan_internal.h"

typedef struct {
  char name[256];
  MlirLocation loc;
  StrataVkBuffer **buffers;     /* by plan buffer */
  StrataVkPipeline **pipelines; /* by step; NULL for copies */
  StrataVkCommands *commands;
  StrataVkBuffer *errors; /* the index-error record, if a kernel reports errors */
  /* Profiling: the steps' labels, and each step's timed command number
   * (-1: it recorded nothing). */
  GpuProfile profile;
  long *timedOf;
} HostFunc;

typedef struct {
  StrataContext *ctx;
  MlirModule module; /* the lowered module (owned): the locations errors point at */
  StrataVkDevice *dev;
  StrataVkShader *shader;
  GpuPlan *plans; /* by host function */
  HostFunc *funcs;
  size_t numFuncs;
  bool profiling; /* the profile tool: every dispatch and copy timed (gpu_profile.h) */
} VkExecutable;

static void destroy(void *p) {
  VkExecutable *x = p;
  if (!x) return;
  for (size_t i = 0; i < x->numFuncs; i++) {
    HostFunc *f = &x->funcs[i];
    strataVkCommandsDestroy(f->commands);
    strataVkBufferDestroy(f->errors);
    for (size_t s = 0; f->pipelines && s < x->plans[i].numSteps; s++) strataVkPipelineDestroy(f->pipelines[s]);
    for (size_t b = 0; f->buffers && b < x->plans[i].numBuffers; b++) strataVkBufferDestroy(f->buffers[b]);
    free(f->pipelines);
    free(f->buffers);
    free(f->timedOf);
    gpuProfileFree(&f->profile);
    gpuPlanFree(&x->plans[i]);
  }
  free(x->funcs);
  free(x->plans);
  strataVkShaderDestroy(x->shader);
  strataVkClose(x->dev);
  if (!mlirModuleIsNull(x->module)) mlirModuleDestroy(x->module);
  free(x);
}

/* The plans of every host function of `m`, with their names (*funcs:
 * calloc'ed names and locations). False after located errors. */
static bool buildPlans(MlirOperation m, GpuPlan **plans, HostFunc **funcs, size_t *n) {
  *plans = NULL, *funcs = NULL, *n = 0;
  size_t copies = 0, count = 0;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    count += gpuIsHost(op);
  if (!(*plans = calloc(count ? count : 1, sizeof **plans)) || !(*funcs = calloc(count ? count : 1, sizeof **funcs)))
    return strataEmitOpError(m, "out of memory"), false;
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!gpuIsHost(op)) continue;
    HostFunc *f = &(*funcs)[*n];
    MlirStringRef name = mlirStringAttrGetValue(strataOpAttr(op, "sym_name"));
    snprintf(f->name, sizeof f->name, "%.*s", (int)name.length, name.data);
    f->loc = mlirOperationGetLocation(op);
    if (!gpuPlanBuild(m, op, "vulkan", &(*plans)[*n], &copies)) return false;
    ++*n;
  }
  return true;
}

/* The byte ranges of a host memref.copy, contiguous runs merged. */
static bool copyRegions(const GpuStep *s, StrataVkCopyRegion **out, size_t *n, char *err, size_t errSize) {
  const GpuLayout *src = &s->copySrc, *dst = &s->copyDst;
  size_t cap = 0, es = src->elementSize;
  int64_t index[8] = {0};
  *out = NULL, *n = 0;
  for (int64_t e = 0; e < src->numElements; e++) {
    int64_t so = src->offset, d = dst->offset;
    for (int k = 0; k < src->rank; k++) so += index[k] * src->strides[k], d += index[k] * dst->strides[k];
    StrataVkCopyRegion *last = *n ? &(*out)[*n - 1] : NULL;
    if (last && last->srcOffset + last->bytes == (uint64_t)so * es && last->dstOffset + last->bytes == (uint64_t)d * es) {
      last->bytes += es;
    } else {
      if (*n == cap) {
        StrataVkCopyRegion *grown = cap >= (1u << 20) ? NULL : realloc(*out, (cap = cap ? 2 * cap : 16) * sizeof *grown);
        if (!grown)
          return snprintf(err, errSize, "this copy is too scattered (over a million ranges) or out of memory"), false;
        *out = grown;
      }
      (*out)[(*n)++] = (StrataVkCopyRegion){.srcOffset = (uint64_t)so * es, .dstOffset = (uint64_t)d * es, .bytes = es};
    }
    for (int k = src->rank - 1; k >= 0 && ++index[k] == src->dims[k]; k--) index[k] = 0;
  }
  return true;
}

/* Records function `i`'s steps in its command buffer (buffers and
 * pipelines made). False after an error in `err` at *at. */
static bool record(VkExecutable *x, size_t i, MlirLocation *at, char *err, size_t errSize) {
  const GpuPlan *plan = &x->plans[i];
  HostFunc *f = &x->funcs[i];
  size_t launches = 0, bindings = 0;
  for (size_t s = 0; s < plan->numSteps; s++)
    if (plan->steps[s].kind == GPU_STEP_LAUNCH) launches++, bindings += plan->steps[s].numArgs + 1 + VK_MAX_VEC4_ARGS;
  if (!(f->commands = strataVkCommandsBegin(x->dev, launches, bindings, err, errSize))) return false;
  if (x->profiling && !strataVkCommandsEnableTimestamps(f->commands, plan->numSteps, err, errSize)) {
    size_t len = strlen(err);
    snprintf(err + len, errSize - len, " (asked by the profile tool)");
    return false;
  }
  StrataVkBuffer **bound = calloc(bindings ? bindings : 1, sizeof *bound);
  bool ok = bound != NULL || (snprintf(err, errSize, "out of memory"), false);
  for (size_t s = 0; ok && s < plan->numSteps; s++) {
    const GpuStep *step = &plan->steps[s];
    *at = step->loc;
    if (f->timedOf) f->timedOf[s] = (long)strataVkNumTimed(f->commands); /* the count before it, for now */
    if (step->kind == GPU_STEP_COPY) {
      StrataVkBuffer *src = f->buffers[step->args[0].buffer], *dst = f->buffers[step->args[1].buffer];
      /* vkCmdCopyBuffer's regions may not overlap. */
      if (src == dst) {
        ok = false, snprintf(err, errSize, "the vulkan target copies between distinct buffers only");
        break;
      }
      StrataVkCopyRegion *regions;
      size_t n;
      ok = copyRegions(step, &regions, &n, err, errSize) &&
           strataVkCmdCopy(f->commands, src, dst, regions, n, err, errSize);
      free(regions);
      continue;
    }
    size_t n = 0;
    /* The kernel's bindings (vulkan_spirv.c): its buffer operands but the
     * error sites' text, then the error record, then the vec4 views of
     * the buffers it loads vectors of (vulkan_workgroup.c). */
    for (size_t k = 0; k < step->numArgs; k++)
      if (step->args[k].buffer >= 0 && !mlirTypeIsAUnrankedMemRef(step->args[k].type))
        bound[n++] = f->buffers[step->args[k].buffer];
    if (step->reportsErrors) bound[n++] = f->errors;
    int vec4[VK_MAX_VEC4_ARGS];
    int numVec4 = vkVec4Args(step->kernel, vec4, VK_MAX_VEC4_ARGS);
    for (int v = 0; v < numVec4; v++) bound[n++] = f->buffers[step->args[vec4[v]].buffer];
    uint32_t groups[3];
    for (int d = 0; d < 3; d++) {
      size_t g = step->global[d] / step->local[d];
      groups[d] = g > UINT32_MAX ? UINT32_MAX : (uint32_t)g; /* too many: refused by the dispatch */
    }
    ok = (f->pipelines[s] = strataVkPipelineCreate(x->dev, x->shader, step->module, n, err, errSize)) &&
         strataVkCmdDispatch(f->commands, f->pipelines[s], bound, n, groups, err, errSize);
  }
  /* Each step's timed command: the count before it, if it recorded one
   * (the next step's count, not yet rewritten, is the count after it). */
  for (size_t s = 0; ok && f->timedOf && s < plan->numSteps; s++) {
    long after = s + 1 < plan->numSteps ? f->timedOf[s + 1] : (long)strataVkNumTimed(f->commands);
    f->timedOf[s] = after > f->timedOf[s] ? f->timedOf[s] : -1;
  }
  free(bound);
  if (ok) *at = f->loc, ok = strataVkCommandsEnd(f->commands, err, errSize);
  return ok;
}

static bool validationAsked(void) {
  const char *v = getenv("STRATA_VK_VALIDATION");
  return v && *v && strcmp(v, "0");
}

static void *compile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                     const StrataCompileOptions *options) {
  (void)def;
  MlirOperation m = mlirModuleGetOperation(lowered);
  MlirLocation loc = mlirOperationGetLocation(m);
  VkExecutable *x = calloc(1, sizeof *x);
  if (!x) {
    mlirModuleDestroy(lowered);
    strataEmitError(loc, "out of memory");
    return NULL;
  }
  x->module = lowered;
  x->ctx = ctx;
  char err[1024];
  int index = gpuDeviceIndex(options, loc, "Vulkan");
  bool ok = index >= 0 && buildPlans(m, &x->plans, &x->funcs, &x->numFuncs);
  if (ok && !(x->dev = strataVkOpen(index, validationAsked(), err, sizeof err)))
    ok = false, strataEmitError(loc, "vulkan target: %s", err);
  x->profiling = ok && gpuProfileWanted(m);
  VkSpirv spirv = {0};
  ok = ok && vkSpirvBuild(ctx, m, x->plans, x->numFuncs, strataVkDeviceFeatures(x->dev), &spirv, NULL);
  if (ok && spirv.bytes && !(x->shader = strataVkShaderCreate(x->dev, spirv.words, spirv.bytes, err, sizeof err)))
    ok = false, strataEmitError(loc, "vulkan target: %s on '%s'", err, strataVkDeviceName(x->dev));
  free(spirv.words);
  for (size_t i = 0; ok && i < x->numFuncs; i++) {
    const GpuPlan *plan = &x->plans[i];
    HostFunc *f = &x->funcs[i];
    MlirLocation at = f->loc;
    f->buffers = calloc(plan->numBuffers ? plan->numBuffers : 1, sizeof *f->buffers);
    f->pipelines = calloc(plan->numSteps ? plan->numSteps : 1, sizeof *f->pipelines);
    ok = (f->buffers && f->pipelines) || (snprintf(err, sizeof err, "out of memory"), false);
    if (ok && x->profiling)
      ok = ((f->timedOf = calloc(plan->numSteps ? plan->numSteps : 1, sizeof *f->timedOf)) &&
            gpuProfileInit(&f->profile, m, plan)) ||
           (snprintf(err, sizeof err, "out of memory"), false);
    if (ok && plan->reportsErrors)
      ok = (f->errors = strataVkBufferCreate(x->dev, VK_ERROR_RECORD_WORDS * 4, NULL, err, sizeof err)) != NULL;
    /* The weights go to the device here, once; other initial values at
     * every call (a kernel may write them). */
    for (size_t b = 0; ok && b < plan->numBuffers; b++)
      ok = (f->buffers[b] = strataVkBufferCreate(x->dev, plan->buffers[b].bytes,
                                                 plan->buffers[b].constant ? plan->buffers[b].init->data : NULL, err,
                                                 sizeof err)) != NULL;
    ok = ok && record(x, i, &at, err, sizeof err);
    if (!ok) strataEmitError(at, "vulkan target: %s", err);
  }
  if (!ok) {
    destroy(x);
    return NULL;
  }
  return x;
}

/* True if a kernel reported a failed run-time check (the message in `err`, *at its
 * launch), or the record could not be read. */
static bool checkFailed(const GpuPlan *plan, StrataVkBuffer *errors, MlirLocation *at, char *err, size_t errSize) {
  uint32_t r[VK_ERROR_RECORD_WORDS];
  if (!strataVkRead(errors, 0, r, sizeof r, err, errSize)) return true;
  if (!r[0]) return false;
  int64_t v[GPU_CHECK_VALUES];
  for (int i = 0; i < GPU_CHECK_VALUES; i++) v[i] = (int64_t)((uint64_t)r[4 + 2 * i] | (uint64_t)r[5 + 2 * i] << 32);
  gpuCheckMessage(plan, (int32_t)r[1], (int32_t)r[2], (int32_t)r[3], v, at, err, errSize);
  return true;
}

/* Adds a profiled call's events: each dispatch's and copy's device time
 * from its timestamps, placed after the call's start by its distance from
 * the command buffer's top. False after an error in `err`. */
static bool recordCall(const HostFunc *f, const GpuPlan *plan, int64_t run, double hostStart, char *err,
                       size_t errSize) {
  size_t n = strataVkNumTimed(f->commands);
  double *ns = calloc(2 * n + 1, sizeof *ns);
  GpuStepTime *t = calloc(plan->numSteps ? plan->numSteps : 1, sizeof *t);
  bool ok = (ns && t) || (snprintf(err, errSize, "out of memory"), false);
  ok = ok && strataVkReadTimestamps(f->commands, ns, err, errSize);
  for (size_t s = 0; ok && s < plan->numSteps; s++)
    if (f->timedOf[s] >= 0) t[s] = (GpuStepTime){true, ns[2 * f->timedOf[s]], ns[2 * f->timedOf[s] + 1]};
  if (ok) gpuProfileRecordCall(&f->profile, "vulkan", f->name, run, hostStart, strataRtInstrNowUs(), 0, t);
  free(ns);
  free(t);
  return ok;
}

static MlirLogicalResult invoke(void *p, const char *name, StrataTensor *const *inputs, size_t numInputs,
                                StrataTensor *const *outputs, size_t numOutputs) {
  VkExecutable *x = p;
  size_t i = 0;
  while (i < x->numFuncs && strcmp(x->funcs[i].name, name)) i++;
  if (i == x->numFuncs) {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(x->module)),
                    "vulkan target: no compiled public function '%s'", name);
    return mlirLogicalResultFailure();
  }
  const GpuPlan *plan = &x->plans[i];
  HostFunc *f = &x->funcs[i];
  if (!gpuPlanCheckCall(plan, name, f->loc, inputs, numInputs, outputs, numOutputs)) return mlirLogicalResultFailure();
  char err[1024];
  bool ok = true;
  int64_t run = x->profiling ? strataRtInstrRunBegin() : 0;
  double hostStart = x->profiling ? strataRtInstrNowUs() : 0;
  for (size_t b = 0; ok && b < plan->numBuffers; b++) {
    const void *init = b < numInputs ? inputs[b]->data : plan->buffers[b].init ? plan->buffers[b].init->data : NULL;
    if (init && !plan->buffers[b].constant)
      ok = strataVkWrite(f->buffers[b], 0, init, plan->buffers[b].bytes, err, sizeof err);
  }
  static const uint32_t kNoError[VK_ERROR_RECORD_WORDS];
  if (ok && f->errors) ok = strataVkWrite(f->errors, 0, kNoError, sizeof kNoError, err, sizeof err);
  ok = ok && strataVkSubmit(f->commands, err, sizeof err);
  MlirLocation at = f->loc;
  if (ok && f->errors) ok = !checkFailed(plan, f->errors, &at, err, sizeof err);
  for (size_t k = 0; ok && k < numOutputs; k++)
    ok = strataVkRead(f->buffers[plan->results[k].buffer], plan->results[k].offset, outputs[k]->data,
                      plan->results[k].bytes, err, sizeof err);
  if (ok && x->profiling) ok = recordCall(f, plan, run, hostStart, err, sizeof err);
  if (!ok) {
    /* An index error carries its op's location as text, up to a tab (as
     * the CPU target reports it). */
    char *tab = strchr(err, '\t');
    if (tab) *tab = '\0', strataEmitErrorText(x->ctx, err, "%s", tab + 1);
    else strataEmitError(at, "vulkan target: %s", err);
  }
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static bool callStats(void *p, const char *name, StrataCallStats *stats) {
  const VkExecutable *x = p;
  for (size_t i = 0; i < x->numFuncs; i++)
    if (!strcmp(x->funcs[i].name, name)) return gpuPlanCallStats(&x->plans[i], stats), true;
  return false;
}

/* strata-translate: the SPIR-V module (`spv`) or its spirv dialect form
 * (`mlir`), for a device with every feature the shaders use. */
static char *emit(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                  const StrataEmitOptions *options, size_t *size) {
  (void)def;
  MlirOperation m = mlirModuleGetOperation(lowered);
  GpuPlan *plans;
  HostFunc *funcs;
  size_t n;
  bool text = options && options->format && !strcmp(options->format, "mlir");
  char *out = NULL;
  VkSpirv spirv = {0};
  if (buildPlans(m, &plans, &funcs, &n) && vkSpirvBuild(ctx, m, plans, n, NULL, &spirv, text ? &out : NULL)) {
    if (text) *size = out ? strlen(out) : 0;
    else out = (char *)spirv.words, *size = spirv.bytes;
    if (!out) out = calloc(1, 1); /* no kernel: nothing to write */
  }
  for (size_t i = 0; i < n; i++) gpuPlanFree(&plans[i]);
  free(plans);
  free(funcs);
  return out;
}

static char *listDevices(const StrataTargetDef *def, StrataContext *ctx, MlirLocation loc) {
  (void)def, (void)ctx;
  char err[512];
  char *text = strataVkListDevices(err, sizeof err);
  if (!text) strataEmitError(loc, "vulkan target: %s", err);
  return text;
}

const StrataTargetDef strataVulkanTarget = {
    .name = "vulkan",
    .summary = "SPIR-V compute shaders through the Vulkan loader (lavapipe runs them on the CPU)",
    .pipelines =
        {
            [STRATA_FUSION_FIXED] = strataGpuPipelineText,
            [STRATA_FUSION_NONE] = strataGpuPipelineUnfusedText,
            [STRATA_FUSION_DNNFUSION] = strataGpuPipelineFusedText,
            [STRATA_FUSION_PLANNED] = strataGpuPipelineFusedCodegenText,
        },
    .dialects = "nn,instr",
    .prelude = "gpu-profile-probes{target=vulkan}",
    .compile = compile,
    .invoke = invoke,
    .destroy = destroy,
    .callStats = callStats,
    .emitFormats = "spv,mlir",
    .emit = emit,
    .listDevices = listDevices,
};
