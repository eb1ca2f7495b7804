/* Ahead-of-time compilation for the host CPU (or a named one): the CPU
 * pipeline, translation to LLVM IR, LLVM's O0-O3 pipeline, and an object
 * file, assembly or LLVM IR; plus a C header for the compiled functions.
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

/* Public functions with a body, in module order. */
static int publicFuncs(MlirModule m, MlirOperation *out, int max) {
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

static MlirStringRef symName(MlirOperation f) {
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
  int n = publicFuncs(module, funcs, 256);
  if (n > 256) n = 256;
  MlirOperation op = mlirModuleGetOperation(module);
  for (int i = 0; i < n; i++) {
    MlirStringRef old = symName(funcs[i]);
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
  MlirLocation loc = mlirOperationGetLocation(clone);
  char *result = NULL;
  LLVMContextRef llctx = NULL;
  LLVMTargetMachineRef tm = NULL;
  char *triple = NULL, *cpu = NULL, *features = NULL, *err = NULL;
  if (mlirLogicalResultIsFailure(strataRunPipeline(ctx, clone, strataCpuPipeline()))) goto done;
  llctx = LLVMContextCreate();
  LLVMModuleRef mod = mlirTranslateModuleToLLVMIR(clone, llctx);
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
  if (llctx) LLVMContextDispose(llctx); /* owns the module */
  mlirOperationDestroy(clone);
  return result;
}

/* ---- The header ---- */

typedef struct {
  char *data;
  size_t len, cap;
  bool oom;
} Buf;

__attribute__((format(printf, 2, 3))) static void put(Buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0 || b->oom) return;
  if (b->len + (size_t)n + 1 > b->cap) {
    size_t cap = (b->cap + (size_t)n + 1) * 2;
    char *d = realloc(b->data, cap);
    if (!d) {
      b->oom = true;
      return;
    }
    b->data = d, b->cap = cap;
  }
  va_start(ap, fmt);
  vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
  va_end(ap);
  b->len += (size_t)n;
}

/* The C element type of a tensor element type (NULL: not expressible). */
static const char *cType(MlirType e) {
  if (mlirTypeIsAF32(e)) return "float";
  if (mlirTypeIsAF64(e)) return "double";
  if (mlirTypeIsAF16(e) || mlirTypeIsABF16(e)) return "uint16_t";
  if (mlirTypeIsAInteger(e)) {
    unsigned w = mlirIntegerTypeGetWidth(e);
    bool u = mlirIntegerTypeIsUnsigned(e);
    if (w == 1) return "uint8_t";
    if (w == 8) return u ? "uint8_t" : "int8_t";
    if (w == 16) return u ? "uint16_t" : "int16_t";
    if (w == 32) return u ? "uint32_t" : "int32_t";
    if (w == 64) return u ? "uint64_t" : "int64_t";
  }
  return NULL;
}

static void putShapeComment(Buf *b, MlirType t) {
  char s[256];
  strataTypeToString(t, s, sizeof s);
  put(b, "%s", s);
}

char *strataAotHeader(MlirModule module, const char *prefix, const char *source) {
  MlirOperation funcs[256];
  int n = publicFuncs(module, funcs, 256);
  Buf b = {0};
  char guard[256];
  snprintf(guard, sizeof guard, "STRATA_AOT_%s_H", prefix);
  for (char *p = guard; *p; p++) *p = (char)toupper((unsigned char)*p);
  put(&b, "/* Generated by strata-translate from %s. Do not edit.\n"
          " * Link the object with libstrata_rt.a, -lm and -lpthread. Every function\n"
          " * reads its inputs and writes its outputs (dense, row-major buffers the\n"
          " * caller owns); strataRtSetNumThreads sets the kernels' threads. */\n"
          "#ifndef %s\n#define %s\n\n#include <stdint.h>\n\n"
          "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
          "#ifndef STRATA_AOT_MEMREF\n#define STRATA_AOT_MEMREF\n"
          "/* MLIR's memref descriptor: {allocated, aligned, offset, sizes[R], strides[R]}. */\n"
          "typedef struct {\n  void *allocated, *aligned;\n  int64_t offset;\n"
          "  int64_t sizes_strides[16];\n} strata_memref;\n\n"
          "static inline void strata_memref_init(strata_memref *d, void *data, int rank, const int64_t *shape) {\n"
          "  int64_t stride = 1;\n  d->allocated = d->aligned = data;\n  d->offset = 0;\n"
          "  for (int i = rank - 1; i >= 0; i--) {\n    d->sizes_strides[i] = shape[i];\n"
          "    d->sizes_strides[rank + i] = stride;\n    stride *= shape[i];\n  }\n}\n"
          "int strataRtSetNumThreads(int n);\n#endif\n",
      source, guard, guard);
  for (int f = 0; f < n && f < 256; f++) {
    MlirStringRef name = symName(funcs[f]);
    MlirType ft = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(funcs[f], mlirStringRefCreateFromCString("function_type")));
    intptr_t ni = mlirFunctionTypeGetNumInputs(ft), no = mlirFunctionTypeGetNumResults(ft);
    MlirType types[64];
    if (ni + no > 64) continue;
    for (intptr_t i = 0; i < ni + no; i++)
      types[i] = i < ni ? mlirFunctionTypeGetInput(ft, i) : mlirFunctionTypeGetResult(ft, i - ni);
    bool ok = true;
    for (intptr_t i = 0; i < ni + no; i++)
      ok &= mlirTypeIsARankedTensor(types[i]) && mlirShapedTypeHasStaticShape(types[i]) &&
            mlirShapedTypeGetRank(types[i]) <= 8 && cType(mlirShapedTypeGetElementType(types[i]));
    const char *fn = name.data;
    int fl = (int)name.length;
    put(&b, "\n/* %.*s(", fl, fn);
    for (intptr_t i = 0; i < ni + no; i++) {
      if (i == ni) put(&b, ") -> (");
      else if (i) put(&b, ", ");
      putShapeComment(&b, types[i]);
    }
    put(&b, ") */\nvoid _mlir_ciface_%.*s(", fl, fn);
    for (intptr_t i = 0; i < ni + no; i++) put(&b, "%sstrata_memref *%s%ld", i ? ", " : "", i < ni ? "in" : "out", (long)(i < ni ? i : i - ni));
    put(&b, ");\n");
    if (!ok) {
      put(&b, "/* (no dense wrapper: a dynamic shape or an element type C lacks) */\n");
      continue;
    }
    put(&b, "enum { %.*s_num_inputs = %ld, %.*s_num_outputs = %ld };\n", fl, fn, (long)ni, fl, fn, (long)no);
    for (intptr_t i = 0; i < ni + no; i++) {
      intptr_t r = mlirShapedTypeGetRank(types[i]);
      put(&b, "static const int64_t %.*s_%s%ld_shape[%ld] = {", fl, fn, i < ni ? "in" : "out", (long)(i < ni ? i : i - ni), (long)(r ? r : 1));
      for (intptr_t d = 0; d < r; d++) put(&b, "%s%lld", d ? ", " : "", (long long)mlirShapedTypeGetDimSize(types[i], d));
      put(&b, "%s};\n", r ? "" : "1");
    }
    for (int io = 0; io < 2; io++) {
      intptr_t lo = io ? ni : 0, hi = io ? ni + no : ni;
      const char *kind = io ? "out" : "in", *plural = io ? "output" : "input";
      put(&b, "static const int64_t *const %.*s_%s_shapes[%ld] = {", fl, fn, plural, (long)(hi > lo ? hi - lo : 1));
      for (intptr_t i = lo; i < hi; i++) put(&b, "%s%.*s_%s%ld_shape", i > lo ? ", " : "", fl, fn, kind, (long)(i - lo));
      put(&b, "%s};\nstatic const int %.*s_%s_ranks[%ld] = {", hi > lo ? "" : "0", fl, fn, plural, (long)(hi > lo ? hi - lo : 1));
      for (intptr_t i = lo; i < hi; i++) put(&b, "%s%ld", i > lo ? ", " : "", (long)mlirShapedTypeGetRank(types[i]));
      put(&b, "%s};\nstatic const int %.*s_%s_elem_bytes[%ld] = {", hi > lo ? "" : "0", fl, fn, plural, (long)(hi > lo ? hi - lo : 1));
      for (intptr_t i = lo; i < hi; i++)
        put(&b, "%s(int)sizeof(%s)", i > lo ? ", " : "", cType(mlirShapedTypeGetElementType(types[i])));
      put(&b, "%s};\n", hi > lo ? "" : "0");
    }
    put(&b, "static inline void %.*s(", fl, fn);
    for (intptr_t i = 0; i < ni + no; i++)
      put(&b, "%s%s%s *%s%ld", i ? ", " : "", i < ni ? "const " : "", cType(mlirShapedTypeGetElementType(types[i])),
          i < ni ? "in" : "out", (long)(i < ni ? i : i - ni));
    put(&b, ") {\n  strata_memref d[%ld];\n", (long)(ni + no));
    for (intptr_t i = 0; i < ni + no; i++)
      put(&b, "  strata_memref_init(&d[%ld], (void *)%s%ld, %ld, %.*s_%s%ld_shape);\n", (long)i,
          i < ni ? "in" : "out", (long)(i < ni ? i : i - ni), (long)mlirShapedTypeGetRank(types[i]), fl, fn,
          i < ni ? "in" : "out", (long)(i < ni ? i : i - ni));
    put(&b, "  _mlir_ciface_%.*s(", fl, fn);
    for (intptr_t i = 0; i < ni + no; i++) put(&b, "%s&d[%ld]", i ? ", " : "", (long)i);
    put(&b, ");\n}\n");
    /* The same through arrays of buffers, for generic drivers. */
    put(&b, "static inline void %.*s_run(void *const *inputs, void *const *outputs) {\n  %.*s(", fl, fn, fl, fn);
    for (intptr_t i = 0; i < ni + no; i++)
      put(&b, "%s(%s%s *)%s[%ld]", i ? ", " : "", i < ni ? "const " : "", cType(mlirShapedTypeGetElementType(types[i])),
          i < ni ? "inputs" : "outputs", (long)(i < ni ? i : i - ni));
    put(&b, ");\n}\n");
  }
  put(&b, "\n#ifdef __cplusplus\n}\n#endif\n#endif\n");
  if (b.oom) {
    free(b.data);
    return NULL;
  }
  return b.data;
}
