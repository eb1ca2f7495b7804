/* The host side of a lowered module for the GPU targets: the public
 * function's body after gpu-kernel-outlining is a straight line of buffer
 * allocations, constants (memref.global), views, copies and
 * gpu.launch_func. This turns it into a plan -- buffers and launches in
 * program order -- that the target runs at each call. Anything else on the
 * host (a loop, a load) is refused where it is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "grow.h"
#include "strata/context.h"
#include "gpu_host.h"
#include "status.h"

/* What a host value is: a buffer (the index of the one it views) or a
 * scalar constant. */
typedef struct {
  const void *key;
  int buffer;
  GpuPlanArg scalar;
  int64_t index; /* an index or integer constant's value */
} HostValue;

typedef struct {
  GpuPlan *plan;
  MlirOperation module;
  HostValue *values;
  size_t numValues, capValues;
  size_t capBuffers, capSteps, copies;
  const char *target; /* for messages */
} Builder;

static HostValue *lookup(Builder *b, MlirValue v) {
  for (size_t i = b->numValues; i-- > 0;)
    if (b->values[i].key == v.ptr) return &b->values[i];
  return NULL;
}

static HostValue *define(Builder *b, MlirValue v) {
  HostValue *grown = strataGrow(b->values, &b->capValues, b->numValues + 1, sizeof *grown);
  if (!grown) return NULL;
  b->values = grown;
  HostValue *h = &b->values[b->numValues++];
  *h = (HostValue){.key = v.ptr, .buffer = -1};
  return h;
}

/* A new buffer of `bytes` (init owned by the plan from here on). */
static int newBuffer(Builder *b, size_t bytes, StrataTensor *init) {
  GpuPlan *p = b->plan;
  GpuBufferDef *grown = strataGrow(p->buffers, &b->capBuffers, p->numBuffers + 1, sizeof *grown);
  if (!grown) return strataTensorDestroy(init), -1;
  p->buffers = grown;
  p->buffers[p->numBuffers] = (GpuBufferDef){.bytes = bytes, .init = init};
  return (int)p->numBuffers++;
}

static GpuStep *newStep(Builder *b, MlirOperation op) {
  GpuPlan *p = b->plan;
  GpuStep *grown = strataGrow(p->steps, &b->capSteps, p->numSteps + 1, sizeof *grown);
  if (!grown) return strataEmitOpError(op, "out of memory"), NULL;
  p->steps = grown;
  GpuStep *s = &p->steps[p->numSteps++];
  *s = (GpuStep){.loc = mlirOperationGetLocation(op), .global = {1, 1, 1}, .local = {1, 1, 1}};
  return s;
}

/* A dense, static memref: its buffer's size in bytes. */
static bool denseBytes(Builder *b, MlirOperation op, MlirType t, const char *what, size_t *bytes, GpuLayout *l) {
  char why[256];
  if (!gpuLayoutOf(t, b->target, l, why, sizeof why)) return strataEmitOpError(op, "%s: %s", what, why), false;
  if (!gpuLayoutIsDense(l))
    return strataEmitOpError(op, "%s: the %s target needs a dense row-major layout", what, b->target), false;
  *bytes = (size_t)l->numElements * l->elementSize;
  return true;
}

static bool addConstant(Builder *b, MlirOperation op) {
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  MlirAttribute v = strataOpAttr(op, "value");
  HostValue *h = define(b, r);
  if (!h) return strataEmitOpError(op, "out of memory"), false;
  if (mlirTypeIsAF32(t)) {
    float f = (float)mlirFloatAttrGetValueDouble(v);
    memcpy(h->scalar.bytes, &f, h->scalar.size = 4);
  } else if (mlirTypeIsAF64(t)) {
    double d = mlirFloatAttrGetValueDouble(v);
    memcpy(h->scalar.bytes, &d, h->scalar.size = 8);
  } else if (mlirTypeIsAF16(t)) {
    /* Its 16 bits (the value is an f16, so the conversion is exact). */
    StrataTensor bits = {.dtype = STRATA_DTYPE_F16, .rank = 0, .data = h->scalar.bytes};
    strataTensorSetDouble(&bits, 0, mlirFloatAttrGetValueDouble(v));
    h->scalar.size = 2;
  } else if (mlirTypeIsAIndex(t) || (mlirTypeIsAInteger(t) && (mlirIntegerTypeGetWidth(t) % 8 == 0 ||
                                                               mlirIntegerTypeGetWidth(t) == 1) &&
                                     mlirIntegerTypeGetWidth(t) <= 64)) {
    h->index = mlirIntegerAttrGetValueInt(v);
    uint64_t bits = (uint64_t)h->index;
    if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1) bits &= 1; /* a kernel's i1: one byte */
    h->scalar.size = mlirTypeIsAIndex(t) ? 8 : (mlirIntegerTypeGetWidth(t) + 7) / 8;
    memcpy(h->scalar.bytes, &bits, h->scalar.size); /* little-endian host and device */
  } else {
    h->scalar.size = 0; /* not passable; refused if a launch takes it */
  }
  h->scalar.buffer = -1;
  return true;
}

static MlirOperation findGlobal(MlirOperation module, MlirStringRef name) {
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "memref.global") &&
        mlirStringRefEqual(mlirStringAttrGetValue(strataOpAttr(op, "sym_name")), name))
      return op;
  return (MlirOperation){NULL};
}

static bool addGlobal(Builder *b, MlirOperation module, MlirOperation op) {
  MlirValue r = mlirOperationGetResult(op, 0);
  size_t bytes;
  GpuLayout l;
  if (!denseBytes(b, op, mlirValueGetType(r), "a global", &bytes, &l)) return false;
  MlirOperation global = findGlobal(module, mlirFlatSymbolRefAttrGetValue(strataOpAttr(op, "name")));
  if (mlirOperationIsNull(global)) return strataEmitOpError(op, "no memref.global of this name"), false;
  MlirAttribute init = strataOpAttr(global, "initial_value");
  StrataTensor *t = NULL;
  if (!mlirAttributeIsNull(init) && mlirAttributeIsAElements(init)) {
    t = strataTensorFromAttr(init);
    if (!t || strataTensorNumBytes(t) != bytes) {
      strataTensorDestroy(t);
      return strataEmitOpError(global, "the %s target cannot read this global's value", b->target), false;
    }
  }
  HostValue *h = define(b, r);
  if (!h) strataTensorDestroy(t);
  if (!h || (h->buffer = newBuffer(b, bytes, t)) < 0) return strataEmitOpError(op, "out of memory"), false;
  /* Bufferization copies a constant before anything writes to it. */
  b->plan->buffers[h->buffer].constant = t && !mlirAttributeIsNull(strataOpAttr(global, "constant"));
  return true;
}

/* gpu.launch_func's operands by segment: grid and block sizes (constants
 * here), then the kernel's operands. */
static bool addLaunch(Builder *b, MlirOperation op) {
  MlirAttribute seg = strataOpAttr(op, "operandSegmentSizes");
  if (mlirAttributeIsNull(seg) || mlirDenseArrayGetNumElements(seg) != 13)
    return strataEmitOpError(op, "the %s target does not know this gpu.launch_func form", b->target), false;
  int32_t n[13];
  for (int i = 0; i < 13; i++) n[i] = mlirDenseI32ArrayGetElement(seg, i);
  if (n[0] || n[7] || n[8] || n[9] || n[10] || n[12])
    return strataEmitOpError(op, "the %s target launches without async tokens, clusters or dynamic "
                             "shared memory", b->target), false;
  GpuStep *s = newStep(b, op);
  if (!s) return false;
  s->kind = GPU_STEP_LAUNCH;
  MlirAttribute kernel = strataOpAttr(op, "kernel");
  MlirOperation func = gpuFindKernel(b->module, kernel);
  if (mlirOperationIsNull(func)) return strataEmitOpError(op, "no gpu.func of this name"), false;
  s->reportsErrors = gpuKernelReportsErrors(func);
  b->plan->reportsErrors |= s->reportsErrors;
  s->kernel = func;
  MlirStringRef mod = mlirSymbolRefAttrGetRootReference(kernel), fn = mlirSymbolRefAttrGetLeafReference(kernel);
  snprintf(s->module, sizeof s->module, "%.*s", (int)mod.length, mod.data);
  snprintf(s->func, sizeof s->func, "%.*s", (int)fn.length, fn.data);
  for (int i = 0; i < 6; i++) {
    HostValue *h = lookup(b, mlirOperationGetOperand(op, n[0] + i));
    if (!h || h->buffer >= 0 || h->scalar.size != 8 || h->index < 0)
      return strataEmitOpError(op, "the %s target needs constant grid and block sizes (static shapes)", b->target), false;
    (i < 3 ? s->global : s->local)[i % 3] = (size_t)h->index;
  }
  for (int i = 0; i < 3; i++) s->global[i] *= s->local[i];
  intptr_t first = n[0] + 6;
  s->numArgs = (size_t)n[11];
  s->args = calloc(s->numArgs ? s->numArgs : 1, sizeof *s->args);
  if (!s->args) return strataEmitOpError(op, "out of memory"), false;
  for (size_t i = 0; i < s->numArgs; i++) {
    HostValue *h = lookup(b, mlirOperationGetOperand(op, first + (intptr_t)i));
    if (!h || (h->buffer < 0 && !h->scalar.size))
      return strataEmitOpError(op, "kernel operand %zu: the %s target passes buffers and constant "
                               "scalars (i1-i64, index, f16, f32, f64) computed on the host", i, b->target), false;
    s->args[i] = h->buffer >= 0 ? (GpuPlanArg){.buffer = h->buffer} : h->scalar;
    s->args[i].type = mlirValueGetType(mlirOperationGetOperand(op, first + (intptr_t)i));
  }
  return true;
}

static bool addCopy(Builder *b, MlirOperation op) {
  HostValue *src = lookup(b, mlirOperationGetOperand(op, 0)), *dst = lookup(b, mlirOperationGetOperand(op, 1));
  GpuLayout l, d;
  char why[256];
  if (!src || !dst || src->buffer < 0 || dst->buffer < 0)
    return strataEmitOpError(op, "the %s target copies between buffers only", b->target), false;
  if (!gpuLayoutOf(mlirValueGetType(mlirOperationGetOperand(op, 0)), b->target, &l, why, sizeof why) ||
      !gpuLayoutOf(mlirValueGetType(mlirOperationGetOperand(op, 1)), b->target, &d, why, sizeof why))
    return strataEmitOpError(op, "the %s target cannot copy: %s", b->target, why), false;
  GpuStep *s = newStep(b, op);
  if (!s) return false;
  s->kind = GPU_STEP_COPY;
  s->copy = b->copies++;
  s->copySrc = l;
  s->copyDst = d;
  s->local[0] = 64;
  s->global[0] = ((size_t)l.numElements + 63) / 64 * 64;
  s->numArgs = 2;
  s->args = calloc(2, sizeof *s->args);
  if (!s->args) return strataEmitOpError(op, "out of memory"), false;
  s->args[0] = (GpuPlanArg){.buffer = src->buffer};
  s->args[1] = (GpuPlanArg){.buffer = dst->buffer};
  return true;
}

static bool addReturn(Builder *b, MlirOperation op) {
  GpuPlan *p = b->plan;
  p->numResults = (size_t)mlirOperationGetNumOperands(op);
  p->results = calloc(p->numResults ? p->numResults : 1, sizeof *p->results);
  if (!p->results) return strataEmitOpError(op, "out of memory"), false;
  for (size_t i = 0; i < p->numResults; i++) {
    MlirValue v = mlirOperationGetOperand(op, (intptr_t)i);
    HostValue *h = lookup(b, v);
    GpuLayout l;
    size_t bytes;
    if (!h || h->buffer < 0) return strataEmitOpError(op, "result %zu is not a buffer", i), false;
    if (!denseBytes(b, op, mlirValueGetType(v), "a result", &bytes, &l)) return false;
    p->results[i].buffer = h->buffer;
    p->results[i].offset = (size_t)l.offset * l.elementSize;
    p->results[i].bytes = bytes;
  }
  return true;
}

static bool isView(MlirOperation op) {
  static const char *const kViews[] = {"memref.subview", "memref.collapse_shape", "memref.expand_shape",
                                       "memref.cast", "memref.reinterpret_cast", "memref.reshape"};
  for (size_t i = 0; i < sizeof kViews / sizeof *kViews; i++)
    if (strataOpIsNamed(op, kViews[i])) return true;
  return false;
}

static bool addOp(Builder *b, MlirOperation module, MlirOperation op) {
  if (strataOpIsNamed(op, "arith.constant")) return addConstant(b, op);
  if (strataOpIsNamed(op, "memref.alloc") || strataOpIsNamed(op, "memref.alloca")) {
    size_t bytes;
    GpuLayout l;
    MlirValue r = mlirOperationGetResult(op, 0);
    if (!denseBytes(b, op, mlirValueGetType(r), "an allocation", &bytes, &l)) return false;
    HostValue *h = define(b, r);
    if (!h || (h->buffer = newBuffer(b, bytes, NULL)) < 0) return strataEmitOpError(op, "out of memory"), false;
    return true;
  }
  if (strataOpIsNamed(op, "memref.get_global")) return addGlobal(b, module, op);
  if (isView(op)) {
    HostValue *src = lookup(b, mlirOperationGetOperand(op, 0));
    if (!src || src->buffer < 0) return strataEmitOpError(op, "a view of no buffer"), false;
    int buffer = src->buffer;
    HostValue *h = define(b, mlirOperationGetResult(op, 0));
    if (!h) return strataEmitOpError(op, "out of memory"), false;
    h->buffer = buffer;
    return true;
  }
  if (strataOpIsNamed(op, "gpu.launch_func")) return addLaunch(b, op);
  if (strataOpIsNamed(op, "memref.copy")) return addCopy(b, op);
  if (strataOpIsNamed(op, "memref.dealloc")) return true; /* every buffer lives for the call */
  if (strataOpIsNamed(op, "func.return")) return addReturn(b, op);
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  strataEmitOpError(op, "the %s target's host side cannot run '%.*s' (it allocates buffers, makes views, "
                    "copies and launches kernels)", b->target, (int)n.length, n.data);
  return false;
}

bool gpuIsHost(MlirOperation op) {
  return strataOpIsNamed(op, "func.func") && mlirAttributeIsNull(strataOpAttr(op, "sym_visibility")) &&
         !mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
}

bool gpuPlanBuild(MlirOperation module, MlirOperation host, const char *target, GpuPlan *plan, size_t *copies) {
  *plan = (GpuPlan){0};
  Builder b = {.plan = plan, .module = module, .copies = *copies, .target = target};
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(host, 0));
  bool ok = true;
  plan->numArgs = (size_t)mlirBlockGetNumArguments(entry);
  for (size_t i = 0; ok && i < plan->numArgs; i++) {
    MlirValue arg = mlirBlockGetArgument(entry, (intptr_t)i);
    size_t bytes;
    GpuLayout l;
    HostValue *h;
    ok = denseBytes(&b, host, mlirValueGetType(arg), "an argument", &bytes, &l);
    if (ok && (!(h = define(&b, arg)) || (h->buffer = newBuffer(&b, bytes, NULL)) < 0))
      ok = false, strataEmitOpError(host, "out of memory");
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    ok = addOp(&b, module, op);
  free(b.values);
  *copies = b.copies;
  if (!ok) gpuPlanFree(plan);
  return ok;
}

void gpuPlanFree(GpuPlan *plan) {
  for (size_t i = 0; i < plan->numBuffers; i++) strataTensorDestroy(plan->buffers[i].init);
  for (size_t i = 0; i < plan->numSteps; i++) free(plan->steps[i].args);
  free(plan->buffers);
  free(plan->steps);
  free(plan->results);
  *plan = (GpuPlan){0};
}

int gpuDeviceIndex(const StrataCompileOptions *o, MlirLocation loc, const char *api) {
  const char *s = o && o->device ? o->device : getenv("STRATA_DEVICE");
  if (!s || !*s) return 0;
  char *end;
  long v = strtol(s, &end, 10);
  if (*end || v < 0 || v > 4096) {
    strataEmitError(loc, "bad %s device number '%s' (%s)", api, s, o && o->device ? "--device" : "$STRATA_DEVICE");
    return -1;
  }
  return (int)v;
}

void gpuCheckMessage(const GpuPlan *plan, int64_t step, int64_t siteArg, int64_t check,
                     const int64_t values[GPU_CHECK_VALUES], MlirLocation *at, char *err, size_t errSize) {
  const char *site = "";
  int siteLen = 0;
  if (step >= 0 && (size_t)step < plan->numSteps) {
    const GpuStep *s = &plan->steps[step];
    *at = s->loc;
    if (siteArg >= 0 && (size_t)siteArg < s->numArgs && s->args[siteArg].buffer >= 0) {
      const StrataTensor *text = plan->buffers[s->args[siteArg].buffer].init;
      if (text && text->dtype == STRATA_DTYPE_I8) site = text->data, siteLen = (int)strataTensorNumElements(text);
    }
  }
  /* The CPU runtime's wording. */
  const int64_t *v = values;
  if (check == GPU_CHECK_SHAPE)
    strataRtShapeErrorText(err, errSize, site, siteLen, v[0], v[1], v[2], v[3], v[4]);
  else
    strataRtIndexErrorText(err, errSize, site, siteLen, v[0], v[1], v[2]);
}

bool gpuPlanCheckCall(const GpuPlan *plan, const char *name, MlirLocation loc, StrataTensor *const *inputs,
                      size_t numInputs, StrataTensor *const *outputs, size_t numOutputs) {
  if (numInputs != plan->numArgs || numOutputs != plan->numResults) {
    strataEmitError(loc, "@%s takes %zu inputs and gives %zu outputs (called with %zu and %zu)", name, plan->numArgs,
                    plan->numResults, numInputs, numOutputs);
    return false;
  }
  for (size_t i = 0; i < numInputs; i++)
    if (strataTensorNumBytes(inputs[i]) != plan->buffers[i].bytes) {
      strataEmitError(loc, "@%s: input %zu has %zu bytes, the function takes %zu", name, i,
                      strataTensorNumBytes(inputs[i]), plan->buffers[i].bytes);
      return false;
    }
  for (size_t i = 0; i < numOutputs; i++)
    if (strataTensorNumBytes(outputs[i]) != plan->results[i].bytes) {
      strataEmitError(loc, "@%s: output %zu has %zu bytes, the function gives %zu", name, i,
                      strataTensorNumBytes(outputs[i]), plan->results[i].bytes);
      return false;
    }
  return true;
}

void gpuPlanCallStats(const GpuPlan *plan, StrataCallStats *stats) {
  *stats = (StrataCallStats){0};
  for (size_t s = 0; s < plan->numSteps; s++) {
    if (plan->steps[s].kind == GPU_STEP_LAUNCH) stats->launches++;
    else stats->copies++;
  }
}
