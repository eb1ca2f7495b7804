/* The vulkan target's kernels as SPIR-V (vulkan_internal.h). The kernels
 * the host plans launch are cloned into one gpu.module of a module of their
 * own (the host side, whose launches would no longer match the kernels'
 * signatures, stays behind): each gpu.func named after its gpu.module (the
 * outlined kernels share their function names), its scalar arguments --
 * constants on the host, as the plan requires -- sunk in as arith.constant,
 * its workgroup size from its launch as spirv.entry_point_abi. Upstream
 * passes then do the rest: convert-gpu-to-spirv (after math-to-spirv and
 * the folding of views into loads and stores), the spirv.module moved into
 * the gpu.module, spirv-lower-abi-attrs and spirv-update-vce inside it, and
 * gpu-module-to-binary, whose gpu.binary holds the SPIR-V words. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "vulkan_internal.h"

/* What strata-translate assumes of a device: every feature the shaders use. */
static const StrataVkFeatures kAll = {.int8 = 1,     .int16 = 1,    .int64 = 1,    .float16 = 1, .float64 = 1,
                                      .storage8 = 1,  .storage16 = 1, .infNan32 = 1, .infNan64 = 1, .infNan16 = 1,
                                      .rte16 = 1};

/* A kernel already cloned, and the launch that cloned it. */
typedef struct {
  const char *name;
  const GpuStep *step;
} Cloned;

/* An arith.constant of type `t` holding scalar kernel argument `a`. */
static MlirValue scalarConstant(StrataBuilder *b, MlirLocation loc, MlirType t, const GpuPlanArg *a) {
  if (mlirTypeIsAF16(t)) {
    StrataTensor bits = {.dtype = STRATA_DTYPE_F16, .rank = 0, .data = (void *)a->bytes};
    return strataConstFloat(b, loc, t, strataTensorGetDouble(&bits, 0));
  }
  if (mlirTypeIsAF32(t) || mlirTypeIsAF64(t)) {
    double d;
    float f;
    if (mlirTypeIsAF32(t)) memcpy(&f, a->bytes, 4), d = f;
    else memcpy(&d, a->bytes, 8);
    return strataConstFloat(b, loc, t, d);
  }
  uint64_t bits = 0;
  memcpy(&bits, a->bytes, a->size); /* little-endian host */
  unsigned width = (unsigned)a->size * 8;
  if (width < 64 && (bits >> (width - 1) & 1)) bits |= ~0ull << width; /* sign-extend */
  if (mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1) bits &= 1;
  return strataConstInt(b, loc, t, (int64_t)bits);
}

/* The error record's atomic or needs no memory ordering: it only elects
 * the work-item that fills the first slot, and the host reads the record
 * after the queue is idle. convert-gpu-to-spirv makes it AcquireRelease,
 * and lavapipe (Mesa 22.3) then ran a loop holding one (a check in a
 * one-work-item kernel's loop: MaxUnpool's scatter) for its first
 * iteration only; relaxed, the loop runs in full
 * (test/e2e/vulkan/nn-numerics.test, pool_indices.mlir). */
static MlirWalkResult relaxAtomics(MlirOperation op, void *user) {
  (void)user;
  if (strataOpIsNamed(op, "spirv.AtomicOr"))
    mlirOperationSetInherentAttributeByName(op, mlirStringRefCreateFromCString("semantics"),
                                            strataParseAttr(mlirOperationGetContext(op), "#spirv.memory_semantics<None>"));
  return MlirWalkResultAdvance;
}

/* A run-time check's report in a shader (gpuCheckCall: strata_rt_index_error
 * or strata_rt_shape_error, `n` values before the site): the first
 * failing work-item (an atomic or on word 0) fills the record's first
 * slot, the others the slot after it (vulkan_internal.h). Written as a
 * function of the values and the record, which vkInlineText inlines. */
static void checkText(char *text, size_t size, int n, int check, int step, int site) {
  size_t len = 0;
#define PUT(...) (len += (size_t)snprintf(text + len, len < size ? size - len : 0, __VA_ARGS__))
  PUT("func.func @f(");
  for (int i = 0; i < n; i++) PUT("%%v%d: i64, ", i);
  PUT("%%rec: memref<%dxi32>) {\n", VK_ERROR_RECORD_WORDS);
  PUT("  %%c0 = arith.constant 0 : index\n  %%c1 = arith.constant 1 : index\n");
  PUT("  %%second = arith.constant %d : index\n", 1 + VK_ERROR_SLOT_WORDS);
  PUT("  %%one = arith.constant 1 : i32\n  %%zero = arith.constant 0 : i32\n  %%c32 = arith.constant 32 : i64\n");
  PUT("  %%w0 = arith.constant %d : i32\n  %%w1 = arith.constant %d : i32\n  %%w2 = arith.constant %d : i32\n", step,
      site, check);
  PUT("  %%old = memref.atomic_rmw ori %%one, %%rec[%%c0] : (i32, memref<%dxi32>) -> i32\n", VK_ERROR_RECORD_WORDS);
  PUT("  %%first = arith.cmpi eq, %%old, %%zero : i32\n");
  PUT("  %%b0 = arith.select %%first, %%c1, %%second : index\n");
  int words = 3;
  for (int i = 0; i < n; i++) {
    PUT("  %%w%d = arith.trunci %%v%d : i64 to i32\n", words++, i);
    PUT("  %%s%d = arith.shrui %%v%d, %%c32 : i64\n", i, i);
    PUT("  %%w%d = arith.trunci %%s%d : i64 to i32\n", words++, i);
  }
  for (int w = 0; w < words; w++) {
    if (w) PUT("  %%b%d = arith.addi %%b%d, %%c1 : index\n", w, w - 1);
    PUT("  memref.store %%w%d, %%rec[%%b%d] : memref<%dxi32>\n", w, w, VK_ERROR_RECORD_WORDS);
  }
  PUT("  return\n}\n");
#undef PUT
}

typedef struct {
  MlirOperation *calls;
  size_t n, cap;
} Calls;

static MlirWalkResult findCalls(MlirOperation op, void *user) {
  Calls *c = user;
  if (!gpuCheckCall(op)) return MlirWalkResultAdvance;
  if (c->n == c->cap) {
    MlirOperation *grown = realloc(c->calls, (c->cap = c->cap ? 2 * c->cap : 4) * sizeof *grown);
    if (!grown) return c->n = SIZE_MAX, MlirWalkResultInterrupt;
    c->calls = grown;
  }
  c->calls[c->n++] = op;
  return MlirWalkResultAdvance;
}

/* Gives kernel clone `f` the error record as a last argument and writes
 * its run-time checks' reports into it (launched as step `stepIndex`). */
static bool reportErrors(MlirOperation f, MlirBlock entry, size_t stepIndex) {
  MlirContext ctx = mlirOperationGetContext(f);
  char type[64];
  snprintf(type, sizeof type, "memref<%dxi32>", VK_ERROR_RECORD_WORDS);
  MlirValue record = mlirBlockAddArgument(entry, mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(type)),
                                          mlirOperationGetLocation(f));
  Calls c = {0};
  mlirOperationWalk(f, findCalls, &c, MlirWalkPreOrder);
  bool ok = c.n != SIZE_MAX || (strataEmitOpError(f, "out of memory"), false);
  for (size_t i = 0; ok && i < c.n; i++) {
    MlirOperation call = c.calls[i];
    int n = (int)mlirOperationGetNumOperands(call) - 1;
    MlirValue site = mlirOperationGetOperand(call, n);
    if (!mlirValueIsABlockArgument(site) || !mlirBlockEqual(mlirBlockArgumentGetOwner(site), entry)) {
      ok = false;
      strataEmitOpError(call, "the vulkan target reports run-time check failures whose site is a kernel argument");
      break;
    }
    char text[4096];
    checkText(text, sizeof text, n, gpuCheckCall(call), (int)stepIndex, (int)mlirBlockArgumentGetArgNumber(site));
    MlirValue args[GPU_CHECK_VALUES + 1];
    for (int k = 0; k < n; k++) args[k] = mlirOperationGetOperand(call, k);
    args[n] = record;
    ok = vkInlineText(call, text, args);
  }
  free(c.n == SIZE_MAX ? NULL : c.calls);
  return ok;
}

void vkSetFunctionType(MlirOperation f) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  MlirType inputs[n ? n : 1];
  for (intptr_t i = 0; i < n; i++) inputs[i] = mlirValueGetType(mlirBlockGetArgument(entry, i));
  mlirOperationSetInherentAttributeByName(f, mlirStringRefCreateFromCString("function_type"),
                                          mlirTypeAttrGet(mlirFunctionTypeGet(mlirOperationGetContext(f), n, inputs,
                                                                              0, NULL)));
}

/* Replaces the scalar arguments of kernel clone `f` by constants of the
 * values `step` passes, and gives it the launch's workgroup size. */
static bool specialize(MlirOperation f, const GpuStep *step, size_t stepIndex, const StrataVkFeatures *features) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  if ((size_t)mlirBlockGetNumArguments(entry) != step->numArgs)
    return strataEmitOpError(f, "the vulkan target takes kernels without workgroup or private attributions"), false;
  if (step->reportsErrors && !reportErrors(f, entry, stepIndex)) return false;
  StrataBuilder b = strataBuilderBefore(mlirBlockGetFirstOperation(entry), (MlirRewriterBase){NULL});
  for (size_t i = step->numArgs; i-- > 0;) {
    MlirValue arg = mlirBlockGetArgument(entry, (intptr_t)i);
    MlirType t = mlirValueGetType(arg);
    if (step->args[i].buffer >= 0 && mlirTypeIsAUnrankedMemRef(t)) {
      /* An error site's text, which the host reads from its own copy. */
      if (!mlirOpOperandIsNull(mlirValueGetFirstUse(arg)))
        return strataEmitError(step->loc, "kernel operand %zu: the vulkan target passes no unranked buffer", i), false;
      mlirBlockEraseArgument(entry, (unsigned)i);
      continue;
    }
    if (step->args[i].buffer >= 0) {
      if (mlirTypeIsAMemRef(t) && mlirTypeIsAIndex(mlirShapedTypeGetElementType(t)))
        return strataEmitError(step->loc, "kernel operand %zu: the vulkan target passes no buffer of index "
                               "elements (a shader's index is 32 bits, the host's 64)", i), false;
      continue;
    }
    int64_t v;
    memcpy(&v, step->args[i].bytes, sizeof v);
    if (mlirTypeIsAIndex(t) && (v < INT32_MIN || v > INT32_MAX))
      return strataEmitError(step->loc, "kernel operand %zu: %lld does not fit a shader's 32-bit index", i,
                             (long long)v), false;
    mlirValueReplaceAllUsesOfWith(arg, scalarConstant(&b, mlirOperationGetLocation(f), t, &step->args[i]));
    mlirBlockEraseArgument(entry, (unsigned)i);
  }
  vkSetFunctionType(f);
  size_t invocations = step->local[0] * step->local[1] * step->local[2];
  if (features && (invocations > features->maxInvocations || step->local[0] > features->maxGroupSize[0] ||
                   step->local[1] > features->maxGroupSize[1] || step->local[2] > features->maxGroupSize[2]))
    return strataEmitError(step->loc, "a workgroup of %zux%zux%zu work-items is more than the device allows "
                           "(%u in all)", step->local[0], step->local[1], step->local[2], features->maxInvocations),
           false;
  char abi[160];
  snprintf(abi, sizeof abi, "#spirv.entry_point_abi<workgroup_size = [%zu, %zu, %zu]>", step->local[0],
           step->local[1], step->local[2]);
  mlirOperationSetDiscardableAttributeByName(f, mlirStringRefCreateFromCString("spirv.entry_point_abi"),
                                             strataParseAttr(ctx, abi));
  return true;
}

/* ---- What the device must have ---- */

typedef struct {
  const StrataVkFeatures *f;
  bool ok;
  bool f16; /* a kernel holds f16 values */
} Check;

/* False (after a located error at `op`) if the device cannot hold or
 * compute in type `t` (a scalar, or a memref's elements). */
static bool typeSupported(MlirOperation op, MlirType t, const StrataVkFeatures *f) {
  bool memory = mlirTypeIsAMemRef(t);
  MlirType el = memory ? mlirShapedTypeGetElementType(t) : t;
  unsigned w = mlirTypeIsAInteger(el) ? mlirIntegerTypeGetWidth(el) : 0;
  const char *need = NULL;
  /* f16 values are loaded, stored and converted (their arithmetic is in
   * f32, gpu_pipeline.c), each conversion rounding to nearest even. */
  if (mlirTypeIsAF16(el) && !f->float16) need = "shaderFloat16";
  else if (mlirTypeIsAF16(el) && memory && !f->storage16) need = "storageBuffer16BitAccess";
  else if (mlirTypeIsAF16(el) && !f->rte16) need = "shaderRoundingModeRTEFloat16";
  else if (mlirTypeIsAF64(el) && !f->float64) need = "shaderFloat64";
  else if (w == 64 && !f->int64) need = "shaderInt64";
  else if (w == 16 && !f->int16) need = "shaderInt16";
  else if (w == 16 && memory && !f->storage16) need = "storageBuffer16BitAccess";
  else if ((w == 8 || (w == 1 && memory)) && !f->int8) need = "shaderInt8";
  else if ((w == 8 || w == 1) && memory && !f->storage8) need = "storageBuffer8BitAccess";
  if (!need) return true;
  char ts[96];
  strataTypeToString(t, ts, sizeof ts);
  strataEmitOpError(op, "the vulkan target needs the device feature %s for %s, and the device lacks it", need, ts);
  return false;
}

static bool holdsF16(MlirType t) {
  return mlirTypeIsAF16(mlirTypeIsAMemRef(t) ? mlirShapedTypeGetElementType(t) : t);
}

static MlirWalkResult checkOp(MlirOperation op, void *user) {
  Check *c = user;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    c->f16 |= holdsF16(mlirValueGetType(mlirOperationGetResult(op, i)));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    c->f16 |= holdsF16(mlirValueGetType(mlirOperationGetOperand(op, i)));
  for (intptr_t i = 0; c->ok && i < mlirOperationGetNumResults(op); i++)
    c->ok = typeSupported(op, mlirValueGetType(mlirOperationGetResult(op, i)), c->f);
  for (intptr_t r = 0; c->ok && r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock bl = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); c->ok && !mlirBlockIsNull(bl);
         bl = mlirBlockGetNextInRegion(bl))
      for (intptr_t i = 0; c->ok && i < mlirBlockGetNumArguments(bl); i++)
        c->ok = typeSupported(op, mlirValueGetType(mlirBlockGetArgument(bl, i)), c->f);
  return c->ok ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

/* ---- The kernels' module ---- */

static MlirOperation firstNamed(MlirOperation parent, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(parent, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, name)) return op;
  return (MlirOperation){NULL};
}

/* Clones every launched kernel into the gpu.module of `kernels`, once. */
static bool cloneKernels(MlirOperation kernels, const GpuPlan *plans, size_t numPlans,
                         const StrataVkFeatures *features, size_t *numKernels, bool *usesF16) {
  MlirOperation gpuModule = firstNamed(kernels, "gpu.module");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
  MlirContext ctx = mlirOperationGetContext(kernels);
  Cloned *cloned = NULL;
  size_t n = 0, cap = 0;
  bool ok = true;
  for (size_t p = 0; ok && p < numPlans; p++)
    for (size_t s = 0; ok && s < plans[p].numSteps; s++) {
      const GpuStep *step = &plans[p].steps[s];
      if (step->kind != GPU_STEP_LAUNCH) continue;
      const Cloned *seen = NULL;
      for (size_t i = 0; i < n && !seen; i++)
        if (!strcmp(cloned[i].name, step->module)) seen = &cloned[i];
      if (seen) {
        /* The shader has one workgroup size and one value for each scalar. */
        bool same = !memcmp(seen->step->local, step->local, sizeof step->local) && seen->step->numArgs == step->numArgs;
        for (size_t a = 0; same && a < step->numArgs; a++)
          same = step->args[a].buffer >= 0 ? seen->step->args[a].buffer >= 0
                                           : !memcmp(step->args[a].bytes, seen->step->args[a].bytes, 8);
        if (!same)
          ok = false, strataEmitError(step->loc, "the vulkan target launches kernel @%s::@%s once per workgroup "
                                      "size and scalar values", step->module, step->func);
        continue;
      }
      if (n == cap) {
        Cloned *grown = realloc(cloned, (cap = cap ? 2 * cap : 16) * sizeof *grown);
        if (!grown) {
          ok = false, strataEmitError(step->loc, "out of memory");
          break;
        }
        cloned = grown;
      }
      cloned[n++] = (Cloned){.name = step->module, .step = step};
      MlirOperation f = mlirOperationClone(step->kernel);
      mlirBlockAppendOwnedOperation(body, f);
      mlirOperationSetAttributeByName(f, mlirStringRefCreateFromCString("sym_name"),
                                              mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(step->module)));
      ok = vkExpandMath(f) && specialize(f, step, s, features);
      ok = ok && vkWorkgroupKernel(f, step);
      if (ok) {
        Check c = {.f = features ? features : &kAll, .ok = true};
        mlirOperationWalk(f, checkOp, &c, MlirWalkPreOrder);
        ok = c.ok;
        *usesF16 |= c.f16;
      }
    }
  free(cloned);
  *numKernels = n;
  return ok;
}

/* Vulkan lets a shader drop infinities, NaNs and the sign of zero unless
 * an entry point asks to keep them (lavapipe divides by zero to 0): every
 * entry point asks, for the widths the device can keep (16 when the module
 * holds f16). With f16, every entry point also rounds conversions to f16
 * to nearest even (Vulkan otherwise allows rounding toward zero). */
static bool keepInfNan(MlirOperation spv, const StrataVkFeatures *f, bool f16) {
  MlirContext ctx = mlirOperationGetContext(spv);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(spv, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!strataOpIsNamed(op, "spirv.EntryPoint")) continue;
    MlirStringRef fn = mlirFlatSymbolRefAttrGetValue(strataOpAttr(op, "fn"));
    for (int mode = 0; mode < 4; mode++) {
      static const int kWidth[] = {64, 32, 16, 16};
      bool wanted = mode == 0 ? f->infNan64 : mode == 1 ? f->infNan32 : mode == 2 ? f16 && f->infNan16 : f16;
      if (!wanted) continue;
      char text[320];
      snprintf(text, sizeof text, "spirv.ExecutionMode @%.*s \"%s\", %d", (int)fn.length, fn.data,
               mode == 3 ? "RoundingModeRTE" : "SignedZeroInfNanPreserve", kWidth[mode]);
      MlirOperation mode = mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(text),
                                                    mlirStringRefCreateFromCString("vulkan-target"));
      if (mlirOperationIsNull(mode)) return strataEmitOpError(spv, "the vulkan target cannot keep infinities here"), false;
      mlirBlockInsertOwnedOperationAfter(body, op, mode);
    }
  }
  return true;
}

static void appendText(MlirStringRef chunk, void *user) {
  char **text = user;
  size_t len = *text ? strlen(*text) : 0;
  char *grown = realloc(*text, len + chunk.length + 1);
  if (!grown) return;
  memcpy(grown + len, chunk.data, chunk.length);
  grown[len + chunk.length] = '\0';
  *text = grown;
}

/* The SPIR-V words of the gpu.binary that replaced the gpu.module. */
static bool readBinary(MlirOperation kernels, VkSpirv *out) {
  MlirOperation binary = firstNamed(kernels, "gpu.binary");
  MlirAttribute objects = mlirOperationIsNull(binary) ? (MlirAttribute){NULL} : strataOpAttr(binary, "objects");
  if (mlirAttributeIsNull(objects) || !mlirAttributeIsAArray(objects) || mlirArrayAttrGetNumElements(objects) != 1 ||
      !mlirAttributeIsAGPUObjectAttr(mlirArrayAttrGetElement(objects, 0)))
    return strataEmitOpError(kernels, "gpu-module-to-binary gave no SPIR-V object"), false;
  MlirStringRef words = mlirGPUObjectAttrGetObject(mlirArrayAttrGetElement(objects, 0));
  if (!words.length || words.length % 4 || !(out->words = malloc(words.length)))
    return strataEmitOpError(kernels, "gpu-module-to-binary gave %zu bytes of SPIR-V", words.length), false;
  memcpy(out->words, words.data, words.length);
  out->bytes = words.length;
  return true;
}

bool vkSpirvBuild(StrataContext *ctx, MlirOperation module, const GpuPlan *plans, size_t numPlans,
                  const StrataVkFeatures *features, VkSpirv *out, char **text) {
  *out = (VkSpirv){0};
  MlirContext mctx = mlirOperationGetContext(module);
  MlirModule kernels = mlirModuleCreateParse(
      mctx, mlirStringRefCreateFromCString("module attributes {gpu.container_module} { gpu.module @strata_kernels {} }"));
  if (mlirModuleIsNull(kernels)) return strataEmitOpError(module, "the vulkan target could not make its kernel module"), false;
  MlirOperation km = mlirModuleGetOperation(kernels);
  size_t numKernels = 0;
  bool usesF16 = false;
  bool ok = cloneKernels(km, plans, numPlans, features, &numKernels, &usesF16);
  if (ok && !numKernels) {
    mlirModuleDestroy(kernels);
    return true; /* nothing runs on the device */
  }
  const StrataVkFeatures *f = features ? features : &kAll;
  /* The target environment: on the gpu.module as its target (for
   * convert-gpu-to-spirv and gpu-module-to-binary) and as spirv.target_env
   * (for convert-math-to-spirv, which looks for that attribute only). */
  char env[1024];
  snprintf(env, sizeof env,
           "#spirv.target_env<#spirv.vce<v1.3, [Shader, SignedZeroInfNanPreserve%s%s%s%s%s%s%s%s], "
           "[SPV_KHR_storage_buffer_storage_class, SPV_KHR_float_controls%s%s]>, #spirv.resource_limits<>>",
           f->int64 ? ", Int64" : "", f->int16 ? ", Int16" : "", f->int8 ? ", Int8" : "", f->float64 ? ", Float64" : "",
           f->float16 ? ", Float16" : "", f->rte16 ? ", RoundingModeRTE" : "",
           f->storage8 ? ", StorageBuffer8BitAccess" : "", f->storage16 ? ", StorageBuffer16BitAccess" : "",
           f->storage8 ? ", SPV_KHR_8bit_storage" : "", f->storage16 ? ", SPV_KHR_16bit_storage" : "");
  MlirAttribute envAttr = strataParseAttr(mctx, env);
  MlirOperation gpuModule = firstNamed(km, "gpu.module");
  if (ok && mlirAttributeIsNull(envAttr)) ok = false, strataEmitOpError(module, "the vulkan target's SPIR-V environment does not parse");
  if (ok) {
    mlirOperationSetAttributeByName(gpuModule, mlirStringRefCreateFromCString("targets"), mlirArrayAttrGet(mctx, 1, &envAttr));
    mlirOperationSetAttributeByName(gpuModule, mlirStringRefCreateFromCString("spirv.target_env"), envAttr);
  }
  const char *pipeline = "builtin.module(gpu.module(fold-memref-alias-ops,arith-expand,canonicalize,convert-math-to-spirv),"
                         "convert-gpu-to-spirv)";
  ok = ok && mlirLogicalResultIsSuccess(strataRunPipeline(ctx, km, pipeline));
  if (ok) {
    /* gpu-module-to-binary serializes the spirv.module inside the gpu.module. */
    MlirOperation spv = firstNamed(km, "spirv.module"), gm = firstNamed(km, "gpu.module");
    if (mlirOperationIsNull(spv) || mlirOperationIsNull(gm))
      ok = false, strataEmitOpError(module, "convert-gpu-to-spirv made no spirv.module");
    else {
      vkShareWorkgroupVariables(spv);
      mlirOperationWalk(spv, relaxAtomics, NULL, MlirWalkPreOrder);
      mlirOperationMoveBefore(spv, mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(gm, 0))));
    }
  }
  ok = ok && mlirLogicalResultIsSuccess(
                 strataRunPipeline(ctx, km, "builtin.module(gpu.module(spirv.module(spirv-lower-abi-attrs)))")) &&
       keepInfNan(firstNamed(firstNamed(km, "gpu.module"), "spirv.module"), f, usesF16) &&
       mlirLogicalResultIsSuccess(strataRunPipeline(ctx, km, "builtin.module(gpu.module(spirv.module(spirv-update-vce)))"));
  if (ok && text) {
    *text = NULL;
    mlirOperationPrint(firstNamed(firstNamed(km, "gpu.module"), "spirv.module"), appendText, text);
    if (!*text) ok = false, strataEmitOpError(module, "out of memory");
  } else if (ok) {
    ok = mlirLogicalResultIsSuccess(strataRunPipeline(ctx, km, "builtin.module(gpu-module-to-binary{format=bin})")) &&
         readBinary(km, out);
  }
  mlirModuleDestroy(kernels);
  return ok;
}
