/* --gpu-round-f16: the last step of the GPU targets' f16 lowering
 * (gpu_pipeline.c). arith-emulate-unsupported-floats computes each f16 op
 * in f32 between an arith.extf and an arith.truncf, both marked `contract`,
 * which lets canonicalization fold a truncf followed by an extf away: a
 * chain of f16 ops would then keep f32 intermediates, not the rounding to
 * f16 after every op that the CPU target and the f16 types promise. This
 * pass clears the fast-math flags of every extf and truncf under the op it
 * runs on, so each rounding stays. */
#include "mlir-c/BuiltinAttributes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

static MlirWalkResult clearFlags(MlirOperation op, void *user) {
  MlirAttribute *none = user;
  if ((strataOpIsNamed(op, "arith.extf") || strataOpIsNamed(op, "arith.truncf")) &&
      !mlirAttributeIsNull(strataOpAttr(op, "fastmath")))
    mlirOperationSetInherentAttributeByName(op, mlirStringRefCreateFromCString("fastmath"), *none);
  return MlirWalkResultAdvance;
}

static void runRoundF16(StrataPassRun *run, MlirOperation op) {
  MlirAttribute none = strataParseAttr(mlirOperationGetContext(op), "#arith.fastmath<none>");
  if (mlirAttributeIsNull(none)) {
    strataEmitOpError(op, "gpu-round-f16: #arith.fastmath<none> does not parse");
    strataPassSignalFailure(run);
    return;
  }
  mlirOperationWalk(op, clearFlags, &none, MlirWalkPreOrder);
}

const StrataPassDef strataGpuRoundF16Pass = {
    .name = "gpu-round-f16",
    .summary = "Clear the fast-math flags of arith.extf/truncf so that f16 ops emulated in f32 keep "
               "their rounding to f16 after every op (canonicalization may not fold it away)",
    .anchor = NULL,
    .run = runRoundF16,
};
