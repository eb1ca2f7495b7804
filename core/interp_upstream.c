/* Reference semantics for the upstream ops control flow brings into a
 * function of Strata ops: scf.if / scf.for / scf.while (their regions run
 * through strataInterpretBlock; also scf.execute_region, nn-fuse's blocks),
 * func.call (the callee's body, e.g. pred-lower's outlined unlikely guards),
 * the tensor ops that move scalars and slices
 * in and out of tensors (and tensor.cast between static and '?' extents), and the arith ops on scalars (elementwise on
 * tensors too, since arith ops are). Integers follow arith's two's-complement
 * semantics exactly (no detour through double); where arith leaves a result
 * undefined (division by zero, an out-of-range float-to-int conversion) the
 * interpreter refuses with a located error rather than inventing a value. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "internal.h"
#include "strata/support.h"

typedef struct {
  StrataInterp *in;
  MlirOperation op;
  MlirLocation loc;
  const char *full, *name; /* the op name, and it without the dialect prefix */
  StrataTensor **ins; /* the operands' values (the interpreter's) */
  intptr_t nIn;
} Ctx;

static bool is(const Ctx *c, const char *n) { return !strcmp(c->name, n); }

#define FAIL(c, ...)                                                                               \
  do {                                                                                             \
    strataEmitError((c)->loc, __VA_ARGS__);                                                        \
    return mlirLogicalResultFailure();                                                             \
  } while (0)

/* ---- Integers: two's complement of the element type's width ---- */

static int widthOf(MlirType t) {
  if (mlirTypeIsAShaped(t)) t = mlirShapedTypeGetElementType(t);
  if (mlirTypeIsAIndex(t)) return 64;
  return mlirTypeIsAInteger(t) ? (int)mlirIntegerTypeGetWidth(t) : 0;
}

static uint64_t zextBits(int64_t v, int w) { return w >= 64 ? (uint64_t)v : (uint64_t)v & ((UINT64_C(1) << w) - 1); }

static int64_t sextBits(int64_t v, int w) {
  if (w >= 64) return v;
  uint64_t u = zextBits(v, w), sign = UINT64_C(1) << (w - 1);
  return (int64_t)((u ^ sign) - sign);
}

static int64_t getInt(const StrataTensor *t, int64_t i) {
  switch (t->dtype) {
  case STRATA_DTYPE_I1: return ((const uint8_t *)t->data)[i] & 1;
  case STRATA_DTYPE_I8: return ((const int8_t *)t->data)[i];
  case STRATA_DTYPE_U8: return ((const uint8_t *)t->data)[i];
  case STRATA_DTYPE_I16: return ((const int16_t *)t->data)[i];
  case STRATA_DTYPE_I32: return ((const int32_t *)t->data)[i];
  case STRATA_DTYPE_I64: return ((const int64_t *)t->data)[i];
  case STRATA_DTYPE_U16: return ((const uint16_t *)t->data)[i];
  case STRATA_DTYPE_U32: return ((const uint32_t *)t->data)[i];
  case STRATA_DTYPE_U64: return (int64_t)((const uint64_t *)t->data)[i];
  default: return 0;
  }
}

/* Stores the low bits of v (the value truncated to the element width). */
static void setInt(StrataTensor *t, int64_t i, int64_t v) {
  switch (t->dtype) {
  case STRATA_DTYPE_I1: ((uint8_t *)t->data)[i] = (uint8_t)(v & 1); break;
  case STRATA_DTYPE_I8: ((int8_t *)t->data)[i] = (int8_t)sextBits(v, 8); break;
  case STRATA_DTYPE_U8: ((uint8_t *)t->data)[i] = (uint8_t)zextBits(v, 8); break;
  case STRATA_DTYPE_I16: ((int16_t *)t->data)[i] = (int16_t)sextBits(v, 16); break;
  case STRATA_DTYPE_I32: ((int32_t *)t->data)[i] = (int32_t)sextBits(v, 32); break;
  case STRATA_DTYPE_I64: ((int64_t *)t->data)[i] = v; break;
  case STRATA_DTYPE_U16: ((uint16_t *)t->data)[i] = (uint16_t)zextBits(v, 16); break;
  case STRATA_DTYPE_U32: ((uint32_t *)t->data)[i] = (uint32_t)zextBits(v, 32); break;
  case STRATA_DTYPE_U64: ((uint64_t *)t->data)[i] = (uint64_t)v; break;
  default: break;
  }
}

static bool isIntDType(StrataDType d) {
  return d == STRATA_DTYPE_I1 || d == STRATA_DTYPE_I8 || d == STRATA_DTYPE_U8 || d == STRATA_DTYPE_I16 ||
         d == STRATA_DTYPE_I32 || d == STRATA_DTYPE_I64 || d == STRATA_DTYPE_U16 || d == STRATA_DTYPE_U32 ||
         d == STRATA_DTYPE_U64;
}

/* ---- Operands and results ---- */

static MlirAttribute attrOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

static MlirType resultType(const Ctx *c, intptr_t i) {
  return mlirValueGetType(mlirOperationGetResult(c->op, i));
}

/* A fresh tensor of result i's held type; NULL after an error. */
static StrataTensor *newResult(const Ctx *c, intptr_t i) {
  MlirType held = strataInterpHeldType(resultType(c, i));
  StrataTensor *t = strataTensorCreateForType(held);
  if (!t) {
    char ts[256], why[160];
    strataTypeToString(resultType(c, i), ts, sizeof ts);
    strataTensorTypeProblem(held, why, sizeof why);
    strataEmitError(c->loc, "interpreter: result #%d of '%s' has type %s, which %s", (int)i, c->full, ts,
                    why);
  }
  return t;
}

/* Binds result i to t (taking it); false after an error. */
static bool bind(const Ctx *c, intptr_t i, StrataTensor *t) {
  if (!t) return false;
  if (!strataTensorMatchesType(t, strataInterpHeldType(resultType(c, i)))) {
    char want[256], have[256];
    strataTypeToString(resultType(c, i), want, sizeof want);
    strataTensorFormatType(t, have, sizeof have);
    strataEmitError(c->loc, "interpreter: result #%d is %s, the op declares %s", (int)i, have, want);
    strataTensorDestroy(t);
    return false;
  }
  return strataInterpSet(c->in, mlirOperationGetResult(c->op, i), t);
}

static MlirLogicalResult bindAll(const Ctx *c, StrataTensor **ts, size_t n) {
  bool ok = (intptr_t)n == mlirOperationGetNumResults(c->op);
  if (!ok)
    strataEmitError(c->loc, "interpreter: the region passed on %zu values for %d results", n,
                    (int)mlirOperationGetNumResults(c->op));
  for (size_t i = 0; i < n; i++) {
    if (ok) ok = bind(c, (intptr_t)i, ts[i]);
    else strataTensorDestroy(ts[i]);
  }
  free(ts);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static void destroyAll(StrataTensor **ts, size_t n) {
  for (size_t i = 0; i < n; i++) strataTensorDestroy(ts[i]);
  free(ts);
}

/* ---- scf ---- */

static MlirLogicalResult runIf(Ctx *c) {
  bool taken = getInt(c->ins[0], 0) != 0;
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, taken ? 0 : 1));
  if (mlirBlockIsNull(block)) /* no else region: no results either (the verifier says so) */
    return mlirLogicalResultSuccess();
  StrataTensor **res;
  size_t n;
  if (mlirLogicalResultIsFailure(strataInterpretBlock(c->in, block, NULL, 0, &res, &n)))
    return mlirLogicalResultFailure();
  return bindAll(c, res, n);
}

/* scf.execute_region (a fused block): its one block, run once. */
static MlirLogicalResult runRegion(Ctx *c) {
  MlirRegion region = mlirOperationGetRegion(c->op, 0);
  MlirBlock block = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(block) || !mlirBlockIsNull(mlirBlockGetNextInRegion(block)))
    FAIL(c, "interpreter: 'scf.execute_region' with more than one block has no reference semantics");
  StrataTensor **res;
  size_t n;
  if (mlirLogicalResultIsFailure(strataInterpretBlock(c->in, block, NULL, 0, &res, &n)))
    return mlirLogicalResultFailure();
  return bindAll(c, res, n);
}

/* ---- func.call ---- */

/* func.call @f(args): f's body run on copies of the arguments, its
 * func.return's operands the results. f is looked up in the module around
 * the call; a function without a body, or one already running (recursion:
 * the interpreter keeps one value per SSA value), is refused. */
static MlirLogicalResult runCall(Ctx *c) {
  MlirAttribute callee = strataOpAttr(c->op, "callee");
  if (!mlirAttributeIsAFlatSymbolRef(callee)) FAIL(c, "interpreter: 'func.call' without a callee");
  MlirStringRef want = mlirFlatSymbolRefAttrGetValue(callee);
  MlirOperation f = strataCallee(c->op);
  MlirBlock body = mlirOperationIsNull(f) ? (MlirBlock){NULL}
                                          : mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  if (mlirBlockIsNull(body))
    FAIL(c, "interpreter: '@%.*s' has no body to run (an external function has no reference semantics)",
         (int)want.length, want.data);
  if (!mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    FAIL(c, "interpreter: '@%.*s' has more than one block", (int)want.length, want.data);
  if (!strataInterpEnterCall(c->in, f))
    FAIL(c, "interpreter: '@%.*s' is already running (recursion) or calls nest deeper than %d",
         (int)want.length, want.data, STRATA_INTERP_MAX_CALLS);
  StrataTensor **res;
  size_t n;
  MlirLogicalResult r = strataInterpretBlock(c->in, body, c->ins, (size_t)c->nIn, &res, &n);
  strataInterpLeaveCall(c->in);
  if (mlirLogicalResultIsFailure(r)) return r;
  return bindAll(c, res, n);
}

/* scf.for: lower bound, upper bound, step, then the iter_args' initial values. */
static MlirLogicalResult runFor(Ctx *c) {
  int w = widthOf(mlirValueGetType(mlirOperationGetOperand(c->op, 0)));
  bool unsignedCmp = !mlirAttributeIsNull(attrOf(c->op, "unsignedCmp"));
  int64_t lb = getInt(c->ins[0], 0), ub = getInt(c->ins[1], 0), step = getInt(c->ins[2], 0);
  if (unsignedCmp ? zextBits(step, w) == 0 : sextBits(step, w) <= 0)
    FAIL(c, "interpreter: 'scf.for' has step %lld; it must be positive", (long long)step);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 0));
  size_t nIter = (size_t)(c->nIn - 3);
  StrataTensor *args[nIter + 1];
  StrataTensor **cur = calloc(nIter ? nIter : 1, sizeof *cur);
  StrataTensor *iv = strataTensorCreateForType(strataInterpHeldType(mlirValueGetType(mlirBlockGetArgument(body, 0))));
  bool ok = cur && iv;
  for (size_t i = 0; ok && i < nIter; i++) ok = (cur[i] = strataTensorCopy(c->ins[3 + i])) != NULL;
  for (int64_t i = lb; ok && (unsignedCmp ? zextBits(i, w) < zextBits(ub, w) : sextBits(i, w) < sextBits(ub, w));) {
    setInt(iv, 0, i);
    args[0] = iv;
    for (size_t k = 0; k < nIter; k++) args[1 + k] = cur[k];
    StrataTensor **next;
    size_t n;
    ok = mlirLogicalResultIsSuccess(strataInterpretBlock(c->in, body, args, nIter + 1, &next, &n));
    if (!ok) break;
    destroyAll(cur, nIter);
    cur = next;
    if (n != nIter) {
      strataEmitError(c->loc, "interpreter: the 'scf.for' body yields %zu values for %zu iter_args", n, nIter);
      nIter = n;
      ok = false;
      break;
    }
    /* The induction variable wraps like the width's arithmetic; stop when
     * it would (the loop would run past ub otherwise). */
    int64_t nextI = sextBits((int64_t)((uint64_t)i + (uint64_t)step), w);
    if (unsignedCmp ? zextBits(nextI, w) <= zextBits(i, w) : nextI <= i) break;
    i = nextI;
  }
  strataTensorDestroy(iv);
  if (!ok) {
    if (cur) destroyAll(cur, nIter);
    return mlirLogicalResultFailure();
  }
  return bindAll(c, cur, nIter);
}

/* scf.while: the before region decides (scf.condition's first operand) and
 * passes its other operands to the after region or out as the results. */
static MlirLogicalResult runWhile(Ctx *c) {
  MlirBlock before = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 0));
  MlirBlock after = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 1));
  StrataTensor **cur = calloc(c->nIn ? (size_t)c->nIn : 1, sizeof *cur);
  size_t nCur = (size_t)c->nIn;
  bool ok = cur != NULL;
  for (size_t i = 0; ok && i < nCur; i++) ok = (cur[i] = strataTensorCopy(c->ins[i])) != NULL;
  while (ok) {
    StrataTensor **cond;
    size_t n;
    ok = mlirLogicalResultIsSuccess(strataInterpretBlock(c->in, before, cur, nCur, &cond, &n));
    if (!ok) break;
    destroyAll(cur, nCur);
    cur = NULL;
    nCur = 0;
    if (n == 0) { /* the verifier requires the condition; be safe anyway */
      free(cond);
      FAIL(c, "interpreter: 'scf.condition' passes no condition");
    }
    bool go = getInt(cond[0], 0) != 0;
    strataTensorDestroy(cond[0]);
    if (!go) {
      memmove(cond, cond + 1, (n - 1) * sizeof *cond);
      return bindAll(c, cond, n - 1);
    }
    StrataTensor **next;
    size_t m;
    ok = mlirLogicalResultIsSuccess(strataInterpretBlock(c->in, after, cond + 1, n - 1, &next, &m));
    for (size_t i = 1; i < n; i++) strataTensorDestroy(cond[i]);
    free(cond);
    if (ok) cur = next, nCur = m;
  }
  if (cur) destroyAll(cur, nCur);
  return mlirLogicalResultFailure();
}

/* ---- tensor ---- */

/* The row-major flat index of `idx` in t; false if out of bounds. */
static bool flatIndex(const StrataTensor *t, const int64_t *idx, int64_t *flat) {
  int64_t f = 0;
  for (int d = 0; d < t->rank; d++) {
    if (idx[d] < 0 || idx[d] >= t->dims[d]) return false;
    f = f * t->dims[d] + idx[d];
  }
  *flat = f;
  return true;
}

static void copyElement(StrataTensor *dst, int64_t di, const StrataTensor *src, int64_t si) {
  size_t sz = strataDTypeSize(src->dtype);
  memcpy((char *)dst->data + (size_t)di * sz, (const char *)src->data + (size_t)si * sz, sz);
}

static MlirLogicalResult runExtract(Ctx *c) {
  const StrataTensor *t = c->ins[0];
  int64_t idx[STRATA_MAX_RANK], flat;
  for (int d = 0; d < t->rank; d++) idx[d] = getInt(c->ins[1 + d], 0);
  if (!flatIndex(t, idx, &flat)) FAIL(c, "interpreter: 'tensor.extract' index out of bounds");
  StrataTensor *r = newResult(c, 0);
  if (!r) return mlirLogicalResultFailure();
  copyElement(r, 0, t, flat);
  return bind(c, 0, r) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static MlirLogicalResult runFromElements(Ctx *c) {
  StrataTensor *r = newResult(c, 0);
  if (!r) return mlirLogicalResultFailure();
  if (strataTensorNumElements(r) != c->nIn) {
    strataTensorDestroy(r);
    FAIL(c, "interpreter: 'tensor.from_elements' has %d elements for its result type", (int)c->nIn);
  }
  for (intptr_t i = 0; i < c->nIn; i++) copyElement(r, i, c->ins[i], 0);
  return bind(c, 0, r) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* The offsets, sizes and strides of a slice op whose dynamic values start at
 * operand `first`; false after an error. */
static bool sliceParams(Ctx *c, intptr_t first, int rank, int64_t *off, int64_t *size, int64_t *stride) {
  static const char *const kNames[3] = {"static_offsets", "static_sizes", "static_strides"};
  int64_t *outs[3] = {off, size, stride};
  intptr_t next = first;
  for (int k = 0; k < 3; k++) {
    MlirAttribute a = attrOf(c->op, kNames[k]);
    if (mlirAttributeIsNull(a) || mlirDenseArrayGetNumElements(a) != rank) {
      strataEmitError(c->loc, "interpreter: '%s' does not match the rank %d", kNames[k], rank);
      return false;
    }
    for (int d = 0; d < rank; d++) {
      int64_t v = mlirDenseI64ArrayGetElement(a, d);
      if (v == INT64_MIN) { /* ShapedType::kDynamic: the next dynamic operand */
        if (next >= c->nIn) {
          strataEmitError(c->loc, "interpreter: '%s' has fewer dynamic operands than its attributes name", c->full);
          return false;
        }
        v = getInt(c->ins[next++], 0);
      }
      outs[k][d] = v;
    }
  }
  return true;
}

/* Walks the slice (offset, size, stride) of `big`, calling back with the flat
 * index into big and the running flat index into the slice (row-major over
 * `size`, which is also a rank-reduced small tensor's order). */
static bool walkSlice(const StrataTensor *big, const int64_t *off, const int64_t *size, const int64_t *stride,
                      StrataTensor *dst, const StrataTensor *src, bool insert) {
  int rank = big->rank;
  int64_t idx[STRATA_MAX_RANK] = {0}, total = 1;
  for (int d = 0; d < rank; d++) {
    if (size[d] < 0 || (size[d] && total > INT64_MAX / size[d])) return false;
    total *= size[d];
    if (size[d] && (off[d] < 0 || off[d] + (size[d] - 1) * stride[d] >= big->dims[d] ||
                    off[d] + (size[d] - 1) * stride[d] < 0))
      return false;
  }
  if (strataTensorNumElements(insert ? src : dst) != total) return false; /* the small side */
  for (int64_t s = 0; s < total; s++) {
    int64_t pos[STRATA_MAX_RANK], flat;
    for (int d = 0; d < rank; d++) pos[d] = off[d] + idx[d] * stride[d];
    if (!flatIndex(big, pos, &flat)) return false;
    if (insert) copyElement(dst, flat, src, s);
    else copyElement(dst, s, src, flat);
    for (int d = rank - 1; d >= 0 && ++idx[d] == size[d]; d--) idx[d] = 0;
  }
  return true;
}

static MlirLogicalResult runSlice(Ctx *c, bool insert) {
  const StrataTensor *big = insert ? c->ins[1] : c->ins[0];
  int64_t off[STRATA_MAX_RANK], size[STRATA_MAX_RANK], stride[STRATA_MAX_RANK];
  if (!sliceParams(c, insert ? 2 : 1, big->rank, off, size, stride)) return mlirLogicalResultFailure();
  StrataTensor *r = insert ? strataTensorCopy(big) : newResult(c, 0);
  if (!r) return mlirLogicalResultFailure();
  if (!walkSlice(big, off, size, stride, r, insert ? c->ins[0] : big, insert)) {
    strataTensorDestroy(r);
    FAIL(c, "interpreter: '%s' slice is out of bounds or does not match the %s's shape", c->full,
         insert ? "source" : "result");
  }
  return bind(c, 0, r) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* ---- arith ---- */

static MlirLogicalResult runConstant(Ctx *c) {
  MlirAttribute v = attrOf(c->op, "value");
  StrataTensor *t = NULL;
  if (mlirAttributeIsAInteger(v) || mlirAttributeIsAFloat(v)) {
    t = newResult(c, 0);
    if (!t) return mlirLogicalResultFailure();
    if (mlirAttributeIsAInteger(v)) setInt(t, 0, mlirIntegerAttrGetValueInt(v));
    else strataTensorSetDouble(t, 0, mlirFloatAttrGetValueDouble(v));
  } else {
    t = strataTensorFromAttr(v);
    if (!t) FAIL(c, "interpreter: cannot read the value of this 'arith.constant'");
  }
  return bind(c, 0, t) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static bool fcmp(int64_t pred, double a, double b) {
  bool unord = isnan(a) || isnan(b);
  switch (pred) {
  case 0: return false;
  case 1: return !unord && a == b;
  case 2: return !unord && a > b;
  case 3: return !unord && a >= b;
  case 4: return !unord && a < b;
  case 5: return !unord && a <= b;
  case 6: return !unord && a != b;
  case 7: return !unord;
  case 8: return unord || a == b;
  case 9: return unord || a > b;
  case 10: return unord || a >= b;
  case 11: return unord || a < b;
  case 12: return unord || a <= b;
  case 13: return unord || a != b;
  case 14: return unord;
  default: return true;
  }
}

static bool icmp(int64_t pred, int64_t a, int64_t b, int w) {
  int64_t sa = sextBits(a, w), sb = sextBits(b, w);
  uint64_t ua = zextBits(a, w), ub = zextBits(b, w);
  switch (pred) {
  case 0: return ua == ub;
  case 1: return ua != ub;
  case 2: return sa < sb;
  case 3: return sa <= sb;
  case 4: return sa > sb;
  case 5: return sa >= sb;
  case 6: return ua < ub;
  case 7: return ua <= ub;
  case 8: return ua > ub;
  default: return ua >= ub;
  }
}

/* One element of an integer binary op at width w; false after an error. */
static bool intBinary(Ctx *c, int64_t a, int64_t b, int w, int64_t *r) {
  int64_t sa = sextBits(a, w), sb = sextBits(b, w);
  uint64_t ua = zextBits(a, w), ub = zextBits(b, w);
  bool sdiv = is(c, "divsi") || is(c, "remsi"), udiv = is(c, "divui") || is(c, "remui");
  if ((sdiv && sb == 0) || (udiv && ub == 0)) {
    strataEmitError(c->loc, "interpreter: 'arith.%s' divides by zero", c->name);
    return false;
  }
  if (sdiv && sb == -1 && sa == (w >= 64 ? INT64_MIN : -(INT64_C(1) << (w - 1)))) {
    strataEmitError(c->loc, "interpreter: 'arith.%s' overflows (the smallest i%d divided by -1)", c->name, w);
    return false;
  }
  if (is(c, "addi")) *r = (int64_t)(ua + ub);
  else if (is(c, "subi")) *r = (int64_t)(ua - ub);
  else if (is(c, "muli")) *r = (int64_t)(ua * ub);
  else if (is(c, "divsi")) *r = sa / sb;
  else if (is(c, "remsi")) *r = sa % sb;
  else if (is(c, "divui")) *r = (int64_t)(ua / ub);
  else if (is(c, "remui")) *r = (int64_t)(ua % ub);
  else if (is(c, "andi")) *r = a & b;
  else if (is(c, "ori")) *r = a | b;
  else if (is(c, "xori")) *r = a ^ b;
  else if (is(c, "maxsi")) *r = sa > sb ? sa : sb;
  else if (is(c, "minsi")) *r = sa < sb ? sa : sb;
  else if (is(c, "maxui")) *r = (int64_t)(ua > ub ? ua : ub);
  else if (is(c, "minui")) *r = (int64_t)(ua < ub ? ua : ub);
  else return false;
  return true;
}

static double floatBinary(const Ctx *c, double a, double b) {
  if (is(c, "addf")) return a + b;
  if (is(c, "subf")) return a - b;
  if (is(c, "mulf")) return a * b;
  if (is(c, "divf")) return a / b;
  if (is(c, "maximumf")) return isnan(a) || isnan(b) ? NAN : a > b || (a == b && !signbit(a)) ? a : b;
  if (is(c, "minimumf")) return isnan(a) || isnan(b) ? NAN : a < b || (a == b && signbit(a)) ? a : b;
  if (is(c, "maxnumf")) return isnan(a) ? b : isnan(b) ? a : fmax(a, b);
  return isnan(a) ? b : isnan(b) ? a : fmin(a, b); /* minnumf */
}

/* Float to integer: arith makes an out-of-range value poison; refuse it. */
static bool floatToInt(Ctx *c, double v, int w, bool isSigned, int64_t *r) {
  double t = trunc(v), lo = isSigned ? -ldexp(1, w - 1) : 0, hi = isSigned ? ldexp(1, w - 1) : ldexp(1, w);
  if (isnan(v) || t < lo || t >= hi) {
    strataEmitError(c->loc, "interpreter: 'arith.%s' of %g does not fit in i%d", c->name, v, w);
    return false;
  }
  *r = t >= ldexp(1, 63) ? (int64_t)(uint64_t)t : (int64_t)t;
  return true;
}

static const char *const kIntBinary[] = {"addi", "subi", "muli", "divsi", "remsi", "divui", "remui", "andi",
                                         "ori", "xori", "maxsi", "minsi", "maxui", "minui"};
static const char *const kFloatBinary[] = {"addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf",
                                           "minnumf"};
static const char *const kCasts[] = {"index_cast", "index_castui", "extsi", "extui", "trunci", "sitofp",
                                     "uitofp", "fptosi", "fptoui", "extf", "truncf", "negf", "absf"};

static bool inList(const Ctx *c, const char *const *list, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (is(c, list[i])) return true;
  return false;
}
#define IN_LIST(c, l) inList(c, l, sizeof l / sizeof l[0])

/* Elementwise arith ops (scalars are rank-0 tensors); *handled is false for
 * an op this file has no semantics for. */
static MlirLogicalResult runArith(Ctx *c, bool *handled) {
  bool ib = IN_LIST(c, kIntBinary), fb = IN_LIST(c, kFloatBinary), cast = IN_LIST(c, kCasts);
  bool cmpi = is(c, "cmpi"), cmpf = is(c, "cmpf"), select = is(c, "select");
  *handled = ib || fb || cast || cmpi || cmpf || select;
  if (!*handled) return mlirLogicalResultFailure();
  StrataTensor *r = newResult(c, 0);
  if (!r) return mlirLogicalResultFailure();
  int64_t n = strataTensorNumElements(r);
  const StrataTensor *a = c->ins[select ? 1 : 0], *b = c->ins[select ? 2 : c->nIn > 1 ? 1 : 0];
  for (intptr_t i = 0; i < c->nIn; i++)
    if (strataTensorNumElements(c->ins[i]) != n && !(select && i == 0 && c->ins[0]->rank == 0)) {
      strataTensorDestroy(r);
      FAIL(c, "interpreter: operand #%d of 'arith.%s' has another shape than its result", (int)i, c->name);
    }
  int wIn = widthOf(mlirValueGetType(mlirOperationGetOperand(c->op, select ? 1 : 0)));
  int wOut = widthOf(resultType(c, 0));
  int64_t pred = cmpi || cmpf ? mlirIntegerAttrGetValueInt(attrOf(c->op, "predicate")) : 0;
  bool ok = true, intIn = isIntDType(a->dtype);
  for (int64_t i = 0; ok && i < n; i++) {
    if (select) {
      bool p = getInt(c->ins[0], c->ins[0]->rank == 0 ? 0 : i) != 0;
      copyElement(r, i, p ? a : b, i);
    } else if (cmpi) {
      setInt(r, i, icmp(pred, getInt(a, i), getInt(b, i), wIn));
    } else if (cmpf) {
      setInt(r, i, fcmp(pred, strataTensorGetDouble(a, i), strataTensorGetDouble(b, i)));
    } else if (ib) {
      int64_t v = 0;
      ok = intBinary(c, getInt(a, i), getInt(b, i), wIn, &v);
      setInt(r, i, v);
    } else if (fb) {
      strataTensorSetDouble(r, i, floatBinary(c, strataTensorGetDouble(a, i), strataTensorGetDouble(b, i)));
    } else if (is(c, "sitofp") || is(c, "uitofp")) {
      int64_t v = getInt(a, i);
      strataTensorSetDouble(r, i, is(c, "sitofp") ? (double)sextBits(v, wIn) : (double)zextBits(v, wIn));
    } else if (is(c, "fptosi") || is(c, "fptoui")) {
      int64_t v = 0;
      ok = floatToInt(c, strataTensorGetDouble(a, i), wOut, is(c, "fptosi"), &v);
      setInt(r, i, v);
    } else if (intIn) { /* index_cast(ui), extsi, extui, trunci */
      int64_t v = getInt(a, i);
      bool zext = is(c, "extui") || is(c, "index_castui");
      setInt(r, i, zext ? (int64_t)zextBits(v, wIn) : sextBits(v, wIn));
    } else { /* extf, truncf, negf, absf */
      double v = strataTensorGetDouble(a, i);
      strataTensorSetDouble(r, i, is(c, "negf") ? -v : is(c, "absf") ? fabs(v) : v);
    }
  }
  if (!ok) {
    strataTensorDestroy(r);
    return mlirLogicalResultFailure();
  }
  return bind(c, 0, r) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

MlirLogicalResult strataInterpretUpstream(StrataInterp *in, MlirOperation op, bool *handled) {
  MlirStringRef full = mlirIdentifierStr(mlirOperationGetName(op));
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)full.length, full.data);
  const char *dot = strchr(name, '.');
  *handled = false;
  if (!dot) return mlirLogicalResultFailure();
  bool scf = !strncmp(name, "scf.", 4), tensor = !strncmp(name, "tensor.", 7), arith = !strncmp(name, "arith.", 6);
  bool call = !strcmp(name, "func.call");
  if (!scf && !tensor && !arith && !call) return mlirLogicalResultFailure();
  Ctx c = {in, op, mlirOperationGetLocation(op), name, dot + 1, NULL, mlirOperationGetNumOperands(op)};
  *handled = true;
  c.ins = calloc(c.nIn ? (size_t)c.nIn : 1, sizeof *c.ins);
  if (!c.ins) FAIL(&c, "interpreter: out of memory");
  MlirLogicalResult r = mlirLogicalResultFailure();
  for (intptr_t i = 0; i < c.nIn; i++) {
    c.ins[i] = strataInterpGet(in, mlirOperationGetOperand(op, i));
    if (!c.ins[i]) {
      strataEmitError(c.loc, "interpreter: operand #%d of '%s' has no value (defined by an op the interpreter did "
                      "not run)", (int)i, name);
      goto done;
    }
  }
  if (call) r = runCall(&c);
  else if (scf && is(&c, "if")) r = runIf(&c);
  else if (scf && is(&c, "for")) r = runFor(&c);
  else if (scf && is(&c, "while")) r = runWhile(&c);
  else if (scf && is(&c, "execute_region")) r = runRegion(&c);
  else if (tensor && is(&c, "extract")) r = runExtract(&c);
  else if (tensor && is(&c, "from_elements")) r = runFromElements(&c);
  else if (tensor && is(&c, "insert_slice")) r = runSlice(&c, true);
  else if (tensor && is(&c, "extract_slice")) r = runSlice(&c, false);
  else if (tensor && is(&c, "cast")) /* a static extent it asserts is checked by bind */
    r = bind(&c, 0, strataTensorCopy(c.ins[0])) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
  else if (tensor && is(&c, "empty") && c.nIn == 0) /* its contents are unspecified: zeros */
    r = bind(&c, 0, newResult(&c, 0)) ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
  else if (arith && is(&c, "constant")) r = runConstant(&c);
  else if (arith) r = runArith(&c, handled);
  else *handled = false;
done:
  free(c.ins);
  return r;
}
