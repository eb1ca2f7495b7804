/* --fused-blocks-tile, the analysis: which dimensions a fused block can be
 * cut along so that every op in it is computed tile by tile (see
 * tile_internal.h for the union-find over loops and value dims). */
#include <string.h>
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "tile_internal.h"

int tileFind(TileBlock *t, int s) {
  while (t->parent[s] != s) s = t->parent[s] = t->parent[t->parent[s]];
  return s;
}

static void unite(TileBlock *t, int a, int b) {
  a = tileFind(t, a);
  b = tileFind(t, b);
  if (a == b) return;
  t->parent[b] = a;
  t->bad[a] |= t->bad[b];
  if (t->extent[a] != t->extent[b]) t->bad[a] = true; /* cannot happen in verified IR */
}

static int newSlots(TileBlock *t, int n, const int64_t *extents) {
  if (t->numSlots + n > TILE_MAX_SLOTS) return -1;
  int base = t->numSlots;
  for (int i = 0; i < n; i++) {
    t->parent[base + i] = base + i;
    t->bad[base + i] = false;
    t->extent[base + i] = extents ? extents[i] : -1;
  }
  t->numSlots += n;
  return base;
}

const TileValue *tileValue(const TileBlock *t, MlirValue v) {
  for (int i = 0; i < t->numVals; i++)
    if (mlirValueEqual(t->vals[i].v, v)) return &t->vals[i];
  return NULL;
}

/* The value's entry, added on first sight; NULL unless a static tensor. */
static const TileValue *valueOf(TileBlock *t, MlirValue v) {
  const TileValue *known = tileValue(t, v);
  if (known) return known;
  TileValue *e = &t->vals[t->numVals];
  if (t->numVals == TILE_MAX_VALUES || !strataGetShape(mlirValueGetType(v), &e->rank, e->dims))
    return NULL;
  if (!mlirTypeIsARankedTensor(mlirValueGetType(v))) return NULL;
  for (int d = 0; d < e->rank; d++)
    if (e->dims[d] < 0) return NULL;
  e->v = v;
  e->slotBase = newSlots(t, e->rank, e->dims);
  if (e->slotBase < 0) return NULL;
  t->numVals++;
  return e;
}

int tileDimLoop(TileBlock *t, const TileValue *v, int d) {
  int c = tileFind(t, v->slotBase + d);
  for (int i = 0; i < t->numTiled; i++)
    if (t->tiled[i] == c) return i;
  return -1;
}

static MlirWalkResult findIndex(MlirOperation op, void *user) {
  if (!strataOpIsNamed(op, "linalg.index")) return MlirWalkResultAdvance;
  *(bool *)user = true;
  return MlirWalkResultInterrupt;
}

static bool isReduction(MlirAttribute iterator) {
  MlirAttribute reduction =
      strataParseAttr(mlirAttributeGetContext(iterator), "#linalg.iterator_type<reduction>");
  return mlirAttributeEqual(iterator, reduction);
}

/* Joins the dims of operand `v` (indexing map `map`) with the loops of the
 * generic whose first loop slot is `loops`. */
static bool linkOperand(TileBlock *t, MlirValue v, MlirAffineMap map, int loops, int numLoops) {
  const TileValue *tv = valueOf(t, v);
  if (!tv || mlirAffineMapGetNumResults(map) != tv->rank) return false;
  for (int q = 0; q < tv->rank; q++) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, q);
    int slot = tv->slotBase + q;
    if (mlirAffineExprIsADim(e)) {
      int l = (int)mlirAffineDimExprGetPosition(e);
      if (t->extent[loops + l] < 0) t->extent[loops + l] = tv->dims[q];
      unite(t, slot, loops + l);
    } else if (mlirAffineExprIsAConstant(e)) {
      /* A broadcast unit dim; a fixed index into a longer dim is never cut. */
      if (tv->dims[q] != 1) t->bad[tileFind(t, slot)] = true;
    } else {
      t->bad[tileFind(t, slot)] = true;
      for (int l = 0; l < numLoops; l++)
        if (mlirAffineExprIsFunctionOfDim(e, l)) t->bad[tileFind(t, loops + l)] = true;
    }
  }
  return true;
}

static bool addGeneric(TileBlock *t, TileOp *o) {
  MlirOperation op = o->op;
  bool usesIndex = false;
  mlirOperationWalk(op, findIndex, &usesIndex, MlirWalkPreOrder);
  MlirAttribute maps = strataOpAttr(op, "indexing_maps"), its = strataOpAttr(op, "iterator_types");
  if (usesIndex || mlirAttributeIsNull(maps) || mlirAttributeIsNull(its)) return false;
  intptr_t n = mlirOperationGetNumOperands(op), results = mlirOperationGetNumResults(op);
  if (mlirArrayAttrGetNumElements(maps) != n || results > n) return false;
  o->numLoops = (int)mlirArrayAttrGetNumElements(its);
  o->loopBase = newSlots(t, o->numLoops, NULL);
  if (o->loopBase < 0) return false;
  for (int l = 0; l < o->numLoops; l++)
    if (isReduction(mlirArrayAttrGetElement(its, l))) t->bad[o->loopBase + l] = o->reduces = true;
  for (intptr_t i = 0; i < n; i++) {
    MlirAffineMap map = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
    if (!linkOperand(t, mlirOperationGetOperand(op, i), map, o->loopBase, o->numLoops)) return false;
  }
  /* Result r has the shape and indexing of its init operand. */
  for (intptr_t r = 0; r < results; r++) {
    const TileValue *init = valueOf(t, mlirOperationGetOperand(op, n - results + r));
    const TileValue *res = valueOf(t, mlirOperationGetResult(op, r));
    if (!init || !res || init->rank != res->rank) return false;
    for (int q = 0; q < res->rank; q++) unite(t, init->slotBase + q, res->slotBase + q);
  }
  for (int l = 0; l < o->numLoops; l++)
    if (t->extent[o->loopBase + l] < 0) t->bad[tileFind(t, o->loopBase + l)] = true;
  return true;
}

/* tensor.reshape that only inserts or drops unit dims: the other dims keep
 * their order, and each joins its counterpart. */
static bool addReshape(TileBlock *t, MlirOperation op) {
  const TileValue *src = valueOf(t, mlirOperationGetOperand(op, 0));
  const TileValue *dst = valueOf(t, mlirOperationGetResult(op, 0));
  if (!src || !dst) return false;
  int i = 0, j = 0;
  for (;;) {
    while (i < src->rank && src->dims[i] == 1) i++;
    while (j < dst->rank && dst->dims[j] == 1) j++;
    if (i == src->rank || j == dst->rank) return i == src->rank && j == dst->rank;
    if (src->dims[i] != dst->dims[j]) return false;
    unite(t, src->slotBase + i++, dst->slotBase + j++);
  }
}

static bool collect(TileBlock *t, MlirBlock body) {
  MlirOperation term = mlirBlockGetTerminator(body);
  int generics = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationEqual(op, term);
       op = mlirOperationGetNextInBlock(op)) {
    if (t->numOps == TILE_MAX_OPS) return false;
    TileOp *o = &t->ops[t->numOps++];
    memset(o, 0, sizeof *o);
    o->op = op;
    if (strataOpIsNamed(op, "linalg.generic")) {
      o->kind = TILE_GENERIC;
      generics++;
      if (!addGeneric(t, o)) return false;
    } else if (strataOpIsNamed(op, "tensor.reshape")) {
      o->kind = TILE_RESHAPE;
      if (!addReshape(t, op)) return false;
    } else if (strataOpIsNamed(op, "tensor.empty")) {
      o->kind = TILE_EMPTY;
    } else if (strataOpIsNamed(op, "arith.constant")) {
      o->kind = TILE_CONSTANT;
    } else {
      return false; /* anything else keeps the block as it is */
    }
  }
  return generics >= 2;
}

static bool isTiled(const TileBlock *t, int c) {
  for (int i = 0; i < t->numTiled; i++)
    if (t->tiled[i] == c) return true;
  return false;
}

static void untile(TileBlock *t, int c) {
  for (int i = 0; i < t->numTiled; i++)
    if (t->tiled[i] == c) {
      memmove(&t->tiled[i], &t->tiled[i + 1], (size_t)(t->numTiled - i - 1) * sizeof(int));
      t->numTiled--;
      return;
    }
}

static bool opHasLoopIn(TileBlock *t, const TileOp *o, int c) {
  for (int l = 0; l < o->numLoops; l++)
    if (tileFind(t, o->loopBase + l) == c) return true;
  return false;
}

static bool valueCarries(TileBlock *t, MlirValue v, int c) {
  const TileValue *tv = tileValue(t, v);
  for (int d = 0; tv && d < tv->rank; d++)
    if (tileFind(t, tv->slotBase + d) == c) return true;
  return false;
}

/* A class is cut only if it is clean, longer than 1, and not the innermost
 * (contiguous) dim of what the block yields: rows stay whole, so the
 * tile's loops still vectorize. */
static void chooseClasses(TileBlock *t, MlirOperation term) {
  bool excluded[TILE_MAX_SLOTS] = {false};
  for (int g = 0; g < t->numOps; g++) { /* two loops of one op in one class: a diagonal */
    const TileOp *o = &t->ops[g];
    for (int a = 0; a < o->numLoops; a++)
      for (int b = a + 1; b < o->numLoops; b++)
        if (tileFind(t, o->loopBase + a) == tileFind(t, o->loopBase + b))
          t->bad[tileFind(t, o->loopBase + a)] = true;
  }
  intptr_t ny = mlirOperationGetNumOperands(term);
  for (intptr_t y = 0; y < ny; y++) {
    const TileValue *v = tileValue(t, mlirOperationGetOperand(term, y));
    if (v && v->rank) excluded[tileFind(t, v->slotBase + v->rank - 1)] = true;
  }
  /* Outermost first: the yielded values' dims in order, then the rest. */
  t->numTiled = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int s = 0; s < t->numSlots && t->numTiled < TILE_MAX_LOOPS; s++) {
      int c = tileFind(t, s);
      if (pass == 0) {
        bool yielded = false;
        for (intptr_t y = 0; y < ny && !yielded; y++) yielded = valueCarries(t, mlirOperationGetOperand(term, y), c);
        if (!yielded) continue;
      }
      if (t->bad[c] || excluded[c] || t->extent[c] <= 1 || isTiled(t, c)) continue;
      bool hasLoop = false;
      for (int g = 0; g < t->numOps && !hasLoop; g++) hasLoop = opHasLoopIn(t, &t->ops[g], c);
      if (hasLoop) t->tiled[t->numTiled++] = c;
    }
}

/* Resident: a generic with a loop in a cut class, or a reshape of a
 * resident value. Every resident must run along every cut class (else it
 * would be recomputed per tile), and its results may only feed residents
 * and the terminator. */
static bool chooseResidents(TileBlock *t, MlirOperation term) {
  for (bool changed = true; changed && t->numTiled;) {
    changed = false;
    for (int g = 0; g < t->numOps; g++) {
      TileOp *o = &t->ops[g];
      o->resident = false;
      if (o->kind == TILE_GENERIC)
        for (int i = 0; i < t->numTiled && !o->resident; i++) o->resident = opHasLoopIn(t, o, t->tiled[i]);
      if (o->kind == TILE_RESHAPE)
        for (int i = 0; i < t->numTiled && !o->resident; i++)
          o->resident = valueCarries(t, mlirOperationGetOperand(o->op, 0), t->tiled[i]);
      if (!o->resident) continue;
      for (int i = 0; i < t->numTiled && !changed; i++)
        for (intptr_t r = 0; r < mlirOperationGetNumResults(o->op) && !changed; r++)
          if (!valueCarries(t, mlirOperationGetResult(o->op, r), t->tiled[i])) {
            untile(t, t->tiled[i]);
            changed = true;
          }
      if (changed) break;
    }
  }
  if (!t->numTiled) return false;
  for (int g = 0; g < t->numOps; g++) {
    if (!t->ops[g].resident) continue;
    for (intptr_t r = 0; r < mlirOperationGetNumResults(t->ops[g].op); r++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(t->ops[g].op, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        bool ok = mlirOperationEqual(user, term);
        for (int h = 0; h < t->numOps && !ok; h++)
          ok = t->ops[h].resident && mlirOperationEqual(t->ops[h].op, user);
        if (!ok) return false;
      }
  }
  return true;
}

bool tileAnalyze(TileBlock *t, MlirOperation region) {
  t->numOps = t->numVals = t->numSlots = t->numTiled = 0;
  if (mlirOperationGetNumRegions(region) != 1) return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(region, 0));
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body))) return false;
  if (!collect(t, body)) return false;
  MlirOperation term = mlirBlockGetTerminator(body);
  for (intptr_t y = 0; y < mlirOperationGetNumOperands(term); y++)
    if (!mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetOperand(term, y)))) return false;
  chooseClasses(t, term);
  return chooseResidents(t, term);
}
