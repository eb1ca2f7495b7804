/* The `hexagon` target: dsp IR (HVX instruction ops on vectors, in
 * functions over tensors) bufferized, lowered to LLVM Hexagon HVX
 * intrinsics (--dsp-to-hexagon) and the LLVM dialect, and compiled by
 * LLVM's Hexagon backend for a v67 with 128-byte HVX. strata-translate
 * writes the object (or assembly, LLVM IR); strataCompile keeps it, and each
 * call links it with a generated runner and runs it under qemu-hexagon
 * (hexagon_run.c). */
#include <stdlib.h>
#include <string.h>
#include "llvm-c/Target.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "strata/support.h"
#include "strata/target.h"
#include "../llvm/cpu_internal.h"
#include "hexagon_internal.h"

/* Quantized nn layers to dsp plans (nn-to-dsp), the operator ops to loops
 * of instruction ops (dsp-lower-operators),
 * bufferized with the results as out-parameters (the runner owns every
 * buffer), the dsp ops to intrinsics, then the LLVM dialect. No buffer
 * deallocation: it refuses ops whose memory effects it does not know (the
 * IRDL-defined dsp ops, intrinsic calls), and the runner's process ends
 * after one call; a temporary buffer would need an allocator the runner
 * does not have, so static ones up to 1 MiB go on the stack (an
 * intermediate between two operators; larger ones fail the link naming
 * _mlir_memref_to_llvm_alloc). */
static const char kPipeline[] =
    /* Quantized nn layers as dsp plans; the nn ops the plans keep (constants,
     * reshapes, transposes) and any other through linalg, as loops. */
    "func.func(nn-to-dsp),"
    "func.func(dsp-lower-operators),"
    "func.func(nn-to-linalg{unroll-rnn=true})," /* no loops yielding buffers in this bufferization */
    "strata-emit-c-interface,"
    "one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map},"
    "func.func(cse,canonicalize),"
    "buffer-results-to-out-params{hoist-static-allocs modify-public-functions},"
    "func.func(promote-buffers-to-stack{max-alloc-size-in-bytes=1048576 max-rank-of-allocated-memref=4}),"
    "convert-bufferization-to-memref,"
    "func.func(convert-linalg-to-loops),"
    "func.func(dsp-to-hexagon),"
    "convert-scf-to-cf,"
    "expand-strided-metadata,"
    "lower-affine,"
    "convert-vector-to-llvm,"
    "finalize-memref-to-llvm{use-generic-functions},"
    "convert-arith-to-llvm,"
    "convert-cf-to-llvm,"
    "convert-func-to-llvm,"
    "convert-index-to-llvm,"
    "convert-ub-to-llvm,"
    "reconcile-unrealized-casts";

char *hexagonEmit(MlirModule lowered, StrataAotKind kind, int optLevel, size_t *size) {
  LLVMInitializeHexagonTargetInfo();
  LLVMInitializeHexagonTarget();
  LLVMInitializeHexagonTargetMC();
  LLVMInitializeHexagonAsmPrinter();
  LLVMInitializeHexagonAsmParser(); /* the runner's trap0 is inline assembly */
  StrataAotOptions o = {.kind = kind, .optLevel = optLevel, .triple = HEXAGON_TRIPLE, .cpu = HEXAGON_CPU,
                        .features = HEXAGON_FEATURES};
  return strataLlvmEmit(lowered, &o, NULL, false, size);
}

typedef struct {
  MlirModule module; /* the lowered module (owned) */
  char *object;
  size_t objectSize;
  int optLevel;
} HexExecutable;

static void destroy(void *p) {
  HexExecutable *x = p;
  if (!x) return;
  free(x->object);
  mlirModuleDestroy(x->module);
  free(x);
}

static void *compile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                     const StrataCompileOptions *options) {
  (void)def, (void)ctx;
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(lowered));
  char path[512];
  if (!hexagonFindProgram("qemu-hexagon", path, sizeof path)) {
    strataEmitError(loc, "hexagon target: qemu-hexagon is not installed (package qemu-user; scripts/bootstrap "
                         "installs it); strata-translate --target hexagon still writes objects");
    mlirModuleDestroy(lowered);
    return NULL;
  }
  HexExecutable *x = calloc(1, sizeof *x);
  if (!x) {
    strataEmitError(loc, "out of memory");
    mlirModuleDestroy(lowered);
    return NULL;
  }
  x->module = lowered;
  x->optLevel = options ? options->optLevel : 2;
  if (!(x->object = hexagonEmit(lowered, STRATA_AOT_OBJECT, x->optLevel, &x->objectSize))) {
    destroy(x);
    return NULL;
  }
  return x;
}

/* The number of parameters of llvm.func @_mlir_ciface_<name>, -1 if there
 * is none. */
static intptr_t interfaceParams(MlirModule m, const char *name) {
  size_t len = strlen(name);
  MlirBlock body = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!strataOpIsNamed(op, "llvm.func")) continue;
    MlirStringRef s = mlirStringAttrGetValue(strataOpAttr(op, "sym_name"));
    if (s.length != 13 + len || strncmp(s.data, "_mlir_ciface_", 13) || strncmp(s.data + 13, name, len)) continue;
    return mlirLLVMFunctionTypeGetNumInputs(mlirTypeAttrGetValue(strataOpAttr(op, "function_type")));
  }
  return -1;
}

static MlirLogicalResult invoke(void *p, const char *name, StrataTensor *const *inputs, size_t numInputs,
                                StrataTensor *const *outputs, size_t numOutputs) {
  HexExecutable *x = p;
  MlirOperation top = mlirModuleGetOperation(x->module);
  MlirLocation loc = mlirOperationGetLocation(top);
  intptr_t params = interfaceParams(x->module, name);
  if (params < 0) {
    strataEmitError(loc, "hexagon target: no compiled public function '%s'", name);
    return mlirLogicalResultFailure();
  }
  if ((size_t)params != numInputs + numOutputs) {
    strataEmitError(loc, "hexagon target: '%s' takes %lld buffers (inputs and outputs), called with %zu", name,
                    (long long)params, numInputs + numOutputs);
    return mlirLogicalResultFailure();
  }
  char err[1024];
  if (!hexagonRun(mlirOperationGetContext(top), x->object, x->objectSize, name, inputs, numInputs, outputs,
                  numOutputs, x->optLevel, err, sizeof err)) {
    strataEmitError(loc, "hexagon target: %s", err);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

static char *emit(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                  const StrataEmitOptions *options, size_t *size) {
  (void)def, (void)ctx;
  const char *format = options && options->format ? options->format : "obj";
  StrataAotKind kind = !strcmp(format, "asm") ? STRATA_AOT_ASM : !strcmp(format, "llvm") ? STRATA_AOT_LLVM_IR
                                                                                          : STRATA_AOT_OBJECT;
  return hexagonEmit(lowered, kind, options ? options->compile.optLevel : 2, size);
}

const StrataTargetDef strataHexagonTarget = {
    .name = "hexagon",
    .summary = "Hexagon HVX (v67, 128-byte vectors) through LLVM's Hexagon backend; runs under qemu-hexagon",
    .pipelines = {[STRATA_FUSION_FIXED] = kPipeline},
    .dialects = "dsp,nn",
    .compile = compile,
    .invoke = invoke,
    .destroy = destroy,
    .emitFormats = "obj,asm,llvm",
    .emit = emit,
};
