/* Helpers shared by the nn-to-linalg lowerings. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "lower_internal.h"

MlirType lowerResultType(MlirOperation op, intptr_t i) {
  return mlirValueGetType(mlirOperationGetResult(op, i));
}
MlirValue lowerOperand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
int lowerRank(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }
int64_t lowerDim(MlirValue v, int i) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), i); }
MlirType lowerElementType(MlirValue v) { return mlirShapedTypeGetElementType(mlirValueGetType(v)); }
bool lowerIsFloat(MlirType t) { return mlirTypeIsAFloat(t); }
bool lowerIsUnsigned(MlirType t) { return mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t); }

MlirOperation lowerSoleUser(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(use) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(use);
}

MlirType lowerSignless(MlirType t) {
  if (mlirTypeIsAInteger(t) && !mlirIntegerTypeIsSignless(t))
    return mlirIntegerTypeGet(mlirTypeGetContext(t), mlirIntegerTypeGetWidth(t));
  return t;
}

void lowerBroadcastMap(char *buf, size_t size, MlirValue in, MlirType out) {
  int r = lowerRank(in), outRank = (int)mlirShapedTypeGetRank(out);
  size_t off = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < r; i++) {
    int od = outRank - r + i;
    bool expanded = lowerDim(in, i) == 1 && mlirShapedTypeGetDimSize(out, od) != 1;
    off += (size_t)snprintf(buf + off, size - off, "%s", i ? ", " : "");
    off += expanded ? (size_t)snprintf(buf + off, size - off, "0")
                    : (size_t)snprintf(buf + off, size - off, "d%d", od);
  }
  snprintf(buf + off, size - off, ")");
}

void lowerIdentityMap(char *buf, size_t size, int rank) {
  int dims[STRATA_MAX_RANK] = {0};
  for (int i = 0; i < rank; i++) dims[i] = i;
  linalgFormatDims(buf, size, dims, rank);
}

void lowerReductionMaps(int rank, const bool *mask, char *inMap, char *keptMap, char *its) {
  lowerIdentityMap(inMap, 256, rank);
  size_t off = (size_t)snprintf(keptMap, 256, "(");
  bool first = true;
  for (int d = 0; d < rank; d++) {
    its[d] = mask[d] ? 'r' : 'p';
    if (mask[d]) continue;
    off += (size_t)snprintf(keptMap + off, 256 - off, "%sd%d", first ? "" : ", ", d);
    first = false;
  }
  snprintf(keptMap + off, 256 - off, ")");
  its[rank] = '\0';
}

MlirType lowerKeptType(MlirValue x, const bool *mask, MlirType element) {
  int64_t dims[STRATA_MAX_RANK] = {0};
  int n = 0;
  for (int d = 0; d < lowerRank(x); d++)
    if (!mask[d]) dims[n++] = lowerDim(x, d);
  return strataTensorType(element, n, dims);
}

void lowerParallelIterators(char *buf, int rank) {
  memset(buf, 'p', (size_t)rank);
  buf[rank] = '\0';
}

MlirValue emitConst(StrataBuilder *b, MlirLocation loc, MlirType t, double v) {
  if (mlirTypeIsAFloat(t)) return strataConstFloat(b, loc, t, v);
  return strataConstInt(b, loc, t, strataIntFromDouble(t, v));
}

MlirValue emitBinary(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirValue y) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(mlirValueGetType(x))), 0);
}

MlirValue emitUnary(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x),
                                     .results = STRATA_TYPES(mlirValueGetType(x))), 0);
}

static MlirValue emitCmp(StrataBuilder *b, MlirLocation loc, const char *name, int pred,
                         MlirValue x, MlirValue y) {
  MlirType i1 = mlirIntegerTypeGet(b->ctx, 1);
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(i1),
                                     .attrs = STRATA_ATTRS({"predicate", strataI64Attr(b->ctx, pred)})),
                      0);
}

MlirValue emitCmpF(StrataBuilder *b, MlirLocation loc, int pred, MlirValue x, MlirValue y) {
  return emitCmp(b, loc, "arith.cmpf", pred, x, y);
}

MlirValue emitCmpI(StrataBuilder *b, MlirLocation loc, int pred, MlirValue x, MlirValue y) {
  return emitCmp(b, loc, "arith.cmpi", pred, x, y);
}

MlirValue emitSelect(StrataBuilder *b, MlirLocation loc, MlirValue c, MlirValue x, MlirValue y) {
  return strataResult(strataCreateOp(b, "arith.select", loc, .operands = STRATA_VALUES(c, x, y),
                                     .results = STRATA_TYPES(mlirValueGetType(x))), 0);
}

MlirValue emitConvert(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirType t) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x), .results = STRATA_TYPES(t)), 0);
}

MlirValue bodyMulAcc(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  bool f = lowerIsFloat(mlirValueGetType(a[2]));
  MlirValue prod = emitBinary(b, loc, f ? "arith.mulf" : "arith.muli", a[0], a[1]);
  return emitBinary(b, loc, f ? "arith.addf" : "arith.addi", a[2], prod);
}

MlirValue bodyYieldInput(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)b; (void)loc; (void)u;
  return a[0];
}

void lowerRegister(LowerRegistry *r, const char *opName, StrataMatchAndRewriteFn fn, void *user) {
  if (r->set) strataPatternSetAdd(r->set, opName, 1, fn, user);
  if (r->query && !strcmp(r->query, opName)) r->found = true;
}

bool lowerRuntimeSite(StrataBuilder *b, MlirOperation op, const char *fn, MlirValue *site) {
  return strataRuntimeSite(b, op, fn, site);
}

MlirValue lowerIndexConst(StrataBuilder *b, MlirLocation loc, int64_t v) {
  return strataConstInt(b, loc, strataIndexType(b->ctx), v);
}

MlirValue lowerIndexToFloat(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType floatType) {
  MlirValue i = emitConvert(b, loc, "arith.index_cast", v, mlirIntegerTypeGet(b->ctx, 64));
  return emitConvert(b, loc, "arith.sitofp", i, floatType);
}
