/* QuantizeLinear / DequantizeLinear -> one elementwise generic; the scale
 * and zero point are read per tensor or along the quantization axis. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "nn_internal.h"
#include "lower_internal.h"

typedef struct {
  bool quantize, hasZp, unsignedQ;
  double lo, hi;
  MlirType floatType, quantType; /* signless quantType */
} QuantCtx;

static MlirValue toFloat(StrataBuilder *b, MlirLocation loc, MlirValue v, const QuantCtx *c, MlirType f) {
  return emitConvert(b, loc, c->unsignedQ ? "arith.uitofp" : "arith.sitofp", v, f);
}

static MlirValue bodyQuant(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  const QuantCtx *c = u;
  MlirValue x = a[0], s = a[1];
  MlirType f = mlirValueGetType(s);
  if (c->quantize) {
    MlirValue xf = mlirTypeEqual(mlirValueGetType(x), f) ? x : emitConvert(b, loc, "arith.extf", x, f);
    MlirValue v = emitUnary(b, loc, "math.roundeven", emitBinary(b, loc, "arith.divf", xf, s));
    if (c->hasZp) v = emitBinary(b, loc, "arith.addf", v, toFloat(b, loc, a[2], c, f));
    v = emitBinary(b, loc, "arith.minimumf", emitBinary(b, loc, "arith.maximumf", v, emitConst(b, loc, f, c->lo)),
                   emitConst(b, loc, f, c->hi));
    v = emitSelect(b, loc, emitCmpF(b, loc, CMPF_UNO, v, v), emitConst(b, loc, f, 0), v);
    return emitConvert(b, loc, c->unsignedQ ? "arith.fptoui" : "arith.fptosi", v, c->quantType);
  }
  MlirValue v = toFloat(b, loc, x, c, f);
  if (c->hasZp) v = emitBinary(b, loc, "arith.subf", v, toFloat(b, loc, a[2], c, f));
  return emitBinary(b, loc, "arith.mulf", v, s);
}

static MlirLogicalResult lowerQuant(StrataRewrite *rw, MlirOperation op, void *user) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirValue x = lowerOperand(op, 0), s = lowerOperand(op, 1);
  MlirType t = lowerResultType(op, 0);
  int rank = lowerRank(x);
  int64_t axis;
  nnAttrInt(op, "axis", 1, &axis);
  if (axis < 0) axis += rank;
  QuantCtx c;
  c.quantize = user != NULL;
  c.hasZp = mlirOperationGetNumOperands(op) == 3;
  MlirType q = c.quantize ? mlirShapedTypeGetElementType(t) : lowerElementType(x);
  c.unsignedQ = lowerIsUnsigned(q);
  unsigned width = mlirIntegerTypeGetWidth(q);
  c.lo = c.unsignedQ ? 0 : -(double)(1ll << (width - 1));
  c.hi = c.unsignedQ ? (double)((1ll << width) - 1) : (double)((1ll << (width - 1)) - 1);
  c.quantType = lowerSignless(q);
  c.floatType = lowerElementType(s);
  char id[256], pm[32], its[STRATA_MAX_RANK + 1];
  lowerIdentityMap(id, sizeof id, rank);
  lowerParallelIterators(its, rank);
  int sr = lowerRank(s);
  bool perTensor = sr == 0 || lowerDim(s, 0) == 1;
  if (sr == 0) snprintf(pm, sizeof pm, "()");
  else if (perTensor) snprintf(pm, sizeof pm, "(0)");
  else snprintf(pm, sizeof pm, "(d%d)", (int)axis);
  MlirValue init = lowerResultEmpty(&rw->builder, op, 0), y; /* every element is written */
  if (!init.ptr) return mlirLogicalResultFailure();
  if (c.hasZp) {
    const char *maps[] = {id, pm, pm, id};
    y = linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(x, s, lowerOperand(op, 2)), init, maps, its, bodyQuant, &c);
  } else {
    const char *maps[] = {id, pm, id};
    y = linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(x, s), init, maps, its, bodyQuant, &c);
  }
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgQuant(LowerRegistry *r) {
  static const int kQuantize = 1;
  lowerRegister(r, "nn.quantize_linear", lowerQuant, (void *)&kQuantize);
  lowerRegister(r, "nn.dequantize_linear", lowerQuant, NULL);
}
