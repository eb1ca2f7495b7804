/* The profile tool on the GPU targets (gpu_profile.h): the
 * gpu-profile-probes pass, which the opencl and vulkan targets run before
 * their kernel-level lowering, and the events of a profiled call. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "gpu_profile.h"
#include "instr.h"

#define PROFILE_ATTR "strata.gpu_profile"

/* ---- gpu-profile-probes ---- */

static MlirWalkResult collectProbes(MlirOperation op, void *user) {
  if (strataOpIsNamed(op, "instr.probe") && !strataOpListAppend(user, op)) return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

static MlirStringRef strAttr(MlirOperation op, const char *name) {
  MlirAttribute a = strataOpAttr(op, name);
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a) ? mlirStringAttrGetValue(a) : mlirStringRefCreate("", 0);
}

static int64_t opIdOf(MlirOperation op) {
  MlirAttribute a = strataOpAttr(op, "op_id");
  return !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a) ? mlirIntegerAttrGetValueInt(a) : -1;
}

static MlirNamedAttribute named(MlirContext ctx, const char *name, MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), a);
}

static void runProfileProbes(StrataPassRun *run, MlirOperation module) {
  const char *target = strataPassGetString(run, "target");
  MlirContext ctx = mlirOperationGetContext(module);
  StrataOpList probes = {0};
  mlirOperationWalk(module, collectProbes, &probes, MlirWalkPreOrder);
  bool ok = true;
  /* Only the profile tool's probes have a meaning here: they read no
   * value. Any other tool's sink runs on the host over the value, which the
   * device computes (refused, not dropped). */
  for (size_t i = 0; i < probes.count && ok; i++) {
    MlirStringRef tool = strAttr(probes.ops[i], "tool");
    if (tool.length == 7 && !strncmp(tool.data, "profile", 7)) continue;
    strataEmitOpError(probes.ops[i],
                      "of tool '%.*s' is refused: the %s target runs the profile tool only (its kernels "
                      "timed on the device) and has no runtime sink for other tools' probes",
                      (int)tool.length, tool.data, target);
    ok = false;
  }
  MlirAttribute *entries = ok ? calloc(probes.count ? probes.count : 1, sizeof *entries) : NULL;
  int64_t *ids = ok ? calloc(probes.count ? probes.count : 1, sizeof *ids) : NULL;
  if (ok && (!entries || !ids)) strataEmitOpError(module, "out of memory"), ok = false;
  size_t n = 0;
  for (size_t i = 0; i < probes.count && ok; i++) {
    MlirOperation p = probes.ops[i];
    int64_t id = opIdOf(p);
    bool seen = false;
    for (size_t k = 0; k < n && !seen; k++) seen = ids[k] == id;
    if (!seen) {
      /* A probe has its op's location: the lowering gives it to the
       * kernels that op becomes. */
      MlirNamedAttribute fields[3] = {
          named(ctx, "loc", mlirLocationGetAttribute(mlirOperationGetLocation(p))),
          named(ctx, "name", mlirStringAttrGet(ctx, strAttr(p, "op_name"))),
          named(ctx, "op_id", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), id))};
      ids[n] = id;
      entries[n++] = mlirDictionaryAttrGet(ctx, 3, fields);
    }
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(p, 0), mlirOperationGetOperand(p, 0));
    mlirOperationDestroy(p);
  }
  if (ok && probes.count)
    mlirOperationSetAttributeByName(module, mlirStringRefCreateFromCString(PROFILE_ATTR),
                                    mlirArrayAttrGet(ctx, (intptr_t)n, entries));
  free(entries);
  free(ids);
  strataOpListDestroy(&probes);
  if (!ok) strataPassSignalFailure(run);
}

static const StrataPassOptionDef kOptions[] = {
    {"target", STRATA_OPTION_STRING, "gpu", "The target named in messages"},
};

const StrataPassDef strataGpuProfileProbesPass = {
    .name = "gpu-profile-probes",
    .summary = "Take the profile tool's instr.probe ops out before a GPU target's lowering, recording on the "
               "module that its kernels are to be timed and which nn ops were probed (other tools' probes are "
               "refused)",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runProfileProbes,
};

bool gpuProfileWanted(MlirOperation module) { return !mlirAttributeIsNull(strataOpAttr(module, PROFILE_ATTR)); }

/* ---- Labels ---- */

typedef struct {
  char *data;
  size_t len, cap;
  bool oom;
} Text;

static void put(Text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Text *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (t->oom || n < 0) return;
  if (t->len + (size_t)n + 1 > t->cap) {
    size_t cap = (t->len + (size_t)n + 1) * 2;
    char *grown = realloc(t->data, cap);
    if (!grown) {
      t->oom = true;
      return;
    }
    t->data = grown, t->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(t->data + t->len, t->cap - t->len, fmt, ap);
  va_end(ap);
  t->len += (size_t)n;
}

/* True if `loc` is `op` or, fused, has it among its parts. (A name is not
 * looked through: ONNX ops are named locations over one file location.) */
static bool locHas(MlirLocation loc, MlirLocation op) {
  if (mlirLocationEqual(loc, op)) return true;
  if (!mlirLocationIsAFused(loc)) return false;
  intptr_t n = mlirLocationFusedGetNumLocations(loc);
  MlirLocation parts[64];
  if (n > 64) n = 64;
  mlirLocationFusedGetLocations(loc, parts);
  for (intptr_t i = 0; i < n; i++)
    if (locHas(parts[i], op)) return true;
  return false;
}

/* A symbol or op name as JSON string content (they hold no quotes or
 * backslashes; kept safe anyway). */
static void putName(Text *t, const char *s, size_t len) {
  for (size_t i = 0; i < len; i++) put(t, "%c", s[i] == '"' || s[i] == '\\' || (unsigned char)s[i] < 0x20 ? '?' : s[i]);
}

/* The locations that say where a step came from: its own (a launch's is
 * the op the lowering made the kernel for) and, for a launch, those of the
 * ops in its kernel's body, which keep the locations of the nn ops that
 * element-wise fusion merged into it (constants excepted: folding merges
 * them across ops). */
typedef struct {
  MlirLocation *locs;
  size_t count, cap;
  bool oom;
} LocSet;

static void locAdd(LocSet *set, MlirLocation loc) {
  for (size_t i = 0; i < set->count; i++)
    if (mlirLocationEqual(set->locs[i], loc)) return;
  if (set->count == set->cap) {
    size_t cap = set->cap ? 2 * set->cap : 16;
    MlirLocation *grown = realloc(set->locs, cap * sizeof *grown);
    if (!grown) {
      set->oom = true;
      return;
    }
    set->locs = grown, set->cap = cap;
  }
  set->locs[set->count++] = loc;
}

static MlirWalkResult addBodyLoc(MlirOperation op, void *user) {
  if (!strataOpIsNamed(op, "arith.constant")) locAdd(user, mlirOperationGetLocation(op));
  return MlirWalkResultAdvance;
}

static bool label(MlirAttribute table, const GpuStep *step, size_t s, char **name, char **args) {
  LocSet where = {0};
  locAdd(&where, step->loc);
  if (step->kind == GPU_STEP_LAUNCH && !mlirOperationIsNull(step->kernel))
    mlirOperationWalk(step->kernel, addBodyLoc, &where, MlirWalkPreOrder);
  Text n = {0}, a = {0};
  if (step->kind == GPU_STEP_COPY) put(&n, "copy #%zu", step->copy);
  else if (!strcmp(step->module, step->func)) put(&n, "%s", step->func);
  else put(&n, "%s::%s", step->module, step->func);
  put(&a, "\"step\": %zu, \"kernel\": \"", s);
  putName(&a, n.data ? n.data : "", n.len);
  put(&a, "\", \"ops\": [");
  Text ids = {0}, nodes = {0};
  size_t count = 0, named = 0;
  intptr_t entries = mlirAttributeIsNull(table) ? 0 : mlirArrayAttrGetNumElements(table);
  for (intptr_t i = 0; i < entries; i++) {
    MlirAttribute e = mlirArrayAttrGetElement(table, i);
    MlirAttribute loc = mlirDictionaryAttrGetElementByName(e, mlirStringRefCreateFromCString("loc"));
    bool found = false;
    for (size_t k = 0; k < where.count && !found; k++) found = locHas(where.locs[k], mlirLocationFromAttribute(loc));
    if (!found) continue;
    MlirStringRef op = mlirStringAttrGetValue(mlirDictionaryAttrGetElementByName(e, mlirStringRefCreateFromCString("name")));
    put(&a, "%s\"", count ? ", " : "");
    putName(&a, op.data, op.length);
    put(&a, "\"");
    put(&ids, "%s%lld", count++ ? ", " : "",
        (long long)mlirIntegerAttrGetValueInt(mlirDictionaryAttrGetElementByName(e, mlirStringRefCreateFromCString("op_id"))));
    /* A named location (an ONNX node's name) names the model's node too. */
    MlirLocation opLoc = mlirLocationFromAttribute(loc);
    if (mlirLocationIsAName(opLoc)) {
      MlirStringRef node = mlirIdentifierStr(mlirLocationNameGetName(opLoc));
      put(&nodes, "%s\"", named++ ? ", " : "");
      putName(&nodes, node.data, node.length);
      put(&nodes, "\"");
    }
  }
  put(&a, "], \"op_ids\": [%s], \"nodes\": [%s]", ids.data ? ids.data : "", nodes.data ? nodes.data : "");
  free(ids.data);
  free(nodes.data);
  free(where.locs);
  bool ok = !n.oom && !a.oom && !ids.oom && !nodes.oom && !where.oom && n.data && a.data;
  if (!ok) free(n.data), free(a.data);
  else *name = n.data, *args = a.data;
  return ok;
}

bool gpuProfileInit(GpuProfile *p, MlirOperation module, const GpuPlan *plan) {
  *p = (GpuProfile){calloc(plan->numSteps ? plan->numSteps : 1, sizeof(char *)),
                    calloc(plan->numSteps ? plan->numSteps : 1, sizeof(char *)), plan->numSteps};
  bool ok = p->names && p->args;
  MlirAttribute table = strataOpAttr(module, PROFILE_ATTR);
  for (size_t s = 0; ok && s < plan->numSteps; s++) ok = label(table, &plan->steps[s], s, &p->names[s], &p->args[s]);
  if (!ok) gpuProfileFree(p);
  return ok;
}

void gpuProfileFree(GpuProfile *p) {
  for (size_t s = 0; s < p->numSteps; s++) {
    if (p->names) free(p->names[s]);
    if (p->args) free(p->args[s]);
  }
  free(p->names);
  free(p->args);
  *p = (GpuProfile){0};
}

/* ---- A call's events ---- */

void gpuProfileRecordCall(const GpuProfile *p, const char *target, const char *func, int64_t run,
                          double hostStart, double hostEnd, double deviceOrigin, const GpuStepTime *times) {
  size_t launches = 0, copies = 0;
  double deviceUs = 0;
  for (size_t s = 0; s < p->numSteps; s++) {
    if (!times[s].timed) continue;
    bool copy = !strncmp(p->names[s], "copy #", 6);
    Text a = {0};
    put(&a, "\"run\": %lld, \"target\": \"%s\", %s", (long long)run, target, p->args[s]);
    double dur = (times[s].end - times[s].start) / 1e3;
    if (!a.oom)
      strataRtInstrAddEvent(p->names[s], copy ? "copy" : "kernel", 2,
                            hostStart + (times[s].start - deviceOrigin) / 1e3, dur, a.data);
    free(a.data);
    deviceUs += dur;
    if (copy) copies++;
    else launches++;
  }
  char args[256];
  snprintf(args, sizeof args, "\"run\": %lld, \"target\": \"%s\", \"launches\": %zu, \"copies\": %zu, "
           "\"device_us\": %.3f", (long long)run, target, launches, copies, deviceUs);
  strataRtInstrAddEvent(func, "call", 1, hostStart, hostEnd - hostStart, args);
}
