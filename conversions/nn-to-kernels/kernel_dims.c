/* Dynamic dims in --nn-to-kernels' fused calls (issue 19): what an epilogue
 * addend or a transposed operand of dynamic type needs for the kernel call
 * to absorb it.
 *
 * The kernels broadcast an addend by its run-time extents (an extent of 1
 * is read with stride 0: numpy's rule), but compiled dynamic shapes decide
 * broadcasting at compile time (docs/dynamic-shapes.md): a dim of the
 * addend that is not a static 1 has the result's extent. Where the types
 * do not prove it, the call is preceded by a check of the run-time extents
 * (a located run-time error naming the absorbed op, as its own lowering
 * would report), so an addend that would broadcast wrongly stops the call
 * instead of being read with the wrong strides. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "lower_helpers.h"
#include "nn_to_kernels.h"

bool kernelsAddendFits(MlirValue addend, MlirValue r) {
  MlirType at = mlirValueGetType(addend), rt = mlirValueGetType(r);
  if (!mlirTypeIsARankedTensor(at) || !mlirTypeIsAF32(mlirShapedTypeGetElementType(at))) return false;
  intptr_t ra = mlirShapedTypeGetRank(at), rr = mlirShapedTypeGetRank(rt);
  if (ra > rr) return false;
  for (intptr_t d = 0; d < ra; d++) {
    int64_t a = mlirShapedTypeIsDynamicDim(at, d) ? -1 : mlirShapedTypeGetDimSize(at, d);
    int64_t e = mlirShapedTypeIsDynamicDim(rt, rr - ra + d) ? -1 : mlirShapedTypeGetDimSize(rt, rr - ra + d);
    if (a == 0) return false; /* an empty addend of static type: the linalg lowering's */
    if (a >= 0 && e >= 0 && a != 1 && a != e) return false;
  }
  return true;
}

bool kernelsCheckAddend(StrataBuilder *b, MlirOperation at, int operand, int resultOperand, MlirValue addend,
                        MlirType rt, const MlirValue *dims, bool dynamicChecked) {
  MlirType t = mlirValueGetType(addend);
  intptr_t ra = mlirShapedTypeGetRank(t), rr = mlirShapedTypeGetRank(rt);
  MlirLocation loc = mlirOperationGetLocation(at);
  MlirValue site = {NULL};
  for (intptr_t d = 0; d < ra; d++) {
    intptr_t rd = rr - ra + d;
    bool dynamic = mlirShapedTypeIsDynamicDim(t, d);
    /* a static 1 broadcasts; static against static was checked by
     * kernelsAddendFits; a dynamic dim of the root's own operand by
     * lowerResultDims */
    if ((!dynamic && (mlirShapedTypeGetDimSize(t, d) == 1 || !mlirShapedTypeIsDynamicDim(rt, rd))) ||
        (dynamic && dynamicChecked))
      continue;
    MlirValue got = lowerDimValue(b, loc, addend, (int)d), want = dims[rd];
    int which = operand, dim = (int)d;
    if (!dynamic && resultOperand >= 0) { /* the run-time extent is the other operand's: name it */
      MlirValue t = got;
      got = want, want = t, which = resultOperand, dim = (int)rd;
    }
    if (!lowerCheck(b, at, &site, emitCmpI(b, loc, CMPI_NE, got, want), 0, which, dim, got, want)) return false;
  }
  return true;
}

/* The value of an index constant (what lowerDimValue gives tensor.dim). */
static bool indexConstant(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(mlirOpResultGetOwner(v), "value");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

void kernelsDimsThroughTranspose(StrataRewrite *rw, MlirOperation t, const int64_t *perm) {
  MlirValue r = mlirOperationGetResult(t, 0), x = mlirOperationGetOperand(t, 0);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(r));
  for (;;) { /* one tensor.dim at a time: replacing it changes the use list */
    MlirOperation dimOp = {NULL};
    int64_t d = -1;
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u) && !dimOp.ptr;
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      if (strataOpIsNamed(user, "tensor.dim") && mlirOpOperandGetOperandNumber(u) == 0 &&
          indexConstant(mlirOperationGetOperand(user, 1), &d) && d >= 0 && d < rank)
        dimOp = user;
    }
    if (!dimOp.ptr) break;
    StrataBuilder b = strataBuilderBefore(dimOp, rw->rewriter);
    MlirValue v = lowerDimValue(&b, mlirOperationGetLocation(dimOp), x, (int)perm[d]);
    strataReplaceOp(rw, dimOp, STRATA_VALUES(v));
  }
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(r))) strataEraseOp(rw, t);
}
