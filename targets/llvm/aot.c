/* Ahead-of-time compilation for the host CPU (or a named one): the CPU
 * pipeline, translation to LLVM IR, LLVM's O0-O3 pipeline, and an object
 * file, assembly or LLVM IR (the C header for the compiled functions is
 * aot_header.c).
 * The object needs only libstrata_rt (kernels, thread pool, arenas), libm
 * and pthreads at run time. */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "llvm-c/Core.h"
#include "llvm-c/Target.h"
#include "llvm-c/TargetMachine.h"
#include "llvm-c/Transforms/PassBuilder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Target/LLVMIR.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "strata/target_llvm.h"
#include "aot_internal.h"
#include "cpu_internal.h"

/* Public functions with a body, in module order. */
int strataAotPublicFuncs(MlirModule m, MlirOperation *out, int max) {
  int n = 0;
  MlirBlock body = mlirModuleGetBody(m);
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    if (!strataOpIsNamed(op, "func.func")) continue;
    if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_visibility"))))
      continue;
    if (mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)))) continue;
    if (n < max) out[n] = op;
    n++;
  }
  return n;
}

MlirStringRef strataAotSymName(MlirOperation f) {
  return mlirStringAttrGetValue(mlirOperationGetAttributeByName(f, mlirStringRefCreateFromCString("sym_name")));
}

bool strataAotValidPrefix(const char *p) {
  if (!p || !(isalpha((unsigned char)p[0]) || p[0] == '_')) return false;
  for (; *p; p++)
    if (!isalnum((unsigned char)*p) && *p != '_') return false;
  return true;
}

MlirLogicalResult strataAotPrefixSymbols(MlirModule module, const char *prefix) {
  MlirOperation funcs[256];
  int n = strataAotPublicFuncs(module, funcs, 256);
  if (n > 256) n = 256;
  MlirOperation op = mlirModuleGetOperation(module);
  for (int i = 0; i < n; i++) {
    MlirStringRef old = strataAotSymName(funcs[i]);
    char oldName[512], newName[600];
    snprintf(oldName, sizeof oldName, "%.*s", (int)old.length, old.data);
    snprintf(newName, sizeof newName, "%s_%s", prefix, oldName);
    if (mlirLogicalResultIsFailure(mlirSymbolTableReplaceAllSymbolUses(
            mlirStringRefCreateFromCString(oldName), mlirStringRefCreateFromCString(newName), op)))
      return mlirLogicalResultFailure();
    mlirOperationSetAttributeByName(funcs[i], mlirStringRefCreateFromCString("sym_name"),
                                    mlirStringAttrGet(mlirOperationGetContext(op), mlirStringRefCreateFromCString(newName)));
  }
  return mlirLogicalResultSuccess();
}

char *strataAotCompile(StrataContext *ctx, MlirModule module, const StrataAotOptions *o, size_t *size) {
  MlirOperation clone = mlirOperationClone(mlirModuleGetOperation(module));
  char *result = NULL;
  if (mlirLogicalResultIsSuccess(strataRunPipeline(ctx, clone, strataCpuPipeline())))
    result = strataAotEmitLowered(ctx, mlirModuleFromOperation(clone), o, size);
  mlirOperationDestroy(clone);
  return result;
}

/* Defines the parameters' declarations again, after LLVM's optimization
 * (which never sees their values), as private arrays of bytes in a section
 * of their own: code generation writes an i8 array's bytes in one piece. */
static void defineParams(LLVMContextRef llctx, LLVMModuleRef mod, const StrataParams *p) {
  for (int i = 0; i < p->count; i++) {
    const StrataParam *e = &p->entries[i];
    LLVMValueRef decl = LLVMGetNamedGlobal(mod, e->name);
    if (!decl) continue; /* optimized away */
    LLVMValueRef def = LLVMAddGlobal(mod, LLVMArrayType2(LLVMInt8TypeInContext(llctx), e->bytes), "");
    LLVMSetInitializer(def, LLVMConstStringInContext2(llctx, (const char *)e->data, e->bytes, 1));
    LLVMSetGlobalConstant(def, 1);
    LLVMSetLinkage(def, LLVMPrivateLinkage);
    LLVMSetAlignment(def, 64);
    LLVMSetSection(def, ".strata_params");
    LLVMReplaceAllUsesWith(decl, def);
    LLVMDeleteGlobal(decl);
    LLVMSetValueName2(def, e->name, strlen(e->name));
  }
}

/* args[i], a pointer, loaded in the wrapper being built. */
static LLVMValueRef argSlot(LLVMBuilderRef b, LLVMTypeRef i64, LLVMTypeRef ptr, LLVMValueRef args, unsigned i) {
  LLVMValueRef index = LLVMConstInt(i64, i, 0);
  return LLVMBuildLoad2(b, ptr, LLVMBuildGEP2(b, ptr, args, &index, 1, ""), "");
}

/* For the JIT: `void _mlir__mlir_ciface_f(void **args)` calling
 * _mlir_ciface_f(*(T0 *)args[0], ...) and storing a result through
 * args[n], as MLIR's ExecutionEngine packs functions: one signature for the
 * caller, whatever f takes. */
static void addPackedWrappers(LLVMContextRef llctx, LLVMModuleRef mod) {
  LLVMTypeRef ptr = LLVMPointerTypeInContext(llctx, 0), i64 = LLVMInt64TypeInContext(llctx);
  LLVMTypeRef voidTy = LLVMVoidTypeInContext(llctx);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(llctx);
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
    size_t n;
    const char *name = LLVMGetValueName2(fn, &n);
    char wrapper[600];
    if (LLVMIsDeclaration(fn) || n < 13 || strncmp(name, "_mlir_ciface_", 13) ||
        snprintf(wrapper, sizeof wrapper, "_mlir_%.*s", (int)n, name) >= (int)sizeof wrapper ||
        LLVMGetNamedFunction(mod, wrapper))
      continue;
    LLVMTypeRef type = LLVMGlobalGetValueType(fn);
    unsigned np = LLVMCountParamTypes(type);
    LLVMTypeRef *params = malloc(sizeof *params * (np + 1));
    LLVMValueRef *values = malloc(sizeof *values * (np + 1));
    if (!params || !values) { /* no wrapper: the JIT then reports the function missing */
      free(params), free(values);
      continue;
    }
    LLVMGetParamTypes(type, params);
    LLVMValueRef w = LLVMAddFunction(mod, wrapper, LLVMFunctionType(voidTy, &ptr, 1, 0));
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(llctx, w, "entry"));
    LLVMValueRef args = LLVMGetParam(w, 0);
    for (unsigned i = 0; i < np; i++)
      values[i] = LLVMBuildLoad2(b, params[i], argSlot(b, i64, ptr, args, i), "");
    LLVMValueRef call = LLVMBuildCall2(b, type, fn, values, np, "");
    if (LLVMGetTypeKind(LLVMGetReturnType(type)) != LLVMVoidTypeKind) /* args[np] holds where it goes */
      LLVMBuildStore(b, call, argSlot(b, i64, ptr, args, np));
    LLVMBuildRetVoid(b);
    free(params), free(values);
  }
  LLVMDisposeBuilder(b);
}

char *strataAotEmitLowered(StrataContext *ctx, MlirModule borrowed, const StrataAotOptions *o, size_t *size) {
  (void)ctx; /* errors go through the module's context */
  MlirModule lowered = mlirModuleFromOperation(mlirOperationClone(mlirModuleGetOperation(borrowed)));
  char *result = NULL;
  StrataParams *params = strataParamsExtract(lowered, STRATA_PARAM_MIN_BYTES);
  if (params) result = strataLlvmEmit(lowered, o, params, false, size);
  else strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(lowered)), "AOT: out of memory for the module's weights");
  strataParamsDestroy(params);
  mlirModuleDestroy(lowered);
  return result;
}

/* Branch-free code gets `noimplicitfloat`, which keeps LLVM's SLP
 * vectorizer off it (default<O3> turns SLP on for every function, and the C
 * API has no per-function switch). A model whose every op is a runtime
 * kernel call lowers to one such block: a long run of memref descriptors
 * stored to the stack between the calls, on which SLP's store-chain
 * scheduling is quadratic (50-80% of LLVM's time on ResNet-18, MobileNetV2
 * and EfficientNet-B0) and buys at most a vector store of a descriptor.
 * The attribute only forbids floating-point or vector code the IR does not
 * ask for. The inliner ORs it into the caller, so a function is marked only
 * when it is one block and every defined function it calls and every
 * function that uses it are marked too: code with loops keeps SLP and the
 * loop vectorizer, whatever is inlined into it. */
static bool usedOnlyFrom(LLVMValueRef fn, LLVMValueRef *marked, size_t n) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsAInstruction(user)) return false;
    LLVMValueRef from = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
    bool in = false;
    for (size_t i = 0; i < n && !in; i++) in = marked[i] == from;
    if (!in) return false;
  }
  return true;
}

static bool callsOnly(LLVMValueRef fn, LLVMValueRef *marked, size_t n) {
  for (LLVMValueRef in = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(fn)); in; in = LLVMGetNextInstruction(in)) {
    LLVMValueRef callee = LLVMIsACallInst(in) ? LLVMGetCalledValue(in) : NULL;
    if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee)) continue;
    bool ok = false;
    for (size_t i = 0; i < n && !ok; i++) ok = marked[i] == callee;
    if (!ok) return false;
  }
  return true;
}

static void markStraightLine(LLVMContextRef llctx, LLVMModuleRef mod) {
  size_t n = 0, cap = 0;
  LLVMValueRef *marked = NULL;
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || LLVMCountBasicBlocks(fn) != 1) continue;
    if (n == cap) {
      LLVMValueRef *grown = realloc(marked, (cap = cap ? 2 * cap : 16) * sizeof *marked);
      if (!grown) { /* marking is an optimization of compile time only */
        free(marked);
        return;
      }
      marked = grown;
    }
    marked[n++] = fn;
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t i = 0; i < n; i++)
      if (!callsOnly(marked[i], marked, n) || !usedOnlyFrom(marked[i], marked, n)) {
        marked[i] = marked[--n];
        changed = true;
        break;
      }
  }
  unsigned kind = LLVMGetEnumAttributeKindForName("noimplicitfloat", strlen("noimplicitfloat"));
  if (kind) {
    LLVMAttributeRef attr = LLVMCreateEnumAttribute(llctx, kind, 0);
    for (size_t i = 0; i < n; i++) LLVMAddAttributeAtIndex(marked[i], LLVMAttributeFunctionIndex, attr);
  }
  free(marked);
}

char *strataLlvmEmit(MlirModule lowered, const StrataAotOptions *o, const StrataParams *params, bool packed,
                     size_t *size) {
  MlirOperation top = mlirModuleGetOperation(lowered);
  MlirLocation loc = mlirOperationGetLocation(top);
  char *result = NULL;
  LLVMContextRef llctx = LLVMContextCreate();
  LLVMTargetMachineRef tm = NULL;
  char *triple = NULL, *cpu = NULL, *features = NULL, *err = NULL;
  LLVMModuleRef mod = mlirTranslateModuleToLLVMIR(top, llctx);
  if (!mod) {
    strataEmitError(loc, "AOT: translation of the lowered module to LLVM IR failed");
    goto done;
  }
  /* Export only the C interface: f's expanded-ABI body becomes internal
   * when _mlir_ciface_f exists (so the header's wrapper may be called f). */
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn)) {
    size_t nlen;
    const char *fname = LLVMGetValueName2(fn, &nlen);
    char twin[600];
    snprintf(twin, sizeof twin, "_mlir_ciface_%.*s", (int)nlen, fname);
    LLVMValueRef c = LLVMGetNamedFunction(mod, twin);
    if (c && !LLVMIsDeclaration(c) && !LLVMIsDeclaration(fn)) LLVMSetLinkage(fn, LLVMInternalLinkage);
  }
  if (packed) addPackedWrappers(llctx, mod);
  markStraightLine(llctx, mod);
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  triple = o->triple ? strdup(o->triple) : LLVMGetDefaultTargetTriple();
  cpu = o->cpu ? strdup(o->cpu) : LLVMGetHostCPUName();
  features = o->features ? strdup(o->features) : o->cpu ? strdup("") : LLVMGetHostCPUFeatures();
  LLVMTargetRef target;
  if (LLVMGetTargetFromTriple(triple, &target, &err)) {
    strataEmitError(loc, "AOT: no LLVM target for triple '%s': %s", triple, err);
    goto done;
  }
  static const LLVMCodeGenOptLevel levels[] = {LLVMCodeGenLevelNone, LLVMCodeGenLevelLess,
                                               LLVMCodeGenLevelDefault, LLVMCodeGenLevelAggressive};
  int opt = o->optLevel < 0 ? 0 : o->optLevel > 3 ? 3 : o->optLevel;
  tm = LLVMCreateTargetMachine(target, triple, cpu, features, levels[opt], LLVMRelocPIC, LLVMCodeModelDefault);
  if (!tm) {
    strataEmitError(loc, "AOT: LLVM cannot build a target machine for '%s' (cpu '%s')", triple, cpu);
    goto done;
  }
  LLVMSetTarget(mod, triple);
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(tm);
  LLVMSetModuleDataLayout(mod, layout);
  LLVMDisposeTargetData(layout);
  char passes[32];
  snprintf(passes, sizeof passes, "default<O%d>", opt);
  LLVMPassBuilderOptionsRef popts = LLVMCreatePassBuilderOptions();
  LLVMErrorRef perr = LLVMRunPasses(mod, passes, tm, popts);
  LLVMDisposePassBuilderOptions(popts);
  if (perr) {
    char *msg = LLVMGetErrorMessage(perr);
    strataEmitError(loc, "AOT: LLVM optimization failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    goto done;
  }
  if (params) defineParams(llctx, mod, params);
  if (o->kind == STRATA_AOT_LLVM_IR) {
    char *text = LLVMPrintModuleToString(mod);
    *size = strlen(text);
    result = malloc(*size + 1);
    if (result) memcpy(result, text, *size + 1);
    LLVMDisposeMessage(text);
  } else {
    LLVMMemoryBufferRef buf;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, mod, o->kind == STRATA_AOT_ASM ? LLVMAssemblyFile : LLVMObjectFile,
                                            &err, &buf)) {
      strataEmitError(loc, "AOT: code generation failed: %s", err);
      goto done;
    }
    *size = LLVMGetBufferSize(buf);
    result = malloc(*size ? *size : 1);
    if (result) memcpy(result, LLVMGetBufferStart(buf), *size);
    LLVMDisposeMemoryBuffer(buf);
  }
  if (!result) strataEmitError(loc, "AOT: out of memory");
done:
  if (err) LLVMDisposeMessage(err);
  if (tm) LLVMDisposeTargetMachine(tm);
  free(triple), free(cpu), free(features);
  LLVMContextDispose(llctx); /* owns the module */
  return result;
}
