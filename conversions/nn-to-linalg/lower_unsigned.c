/* Splat constants of unsigned element types read by linalg.generic ops,
 * made signless (nn-to-linalg's last step).
 *
 * nn types keep integer signedness (ui8 zero points, ui8 tensors), and the
 * lowering casts a generic's unsigned block arguments to signless integers
 * for arith (linalg_build.c). Upstream linalg-fuse-elementwise-ops folds a
 * generic's input that is a splat constant into the body as a scalar
 * `arith.constant` of the element type, which for `ui8` is no valid
 * arith.constant (the verifier takes signless integers only): the GPU
 * targets and the CPU target's dnnfusion mode stopped there on a
 * QuantizeLinear with a constant ui8 zero point. So each such input becomes
 * the same splat of the signless type, its block argument signless too (the
 * casts to signless fold away; other users get a cast back), which the
 * fuser folds into a valid constant. The bytes are the same. */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "lower_internal.h"
#include "strata/support.h"

static bool isUnsignedSplat(MlirValue v, MlirAttribute *value) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(def, "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(def, "value");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) || !mlirDenseElementsAttrIsSplat(a)) return false;
  MlirType t = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
  if (!mlirTypeIsAInteger(t) || !mlirIntegerTypeIsUnsigned(t)) return false;
  *value = a;
  return true;
}

/* The block argument `arg` of unsigned type, made signless `to`. */
static void makeSignless(MlirValue arg, MlirType to) {
  MlirType from = mlirValueGetType(arg);
  mlirValueSetType(arg, to);
  MlirBlock block = mlirBlockArgumentGetOwner(arg);
  MlirValue back = {NULL};
  for (MlirOpOperand use = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(use);) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    unsigned at = mlirOpOperandGetOperandNumber(use);
    use = mlirOpOperandGetNextUse(use);
    if (strataOpIsNamed(user, "builtin.unrealized_conversion_cast") && mlirOperationGetNumOperands(user) == 1 &&
        mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(user, 0)), to)) {
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(user, 0), arg);
      mlirOperationDestroy(user);
      continue;
    }
    if (mlirValueIsNull(back)) {
      StrataBuilder b = strataBuilderBefore(mlirBlockGetFirstOperation(block), (MlirRewriterBase){NULL});
      back = strataResult(strataCreateOp(&b, "builtin.unrealized_conversion_cast", mlirOperationGetLocation(user),
                                         .operands = STRATA_VALUES(arg), .results = STRATA_TYPES(from)),
                          0);
    }
    mlirOperationSetOperand(user, at, back);
  }
}

static MlirWalkResult signlessInputs(MlirOperation op, void *user) {
  (void)user;
  if (!strataOpIsNamed(op, "linalg.generic")) return MlirWalkResultAdvance;
  MlirAttribute sizes = strataOpAttr(op, "operandSegmentSizes");
  if (mlirAttributeIsNull(sizes) || !mlirAttributeIsADenseI32Array(sizes)) return MlirWalkResultAdvance;
  intptr_t numInputs = mlirDenseI32ArrayGetElement(sizes, 0);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (intptr_t i = 0; i < numInputs && i < mlirBlockGetNumArguments(body); i++) {
    MlirAttribute splat;
    MlirValue in = mlirOperationGetOperand(op, i), arg = mlirBlockGetArgument(body, i);
    if (!isUnsignedSplat(in, &splat)) continue;
    MlirType shaped = mlirValueGetType(in), elem = mlirShapedTypeGetElementType(shaped);
    if (!mlirTypeEqual(mlirValueGetType(arg), elem)) continue;
    MlirContext ctx = mlirTypeGetContext(elem);
    MlirType to = mlirIntegerTypeGet(ctx, mlirIntegerTypeGetWidth(elem));
    int64_t dims[STRATA_MAX_RANK];
    intptr_t rank = mlirShapedTypeGetRank(shaped);
    for (intptr_t d = 0; d < rank; d++) dims[d] = mlirShapedTypeGetDimSize(shaped, d);
    MlirType tensor = mlirRankedTensorTypeGet(rank, dims, to, mlirAttributeGetNull());
    MlirAttribute v = mlirDenseElementsAttrGetSplatValue(splat);
    MlirAttribute value = mlirDenseElementsAttrSplatGet(
        tensor, mlirIntegerAttrGet(to, (int64_t)mlirIntegerAttrGetValueUInt(v)));
    StrataBuilder b = strataBuilderBefore(op, (MlirRewriterBase){NULL});
    MlirValue c = strataResult(strataCreateOp(&b, "arith.constant", mlirOperationGetLocation(mlirOpResultGetOwner(in)),
                                              .attrs = STRATA_ATTRS({"value", value}), .results = STRATA_TYPES(tensor)),
                               0);
    mlirOperationSetOperand(op, i, c);
    makeSignless(arg, to);
    MlirOperation def = mlirOpResultGetOwner(in);
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(in))) mlirOperationDestroy(def);
  }
  return MlirWalkResultAdvance;
}

void lowerSignlessSplatInputs(MlirOperation root) {
  mlirOperationWalk(root, signlessInputs, NULL, MlirWalkPostOrder);
}
