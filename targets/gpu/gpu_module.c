/* Questions about a lowered module the GPU targets share (gpu_host.h):
 * memref layouts, kernels, index-error calls. */
#include <stdio.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "strata/context.h"
#include "gpu_host.h"

bool gpuLayoutOf(MlirType t, const char *target, GpuLayout *l, char *why, size_t size) {
  char ts[160];
  strataTypeToString(t, ts, sizeof ts);
  if (!mlirTypeIsAMemRef(t)) return snprintf(why, size, "%s is not a memref", ts), false;
  MlirType el = mlirShapedTypeGetElementType(t);
  unsigned width = mlirTypeIsAInteger(el) ? mlirIntegerTypeGetWidth(el) : 0;
  if (!mlirTypeIsAF16(el) && !mlirTypeIsAF32(el) && !mlirTypeIsAF64(el) && !mlirTypeIsAIndex(el) &&
      !(width == 1 || width == 8 || width == 16 || width == 32 || width == 64))
    return snprintf(why, size, "%s: the %s target stores f16, f32, f64, i1 (a byte) and i8-i64 elements", ts, target),
           false;
  l->elementSize = mlirTypeIsAIndex(el) ? 8 : mlirTypeIsAInteger(el) ? (mlirIntegerTypeGetWidth(el) + 7) / 8
                   : mlirTypeIsAF16(el) ? 2 : mlirTypeIsAF32(el) ? 4 : 8;
  l->rank = (int)mlirShapedTypeGetRank(t);
  if (l->rank > 8) return snprintf(why, size, "%s has rank over 8", ts), false;
  l->numElements = 1;
  for (int i = 0; i < l->rank; i++) {
    l->dims[i] = mlirShapedTypeGetDimSize(t, i);
    if (mlirShapedTypeIsDynamicSize(l->dims[i]))
      return snprintf(why, size, "%s has a dynamic size (the %s target compiles static shapes)", ts, target), false;
    if (!strataCheckedMul(l->numElements, l->dims[i], &l->numElements))
      return snprintf(why, size, "%s is too large", ts), false;
  }
  if (l->numElements == 0) {
    /* No element is ever accessed: any layout will do (MLIR reports a
     * zero-size memref's strides as dynamic). */
    l->offset = 0;
    for (int i = 0; i < l->rank; i++) l->strides[i] = 0;
    return true;
  }
  if (mlirLogicalResultIsFailure(mlirMemRefTypeGetStridesAndOffset(t, l->strides, &l->offset)) ||
      mlirShapedTypeIsDynamicStrideOrOffset(l->offset))
    return snprintf(why, size, "%s has a dynamic or non-strided layout", ts), false;
  for (int i = 0; i < l->rank; i++)
    if (mlirShapedTypeIsDynamicStrideOrOffset(l->strides[i]))
      return snprintf(why, size, "%s has a dynamic stride", ts), false;
  return true;
}

bool gpuLayoutIsDense(const GpuLayout *l) {
  if (!l->numElements) return true;
  int64_t stride = 1;
  for (int i = l->rank - 1; i >= 0; i--) {
    if (l->dims[i] != 1 && l->strides[i] != stride) return false;
    stride *= l->dims[i];
  }
  return true;
}

int gpuCheckCall(MlirOperation op) {
  if (!strataOpIsNamed(op, "func.call")) return 0;
  MlirAttribute callee = strataOpAttr(op, "callee");
  if (mlirAttributeIsNull(callee)) return 0;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  intptr_t n = mlirOperationGetNumOperands(op);
  if (mlirStringRefEqual(name, mlirStringRefCreateFromCString("strata_rt_index_error")) && n == 4)
    return GPU_CHECK_INDEX;
  if (mlirStringRefEqual(name, mlirStringRefCreateFromCString("strata_rt_shape_error")) && n == 6)
    return GPU_CHECK_SHAPE;
  return 0;
}

static MlirWalkResult findIndexError(MlirOperation op, void *user) {
  if (!gpuCheckCall(op)) return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

bool gpuKernelReportsErrors(MlirOperation func) {
  bool found = false;
  mlirOperationWalk(func, findIndexError, &found, MlirWalkPreOrder);
  return found;
}

MlirOperation gpuFindKernel(MlirOperation module, MlirAttribute kernel) {
  MlirStringRef mod = mlirSymbolRefAttrGetRootReference(kernel), fn = mlirSymbolRefAttrGetLeafReference(kernel);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation m = mlirBlockGetFirstOperation(top); !mlirOperationIsNull(m); m = mlirOperationGetNextInBlock(m)) {
    if (!strataOpIsNamed(m, "gpu.module") || !mlirStringRefEqual(mlirStringAttrGetValue(strataOpAttr(m, "sym_name")), mod))
      continue;
    MlirBlock mb = mlirRegionGetFirstBlock(mlirOperationGetRegion(m, 0));
    for (MlirOperation f = mlirBlockGetFirstOperation(mb); !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f))
      if (strataOpIsNamed(f, "gpu.func") && mlirStringRefEqual(mlirStringAttrGetValue(strataOpAttr(f, "sym_name")), fn))
        return f;
  }
  return (MlirOperation){NULL};
}
