/* nn.unique -> scf loops over the input's slices (issue 19). The slices
 * (along `axis`, or the elements of the flattened input) become rows of a
 * [K, S] key tensor of signless elements; then
 *   A. each slice's first equal slice (firstOf), and for sorted=0 each new
 *      slice's slot in order of first occurrence; the count U of new ones;
 *   B. (sorted=1) each new slice's slot: how many new slices are smaller
 *      (lexicographic order; NaN equal to NaN and above every number);
 *   C. the four results, allocated at U (Y, indices, counts) and K
 *      (inverse_indices), filled slice by slice.
 * Quadratic in K (no sort in the IR), like the reference's meaning, never
 * its speed. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_datadep.h"
#include "lower_internal.h"

typedef struct {
  LowerAt at; /* first: the shorthands below take &x->at */
  MlirValue keys;      /* [K, S] signless */
  MlirValue K, S;      /* index */
  bool isFloat, isUnsigned;
} Uq;

static MlirValue not1(const Uq *u, MlirValue x) { return atBin(&u->at, "arith.xori", x, atBool(&u->at, true)); }

/* a < b in the total order of elements. */
static MlirValue lessThan(const Uq *u, MlirValue a, MlirValue c) {
  StrataBuilder *b = u->at.b;
  if (!u->isFloat) return emitCmpI(b, u->at.loc, u->isUnsigned ? CMPI_ULT : CMPI_SLT, a, c);
  MlirValue nanA = emitCmpF(b, u->at.loc, CMPF_UNO, a, a), nanC = emitCmpF(b, u->at.loc, CMPF_UNO, c, c);
  return atBin(&u->at, "arith.ori", emitCmpF(b, u->at.loc, CMPF_OLT, a, c), atBin(&u->at, "arith.andi", not1(u, nanA), nanC));
}

/* Compares slices (rows) a and c: *less = a < c, *equal = a == c. */
static void compareRows(const Uq *u, MlirValue a, MlirValue c, MlirValue *less, MlirValue *equal) {
  StrataBuilder *b = u->at.b;
  LowerLoop l;
  lowerForBegin(b, &l, u->at.loc, atIdx(&u->at, 0), u->S, (MlirValue[]){atBool(&u->at, false), atBool(&u->at, false)}, 2);
  MlirValue j = lowerLoopIv(&l), decided = lowerLoopArg(&l, 0), lt = lowerLoopArg(&l, 1);
  MlirValue ea = linalgExtract(b, u->at.loc, u->keys, (MlirValue[]){a, j}, 2);
  MlirValue ec = linalgExtract(b, u->at.loc, u->keys, (MlirValue[]){c, j}, 2);
  MlirValue here = lessThan(u, ea, ec), there = lessThan(u, ec, ea);
  MlirValue nowDecided = atBin(&u->at, "arith.ori", decided, atBin(&u->at, "arith.ori", here, there));
  lowerForEnd(b, &l, u->at.loc, (MlirValue[]){nowDecided, emitSelect(b, u->at.loc, decided, lt, here)}, 2);
  *less = strataResult(l.op, 1);
  *equal = not1(u, strataResult(l.op, 0));
}

static MlirValue toI64(const Uq *u, MlirValue v) {
  return emitConvert(u->at.b, u->at.loc, "arith.index_cast", v, mlirIntegerTypeGet(u->at.b->ctx, 64));
}
static MlirValue toIndex(const Uq *u, MlirValue v) {
  return emitConvert(u->at.b, u->at.loc, "arith.index_cast", v, strataIndexType(u->at.b->ctx));
}
static MlirValue at1(const Uq *u, MlirValue t, MlirValue i) { return linalgExtract(u->at.b, u->at.loc, t, &i, 1); }
static MlirValue put1(const Uq *u, MlirValue t, MlirValue i, MlirValue v) { return lowerInsert(u->at.b, u->at.loc, v, t, &i, 1); }

/* The [K, S] keys: x with the axis moved to the front, collapsed. */
static MlirValue buildKeys(StrataBuilder *b, MlirLocation loc, MlirValue x, int axis, MlirValue *K, MlirValue *S) {
  int rank = lowerRank(x);
  int64_t dims[STRATA_MAX_RANK], perm[STRATA_MAX_RANK], s = 1;
  MlirValue ext[STRATA_MAX_RANK];
  *S = lowerIndexConst(b, loc, 1);
  for (int d = 0, at = 1; d < rank; d++) {
    int p = d == axis ? 0 : at++;
    perm[p] = d;
    dims[p] = lowerDim(x, d);
    ext[p] = lowerDimValue(b, loc, x, d);
    if (d == axis) continue;
    *S = emitBinary(b, loc, "arith.muli", *S, ext[p]);
    s = s < 0 || dims[p] < 0 ? -1 : s * dims[p];
  }
  *K = ext[0];
  MlirType et = lowerSignless(lowerElementType(x));
  MlirValue moved = lowerEmptyTensor(b, loc, strataTensorType(et, rank, dims), ext);
  char in[256], out[256], its[STRATA_MAX_RANK + 1];
  int inDims[STRATA_MAX_RANK], outDims[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) outDims[d] = d, inDims[perm[d]] = d;
  linalgFormatDims(in, sizeof in, inDims, rank);
  linalgFormatDims(out, sizeof out, outDims, rank);
  lowerParallelIterators(its, rank);
  const char *maps[] = {in, out};
  moved = linalgBuildGeneric(b, loc, STRATA_VALUES(x), moved, maps, its, bodyYieldInput, NULL);
  MlirType kt = strataTensorType(et, 2, (int64_t[]){dims[0], s});
  return lowerReshapeTo(b, loc, moved, kt, (MlirValue[]){*K, *S});
}

/* A: firstOf[k] (i64) and, for sorted=0, slotOf[k] of each new slice; *U. */
static void firstOccurrences(const Uq *u, bool sorted, MlirValue *firstOf, MlirValue *slotOf, MlirValue *U) {
  StrataBuilder *b = u->at.b;
  LowerLoop l, inner;
  lowerForBegin(b, &l, u->at.loc, atIdx(&u->at, 0), u->K, (MlirValue[]){*firstOf, *slotOf, atIdx(&u->at, 0)}, 3);
  MlirValue k = lowerLoopIv(&l), fo = lowerLoopArg(&l, 0), so = lowerLoopArg(&l, 1), n = lowerLoopArg(&l, 2);
  lowerForBegin(b, &inner, u->at.loc, atIdx(&u->at, 0), k, (MlirValue[]){atBool(&u->at, false), k}, 2);
  MlirValue j = lowerLoopIv(&inner), found = lowerLoopArg(&inner, 0), first = lowerLoopArg(&inner, 1), less, equal;
  compareRows(u, j, k, &less, &equal);
  MlirValue hit = atBin(&u->at, "arith.andi", not1(u, found), equal);
  lowerForEnd(b, &inner, u->at.loc, (MlirValue[]){atBin(&u->at, "arith.ori", found, hit), emitSelect(b, u->at.loc, hit, j, first)}, 2);
  MlirValue isNew = not1(u, strataResult(inner.op, 0));
  fo = put1(u, fo, k, toI64(u, strataResult(inner.op, 1)));
  if (!sorted) so = put1(u, so, k, toI64(u, n));
  n = atBin(&u->at, "arith.addi", n, emitSelect(b, u->at.loc, isNew, atIdx(&u->at, 1), atIdx(&u->at, 0)));
  lowerForEnd(b, &l, u->at.loc, (MlirValue[]){fo, so, n}, 3);
  *firstOf = strataResult(l.op, 0), *slotOf = strataResult(l.op, 1), *U = strataResult(l.op, 2);
}

static MlirValue isNewAt(const Uq *u, MlirValue firstOf, MlirValue k) {
  return emitCmpI(u->at.b, u->at.loc, CMPI_EQ, toIndex(u, at1(u, firstOf, k)), k);
}

/* B: slotOf[k] = the number of new slices smaller than new slice k. */
static MlirValue sortedSlots(const Uq *u, MlirValue firstOf, MlirValue slotOf) {
  StrataBuilder *b = u->at.b;
  LowerLoop l, inner;
  lowerForBegin(b, &l, u->at.loc, atIdx(&u->at, 0), u->K, &slotOf, 1);
  MlirValue k = lowerLoopIv(&l);
  lowerForBegin(b, &inner, u->at.loc, atIdx(&u->at, 0), u->K, (MlirValue[]){atIdx(&u->at, 0)}, 1);
  MlirValue j = lowerLoopIv(&inner), less, equal;
  compareRows(u, j, k, &less, &equal);
  MlirValue counted = atBin(&u->at, "arith.andi", isNewAt(u, firstOf, j), less);
  MlirValue n = atBin(&u->at, "arith.addi", lowerLoopArg(&inner, 0), emitSelect(b, u->at.loc, counted, atIdx(&u->at, 1), atIdx(&u->at, 0)));
  lowerForEnd(b, &inner, u->at.loc, &n, 1);
  MlirValue next = put1(u, lowerLoopArg(&l, 0), k, toI64(u, strataResult(inner.op, 0)));
  lowerForEnd(b, &l, u->at.loc, &next, 1);
  return strataResult(l.op, 0);
}

static MlirLogicalResult lowerUnique(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  bool hasAxis, sorted;
  int64_t axis;
  if (!nnUniqueParams(nnDataDepDef(op), op, &hasAxis, &axis, &sorted)) return mlirLogicalResultFailure();
  MlirValue x = lowerOperand(op, 0), n;
  if (!hasAxis) x = lowerFlatten(b, loc, x, &n), axis = 0;
  MlirType et = lowerElementType(x);
  Uq u = {{b, loc}, {NULL}, {NULL}, {NULL}, lowerIsFloat(et),
          lowerIsUnsigned(et) || (mlirTypeIsAInteger(et) && mlirIntegerTypeGetWidth(et) == 1)};
  u.keys = buildKeys(b, loc, x, (int)axis, &u.K, &u.S);
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64), perSlice = strataTensorType(i64, 1, (int64_t[]){-1});
  MlirValue firstOf = lowerEmptyTensor(b, loc, perSlice, &u.K), slotOf = lowerInitDims(b, loc, perSlice, &u.K, 0), U;
  firstOccurrences(&u, sorted, &firstOf, &slotOf, &U);
  if (sorted) slotOf = sortedSlots(&u, firstOf, slotOf);
  /* C: the results */
  MlirValue dims[STRATA_MAX_RANK];
  for (int d = 0; d < lowerRank(x); d++) dims[d] = d == axis ? U : lowerDimValue(b, loc, x, d);
  MlirValue y = lowerEmptyTensor(b, loc, lowerResultType(op, 0), dims);
  MlirValue indices = lowerEmptyTensor(b, loc, lowerResultType(op, 1), &U);
  MlirValue inverse = lowerEmptyTensor(b, loc, lowerResultType(op, 2), &u.K);
  MlirValue counts = lowerInitDims(b, loc, lowerResultType(op, 3), &U, 0);
  LowerLoop l;
  lowerForBegin(b, &l, loc, atIdx(&u.at, 0), u.K, (MlirValue[]){y, indices, inverse, counts}, 4);
  MlirValue k = lowerLoopIv(&l), first = toIndex(&u, at1(&u, firstOf, k)), slotI64 = at1(&u, slotOf, first);
  MlirValue slot = toIndex(&u, slotI64);
  MlirValue inv = put1(&u, lowerLoopArg(&l, 2), k, slotI64);
  MlirValue cnt = put1(&u, lowerLoopArg(&l, 3), slot,
                       atBin(&u.at, "arith.addi", at1(&u, lowerLoopArg(&l, 3), slot), strataConstInt(b, loc, i64, 1)));
  LowerIf f;
  MlirValue keep[2] = {lowerLoopArg(&l, 0), lowerLoopArg(&l, 1)};
  lowerIfBegin(b, &f, loc, emitCmpI(b, loc, CMPI_EQ, first, k), keep, 2);
  MlirValue y2 = lowerInsertSliceAt(b, loc, lowerSliceAt(b, loc, x, (int)axis, k), keep[0], (int)axis, slot);
  lowerIfElse(b, &f, loc, (MlirValue[]){y2, put1(&u, keep[1], slot, toI64(&u, k))}, 2);
  lowerIfEnd(b, &f, loc, keep, 2);
  lowerForEnd(b, &l, loc, (MlirValue[]){strataResult(f.op, 0), strataResult(f.op, 1), inv, cnt}, 4);
  MlirValue results[4];
  for (int i = 0; i < 4; i++) results[i] = strataResult(l.op, i);
  strataReplaceOp(rw, op, (StrataValueList){results, 4});
  return mlirLogicalResultSuccess();
}

void nnToLinalgUnique(LowerRegistry *r) { lowerRegister(r, "nn.unique", lowerUnique, NULL); }
