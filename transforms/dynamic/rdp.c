/* The RDP analysis driver (SOD² Algorithm 2): facts for every value of a
 * function, initialised from the types (static dims constant, `?` dims of
 * the entry block's arguments symbols, everything else undef), then visits
 * of every op in program order (or reverse) -- forward transfer, backward
 * transfer into undef operands, Merge (meet) at scf.if / scf.for /
 * scf.while / scf.execute_region joins -- until a whole round changes
 * nothing. Facts only move down a finite lattice, so the rounds end; the
 * fixpoint is the same in any visiting order. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "grow.h"
#include "rdp_internal.h"
#include "strata/support.h"

typedef struct {
  MlirValue value;
  RdpFact fact;
} RdpEntry;

struct StrataRdp {
  StrataContext *ctx;
  RdpEntry *entries;
  size_t numValues, capValues;
  size_t *slots; /* open addressing over value pointers: index + 1, 0 = empty */
  size_t numSlots;
  StrataOpList ops; /* every op of the body, nested ones too, in program order */
  StrataDynamism *classes;
  char *symNames[RDP_MAX_SYMS];
  size_t numSyms;
  size_t numInputSyms; /* the first ones: `?` dims of the arguments */
  /* A derived symbol i >= numInputSyms stands for floor(defNum[i] / defDiv[i]) + 1
   * (a strided window's output size, >= 1 for a valid window). */
  RdpDim defNum[RDP_MAX_SYMS];
  int64_t defDiv[RDP_MAX_SYMS];
  size_t visits;
};

static size_t slotOf(const StrataRdp *r, MlirValue v) {
  uintptr_t h = (uintptr_t)v.ptr;
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 7) & (r->numSlots - 1);
}

static const RdpFact *factOf(const StrataRdp *r, MlirValue v) {
  if (!r->numSlots || mlirValueIsNull(v)) return NULL;
  for (size_t s = slotOf(r, v);; s = (s + 1) & (r->numSlots - 1)) {
    size_t i = r->slots[s];
    if (!i) return NULL;
    if (mlirValueEqual(r->entries[i - 1].value, v)) return &r->entries[i - 1].fact;
  }
}
static RdpFact *factOfMut(StrataRdp *r, MlirValue v) { return (RdpFact *)factOf(r, v); }

/* The fact a value starts with, from its type; false if it is not tracked. */
static bool initialFact(MlirType t, RdpFact *f) {
  memset(f, 0, sizeof *f);
  f->valueLen = -1;
  bool intElems = false;
  if (mlirTypeIsATensor(t)) {
    f->isTensor = true;
    MlirType e = mlirShapedTypeGetElementType(t);
    intElems = mlirTypeIsAInteger(e) || mlirTypeIsAIndex(e);
    if (!mlirTypeIsARankedTensor(t)) {
      f->rank = RDP_RANK_UNDEF;
      return true;
    }
    int rank;
    int64_t dims[STRATA_MAX_RANK];
    if (!strataGetShape(t, &rank, dims)) {
      f->rank = RDP_RANK_NAC; /* rank above what the analysis holds */
      return true;
    }
    f->rank = (int8_t)rank;
    for (int i = 0; i < rank; i++) f->dims[i] = dims[i] < 0 ? rdpUndef() : rdpConst(dims[i]);
    int64_t n = rank == 0 ? 1 : dims[0];
    if (intElems && rank <= 1 && n >= 0 && n <= STRATA_MAX_RANK) f->valueLen = (int8_t)n;
    return true;
  }
  if (mlirTypeIsAInteger(t) || mlirTypeIsAIndex(t)) {
    f->rank = 0;
    f->valueLen = 1;
    return true;
  }
  return false;
}

static bool addValue(StrataRdp *r, MlirValue v) {
  RdpFact f;
  if (!initialFact(mlirValueGetType(v), &f)) return true;
  RdpEntry *e = strataGrow(r->entries, &r->capValues, r->numValues + 1, sizeof *e);
  if (!e) return false;
  r->entries = e;
  r->entries[r->numValues++] = (RdpEntry){v, f};
  return true;
}

static bool buildIndex(StrataRdp *r) {
  size_t n = 16;
  while (n < 2 * r->numValues) n *= 2;
  r->slots = calloc(n, sizeof *r->slots);
  if (!r->slots) return false;
  r->numSlots = n;
  for (size_t i = 0; i < r->numValues; i++) {
    size_t s = slotOf(r, r->entries[i].value);
    while (r->slots[s]) s = (s + 1) & (n - 1);
    r->slots[s] = i + 1;
  }
  return true;
}

typedef struct {
  StrataRdp *r;
  bool ok;
} Collect;

static MlirWalkResult collectOp(MlirOperation op, void *user) {
  Collect *c = user;
  if (!strataOpListAppend(&c->r->ops, op)) goto oom;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (!addValue(c->r, mlirOperationGetResult(op, i))) goto oom;
  for (intptr_t g = 0; g < mlirOperationGetNumRegions(op); g++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, g)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(b); a++)
        if (!addValue(c->r, mlirBlockGetArgument(b, a))) goto oom;
  return MlirWalkResultAdvance;
oom:
  c->ok = false;
  return MlirWalkResultInterrupt;
}

/* The symbol named `name`, added on first use; -1 past the capacity. */
static int symbolNamed(StrataRdp *r, const char *name) {
  for (size_t i = 0; i < r->numSyms; i++)
    if (!strcmp(r->symNames[i], name)) return (int)i;
  if (r->numSyms == RDP_MAX_SYMS) return -1;
  char *copy = strdup(name);
  if (!copy) return -2;
  r->symNames[r->numSyms] = copy;
  return (int)r->numSyms++;
}

/* The ONNX importer records each argument's dim_param names (or "") as
 * the argument attribute `onnx.dim_params`. */
static bool dimParamName(MlirOperation func, intptr_t arg, int dim, char *buf, size_t size) {
  MlirAttribute all = strataOpAttr(func, "arg_attrs");
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || arg >= mlirArrayAttrGetNumElements(all))
    return false;
  MlirAttribute dict = mlirArrayAttrGetElement(all, arg);
  if (!mlirAttributeIsADictionary(dict)) return false;
  MlirAttribute names = mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("onnx.dim_params"));
  if (mlirAttributeIsNull(names) || !mlirAttributeIsAArray(names) || dim >= mlirArrayAttrGetNumElements(names))
    return false;
  MlirAttribute s = mlirArrayAttrGetElement(names, dim);
  if (!mlirAttributeIsAString(s)) return false;
  MlirStringRef ref = mlirStringAttrGetValue(s);
  if (ref.length == 0 || ref.length >= size) return false;
  memcpy(buf, ref.data, ref.length);
  buf[ref.length] = '\0';
  return true;
}

static bool seedSymbols(StrataRdp *r, MlirOperation func, MlirBlock entry) {
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(entry); a++) {
    RdpFact *f = factOfMut(r, mlirBlockGetArgument(entry, a));
    if (!f || !f->isTensor) continue;
    for (int d = 0; d < f->rank; d++) {
      if (f->dims[d].level != RDP_UNDEF) continue;
      char name[64];
      if (!dimParamName(func, a, d, name, sizeof name)) snprintf(name, sizeof name, "d%d_%d", (int)a, d);
      int s = symbolNamed(r, name);
      if (s == -2) return false;
      f->dims[d] = s < 0 ? rdpNac() : rdpSymbol(s);
    }
    if (f->valueLen > 0) /* runtime data: its elements are not constants */
      for (int i = 0; i < f->valueLen; i++) f->vals[i] = rdpNac();
  }
  return true;
}

static MlirOperation terminatorOf(MlirOperation op, intptr_t region) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, region));
  return mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetTerminator(b);
}

static bool meetValue(StrataRdp *r, MlirValue dst, MlirValue src) {
  RdpFact *d = factOfMut(r, dst);
  const RdpFact *s = factOf(r, src);
  return d && s && rdpFactMeetInto(d, s);
}

/* Merge at a control-flow join: dsts[i] ∧= srcs of `from`'s operands from `first`. */
static bool mergeFrom(StrataRdp *r, MlirValue (*dst)(void *, intptr_t), void *dstOwner, intptr_t numDst,
                      MlirOperation from, intptr_t first) {
  bool changed = false;
  if (mlirOperationIsNull(from)) return false;
  for (intptr_t i = 0; i < numDst && first + i < mlirOperationGetNumOperands(from); i++)
    changed |= meetValue(r, dst(dstOwner, i), mlirOperationGetOperand(from, first + i));
  return changed;
}
static MlirValue resultAt(void *op, intptr_t i) { return mlirOperationGetResult(*(MlirOperation *)op, i); }
static MlirValue argAt(void *block, intptr_t i) { return mlirBlockGetArgument(*(MlirBlock *)block, i); }

/* Merge for the scf ops; returns -1 if `op` is not one of them. */
static int visitControlFlow(StrataRdp *r, MlirOperation op) {
  intptr_t nres = mlirOperationGetNumResults(op);
  bool ch = false;
  if (strataOpIsNamed(op, "scf.if") || strataOpIsNamed(op, "scf.execute_region")) {
    for (intptr_t g = 0; g < mlirOperationGetNumRegions(op); g++)
      ch |= mergeFrom(r, resultAt, &op, nres, terminatorOf(op, g), 0);
    return ch;
  }
  if (strataOpIsNamed(op, "scf.for")) { /* operands: lb, ub, step, inits...; block: iv, iters... */
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    MlirOperation yield = terminatorOf(op, 0);
    for (intptr_t i = 0; i < nres; i++) {
      MlirValue arg = mlirBlockGetArgument(body, i + 1), res = mlirOperationGetResult(op, i);
      ch |= meetValue(r, arg, mlirOperationGetOperand(op, 3 + i));
      if (!mlirOperationIsNull(yield)) ch |= meetValue(r, arg, mlirOperationGetOperand(yield, i));
      ch |= meetValue(r, res, arg);
    }
    return ch;
  }
  if (strataOpIsNamed(op, "scf.while")) { /* before(args) -> condition(c, fwd...) -> after(args) -> yield */
    MlirBlock before = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    MlirBlock after = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
    intptr_t nBefore = mlirBlockGetNumArguments(before);
    for (intptr_t i = 0; i < nBefore; i++) ch |= meetValue(r, mlirBlockGetArgument(before, i), mlirOperationGetOperand(op, i));
    ch |= mergeFrom(r, argAt, &before, nBefore, terminatorOf(op, 1), 0);
    ch |= mergeFrom(r, argAt, &after, mlirBlockGetNumArguments(after), terminatorOf(op, 0), 1);
    ch |= mergeFrom(r, resultAt, &op, nres, terminatorOf(op, 0), 1);
    return ch;
  }
  return -1;
}

/* Forward then backward transfer of an op; -1 after an error. */
static int visitOp(StrataRdp *r, MlirOperation op) {
  int cf = visitControlFlow(r, op);
  if (cf >= 0) return cf;
  intptr_t nres = mlirOperationGetNumResults(op), nin = mlirOperationGetNumOperands(op);
  if (nres == 0) return 0; /* terminators: their parents merge what they pass */
  const RdpFact *inStack[16];
  RdpFact outStack[4], candStack[4];
  const RdpFact **in = nin <= 16 ? inStack : malloc((size_t)nin * sizeof *in);
  RdpFact *out = nres <= 4 ? outStack : malloc((size_t)nres * sizeof *out);
  RdpFact *cand = nin <= 4 ? candStack : malloc((size_t)nin * sizeof *cand);
  int changed = -1;
  if (!in || !out || !cand) goto done;
  for (intptr_t i = 0; i < nin; i++) in[i] = factOf(r, mlirOperationGetOperand(op, i));
  for (intptr_t j = 0; j < nres; j++)
    if (!initialFact(mlirValueGetType(mlirOperationGetResult(op, j)), &out[j])) out[j].valueLen = -1, out[j].rank = RDP_RANK_NAC;
  RdpTransfer t = {r->ctx, r, op, strataContextGetOpDef(r->ctx, op), in, nin, out, nres};
  if (!rdpForward(&t)) goto done;
  changed = 0;
  for (intptr_t j = 0; j < nres; j++) {
    RdpFact *f = factOfMut(r, mlirOperationGetResult(op, j));
    if (f) changed |= rdpFactMeetInto(f, &out[j]);
  }
  /* Backward: what the (updated) results say of operands still undef. */
  for (intptr_t j = 0; j < nres; j++) {
    const RdpFact *f = factOf(r, mlirOperationGetResult(op, j));
    if (f) out[j] = *f;
  }
  for (intptr_t i = 0; i < nin; i++) {
    memset(&cand[i], 0, sizeof cand[i]);
    cand[i].rank = RDP_RANK_UNDEF;
    cand[i].valueLen = -1;
  }
  if (rdpBackward(&t, cand))
    for (intptr_t i = 0; i < nin; i++) {
      RdpFact *f = factOfMut(r, mlirOperationGetOperand(op, i));
      if (f) changed |= rdpFactFillUndef(f, &cand[i]);
    }
done:
  if (in != inStack) free(in);
  if (out != outStack) free(out);
  if (cand != candStack) free(cand);
  if (changed < 0 && (!in || !out || !cand)) strataEmitOpError(op, "out of memory in the RDP analysis");
  return changed;
}

/* ---- Derived symbols ------------------------------------------------------ */

RdpDim rdpWindowSize(StrataRdp *r, const RdpDim *num, int64_t div) {
  RdpDim one = rdpConst(1), d = rdpConst(div), q = rdpDivExact(num, &d);
  if (div == 1 || q.level != RDP_NAC || !rdpIsKnown(num) || div < 1) return rdpAdd(&q, &one);
  int64_t c;
  if (rdpGetConst(num, &c)) /* floor division of a constant (div >= 2 here) */
    return c > INT64_MIN / 2 ? rdpConst((c >= 0 ? c / div : -((-c + div - 1) / div)) + 1) : rdpNac();
  for (size_t i = r->numInputSyms; i < r->numSyms; i++)
    if (r->defDiv[i] == div && rdpEqual(&r->defNum[i], num)) return rdpSymbol((int)i);
  if (r->numSyms == RDP_MAX_SYMS) return rdpNac();
  /* Named for what it is: floor(num/div) + 1 = floor((num + div)/div),
   * which is ceil(x/div) when num = x - 1. */
  char text[200], name[256];
  RdpDim x = rdpAdd(num, &one), shifted = rdpAdd(num, &d);
  bool ceilForm = x.level == RDP_KNOWN && x.numTerms == 1;
  rdpPrint(ceilForm ? &x : &shifted, (const char *const *)r->symNames, text, sizeof text);
  bool sum = !ceilForm && shifted.numTerms > 1;
  snprintf(name, sizeof name, "%s(%s%s%s/%lld)", ceilForm ? "ceil" : "floor", sum ? "(" : "", text, sum ? ")" : "",
           (long long)div);
  char *copy = strdup(name);
  if (!copy) return rdpNac();
  size_t i = r->numSyms++;
  r->symNames[i] = copy;
  r->defNum[i] = *num;
  r->defDiv[i] = div;
  return rdpSymbol((int)i);
}

static void markUsed(const RdpDim *d, bool *used) {
  if (d->level != RDP_KNOWN) return;
  for (int k = 0; k < d->numTerms; k++)
    for (int s = 0; s < RDP_MAX_SYMS; s++) used[s] |= d->terms[k].exp[s] != 0;
}

static int compareNames(const void *a, const void *b) {
  const char *const *x = a, *const *y = b;
  return strcmp(*x, *y);
}

/* Derived symbols are numbered as the visits meet them, which depends on
 * the visiting order; the result must not. Keeps those still used (by a
 * fact, or by a kept definition), sorted by name, after the input symbols,
 * and rewrites every fact to the new numbering. */
static bool renumberDerived(StrataRdp *r) {
  bool used[RDP_MAX_SYMS] = {false};
  for (size_t i = 0; i < r->numValues; i++) {
    const RdpFact *f = &r->entries[i].fact;
    for (int d = 0; d < f->rank; d++) markUsed(&f->dims[d], used);
    for (int k = 0; k < f->valueLen; k++) markUsed(&f->vals[k], used);
  }
  for (size_t i = r->numSyms; i-- > r->numInputSyms;) /* definitions refer to earlier symbols */
    if (used[i]) markUsed(&r->defNum[i], used);
  const char *kept[RDP_MAX_SYMS];
  size_t numKept = 0;
  for (size_t i = r->numInputSyms; i < r->numSyms; i++)
    if (used[i]) kept[numKept++] = r->symNames[i];
  qsort(kept, numKept, sizeof *kept, compareNames);
  int perm[RDP_MAX_SYMS];
  for (size_t i = 0; i < r->numSyms; i++) perm[i] = i < r->numInputSyms ? (int)i : -1;
  for (size_t k = 0; k < numKept; k++)
    for (size_t i = r->numInputSyms; i < r->numSyms; i++)
      if (r->symNames[i] == kept[k]) perm[i] = (int)(r->numInputSyms + k);
  char *names[RDP_MAX_SYMS];
  RdpDim defs[RDP_MAX_SYMS];
  int64_t divs[RDP_MAX_SYMS];
  for (size_t i = 0; i < r->numSyms; i++) {
    if (perm[i] < 0) {
      free(r->symNames[i]);
      continue;
    }
    names[perm[i]] = r->symNames[i];
    defs[perm[i]] = rdpRenumber(&r->defNum[i], perm);
    divs[perm[i]] = r->defDiv[i];
  }
  r->numSyms = r->numInputSyms + numKept;
  for (size_t i = 0; i < r->numSyms; i++) {
    r->symNames[i] = names[i];
    r->defNum[i] = defs[i];
    r->defDiv[i] = divs[i];
  }
  for (size_t i = 0; i < r->numValues; i++) {
    RdpFact *f = &r->entries[i].fact;
    for (int d = 0; d < f->rank; d++) f->dims[d] = rdpRenumber(&f->dims[d], perm);
    for (int k = 0; k < f->valueLen; k++) f->vals[k] = rdpRenumber(&f->vals[k], perm);
  }
  return true;
}

bool rdpSymbolValues(const StrataRdp *r, const int64_t *inputs, int64_t *all) {
  bool known[RDP_MAX_SYMS] = {false};
  for (size_t i = 0; i < r->numInputSyms; i++) all[i] = inputs[i], known[i] = true;
  /* Each pass computes the derived symbols whose definitions are ready. */
  for (size_t pass = 0; pass < r->numSyms; pass++)
    for (size_t i = r->numInputSyms; i < r->numSyms; i++) {
      if (known[i]) continue;
      bool ready = true;
      const RdpDim *d = &r->defNum[i];
      for (int k = 0; k < d->numTerms; k++)
        for (int s = 0; s < RDP_MAX_SYMS; s++) ready &= !d->terms[k].exp[s] || known[s];
      int64_t num;
      if (!ready) continue;
      if (!rdpEval(d, all, r->numSyms, &num) || num <= INT64_MIN / 2) return false;
      int64_t q = num >= 0 ? num / r->defDiv[i] : -((-num + r->defDiv[i] - 1) / r->defDiv[i]);
      if (!strataCheckedAdd(q, 1, &all[i])) return false;
      known[i] = true;
    }
  for (size_t i = 0; i < r->numSyms; i++)
    if (!known[i]) return false;
  return true;
}

static bool isConstantOp(MlirValue v) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation p = mlirOpResultGetOwner(v);
  return strataOpIsNamed(p, "nn.constant") || strataOpIsNamed(p, "arith.constant");
}

/* ISVDOS demoted to ISDOS when every shape-deciding operand is known. */
static StrataDynamism effectiveClass(StrataRdp *r, MlirOperation op) {
  const StrataOpDef *def = strataContextGetOpDef(r->ctx, op);
  if (!def) return 0;
  if (def->dynamism != STRATA_DYN_ISVDOS) return def->dynamism;
  for (intptr_t i = 1; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    const RdpFact *f = factOf(r, v);
    if (!isConstantOp(v) && !(f && rdpValueKnown(f))) return def->dynamism;
  }
  return STRATA_DYN_ISDOS;
}

StrataRdp *strataRdpRun(StrataContext *ctx, MlirOperation func, bool reverseOrder) {
  if (!strataOpIsNamed(func, "func.func") || mlirRegionIsNull(mlirOperationGetRegion(func, 0)) ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)))) {
    strataEmitOpError(func, "the RDP analysis runs on a func.func with a body");
    return NULL;
  }
  StrataRdp *r = calloc(1, sizeof *r);
  if (!r) return NULL;
  r->ctx = ctx;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  Collect c = {r, true};
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(entry); a++) c.ok = c.ok && addValue(r, mlirBlockGetArgument(entry, a));
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); c.ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, collectOp, &c, MlirWalkPreOrder);
  if (!c.ok || !buildIndex(r) || !seedSymbols(r, func, entry)) {
    strataEmitOpError(func, "out of memory in the RDP analysis");
    goto fail;
  }
  r->numInputSyms = r->numSyms;
  /* Each round either lowers some element of the finite lattice or ends. */
  size_t maxRounds = 2 + 3 * r->numValues * (2 * STRATA_MAX_RANK + 1);
  for (size_t round = 0;; round++) {
    if (round > maxRounds) {
      strataEmitOpError(func, "the RDP analysis did not converge (internal error)");
      goto fail;
    }
    bool changed = false;
    for (size_t k = 0; k < r->ops.count; k++) {
      MlirOperation op = r->ops.ops[reverseOrder ? r->ops.count - 1 - k : k];
      int ch = visitOp(r, op);
      r->visits++;
      if (ch < 0) goto fail;
      changed |= ch > 0;
    }
    if (!changed) break;
  }
  if (!renumberDerived(r)) {
    strataEmitOpError(func, "out of memory in the RDP analysis");
    goto fail;
  }
  r->classes = calloc(r->ops.count ? r->ops.count : 1, sizeof *r->classes);
  if (!r->classes) goto fail;
  for (size_t k = 0; k < r->ops.count; k++) r->classes[k] = effectiveClass(r, r->ops.ops[k]);
  return r;
fail:
  strataRdpDestroy(r);
  return NULL;
}

void strataRdpDestroy(StrataRdp *r) {
  if (!r) return;
  for (size_t i = 0; i < r->numSyms; i++) free(r->symNames[i]);
  free(r->entries);
  free(r->slots);
  free(r->classes);
  strataOpListDestroy(&r->ops);
  free(r);
}

size_t strataRdpNumSymbols(const StrataRdp *r) { return r->numSyms; }
size_t strataRdpNumInputSymbols(const StrataRdp *r) { return r->numInputSyms; }
const char *strataRdpSymbolName(const StrataRdp *r, size_t i) { return i < r->numSyms ? r->symNames[i] : NULL; }
size_t strataRdpNumVisits(const StrataRdp *r) { return r->visits; }

int strataRdpRankOf(const StrataRdp *r, MlirValue v) {
  const RdpFact *f = factOf(r, v);
  return f && f->isTensor ? f->rank : -3;
}

static StrataRdpKind report(const StrataRdp *r, const RdpDim *d, int64_t *constant, char *buf, size_t size) {
  StrataRdpKind k = rdpKind(d);
  if (constant && k == STRATA_RDP_CONST) rdpGetConst(d, constant);
  if (buf) rdpPrint(d, (const char *const *)r->symNames, buf, size);
  return k;
}

StrataRdpKind strataRdpDimOf(const StrataRdp *r, MlirValue v, int dim, int64_t *constant, char *buf,
                             size_t size) {
  const RdpFact *f = factOf(r, v);
  RdpDim d = rdpUndef();
  if (f && f->isTensor && f->rank == RDP_RANK_NAC) d = rdpNac();
  else if (f && f->isTensor && dim >= 0 && dim < f->rank) d = f->dims[dim];
  return report(r, &d, constant, buf, size);
}

int strataRdpValueLength(const StrataRdp *r, MlirValue v) {
  const RdpFact *f = factOf(r, v);
  return f ? f->valueLen : -1;
}

StrataRdpKind strataRdpValueOf(const StrataRdp *r, MlirValue v, int i, int64_t *constant, char *buf,
                               size_t size) {
  const RdpFact *f = factOf(r, v);
  RdpDim d = f && i >= 0 && i < f->valueLen ? f->vals[i] : rdpUndef();
  return report(r, &d, constant, buf, size);
}

/* "[a, b, c]" of n elements into buf. */
static void listString(const StrataRdp *r, const RdpDim *ds, int n, char *buf, size_t size) {
  size_t used = (size_t)snprintf(buf, size, "[");
  for (int i = 0; i < n && used < size; i++) {
    char one[128];
    rdpPrint(&ds[i], (const char *const *)r->symNames, one, sizeof one);
    used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "", one);
  }
  if (used < size) snprintf(buf + used, size - used, "]");
}

void strataRdpShapeString(const StrataRdp *r, MlirValue v, char *buf, size_t size) {
  if (!size) return;
  const RdpFact *f = factOf(r, v);
  if (!f || !f->isTensor) snprintf(buf, size, "-");
  else if (f->rank == RDP_RANK_UNDEF) snprintf(buf, size, "undef");
  else if (f->rank == RDP_RANK_NAC) snprintf(buf, size, "nac");
  else listString(r, f->dims, f->rank, buf, size);
}

bool rdpValueString(const StrataRdp *r, MlirValue v, char *buf, size_t size) {
  const RdpFact *f = factOf(r, v);
  if (!f || f->valueLen < 0 || !size) return false;
  bool any = false;
  for (int i = 0; i < f->valueLen; i++) any |= f->vals[i].level == RDP_KNOWN;
  if (any) listString(r, f->vals, f->valueLen, buf, size);
  return any;
}

bool strataRdpEvalDim(const StrataRdp *r, MlirValue v, int dim, const int64_t *symbolValues,
                      size_t numSymbols, int64_t *out) {
  const RdpFact *f = factOf(r, v);
  int64_t all[RDP_MAX_SYMS];
  if (!f || !f->isTensor || dim < 0 || dim >= f->rank || numSymbols < r->numInputSyms ||
      !rdpSymbolValues(r, symbolValues, all))
    return false;
  return rdpEval(&f->dims[dim], all, r->numSyms, out);
}

StrataDynamism strataRdpClassOf(const StrataRdp *r, MlirOperation op) {
  for (size_t k = 0; k < r->ops.count; k++)
    if (mlirOperationEqual(r->ops.ops[k], op)) return r->classes[k];
  return 0;
}

const RdpFact *rdpFactOf(const StrataRdp *r, MlirValue v) { return factOf(r, v); }
const char *const *rdpSymbolNames(const StrataRdp *r) { return (const char *const *)r->symNames; }
