/* The vulkan target's side of gpu-tile-workgroup's kernels
 * (vulkan_internal.h): workgroup memory in the Workgroup storage class,
 * vector loads as scalar loads, and Workgroup variables shared by the
 * entry points of the one SPIR-V module. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "vulkan_internal.h"

/* Workgroup memory (gpu-tile-workgroup's operand tiles: memref.alloc in
 * #gpu.address_space<workgroup>) in the Workgroup storage class, which
 * convert-gpu-to-spirv makes a module-scope Workgroup variable (its
 * memory-space map for Vulkan knows numeric spaces only). */
static MlirWalkResult workgroupStorage(MlirOperation op, void *user) {
  (void)user;
  if (!strataOpIsNamed(op, "memref.alloc")) return MlirWalkResultAdvance;
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(r);
  MlirContext ctx = mlirOperationGetContext(op);
  MlirAttribute space = mlirMemRefTypeGetMemorySpace(t);
  if (mlirAttributeIsNull(space) || !mlirAttributeEqual(space, strataParseAttr(ctx, "#gpu.address_space<workgroup>")))
    return MlirWalkResultAdvance;
  int64_t shape[8];
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank > 8) return MlirWalkResultAdvance; /* left for the conversion to refuse */
  for (intptr_t i = 0; i < rank; i++) shape[i] = mlirShapedTypeGetDimSize(t, i);
  mlirValueSetType(r, mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape, mlirMemRefTypeGetLayout(t),
                                        strataParseAttr(ctx, "#spirv.storage_class<Workgroup>")));
  return MlirWalkResultAdvance;
}

static MlirWalkResult findVectorLoad(MlirOperation op, void *user) {
  if (!strataOpIsNamed(op, "vector.load")) return MlirWalkResultAdvance;
  *(MlirOperation *)user = op;
  return MlirWalkResultInterrupt;
}

/* gpu-tile-workgroup's vector loads as scalar loads: the storage buffers
 * are arrays of scalars (a vec4 view of one would be a second, aliased
 * binding). Each vector.extract of a constant position becomes the load of
 * that element. */
static bool scalarizeVectorLoads(MlirOperation kernel) {
  for (;;) {
    MlirOperation load = {NULL};
    mlirOperationWalk(kernel, findVectorLoad, &load, MlirWalkPreOrder);
    if (mlirOperationIsNull(load)) return true;
    MlirValue v = mlirOperationGetResult(load, 0);
    MlirType el = mlirShapedTypeGetElementType(mlirValueGetType(v));
    intptr_t n = mlirOperationGetNumOperands(load);
    if (n < 2 || n > 9) return strataEmitOpError(load, "the vulkan target loads vectors of rank-1 to 8 memrefs only"), false;
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirValueGetFirstUse(v)) {
      MlirOperation x = mlirOpOperandGetOwner(u);
      MlirAttribute pos = strataOpAttr(x, "static_position");
      if (!strataOpIsNamed(x, "vector.extract") || mlirOperationGetNumOperands(x) != 1 || mlirAttributeIsNull(pos) ||
          mlirDenseArrayGetNumElements(pos) != 1)
        return strataEmitOpError(x, "the vulkan target takes a loaded vector apart by constant positions only"), false;
      StrataBuilder b = strataBuilderBefore(x, (MlirRewriterBase){NULL});
      MlirLocation loc = mlirOperationGetLocation(x);
      MlirValue ops[9];
      for (intptr_t i = 0; i < n; i++) ops[i] = mlirOperationGetOperand(load, i);
      ops[n - 1] = strataResult(strataCreateOp(&b, "arith.addi", loc,
                                               .operands = STRATA_VALUES(ops[n - 1], strataConstInt(&b, loc, strataIndexType(mlirOperationGetContext(x)),
                                                                                                       mlirDenseI64ArrayGetElement(pos, 0))),
                                               .results = STRATA_TYPES(strataIndexType(mlirOperationGetContext(x)))),
                                0);
      MlirValue s = strataResult(strataCreateOp(&b, "memref.load", loc, .operands = {ops, n}, .results = STRATA_TYPES(el)), 0);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(x, 0), s);
      mlirOperationDestroy(x);
    }
    mlirOperationDestroy(load);
  }
}

/* ---- Vector loads through a vec4 binding ---- */

/* The kernel argument a vector<4 x 32-bit> load of `kernel` reads through,
 * or -1: a block argument of the entry block whose layout keeps every
 * group of 4 in one 16-byte element (offset and all strides but the last,
 * which is 1, multiples of 4). gpu-tile-workgroup emits such loads only
 * there, each at a multiple of 4 of the last index (its vectorWidth). */
static int vec4Arg(MlirOperation load, MlirBlock entry, GpuLayout *l) {
  MlirType vt = mlirValueGetType(mlirOperationGetResult(load, 0)), el = mlirShapedTypeGetElementType(vt);
  if (mlirShapedTypeGetRank(vt) != 1 || mlirShapedTypeGetDimSize(vt, 0) != 4 ||
      !(mlirTypeIsAF32(el) || (mlirTypeIsAInteger(el) && mlirIntegerTypeGetWidth(el) == 32)))
    return -1;
  MlirValue base = mlirOperationGetOperand(load, 0);
  if (!mlirValueIsABlockArgument(base) || !mlirBlockEqual(mlirBlockArgumentGetOwner(base), entry)) return -1;
  char why[256];
  if (!gpuLayoutOf(mlirValueGetType(base), "vulkan", l, why, sizeof why) || l->rank < 1 ||
      l->strides[l->rank - 1] != 1 || l->offset % 4 || l->dims[l->rank - 1] % 4)
    return -1;
  for (int q = 0; q + 1 < l->rank; q++)
    if (l->strides[q] % 4) return -1;
  return (int)mlirBlockArgumentGetArgNumber(base);
}

typedef struct {
  MlirBlock entry;
  int *args, n, max;
} Vec4Scan;

static MlirWalkResult scanVec4(MlirOperation op, void *user) {
  Vec4Scan *s = user;
  GpuLayout l;
  int a = strataOpIsNamed(op, "vector.load") ? vec4Arg(op, s->entry, &l) : -1;
  if (a < 0) return MlirWalkResultAdvance;
  for (int i = 0; i < s->n; i++)
    if (s->args[i] == a) return MlirWalkResultAdvance;
  if (s->n < s->max) s->args[s->n++] = a;
  return MlirWalkResultAdvance;
}

int vkVec4Args(MlirOperation kernel, int *args, int max) {
  Vec4Scan s = {mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0)), args, 0, max};
  mlirOperationWalk(kernel, scanVec4, &s, MlirWalkPreOrder);
  return s.n;
}

typedef struct {
  MlirValue base, alias;
  MlirOperation load; /* found */
} Vec4Find;

static MlirWalkResult findVec4Load(MlirOperation op, void *user) {
  Vec4Find *f = user;
  if (!strataOpIsNamed(op, "vector.load") || !mlirValueEqual(mlirOperationGetOperand(op, 0), f->base))
    return MlirWalkResultAdvance;
  f->load = op;
  return MlirWalkResultInterrupt;
}

/* Every vector load of kernel argument `base` (vec4Arg's) as a load of
 * its 16-byte element (offset + sum of index x stride) / 4 from `alias`. */
static void loadThroughAlias(MlirOperation kernel, MlirValue base, MlirValue alias, const GpuLayout *l) {
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirType idx = strataIndexType(ctx);
  for (;;) {
    Vec4Find f = {base, alias, {NULL}};
    mlirOperationWalk(kernel, findVec4Load, &f, MlirWalkPreOrder);
    if (mlirOperationIsNull(f.load)) return;
    StrataBuilder b = strataBuilderBefore(f.load, (MlirRewriterBase){NULL});
    MlirLocation loc = mlirOperationGetLocation(f.load);
    MlirValue lin = strataConstInt(&b, loc, idx, l->offset);
    for (int q = 0; q < l->rank; q++) {
      MlirValue i = mlirOperationGetOperand(f.load, 1 + q);
      if (l->strides[q] != 1)
        i = strataResult(strataCreateOp(&b, "arith.muli", loc,
                                        .operands = STRATA_VALUES(i, strataConstInt(&b, loc, idx, l->strides[q])),
                                        .results = STRATA_TYPES(idx)),
                         0);
      lin = strataResult(strataCreateOp(&b, "arith.addi", loc, .operands = STRATA_VALUES(lin, i),
                                        .results = STRATA_TYPES(idx)),
                         0);
    }
    lin = strataResult(strataCreateOp(&b, "arith.divui", loc,
                                      .operands = STRATA_VALUES(lin, strataConstInt(&b, loc, idx, 4)),
                                      .results = STRATA_TYPES(idx)),
                       0);
    MlirValue v = strataResult(strataCreateOp(&b, "memref.load", loc, .operands = STRATA_VALUES(alias, lin),
                                              .results = STRATA_TYPES(mlirValueGetType(mlirOperationGetResult(f.load, 0)))),
                               0);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(f.load, 0), v);
    mlirOperationDestroy(f.load);
  }
}

/* Kernel argument `k` of `step` as the clone's block argument (the clone
 * keeps the buffers but the error sites' text, in order). */
static int keptIndex(const GpuStep *step, int k) {
  int j = 0;
  for (int a = 0; a < k; a++)
    if (step->args[a].buffer >= 0 && !mlirTypeIsAUnrankedMemRef(step->args[a].type)) j++;
  return j;
}

bool vkWorkgroupKernel(MlirOperation kernel, const GpuStep *step) {
  mlirOperationWalk(kernel, workgroupStorage, NULL, MlirWalkPreOrder);
  int args[VK_MAX_VEC4_ARGS];
  int n = vkVec4Args(step->kernel, args, VK_MAX_VEC4_ARGS);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(kernel, 0));
  for (int i = 0; i < n; i++) {
    MlirValue base = mlirBlockGetArgument(entry, keptIndex(step, args[i]));
    GpuLayout l;
    char why[256];
    if (!gpuLayoutOf(mlirValueGetType(base), "vulkan", &l, why, sizeof why))
      return strataEmitOpError(kernel, "%s", why), false;
    int64_t span = l.offset + 1;
    for (int q = 0; q < l.rank; q++) span += (l.dims[q] - 1) * l.strides[q];
    /* one past the last element: a multiple of 4 (vec4Arg) */
    MlirType el = mlirShapedTypeGetElementType(mlirValueGetType(base));
    MlirType vec = mlirVectorTypeGet(1, (const int64_t[]){4}, el);
    int64_t groups = span / 4;
    MlirType t = mlirMemRefTypeGet(vec, 1, &groups, mlirAttributeGetNull(), mlirAttributeGetNull());
    MlirValue alias = mlirBlockAddArgument(entry, t, mlirOperationGetLocation(kernel));
    loadThroughAlias(kernel, base, alias, &l);
  }
  vkSetFunctionType(kernel);
  return scalarizeVectorLoads(kernel);
}

/* ---- Sharing the Workgroup variables ---- */

enum { MAX_SLOTS = 64, MAX_PER_FUNC = 16 };

typedef struct {
  MlirOperation spv;
  MlirOperation slots[MAX_SLOTS]; /* the variables kept */
  int position[MAX_SLOTS];        /* the i-th of its type in a function */
  int numSlots;
  MlirAttribute seen[MAX_PER_FUNC], to[MAX_PER_FUNC]; /* this function's */
  int numSeen;
  bool partial; /* a limit left some variables apart: none is erased */
} Share;

static MlirType varType(MlirOperation var) { return mlirTypeAttrGetValue(strataOpAttr(var, "type")); }

static bool isWorkgroupVar(MlirOperation op) {
  if (!strataOpIsNamed(op, "spirv.GlobalVariable") || mlirAttributeIsNull(strataOpAttr(op, "type"))) return false;
  char t[512];
  strataTypeToString(varType(op), t, sizeof t);
  size_t n = strlen(t);
  return n > 10 && !strcmp(t + n - 10, "Workgroup>");
}

static MlirOperation lookupVar(MlirOperation spv, MlirAttribute ref) {
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(ref);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(spv, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (isWorkgroupVar(op) && mlirStringRefEqual(mlirStringAttrGetValue(strataOpAttr(op, "sym_name")), name)) return op;
  return (MlirOperation){NULL};
}

static MlirWalkResult remapAddress(MlirOperation op, void *user) {
  Share *s = user;
  MlirAttribute ref = strataOpAttr(op, "variable");
  if (!strataOpIsNamed(op, "spirv.mlir.addressof") || mlirAttributeIsNull(ref)) return MlirWalkResultAdvance;
  MlirStringRef attrName = mlirStringRefCreateFromCString("variable");
  for (int i = 0; i < s->numSeen; i++)
    if (mlirAttributeEqual(s->seen[i], ref)) {
      mlirOperationSetAttributeByName(op, attrName, s->to[i]);
      return MlirWalkResultAdvance;
    }
  MlirOperation var = lookupVar(s->spv, ref);
  if (mlirOperationIsNull(var)) return MlirWalkResultAdvance;
  if (s->numSeen == MAX_PER_FUNC) return s->partial = true, MlirWalkResultAdvance;
  int position = 0;
  for (int i = 0; i < s->numSeen; i++)
    position += mlirTypeEqual(varType(lookupVar(s->spv, s->seen[i])), varType(var));
  int slot = -1;
  for (int i = 0; i < s->numSlots && slot < 0; i++)
    if (s->position[i] == position && mlirTypeEqual(varType(s->slots[i]), varType(var))) slot = i;
  if (slot < 0) {
    if (s->numSlots == MAX_SLOTS) return s->partial = true, MlirWalkResultAdvance;
    slot = s->numSlots++;
    s->slots[slot] = var, s->position[slot] = position;
  }
  s->seen[s->numSeen] = ref;
  s->to[s->numSeen++] = mlirFlatSymbolRefAttrGet(mlirOperationGetContext(op),
                                                 mlirStringAttrGetValue(strataOpAttr(s->slots[slot], "sym_name")));
  mlirOperationSetAttributeByName(op, attrName, s->to[s->numSeen - 1]);
  return MlirWalkResultAdvance;
}

void vkShareWorkgroupVariables(MlirOperation spv) {
  Share s = {.spv = spv};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(spv, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "spirv.func")) {
      s.numSeen = 0;
      mlirOperationWalk(op, remapAddress, &s, MlirWalkPreOrder);
    }
  /* The variables no function names any more. */
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !s.partial && !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    bool kept = !isWorkgroupVar(op);
    for (int i = 0; i < s.numSlots && !kept; i++) kept = mlirOperationEqual(op, s.slots[i]);
    if (!kept) mlirOperationDestroy(op);
    op = next;
  }
}
