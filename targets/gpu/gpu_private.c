/* --gpu-private-temporaries: a buffer that only one top-level
 * scf.parallel touches, each iteration its own part of it (the dimensions
 * indexed by the same induction variable in every access), becomes an
 * array private to the iteration: a memref.alloca in the loop's body in
 * the Function storage class, holding the part (those dimensions of size
 * 1, indexed by 0). A fused kernel's temporaries -- a layer norm's or
 * softmax's row statistics, the batched matmul result a transpose reads --
 * so stay in the work-item instead of global memory. Runs after
 * buffer-loop-hoisting (which would hoist an alloca out of the loop). */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "gpu_fuse.h"

enum { MAX_RANK = 8, MAX_PRIVATE = 1024 };

/* The top-level op of `func`'s body that holds `op`. */
static MlirOperation topLevel(MlirOperation op, MlirBlock body) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), body))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* The scf.parallel (a top-level op of `body`) whose iterations each own a
 * part of `buffer`, with owned[d] set for the dimensions that say which;
 * null if there is none. */
static MlirOperation owner(MlirValue buffer, MlirBlock body, bool *owned) {
  MlirOperation par = {NULL};
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(buffer));
  MlirValue iv[MAX_RANK] = {{NULL}};
  for (intptr_t d = 0; d < rank; d++) owned[d] = true;
  for (MlirOpOperand u = mlirValueGetFirstUse(buffer); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    bool load = strataOpIsNamed(user, "memref.load"), store = strataOpIsNamed(user, "memref.store");
    if (!(load && mlirOpOperandGetOperandNumber(u) == 0) && !(store && mlirOpOperandGetOperandNumber(u) == 1))
      return (MlirOperation){NULL};
    MlirOperation top = topLevel(user, body);
    if (mlirOperationIsNull(top) || !strataOpIsNamed(top, "scf.parallel") || (par.ptr && !mlirOperationEqual(top, par)))
      return (MlirOperation){NULL};
    par = top;
    MlirBlock loop = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
    for (intptr_t d = 0; d < rank; d++) {
      MlirValue v = mlirOperationGetOperand(user, (store ? 2 : 1) + d);
      bool isIv = mlirValueIsABlockArgument(v) && mlirBlockEqual(mlirBlockArgumentGetOwner(v), loop);
      if (!isIv || (iv[d].ptr && !mlirValueEqual(iv[d], v))) owned[d] = false;
      iv[d] = v;
    }
  }
  bool any = false;
  for (intptr_t d = 0; d < rank; d++) any = any || owned[d];
  return any ? par : (MlirOperation){NULL};
}

static void privatize(MlirOperation alloc, MlirOperation par, const bool *owned) {
  MlirContext ctx = mlirOperationGetContext(alloc);
  MlirLocation loc = mlirOperationGetLocation(alloc);
  MlirValue buffer = mlirOperationGetResult(alloc, 0);
  MlirType type = mlirValueGetType(buffer);
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t shape[MAX_RANK];
  for (intptr_t d = 0; d < rank; d++) shape[d] = owned[d] ? 1 : mlirShapedTypeGetDimSize(type, d);
  MlirAttribute space = mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString("#spirv.storage_class<Function>"));
  MlirType privateType =
      mlirMemRefTypeGet(mlirShapedTypeGetElementType(type), rank, shape, mlirAttributeGetNull(), space);
  MlirBlock loop = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  StrataBuilder b = strataBuilderBefore(mlirBlockGetFirstOperation(loop), (MlirRewriterBase){NULL});
  const int32_t segments[2] = {0, 0};
  MlirValue local = strataResult(
      strataCreateOp(&b, "memref.alloca", loc, .results = STRATA_TYPES(privateType),
                     .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, segments)})),
      0);
  MlirValue zero = strataConstInt(&b, loc, strataIndexType(ctx), 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(buffer); !mlirOpOperandIsNull(u); u = mlirValueGetFirstUse(buffer)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t first = strataOpIsNamed(user, "memref.store") ? 2 : 1;
    for (intptr_t d = 0; d < rank; d++)
      if (owned[d]) mlirOperationSetOperand(user, first + d, zero);
    mlirOperationSetOperand(user, first - 1, local);
  }
  mlirOperationDestroy(alloc);
}

static void runPrivate(StrataPassRun *run, MlirOperation func) {
  (void)run;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(body)) return;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    MlirType type = strataOpIsNamed(op, "memref.alloc") && mlirOperationGetNumOperands(op) == 0
                        ? mlirValueGetType(mlirOperationGetResult(op, 0))
                        : (MlirType){NULL};
    bool owned[MAX_RANK];
    if (!mlirTypeIsNull(type) && mlirShapedTypeHasStaticShape(type) && mlirShapedTypeGetRank(type) <= MAX_RANK &&
        mlirAttributeIsNull(mlirMemRefTypeGetMemorySpace(type))) {
      MlirOperation par = owner(mlirOperationGetResult(op, 0), body, owned);
      int64_t size = 1;
      for (intptr_t d = 0; par.ptr && d < mlirShapedTypeGetRank(type); d++)
        if (!owned[d]) size *= mlirShapedTypeGetDimSize(type, d);
      if (par.ptr && size <= MAX_PRIVATE) privatize(op, par, owned);
    }
    op = next;
  }
}

const StrataPassDef strataGpuPrivateTemporariesPass = {
    .name = "gpu-private-temporaries",
    .summary = "A buffer only one top-level scf.parallel touches, each iteration its own part, becomes an "
               "alloca private to the iteration (Function storage class): a fused kernel's temporaries",
    .anchor = "func.func",
    .run = runPrivate,
};
