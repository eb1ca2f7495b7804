/* nn op verifiers: what IRDL cannot check. Messages name the operand and the
 * expected shape or type. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "strata/support.h"

static const char *opName(MlirOperation op, char *buf, size_t size) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  snprintf(buf, size, "%.*s", (int)n.length, n.data);
  return buf;
}

#define OP_ERROR(op, fmt, ...)                                                     \
  do {                                                                             \
    char _name[64];                                                                \
    strataEmitError(mlirOperationGetLocation(op), "'%s' op " fmt,                  \
                    opName(op, _name, sizeof _name), __VA_ARGS__);                 \
  } while (0)

bool nnIsSupportedFloat(MlirType t) {
  return mlirTypeIsAF32(t) || mlirTypeIsAF16(t) || mlirTypeIsAF64(t);
}

bool nnOperandShape(MlirOperation op, intptr_t i, const char *name, NnShape *s) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
  if (!strataGetShape(t, &s->rank, s->dims)) {
    OP_ERROR(op, "operand #%d ('%s') must be a ranked tensor of rank <= %d", (int)i, name,
             STRATA_MAX_RANK);
    return false;
  }
  s->elementType = mlirShapedTypeGetElementType(t);
  if (!nnIsSupportedFloat(s->elementType)) {
    char ts[128];
    strataTypeToString(t, ts, sizeof ts);
    OP_ERROR(op, "operand #%d ('%s') has type %s; element type must be f32, f16 or f64", (int)i,
             name, ts);
    return false;
  }
  return true;
}

bool nnSameElementType(MlirOperation op, const NnShape *a, const NnShape *b, const char *nameB) {
  if (mlirTypeEqual(a->elementType, b->elementType)) return true;
  char ta[32], tb[32];
  strataTypeToString(a->elementType, ta, sizeof ta);
  strataTypeToString(b->elementType, tb, sizeof tb);
  OP_ERROR(op, "operand '%s' has element type %s, expected %s like operand #0", nameB, tb, ta);
  return false;
}

/* The result must have the inferred shape and element type; a '?' in the
 * declared result is accepted where a size was inferred (less precise). */
bool nnCheckResult(MlirOperation op, const int64_t *dims, int rank, MlirType elementType) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int r;
  int64_t got[STRATA_MAX_RANK];
  bool ok = strataGetShape(t, &r, got) && r == rank &&
            mlirTypeEqual(mlirShapedTypeGetElementType(t), elementType);
  for (int i = 0; ok && i < rank; i++) ok = got[i] == -1 || dims[i] == -1 || got[i] == dims[i];
  if (ok) return true;
  char want[256], have[256];
  strataShapeToString(dims, rank, elementType, want, sizeof want);
  strataTypeToString(t, have, sizeof have);
  OP_ERROR(op, "result type %s does not match the inferred type %s", have, want);
  return false;
}

MlirLogicalResult nnVerifyElementwiseUnary(MlirOperation op) {
  NnShape x;
  if (!nnOperandShape(op, 0, "input", &x)) return mlirLogicalResultFailure();
  return nnCheckResult(op, x.dims, x.rank, x.elementType) ? mlirLogicalResultSuccess()
                                                          : mlirLogicalResultFailure();
}

/* Reads the `lhs`/`rhs` operands of a binary op; false after an error. */
static bool binaryOperands(MlirOperation op, NnShape *a, NnShape *b) {
  return nnOperandShape(op, 0, "lhs", a) && nnOperandShape(op, 1, "rhs", b) &&
         nnSameElementType(op, a, b, "rhs");
}

/* "operand #1 ('rhs') of type T1 <relation> operand #0 ('lhs') of type T0: why" */
static MlirLogicalResult binaryMismatch(MlirOperation op, const NnShape *a, const NnShape *b,
                                        const char *relation, const char *why) {
  char ta[256], tb[256];
  strataShapeToString(a->dims, a->rank, a->elementType, ta, sizeof ta);
  strataShapeToString(b->dims, b->rank, b->elementType, tb, sizeof tb);
  OP_ERROR(op, "operand #1 ('rhs') of type %s %s operand #0 ('lhs') of type %s: %s", tb, relation,
           ta, why);
  return mlirLogicalResultFailure();
}

MlirLogicalResult nnVerifyBroadcastBinary(MlirOperation op) {
  NnShape a, b;
  if (!binaryOperands(op, &a, &b)) return mlirLogicalResultFailure();
  int64_t out[STRATA_MAX_RANK];
  int rank, bad;
  if (!nn_infer_broadcast_shape(a.dims, a.rank, b.dims, b.rank, out, &rank, &bad)) {
    char why[96];
    snprintf(why, sizeof why, "they differ at output dimension %d and neither is 1", bad);
    return binaryMismatch(op, &a, &b, "does not broadcast with", why);
  }
  return nnCheckResult(op, out, rank, a.elementType) ? mlirLogicalResultSuccess()
                                                     : mlirLogicalResultFailure();
}

MlirLogicalResult nnVerifyMatmul(MlirOperation op) {
  NnShape a, b;
  if (!binaryOperands(op, &a, &b)) return mlirLogicalResultFailure();
  int64_t out[STRATA_MAX_RANK];
  int rank;
  const char *why;
  if (!nn_infer_matmul_shape(a.dims, a.rank, b.dims, b.rank, out, &rank, &why))
    return binaryMismatch(op, &a, &b, "is incompatible with", why);
  return nnCheckResult(op, out, rank, a.elementType) ? mlirLogicalResultSuccess()
                                                     : mlirLogicalResultFailure();
}

MlirLogicalResult nnVerifyConv2d(MlirOperation op) {
  NnShape x, w, b;
  if (!nnOperandShape(op, 0, "input", &x) || !nnOperandShape(op, 1, "filter", &w) ||
      !nnSameElementType(op, &x, &w, "filter"))
    return mlirLogicalResultFailure();
  if (x.rank != 4 || w.rank != 4) {
    OP_ERROR(op, "operand #%d ('%s') must have rank 4 (%s), got rank %d", x.rank != 4 ? 0 : 1,
             x.rank != 4 ? "input" : "filter", x.rank != 4 ? "NCHW" : "Cout x Cin/groups x Kh x Kw",
             x.rank != 4 ? x.rank : w.rank);
    return mlirLogicalResultFailure();
  }
  NnConv2dParams p;
  if (!nn_get_conv2d_params(op, &p)) return mlirLogicalResultFailure();
  int64_t out[4];
  const char *why;
  if (!nn_infer_conv2d_shape(x.dims, w.dims, &p, out, &why)) {
    char tx[256], tw[256];
    strataShapeToString(x.dims, 4, x.elementType, tx, sizeof tx);
    strataShapeToString(w.dims, 4, w.elementType, tw, sizeof tw);
    OP_ERROR(op, "operand #1 ('filter') of type %s does not fit operand #0 ('input') of type %s "
             "with groups=%lld: %s", tw, tx, (long long)p.groups, why);
    return mlirLogicalResultFailure();
  }
  if (mlirOperationGetNumOperands(op) == 3) {
    if (!nnOperandShape(op, 2, "bias", &b) || !nnSameElementType(op, &x, &b, "bias"))
      return mlirLogicalResultFailure();
    if (b.rank != 1 || (b.dims[0] != -1 && w.dims[0] != -1 && b.dims[0] != w.dims[0])) {
      char want[128], have[128];
      strataShapeToString(&w.dims[0], 1, b.elementType, want, sizeof want);
      strataShapeToString(b.dims, b.rank, b.elementType, have, sizeof have);
      OP_ERROR(op, "operand #2 ('bias') has type %s, expected %s (one value per output channel)",
               have, want);
      return mlirLogicalResultFailure();
    }
  }
  return nnCheckResult(op, out, 4, x.elementType) ? mlirLogicalResultSuccess()
                                                  : mlirLogicalResultFailure();
}

MlirLogicalResult nnVerifyConstant(MlirOperation op) {
  MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeEqual(mlirAttributeGetType(v), rt)) {
    char tv[256], tr[256];
    strataTypeToString(mlirAttributeGetType(v), tv, sizeof tv);
    strataTypeToString(rt, tr, sizeof tr);
    OP_ERROR(op, "attribute 'value' has type %s but the result has type %s", tv, tr);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}
