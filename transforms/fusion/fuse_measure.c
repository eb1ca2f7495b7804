/* Settles Table 3.3's "profile" cells: a candidate kernel (ops forming one
 * block) is looked up in the latency database by its canonical text, or
 * measured -- compiled alone for the planned target through its fused code
 * generation (strataCompile, planned fusion) and timed on random inputs --
 * and the measurement kept. */
#include <stdlib.h>
#include <string.h>
#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/instrument.h"
#include "strata/support.h"
#include "strata/target.h"

static void printToFile(MlirStringRef s, void *user) {
  for (size_t i = 0; i < s.length; i++) {
    char ch = s.data[i];
    fputc(ch == '\n' || ch == '\t' ? ' ' : ch, (FILE *)user);
  }
}

static int indexOf(MlirOperation *ops, int n, MlirOperation op) {
  for (int i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op)) return i;
  return -1;
}

/* name(operands)->(types){attrs}; with operands "%i.r" (result r of the
 * i-th op of the kernel), "const:T" or "arg:T", taken through probes; the
 * attributes without instr.op_id. */
char *fuseKernelKey(MlirOperation *ops, int n) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  for (int i = 0; i < n; i++) {
    MlirOperation op = ops[i];
    printToFile(mlirIdentifierStr(mlirOperationGetName(op)), f);
    fputc('(', f);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); k++) {
      MlirValue v = strataInstrThroughProbes(mlirOperationGetOperand(op, k), NULL);
      int p = mlirValueIsAOpResult(v) ? indexOf(ops, n, mlirOpResultGetOwner(v)) : -1;
      if (k) fputc(',', f);
      if (p >= 0) {
        fprintf(f, "%%%d.%d", p, (int)mlirOpResultGetResultNumber(v));
        continue;
      }
      bool constant = mlirValueIsAOpResult(v) && strataOpIsNamed(mlirOpResultGetOwner(v), "nn.constant");
      fputs(constant ? "const:" : "arg:", f);
      mlirTypePrint(mlirValueGetType(v), printToFile, f);
    }
    fputs(")->(", f);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++) {
      if (r) fputc(',', f);
      mlirTypePrint(mlirValueGetType(mlirOperationGetResult(op, r)), printToFile, f);
    }
    fputs("){", f);
    bool first = true;
    for (intptr_t a = 0; a < mlirOperationGetNumAttributes(op); a++) {
      MlirNamedAttribute na = mlirOperationGetAttribute(op, a);
      /* an op id names the op, not the kernel: equal layers share entries
       * whether the function is instrumented or not */
      if (mlirStringRefEqual(mlirIdentifierStr(na.name), mlirStringRefCreateFromCString(STRATA_INSTR_OP_ID_ATTR)))
        continue;
      if (!first) fputc(',', f);
      first = false;
      printToFile(mlirIdentifierStr(na.name), f);
      fputc('=', f);
      mlirAttributePrint(na.attribute, printToFile, f);
    }
    fputs("};", f);
  }
  fclose(f);
  return text;
}

/* ---- The candidate as a function ---- */
typedef struct {
  MlirValue from[256], to[256];
  int count;
} ValueMap;

static MlirValue mapped(const ValueMap *m, MlirValue v) {
  for (int i = 0; i < m->count; i++)
    if (mlirValueEqual(m->from[i], v)) return m->to[i];
  return (MlirValue){NULL};
}

/* func.func @kernel(<external inputs>) -> (<results used outside>) holding
 * the ops (and clones of the constants they read) in one fused block. The
 * ops' operands are taken through probes and the probes left out: the
 * candidate is the kernel the function without instrumentation has. */
static MlirModule buildCandidate(MlirContext c, MlirOperation *ops, int n) {
  MlirLocation loc = mlirLocationUnknownGet(c);
  ValueMap map = {.count = 0};
  MlirType argTypes[64], outTypes[64];
  MlirValue args[64], outs[64];
  int numArgs = 0, numOuts = 0;
  for (int i = 0; i < n; i++)
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(ops[i]); k++) {
      MlirValue v = strataInstrThroughProbes(mlirOperationGetOperand(ops[i], k), NULL);
      MlirOperation p = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
      if (!mlirOperationIsNull(p) && (indexOf(ops, n, p) >= 0 || strataOpIsNamed(p, "nn.constant")))
        continue;
      bool seen = false;
      for (int a = 0; a < numArgs && !seen; a++) seen = mlirValueEqual(args[a], v);
      if (seen) continue;
      if (numArgs == 64) return (MlirModule){NULL};
      args[numArgs] = v;
      argTypes[numArgs++] = mlirValueGetType(v);
    }
  for (int i = 0; i < n; i++)
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[i]); r++) {
      MlirValue v = mlirOperationGetResult(ops[i], r);
      if ((fuseUsedOutsideOps(v, ops, n) || i == n - 1) && numOuts < 64) {
        outs[numOuts] = v;
        outTypes[numOuts++] = mlirValueGetType(v);
      }
    }
  MlirModule module = mlirModuleCreateEmpty(loc);
  StrataBuilder mb = strataBuilderAtEnd(c, mlirModuleGetBody(module));
  MlirType fnType = mlirFunctionTypeGet(c, numArgs, argTypes, numOuts, outTypes);
  MlirOperation fn = strataCreateOp(&mb, "func.func", loc,
                                    .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(c, "kernel")},
                                                          {"function_type", mlirTypeAttrGet(fnType)}),
                                    .numRegions = 1);
  MlirBlock entry = strataAddBlock(fn, 0, (StrataTypeList){argTypes, numArgs}, loc);
  for (int a = 0; a < numArgs; a++) {
    map.from[map.count] = args[a];
    map.to[map.count++] = mlirBlockGetArgument(entry, a);
  }
  StrataBuilder eb = strataBuilderAtEnd(c, entry);
  MlirOperation region = strataCreateOp(
      &eb, "scf.execute_region", loc, .results = (StrataTypeList){outTypes, numOuts},
      .attrs = STRATA_ATTRS({"no_inline", mlirUnitAttrGet(c)}), .numRegions = 1);
  MlirBlock body = strataAddBlock(region, 0, (StrataTypeList){NULL, 0}, loc);
  for (int i = 0; i < n; i++) {
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(ops[i]); k++) {
      MlirValue v = strataInstrThroughProbes(mlirOperationGetOperand(ops[i], k), NULL);
      if (mapped(&map, v).ptr || !mlirValueIsAOpResult(v)) continue;
      MlirOperation p = mlirOpResultGetOwner(v);
      if (!strataOpIsNamed(p, "nn.constant") || map.count >= 255) continue;
      MlirOperation cst = mlirOperationClone(p);
      mlirBlockAppendOwnedOperation(body, cst);
      map.from[map.count] = v;
      map.to[map.count++] = mlirOperationGetResult(cst, 0);
    }
    MlirOperation clone = mlirOperationClone(ops[i]);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(clone); k++) {
      MlirValue to = mapped(&map, strataInstrThroughProbes(mlirOperationGetOperand(ops[i], k), NULL));
      if (to.ptr) mlirOperationSetOperand(clone, k, to);
    }
    mlirBlockAppendOwnedOperation(body, clone);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[i]) && map.count < 256; r++) {
      map.from[map.count] = mlirOperationGetResult(ops[i], r);
      map.to[map.count++] = mlirOperationGetResult(clone, r);
    }
  }
  MlirValue yielded[64];
  for (int o = 0; o < numOuts; o++) yielded[o] = mapped(&map, outs[o]);
  StrataBuilder bb = strataBuilderAtEnd(c, body);
  strataCreateOp(&bb, "scf.yield", loc, .operands = (StrataValueList){yielded, numOuts});
  MlirValue results[64];
  for (int o = 0; o < numOuts; o++) results[o] = mlirOperationGetResult(region, o);
  strataCreateOp(&eb, "func.return", loc, .operands = (StrataValueList){results, numOuts});
  /* @baseline(<the same inputs>): the cost of a call that computes nothing,
   * subtracted from the kernel's, so that a fused kernel is not credited
   * with the call overhead it saves (that is not what fusion is about). */
  MlirType baseType = mlirFunctionTypeGet(c, numArgs, argTypes, 0, NULL);
  MlirOperation base = strataCreateOp(&mb, "func.func", loc,
                                      .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(c, "baseline")},
                                                            {"function_type", mlirTypeAttrGet(baseType)}),
                                      .numRegions = 1);
  MlirBlock baseEntry = strataAddBlock(base, 0, (StrataTypeList){argTypes, numArgs}, loc);
  StrataBuilder rb = strataBuilderAtEnd(c, baseEntry);
  strataCreateOp(&rb, "func.return", loc);
  return module;
}

/* The latency of the kernel `ops`: from the database, else measured (mode
 * measure) and recorded. < 0 when unknown. */
static double latency(FuseProfileState *p, MlirOperation *ops, int n) {
  char *key = fuseKernelKey(ops, n);
  double ns = -1;
  if (!key) return -1;
  if (p->db && strataFuseDbLookup(p->db, key, &ns)) {
    free(key);
    return ns;
  }
  if (p->mode != YELLOW_MEASURE) {
    p->missing++;
    free(key);
    return -1;
  }
  MlirModule m = buildCandidate(mlirOperationGetContext(ops[0]), ops, n);
  if (!mlirModuleIsNull(m)) {
    StrataCompileOptions options = {.fusion = STRATA_FUSION_PLANNED, .optLevel = 3};
    /* a failure has reported why */
    ns = strataMeasureKernel(p->ctx, m, p->target->name, &options, "kernel", "baseline");
    mlirModuleDestroy(m);
  }
  if (ns < 0) {
    p->failed++;
  } else {
    /* decide on the value the database keeps, not the finer measurement:
     * a later plan from the saved file then makes the same decisions */
    ns = fuseDbRepresentable(ns);
    if (p->db) strataFuseDbInsert(p->db, key, ns);
  }
  free(key);
  return ns;
}

static int ascending(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

bool fuseMeasureProfitable(void *state, const FuseGraph *g, const int *block, int n, int s) {
  FuseProfileState *p = state;
  /* program order, so that equal kernels get equal keys */
  int idx[n + 1];
  memcpy(idx, block, (size_t)n * sizeof *idx);
  qsort(idx, (size_t)n, sizeof *idx, ascending);
  MlirOperation apart[n], fused[n + 1];
  int k = 0;
  for (int i = 0; i < n; i++) {
    apart[i] = g->nodes[idx[i]].op;
    if (k == i && idx[i] > s) fused[k++] = g->nodes[s].op;
    fused[k++] = apart[i];
  }
  if (k == n) fused[k++] = g->nodes[s].op;
  double tFused = latency(p, fused, k);
  double tBlock = tFused < 0 ? -1 : latency(p, apart, n);
  double tSingle = tBlock < 0 ? -1 : latency(p, &g->nodes[s].op, 1);
  return tFused >= 0 && tBlock >= 0 && tSingle >= 0 && tFused <= tBlock + tSingle;
}
