/* The OpenCL C emitter: every gpu.func kernel of the lowered module (its
 * arguments, gpu ids, memref loads/stores with static layouts, scf loops
 * and branches, arith and math through opencl_ops.c) becomes a __kernel,
 * and every memref.copy of the host function a copy kernel, in one
 * readable program. What it cannot write exactly it refuses at the op. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "grow.h"
#include "opencl_internal.h"

void clTextPut(ClText *t, const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  char *grown = n < 0 ? NULL : strataGrow(t->data, &t->cap, t->len + (size_t)n + 1, 1);
  if (!grown) t->oom = true;
  else {
    t->data = grown;
    vsnprintf(t->data + t->len, (size_t)n + 1, fmt, ap);
    t->len += (size_t)n;
  }
  va_end(ap);
}

void clLine(ClEmitter *e, const char *fmt, ...) {
  clTextPut(e->out, "%*s", 2 * e->indent, "");
  va_list ap;
  va_start(ap, fmt);
  char line[1024];
  int n = vsnprintf(line, sizeof line, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof line) e->out->oom = true; /* never: lines are short */
  else clTextPut(e->out, "%s\n", line);
}

void clKernelName(MlirStringRef module, MlirStringRef func, char *buf, size_t size) {
  snprintf(buf, size, "%.*s__%.*s", (int)module.length, module.data, (int)func.length, func.data);
}

void clCopyKernelName(size_t index, char *buf, size_t size) { snprintf(buf, size, "strata_copy_%zu", index); }

/* ---- SSA names ---- */

static ClName *slot(ClEmitter *e, const void *key) {
  size_t mask = e->capNames - 1, i = ((uintptr_t)key >> 4) & mask;
  while (e->names[i].key && e->names[i].key != key) i = (i + 1) & mask;
  return &e->names[i];
}

/* Gives `key` id `id` (a new one when id is 0); false when out of memory. */
static bool setName(ClEmitter *e, const void *key, unsigned id) {
  if (2 * (e->numNames + 1) > e->capNames) {
    size_t cap = e->capNames ? 2 * e->capNames : 256;
    ClName *old = e->names, *grown = calloc(cap, sizeof *grown);
    if (!grown) return e->out->oom = true, false;
    size_t oldCap = e->capNames;
    e->names = grown, e->capNames = cap, e->numNames = 0;
    for (size_t i = 0; i < oldCap; i++)
      if (old[i].key) *slot(e, old[i].key) = old[i], e->numNames++;
    free(old);
  }
  ClName *s = slot(e, key);
  if (!s->key) e->numNames++;
  *s = (ClName){key, id ? id : ++e->nextId};
  return true;
}

const char *clName(ClEmitter *e, MlirValue v, char buf[24]) {
  ClName *s = e->capNames ? slot(e, v.ptr) : NULL;
  if (!s || !s->key) {
    setName(e, v.ptr, 0);
    s = e->capNames ? slot(e, v.ptr) : NULL;
  }
  snprintf(buf, 24, "v%u", s && s->key ? s->id : 0);
  return buf;
}

/* `v` names the same C variable as `of` (views, loop-carried values). */
static void alias(ClEmitter *e, MlirValue v, MlirValue of) {
  char unused[24];
  clName(e, of, unused);
  setName(e, v.ptr, slot(e, of.ptr)->id);
}

/* `name[offset + i0*s0 + ...]` for a memref access of `op` (operands from
 * `first` on are the indices). */
static bool element(ClEmitter *e, MlirOperation op, MlirValue memref, intptr_t first, char *buf, size_t size) {
  GpuLayout l;
  char why[256], n[24];
  if (!gpuLayoutOf(mlirValueGetType(memref), "opencl", &l, why, sizeof why)) {
    strataEmitOpError(op, "the opencl target cannot access %s", why);
    return false;
  }
  int at = snprintf(buf, size, "%s[%lldUL", clName(e, memref, n), (long long)l.offset);
  for (int i = 0; i < l.rank && at > 0 && (size_t)at < size; i++)
    at += snprintf(buf + at, size - (size_t)at, " + %s * %lldUL", clName(e, mlirOperationGetOperand(op, first + i), n),
                   (long long)l.strides[i]);
  if (at < 0 || (size_t)at + 2 > size) return strataEmitOpError(op, "memref access too long to write"), false;
  snprintf(buf + at, size - (size_t)at, "]");
  return true;
}

/* The C type of a memref's elements in memory: i1 is a byte, f16 a half. */
static const char *storageType(MlirType memref) {
  if (mlirTypeIsAF16(mlirShapedTypeGetElementType(memref))) return "half";
  const char *c = clScalarType(mlirShapedTypeGetElementType(memref), false);
  return c && !strcmp(c, "bool") ? "uchar" : c;
}

/* A run-time check's report (gpuCheckCall: strata_rt_index_error or
 * strata_rt_shape_error): the first failing work-item fills the error
 * record; the site is a kernel argument, whose position the host maps back
 * to the site's text. */
static bool emitCheck(ClEmitter *e, MlirOperation op, int check) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue site = mlirOperationGetOperand(op, n - 1);
  if (!mlirValueIsABlockArgument(site) ||
      !mlirOperationEqual(mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(site)), e->kernel))
    return strataEmitOpError(op, "the opencl target reports run-time check failures whose site is a kernel argument"),
           false;
  clLine(e, "if (atomic_cmpxchg(strata_error, 0, 1) == 0) {");
  clLine(e, "  __global long *r = (__global long *)(strata_error + 2);");
  clLine(e, "  r[0] = (long)strata_step; r[1] = %zdL; r[2] = %dL;", mlirBlockArgumentGetArgNumber(site), check);
  for (intptr_t i = 0; i + 1 < n; i++) {
    char v[24];
    clLine(e, "  r[%d] = (long)%s;", (int)(3 + i), clName(e, mlirOperationGetOperand(op, i), v));
  }
  clLine(e, "}");
  return true;
}

/* ---- Ops ---- */

static bool emitBlock(ClEmitter *e, MlirBlock block, MlirValue *yieldTo);

static bool isNamed(MlirOperation op, const char *name) { return strataOpIsNamed(op, name); }

static void appendChunk(MlirStringRef chunk, void *user) {
  char *buf = user;
  size_t len = strlen(buf);
  snprintf(buf + len, 64 - len, "%.*s", (int)chunk.length, chunk.data);
}

/* get_local_id(0) and friends for gpu.thread_id x ... */
static bool emitGpuId(ClEmitter *e, MlirOperation op, const char *fn) {
  char dim[64] = "", res[24];
  MlirAttribute a = strataOpAttr(op, "dimension");
  if (!mlirAttributeIsNull(a)) mlirAttributePrint(a, appendChunk, dim); /* #gpu<dim x> */
  char *close = strrchr(dim, '>');
  char d = close && close > dim ? close[-1] : '?';
  if (d < 'x' || d > 'z') return strataEmitOpError(op, "the opencl target reads dimensions x, y and z"), false;
  clLine(e, "ulong %s = (ulong)%s(%d);", clName(e, mlirOperationGetResult(op, 0), res), fn, d - 'x');
  return true;
}

/* Declares each result of `op` with its initial value (or none). */
static bool declareResults(ClEmitter *e, MlirOperation op, intptr_t firstInit) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++) {
    MlirValue r = mlirOperationGetResult(op, i);
    const char *type = clScalarType(mlirValueGetType(r), false);
    char n[24], init[24];
    if (!type) return strataEmitOpError(op, "the opencl target carries scalars only through loops and branches"), false;
    if (firstInit >= 0) clLine(e, "%s %s = %s;", type, clName(e, r, n), clName(e, mlirOperationGetOperand(op, firstInit + i), init));
    else clLine(e, "%s %s;", type, clName(e, r, n));
  }
  return true;
}

static bool emitFor(ClEmitter *e, MlirOperation op) {
  if (!declareResults(e, op, 3)) return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirValue iv = mlirBlockGetArgument(body, 0);
  const char *u = clScalarType(mlirValueGetType(iv), false), *s = clScalarType(mlirValueGetType(iv), true);
  if (!u || !strcmp(u, "bool")) return strataEmitOpError(op, "the opencl target needs an integer induction variable"), false;
  intptr_t n = mlirOperationGetNumResults(op);
  MlirValue results[64];
  if (n > 64) return strataEmitOpError(op, "the opencl target carries at most 64 values through a loop"), false;
  for (intptr_t i = 0; i < n; i++) {
    results[i] = mlirOperationGetResult(op, i);
    alias(e, mlirBlockGetArgument(body, 1 + i), results[i]);
  }
  char v[24], lb[24], ub[24], st[24];
  clName(e, iv, v);
  clLine(e, "for (%s %s = %s; (%s)%s < (%s)%s; %s += %s) {", u, v, clName(e, mlirOperationGetOperand(op, 0), lb), s, v,
         s, clName(e, mlirOperationGetOperand(op, 1), ub), v, clName(e, mlirOperationGetOperand(op, 2), st));
  e->indent++;
  bool ok = emitBlock(e, body, results);
  e->indent--;
  clLine(e, "}");
  return ok;
}

static bool emitIf(ClEmitter *e, MlirOperation op) {
  if (!declareResults(e, op, -1)) return false;
  intptr_t n = mlirOperationGetNumResults(op);
  MlirValue results[64];
  if (n > 64) return strataEmitOpError(op, "the opencl target carries at most 64 values out of a branch"), false;
  for (intptr_t i = 0; i < n; i++) results[i] = mlirOperationGetResult(op, i);
  char c[24];
  clLine(e, "if (%s) {", clName(e, mlirOperationGetOperand(op, 0), c));
  e->indent++;
  bool ok = emitBlock(e, mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)), results);
  e->indent--;
  MlirBlock elseBlock = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  if (ok && !mlirBlockIsNull(elseBlock)) {
    clLine(e, "} else {");
    e->indent++;
    ok = emitBlock(e, elseBlock, results);
    e->indent--;
  }
  clLine(e, "}");
  return ok;
}

/* scf.yield: the parent's results take the yielded values (through
 * temporaries: a yield may permute them). */
static void emitYield(ClEmitter *e, MlirOperation op, MlirValue *to) {
  intptr_t n = mlirOperationGetNumOperands(op);
  char a[24], b[24];
  if (n == 1) {
    clLine(e, "%s = %s;", clName(e, to[0], a), clName(e, mlirOperationGetOperand(op, 0), b));
    return;
  }
  for (intptr_t i = 0; i < n; i++)
    clLine(e, "%s t%zd_%s = %s;", clScalarType(mlirValueGetType(to[i]), false), i, clName(e, to[i], a),
           clName(e, mlirOperationGetOperand(op, i), b));
  for (intptr_t i = 0; i < n; i++) clLine(e, "%s = t%zd_%s;", clName(e, to[i], a), i, a);
}

static bool emitOp(ClEmitter *e, MlirOperation op, MlirValue *yieldTo) {
  char a[24], ref[640];
  if (isNamed(op, "gpu.return")) return clLine(e, "return;"), true;
  if (isNamed(op, "scf.yield")) return emitYield(e, op, yieldTo), true;
  if (isNamed(op, "scf.for")) return emitFor(e, op);
  if (isNamed(op, "scf.if")) return emitIf(e, op);
  if (isNamed(op, "gpu.thread_id")) return emitGpuId(e, op, "get_local_id");
  if (isNamed(op, "gpu.block_id")) return emitGpuId(e, op, "get_group_id");
  if (isNamed(op, "gpu.block_dim")) return emitGpuId(e, op, "get_local_size");
  if (isNamed(op, "gpu.grid_dim")) return emitGpuId(e, op, "get_num_groups");
  if (isNamed(op, "gpu.global_id")) return emitGpuId(e, op, "get_global_id");
  if (gpuCheckCall(op)) return emitCheck(e, op, gpuCheckCall(op));
  if (isNamed(op, "gpu.barrier")) return clLine(e, "barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);"), true;
  if (isNamed(op, "memref.load")) {
    MlirValue r = mlirOperationGetResult(op, 0);
    if (!element(e, op, mlirOperationGetOperand(op, 0), 1, ref, sizeof ref)) return false;
    if (mlirTypeIsAF16(mlirValueGetType(r)))
      return clF16Access(e, r, ref, false) || (strataEmitOpError(op, "memref access too long to write"), false);
    const char *type = clScalarType(mlirValueGetType(r), false);
    clLine(e, "%s %s = %s%s;", type, clName(e, r, a), ref, !strcmp(type, "bool") ? " != 0" : "");
    return true;
  }
  if (isNamed(op, "memref.store")) {
    if (!element(e, op, mlirOperationGetOperand(op, 1), 2, ref, sizeof ref)) return false;
    if (mlirTypeIsAF16(mlirValueGetType(mlirOperationGetOperand(op, 0))))
      return clF16Access(e, mlirOperationGetOperand(op, 0), ref, true) ||
             (strataEmitOpError(op, "memref access too long to write"), false);
    bool byte = !strcmp(storageType(mlirValueGetType(mlirOperationGetOperand(op, 1))), "uchar");
    clLine(e, "%s = %s%s;", ref, byte ? "(uchar)" : "", clName(e, mlirOperationGetOperand(op, 0), a));
    return true;
  }
  if (isNamed(op, "memref.alloca")) {
    GpuLayout l;
    char why[256];
    MlirValue r = mlirOperationGetResult(op, 0);
    if (!gpuLayoutOf(mlirValueGetType(r), "opencl", &l, why, sizeof why) || !gpuLayoutIsDense(&l) || l.numElements > 4096)
      return strataEmitOpError(op, "the opencl target keeps small dense private arrays only (%s)",
                               l.numElements > 4096 ? "over 4096 elements" : why), false;
    long long count = l.numElements ? l.numElements : 1;
    if (mlirTypeIsAF16(mlirShapedTypeGetElementType(mlirValueGetType(r)))) {
      /* No half variables without cl_khr_fp16: bits, read through a half pointer. */
      clName(e, r, a);
      clLine(e, "ushort %s_bits[%lld];", a, count);
      clLine(e, "__private half *%s = (__private half *)%s_bits;", a, a);
      return true;
    }
    clLine(e, "%s %s[%lld];", storageType(mlirValueGetType(r)), clName(e, r, a), count);
    return true;
  }
  /* gpu-tile-workgroup's vector loads: vload4, which needs only the
   * elements' alignment; their elements by component. */
  if (isNamed(op, "vector.load")) {
    MlirValue r = mlirOperationGetResult(op, 0);
    MlirType t = mlirValueGetType(r);
    if (mlirShapedTypeGetRank(t) != 1 || mlirShapedTypeGetDimSize(t, 0) != 4 || !mlirTypeIsAF32(mlirShapedTypeGetElementType(t)))
      return strataEmitOpError(op, "the opencl target loads vector<4xf32> vectors only"), false;
    if (!element(e, op, mlirOperationGetOperand(op, 0), 1, ref, sizeof ref)) return false;
    clLine(e, "float4 %s = vload4(0, &%s);", clName(e, r, a), ref);
    return true;
  }
  if (isNamed(op, "vector.extract")) {
    MlirAttribute pos = strataOpAttr(op, "static_position");
    MlirValue src = mlirOperationGetOperand(op, 0);
    char s[24];
    if (mlirOperationGetNumOperands(op) != 1 || mlirAttributeIsNull(pos) || mlirDenseArrayGetNumElements(pos) != 1 ||
        mlirShapedTypeGetRank(mlirValueGetType(src)) != 1 || mlirShapedTypeGetDimSize(mlirValueGetType(src), 0) != 4 ||
        mlirDenseI64ArrayGetElement(pos, 0) < 0 || mlirDenseI64ArrayGetElement(pos, 0) > 3)
      return strataEmitOpError(op, "the opencl target extracts constant positions of vector<4xf32> vectors only"), false;
    clLine(e, "float %s = %s.s%lld;", clName(e, mlirOperationGetResult(op, 0), a), clName(e, src, s),
           (long long)mlirDenseI64ArrayGetElement(pos, 0));
    return true;
  }
  if (isNamed(op, "memref.alloc")) {
    /* Workgroup memory (gpu-tile-workgroup's operand tiles): __local
     * arrays, which OpenCL C declares at kernel function scope only. */
    GpuLayout l;
    char why[256] = "a strided layout";
    MlirValue r = mlirOperationGetResult(op, 0);
    MlirType t = mlirValueGetType(r);
    MlirAttribute space = mlirMemRefTypeGetMemorySpace(t);
    if (mlirAttributeIsNull(space) ||
        !mlirAttributeEqual(space, strataParseAttr(mlirOperationGetContext(op), "#gpu.address_space<workgroup>")))
      return strataEmitOpError(op, "the opencl target allocates workgroup memory only in a kernel"), false;
    if (!mlirOperationEqual(mlirBlockGetParentOperation(mlirOperationGetBlock(op)), e->kernel))
      return strataEmitOpError(op, "the opencl target declares workgroup memory at kernel function scope only"), false;
    if (!gpuLayoutOf(t, "opencl", &l, why, sizeof why) || !gpuLayoutIsDense(&l))
      return strataEmitOpError(op, "the opencl target keeps dense workgroup arrays only (%s)", why), false;
    clLine(e, "__local %s %s[%lld];", storageType(t), clName(e, r, a), (long long)(l.numElements ? l.numElements : 1));
    return true;
  }
  /* Views name the memory of their source; their types carry the offset
   * and strides the accesses use. */
  if (isNamed(op, "memref.subview") || isNamed(op, "memref.collapse_shape") || isNamed(op, "memref.expand_shape") ||
      isNamed(op, "memref.cast") || isNamed(op, "memref.reinterpret_cast") || isNamed(op, "memref.reshape")) {
    alias(e, mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
    return true;
  }
  /* nn's unsigned integers meet arith's signless ones through casts that
   * change no bits: the same C variable. */
  if (isNamed(op, "builtin.unrealized_conversion_cast") && mlirOperationGetNumOperands(op) == 1 &&
      mlirOperationGetNumResults(op) == 1) {
    MlirType from = mlirValueGetType(mlirOperationGetOperand(op, 0)), to = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (mlirTypeIsAInteger(from) && mlirTypeIsAInteger(to) && mlirIntegerTypeGetWidth(from) == mlirIntegerTypeGetWidth(to)) {
      alias(e, mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
      return true;
    }
  }
  bool handled, ok = clEmitF16Op(e, op, &handled);
  if (handled) return ok;
  ok = clEmitScalarOp(e, op, &handled);
  if (handled) return ok;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  strataEmitOpError(op, "the opencl target cannot express '%.*s' in a kernel", (int)n.length, n.data);
  return false;
}

static bool emitBlock(ClEmitter *e, MlirBlock block, MlirValue *yieldTo) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!emitOp(e, op, yieldTo)) return false;
  return true;
}

static bool emitKernel(ClEmitter *e, MlirOperation module, MlirOperation func) {
  char name[160];
  clKernelName(mlirStringAttrGetValue(strataOpAttr(module, "sym_name")),
               mlirStringAttrGetValue(strataOpAttr(func, "sym_name")), name, sizeof name);
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry) || !mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return strataEmitOpError(func, "the opencl target writes kernels of one block (structured control flow)"), false;
  MlirAttribute ftype = strataOpAttr(func, "function_type");
  if (mlirAttributeIsNull(ftype) ||
      mlirFunctionTypeGetNumInputs(mlirTypeAttrGetValue(ftype)) != mlirBlockGetNumArguments(entry))
    return strataEmitOpError(func, "the opencl target writes no workgroup or private memory attributions yet"),
           false;
  clTextPut(e->out, "__kernel void %s(", name);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    char n[24], why[256];
    GpuLayout l;
    const char *sep = i ? ", " : "";
    if (mlirTypeIsAUnrankedMemRef(t) && mlirTypeIsAInteger(mlirShapedTypeGetElementType(t)) &&
        mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t)) == 8) {
      /* Text (an error site): passed along, never indexed. */
      clTextPut(e->out, "%s__global const uchar *%s", sep, clName(e, arg, n));
    } else if (mlirTypeIsAMemRef(t)) {
      if (!gpuLayoutOf(t, "opencl", &l, why, sizeof why))
        return strataEmitOpError(func, "kernel argument %zd: %s", i, why), false;
      if (mlirTypeIsAF64(mlirShapedTypeGetElementType(t))) e->usesF64 = true;
      if (mlirTypeIsAF16(mlirShapedTypeGetElementType(t))) e->usesF16 = true;
      clTextPut(e->out, "%s__global %s *%s", sep, storageType(t), clName(e, arg, n));
    } else {
      const char *c = clScalarType(t, false);
      if (mlirTypeIsAF16(t)) {
        /* Its 16 bits, as the host passes them (opencl_f16.c). */
        e->usesF16 = true;
        clTextPut(e->out, "%sushort %s_bits", sep, clName(e, arg, n));
        continue;
      }
      if (!c) {
        strataTypeToString(t, why, sizeof why);
        return strataEmitOpError(func, "kernel argument %zd: the opencl target passes no %s to a kernel", i, why), false;
      }
      if (mlirTypeIsAF64(t)) e->usesF64 = true;
      /* OpenCL C takes no bool argument: an i1 comes as a byte. */
      clTextPut(e->out, "%s%s %s%s", sep, strcmp(c, "bool") ? c : "uchar", clName(e, arg, n), strcmp(c, "bool") ? "" : "_byte");
    }
  }
  if (gpuKernelReportsErrors(func))
    clTextPut(e->out, "%s__global int *strata_error, ulong strata_step", mlirBlockGetNumArguments(entry) ? ", " : "");
  clTextPut(e->out, ") {\n");
  e->indent = 1;
  e->kernel = func;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    const char *c = clScalarType(mlirValueGetType(arg), false);
    char n[24];
    if (c && !strcmp(c, "bool")) clLine(e, "bool %s = %s_byte != 0;", clName(e, arg, n), n);
    if (mlirTypeIsAF16(mlirValueGetType(arg))) clLine(e, "float %s = strata_half_value(%s_bits);", clName(e, arg, n), n);
  }
  bool ok = emitBlock(e, entry, NULL);
  clTextPut(e->out, "}\n\n");
  return ok;
}

/* A kernel copying memref.copy's source into its target element by element
 * (either may be a strided view). */
static bool emitCopyKernel(ClEmitter *e, MlirOperation copy, size_t index) {
  GpuLayout s, d;
  char why[256], name[64];
  if (!gpuLayoutOf(mlirValueGetType(mlirOperationGetOperand(copy, 0)), "opencl", &s, why, sizeof why) ||
      !gpuLayoutOf(mlirValueGetType(mlirOperationGetOperand(copy, 1)), "opencl", &d, why, sizeof why))
    return strataEmitOpError(copy, "the opencl target cannot copy: %s", why), false;
  const char *type = storageType(mlirValueGetType(mlirOperationGetOperand(copy, 0)));
  if (!strcmp(type, "double")) e->usesF64 = true;
  if (!strcmp(type, "half")) type = "ushort"; /* copied as bits */
  clCopyKernelName(index, name, sizeof name);
  clTextPut(e->out, "__kernel void %s(__global const %s *src, __global %s *dst) {\n", name, type, type);
  clTextPut(e->out, "  ulong i = get_global_id(0);\n  if (i >= %lldUL) return;\n", (long long)s.numElements);
  clTextPut(e->out, "  ulong s = %lldUL, d = %lldUL, c;\n", (long long)s.offset, (long long)d.offset);
  for (int k = s.rank - 1; k >= 0; k--)
    clTextPut(e->out, "  c = i %% %lldUL; i /= %lldUL; s += c * %lldUL; d += c * %lldUL;\n", (long long)s.dims[k],
              (long long)s.dims[k], (long long)s.strides[k], (long long)d.strides[k]);
  clTextPut(e->out, "  dst[d] = src[s];\n}\n\n");
  return true;
}

static const char kPrelude[] =
    "/* arith.maximumf/minimumf: NaN if either operand is, and -0 < +0. */\n"
    "#define STRATA_MINMAX(T) \\\n"
    "  __attribute__((overloadable)) static inline T strata_maximum(T a, T b) { \\\n"
    "    return isnan(a) || isnan(b) ? (T)NAN : a == b ? (signbit(a) ? b : a) : a > b ? a : b; } \\\n"
    "  __attribute__((overloadable)) static inline T strata_minimum(T a, T b) { \\\n"
    "    return isnan(a) || isnan(b) ? (T)NAN : a == b ? (signbit(a) ? a : b) : a < b ? a : b; }\n"
    "STRATA_MINMAX(float)\n"
    "/* arith.floordivsi/ceildivsi: rounding toward -inf/+inf. */\n"
    "#define STRATA_DIV(T) \\\n"
    "  static inline T strata_floordiv_##T(T a, T b) { T q = a / b; return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q; } \\\n"
    "  static inline T strata_ceildiv_##T(T a, T b) { T q = a / b; return a % b != 0 && (a < 0) == (b < 0) ? q + 1 : q; }\n"
    "STRATA_DIV(int)\nSTRATA_DIV(long)\n\n";

bool clEmitProgram(MlirOperation module, ClText *out, size_t *numKernels) {
  ClText body = {0};
  ClEmitter e = {.out = &body};
  bool ok = true;
  *numKernels = 0;
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation m = mlirBlockGetFirstOperation(top); ok && !mlirOperationIsNull(m); m = mlirOperationGetNextInBlock(m)) {
    if (!isNamed(m, "gpu.module")) continue;
    MlirBlock mb = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
    for (MlirOperation f = mlirBlockGetFirstOperation(mb); ok && !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
      if (isNamed(f, "gpu.func") && !mlirAttributeIsNull(strataOpAttr(f, "gpu.kernel"))) {
        ok = emitKernel(&e, m, f);
        ++*numKernels;
      }
  }
  size_t copies = 0;
  for (MlirOperation h = mlirBlockGetFirstOperation(top); ok && !mlirOperationIsNull(h); h = mlirOperationGetNextInBlock(h)) {
    if (!gpuIsHost(h)) continue;
    MlirBlock hb = mlirRegionGetFirstBlock(mlirOperationGetRegion(h, 0));
    for (MlirOperation op = mlirBlockGetFirstOperation(hb); ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      if (isNamed(op, "memref.copy")) ok = emitCopyKernel(&e, op, copies++);
  }
  free(e.names);
  if (ok && body.oom) ok = false, strataEmitOpError(module, "out of memory writing OpenCL C");
  if (ok) {
    clTextPut(out, "/* OpenCL C 1.2 written by Strata's opencl target: %zu kernels, %zu copy kernels. */\n",
              *numKernels, copies);
    if (e.usesF64) clTextPut(out, "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n");
    clTextPut(out, "%s", kPrelude);
    if (e.usesF64) clTextPut(out, "STRATA_MINMAX(double)\n\n");
    if (e.usesF16) clF16Prelude(out, e.usesF64);
    clTextPut(out, "%s", body.data ? body.data : "");
    if (out->oom) ok = false, strataEmitOpError(module, "out of memory writing OpenCL C");
  }
  free(body.data);
  return ok;
}
