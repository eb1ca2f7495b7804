/* When the nests of an nn-fuse block may share one kernel (gpu_fuse.h):
 * the buffers the nests pass to each other must be partitioned by the
 * fused induction variables, so that no work-item reads what another
 * writes. */
#include <stdlib.h>
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "gpu_fuse.h"

typedef struct {
  MlirValue memref, root;
  MlirOperation op;
  int nest;
  intptr_t firstIndex; /* the operand of the first index */
  bool write, opaque;  /* opaque: a use other than a load or store */
} Access;

typedef struct {
  Access *items;
  size_t count, cap;
  int nest;
  bool oom;
} Accesses;

bool gpuFuseIsView(MlirOperation op) {
  return strataOpIsNamed(op, "memref.subview") || strataOpIsNamed(op, "memref.expand_shape") ||
         strataOpIsNamed(op, "memref.collapse_shape") || strataOpIsNamed(op, "memref.cast") ||
         strataOpIsNamed(op, "memref.reinterpret_cast") || strataOpIsNamed(op, "memref.view") ||
         strataOpIsNamed(op, "memref.reshape") || strataOpIsNamed(op, "memref.transpose");
}

MlirValue gpuFuseRootOf(MlirValue v) {
  while (mlirValueIsAOpResult(v) && gpuFuseIsView(mlirOpResultGetOwner(v)))
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  return v;
}

static void add(Accesses *a, MlirValue memref, MlirOperation op, intptr_t firstIndex, bool write, bool opaque) {
  if (a->count == a->cap) {
    size_t cap = a->cap ? 2 * a->cap : 32;
    Access *grown = realloc(a->items, cap * sizeof *grown);
    if (!grown) {
      a->oom = true;
      return;
    }
    a->items = grown, a->cap = cap;
  }
  a->items[a->count++] = (Access){memref, gpuFuseRootOf(memref), op, a->nest, firstIndex, write, opaque};
}

static MlirWalkResult collect(MlirOperation op, void *user) {
  Accesses *a = user;
  if (strataOpIsNamed(op, "memref.load")) add(a, mlirOperationGetOperand(op, 0), op, 1, false, false);
  else if (strataOpIsNamed(op, "memref.store")) add(a, mlirOperationGetOperand(op, 1), op, 2, true, false);
  else if (!gpuFuseIsView(op))
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
      if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i))))
        add(a, mlirOperationGetOperand(op, i), op, 0, true, true);
  return a->oom ? MlirWalkResultInterrupt : MlirWalkResultAdvance;
}

static MlirWalkResult countParallel(MlirOperation op, void *user) {
  if (strataOpIsNamed(op, "scf.parallel")) ++*(int *)user;
  return MlirWalkResultAdvance;
}

static bool hasNestedParallel(MlirOperation nest) {
  int count = 0;
  mlirOperationWalk(nest, countParallel, &count, MlirWalkPreOrder);
  return count > 1;
}

bool gpuFuseIsNest(MlirOperation op, intptr_t *dims) {
  if (!strataOpIsNamed(op, "scf.parallel") || mlirOperationGetNumResults(op)) return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  intptr_t n = mlirBlockIsNull(body) ? 0 : mlirBlockGetNumArguments(body);
  if (n < 1 || mlirOperationGetNumOperands(op) != 3 * n || hasNestedParallel(op)) return false;
  *dims = n;
  return true;
}

bool gpuFuseConstIndex(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "arith.constant")) return false;
  MlirAttribute a = strataOpAttr(mlirOpResultGetOwner(v), "value");
  if (!mlirAttributeIsAInteger(a)) return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

static bool sameIndex(MlirValue a, MlirValue b) {
  int64_t x, y;
  return mlirValueEqual(a, b) || (gpuFuseConstIndex(a, &x) && gpuFuseConstIndex(b, &y) && x == y);
}

static MlirValue inductionVar(MlirOperation nest, intptr_t f) {
  return mlirBlockGetArgument(mlirRegionGetFirstBlock(mlirOperationGetRegion(nest, 0)), f);
}

/* True if index `v` is `iv` itself (or an affine.apply of the identity). */
static bool isInductionVar(MlirValue v, MlirValue iv) {
  if (mlirValueEqual(v, iv)) return true;
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "affine.apply")) return false;
  MlirOperation apply = mlirOpResultGetOwner(v);
  MlirAttribute map = strataOpAttr(apply, "map");
  if (mlirAttributeIsNull(map) || !mlirAttributeIsAAffineMap(map)) return false;
  MlirAffineMap m = mlirAffineMapAttrGetValue(map);
  if (mlirAffineMapGetNumResults(m) != 1) return false;
  MlirAffineExpr e = mlirAffineMapGetResult(m, 0);
  if (!mlirAffineExprIsADim(e)) return false;
  intptr_t pos = mlirAffineDimExprGetPosition(e);
  return pos < mlirOperationGetNumOperands(apply) && mlirValueEqual(mlirOperationGetOperand(apply, pos), iv);
}

static bool subviewOf(MlirValue v, MlirValue root) {
  if (!mlirValueIsAOpResult(v) || !strataOpIsNamed(mlirOpResultGetOwner(v), "memref.subview")) return false;
  MlirOperation sub = mlirOpResultGetOwner(v);
  return mlirValueEqual(mlirOperationGetOperand(sub, 0), root) &&
         mlirShapedTypeGetRank(mlirValueGetType(v)) == mlirShapedTypeGetRank(mlirValueGetType(root));
}

/* True if index i of dimension d of `v` (the root or a subview of it with
 * the root's rank) is index i of the root's dimension d. */
static bool sameRows(MlirValue v, MlirValue root, intptr_t d) {
  if (mlirValueEqual(v, root)) return true;
  MlirOperation sub = mlirOpResultGetOwner(v);
  MlirAttribute offsets = strataOpAttr(sub, "static_offsets"), strides = strataOpAttr(sub, "static_strides");
  return mlirAttributeIsADenseI64Array(offsets) && mlirAttributeIsADenseI64Array(strides) &&
         d < mlirDenseArrayGetNumElements(offsets) && mlirDenseI64ArrayGetElement(offsets, d) == 0 &&
         d < mlirDenseArrayGetNumElements(strides) && mlirDenseI64ArrayGetElement(strides, d) == 1;
}

/* The fused dimensions (at most `p`) of the accesses to `root`: the
 * largest q such that for each f < q one memref dimension is indexed by
 * induction variable f in every access; 0 if one is opaque or the accesses
 * differ in their memref, unless each is the root or a subview of it
 * (then the dimension must have offset 0 and stride 1 in each subview: a
 * column block of a buffer another nest wrote by rows). */
static intptr_t partitioned(const Access *acc, size_t count, MlirValue root, const GpuNest *nests, intptr_t p) {
  const Access *first = NULL;
  bool same = true, subviews = true;
  for (size_t i = 0; i < count; i++) {
    if (!mlirValueEqual(acc[i].root, root)) continue;
    if (acc[i].opaque) return 0;
    if (!first) first = &acc[i];
    same = same && mlirValueEqual(acc[i].memref, first->memref);
    subviews = subviews && (mlirValueEqual(acc[i].memref, root) || subviewOf(acc[i].memref, root));
  }
  if (!same && !subviews) return 0;
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(first->memref));
  for (intptr_t f = 0; f < p; f++) {
    bool found = false;
    for (intptr_t d = 0; !found && d < rank; d++) {
      found = true;
      for (size_t i = 0; found && i < count; i++)
        if (mlirValueEqual(acc[i].root, root))
          found = isInductionVar(mlirOperationGetOperand(acc[i].op, acc[i].firstIndex + d),
                                 inductionVar(nests[acc[i].nest].op, f)) &&
                  (same || sameRows(acc[i].memref, root, d));
    }
    if (!found) return f;
  }
  return p;
}

intptr_t gpuFuseLegalPrefix(const GpuNest *nests, int n, bool everyWrite, bool *oom) {
  intptr_t p = nests[0].dims;
  for (int k = 1; k < n; k++) {
    intptr_t q = 0, dk = nests[k].dims, d0 = nests[0].dims;
    while (q < p && q < dk) {
      bool same = true;
      for (int part = 0; part < 3; part++)
        same = same && sameIndex(mlirOperationGetOperand(nests[0].op, part * d0 + q),
                                 mlirOperationGetOperand(nests[k].op, part * dk + q));
      if (!same) break;
      q++;
    }
    p = q;
  }
  Accesses a = {0};
  for (int k = 0; p > 0 && k < n && !a.oom; k++) {
    a.nest = k;
    mlirOperationWalk(nests[k].op, collect, &a, MlirWalkPreOrder);
  }
  *oom = a.oom;
  if (a.oom) p = 0;
  /* Buffers written by one nest and touched by another (or every one). */
  for (size_t i = 0; p > 0 && i < a.count; i++) {
    if (!a.items[i].write) continue;
    bool earlier = false, other = false;
    for (size_t j = 0; j < a.count && !earlier; j++) {
      if (!mlirValueEqual(a.items[j].root, a.items[i].root)) continue;
      earlier = j < i && a.items[j].write;
      other = other || a.items[j].nest != a.items[i].nest;
    }
    if (!earlier && (other || everyWrite)) p = partitioned(a.items, a.count, a.items[i].root, nests, p);
  }
  free(a.items);
  return p;
}
