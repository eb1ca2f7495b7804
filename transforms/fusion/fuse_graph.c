/* The op graph --nn-fuse plans over: a function's top-level Strata ops in
 * program order (which is topological), with producer/consumer edges, and
 * the other ops between them that take inputs (an scf.for over nn ops, a
 * tensor.extract) as opaque nodes: never fused, but a path through one is
 * a path, so no block is planned around it (a block holding a producer of
 * a loop and a consumer of its result would be a cycle). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "fuse_internal.h"
#include "grow.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"

static unsigned hashPtr(const void *p, int buckets) {
  uintptr_t x = (uintptr_t)p;
  x ^= x >> 17;
  x *= 0x9E3779B97F4A7C15ull;
  return (unsigned)(x >> 7) % (unsigned)buckets;
}

bool fusePtrMapInit(FusePtrMap *m, int capacity) {
  m->buckets = 2 * capacity + 1;
  m->keys = calloc((size_t)m->buckets, sizeof *m->keys);
  m->vals = calloc((size_t)m->buckets, sizeof *m->vals);
  return m->keys && m->vals;
}

void fusePtrMapDestroy(FusePtrMap *m) {
  free(m->keys);
  free(m->vals);
  memset(m, 0, sizeof *m);
}

int fusePtrMapGet(const FusePtrMap *m, const void *key) {
  if (!key || !m->buckets) return -1;
  for (unsigned h = hashPtr(key, m->buckets);; h = (h + 1) % (unsigned)m->buckets) {
    if (!m->keys[h]) return -1;
    if (m->keys[h] == key) return m->vals[h];
  }
}

void fusePtrMapPut(FusePtrMap *m, const void *key, int val) {
  unsigned h = hashPtr(key, m->buckets);
  while (m->keys[h]) h = (h + 1) % (unsigned)m->buckets;
  m->keys[h] = key;
  m->vals[h] = val;
}

int fuseGraphIndex(const FuseGraph *g, MlirOperation op) {
  return mlirOperationIsNull(op) ? -1 : fusePtrMapGet(&g->index, op.ptr);
}

static bool isNode(StrataContext *ctx, MlirOperation op) {
  return strataContextGetOpDef(ctx, op) && !strataOpIsNamed(op, "nn.constant") &&
         mlirOperationGetNumResults(op) > 0;
}

/* Another dialect's op that depends on something (operands or regions). */
static bool isOpaque(StrataContext *ctx, MlirOperation op) {
  return !strataContextGetOpDef(ctx, op) && mlirOperationGetNumResults(op) > 0 &&
         (mlirOperationGetNumOperands(op) > 0 || mlirOperationGetNumRegions(op) > 0);
}

/* The op's mapping type as fusion sees it. An element-wise op whose only
 * broadcasting operands are constants (a bias, a scalar exponent) moves no
 * intermediate data one-to-many: every non-constant input element maps to
 * one output element, so it plans as One-to-One. (Otherwise the thesis'
 * own example, Sub+Pow(x, 2)+ReduceMean+..., would hit the red O2M->M2M
 * cell.) */
static StrataMappingType fusionMapping(StrataContext *ctx, MlirOperation op) {
  StrataMappingType m = strataOpMappingType(strataContextGetOpDef(ctx, op), op);
  if (m != STRATA_MAP_ONE_TO_MANY || mlirOperationGetNumResults(op) != 1) return m;
  MlirType result = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = strataInstrThroughProbes(mlirOperationGetOperand(op, i), NULL);
    bool constant = mlirValueIsAOpResult(v) && strataOpIsNamed(mlirOpResultGetOwner(v), "nn.constant");
    if (constant) continue;
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasStaticShape(t) ||
        mlirShapedTypeGetRank(t) != mlirShapedTypeGetRank(result))
      return m;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); d++)
      if (mlirShapedTypeGetDimSize(t, d) != mlirShapedTypeGetDimSize(result, d)) return m;
  }
  return STRATA_MAP_ONE_TO_ONE;
}

static bool addEdge(int **list, int *n, size_t *cap, int v) {
  for (int i = 0; i < *n; i++)
    if ((*list)[i] == v) return true;
  int *grown = strataGrow(*list, cap, (size_t)*n + 1, sizeof *grown);
  if (!grown) return false;
  (*list = grown)[(*n)++] = v;
  return true;
}

/* Adds the edge producer(v) -> node `self`, where v's producer is a node
 * (through probes; for a value defined in a region, the top-level op
 * holding its definition). False when out of memory. */
static bool addOperandEdge(FuseGraph *g, int self, MlirValue v, MlirBlock entry) {
  v = strataInstrThroughProbes(v, NULL);
  if (!mlirValueIsAOpResult(v)) return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  while (!mlirOperationIsNull(def) && !mlirBlockEqual(mlirOperationGetBlock(def), entry))
    def = mlirOperationGetParentOperation(def);
  int p = fuseGraphIndex(g, def);
  if (p < 0 || p == self) return true;
  FuseNode *n = &g->nodes[self];
  return addEdge(&n->pred, &n->npred, &n->capPred, p) &&
         addEdge(&g->nodes[p].succ, &g->nodes[p].nsucc, &g->nodes[p].capSucc, self);
}

typedef struct {
  FuseGraph *g;
  int self;
  MlirBlock entry;
  bool ok;
} RegionUses;

static MlirWalkResult addRegionUses(MlirOperation op, void *user) {
  RegionUses *w = user;
  for (intptr_t i = 0; w->ok && i < mlirOperationGetNumOperands(op); i++)
    w->ok = addOperandEdge(w->g, w->self, mlirOperationGetOperand(op, i), w->entry);
  return w->ok ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

bool fuseGraphBuild(FuseGraph *g, StrataContext *ctx, const StrataTargetDef *target,
                    MlirOperation func) {
  memset(g, 0, sizeof *g);
  g->target = target;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry)) return true;
  int count = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    count += isNode(ctx, op) || isOpaque(ctx, op);
  g->nodes = calloc((size_t)count + 1, sizeof *g->nodes);
  if (!fusePtrMapInit(&g->index, count) || !g->nodes) return false;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    bool opaque = !isNode(ctx, op) && isOpaque(ctx, op);
    if (!isNode(ctx, op) && !opaque) continue;
    FuseNode *n = &g->nodes[g->count];
    n->op = op;
    n->block = -1;
    fusePtrMapPut(&g->index, op.ptr, g->count);
    if ((n->opaque = opaque)) {
      RegionUses w = {g, g->count, entry, true};
      mlirOperationWalk(op, addRegionUses, &w, MlirWalkPreOrder);
      g->count++; /* so fuseGraphDestroy frees this node's lists, also on failure */
      if (!w.ok) return false;
      continue;
    }
    if ((n->probe = strataInstrIsProbe(op, NULL))) { /* transparent: see fuse_probes.c */
      g->count++;
      continue;
    }
    n->map = fusionMapping(ctx, op);
    n->kernel = target && target->isKernel && target->isKernel(target, op);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); r++)
      n->irsBytes += strataTypeBytes(mlirValueGetType(mlirOperationGetResult(op, r)));
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = strataInstrThroughProbes(mlirOperationGetOperand(op, i), NULL);
      if (!mlirValueIsAOpResult(v)) continue;
      int p = fuseGraphIndex(g, mlirOpResultGetOwner(v));
      if (p < 0) continue;
      if (!addEdge(&n->pred, &n->npred, &n->capPred, p) ||
          !addEdge(&g->nodes[p].succ, &g->nodes[p].nsucc, &g->nodes[p].capSucc, g->count)) {
        g->count++; /* so fuseGraphDestroy frees this node's lists too */
        return false;
      }
    }
    g->count++;
  }
  return true;
}

void fuseGraphDestroy(FuseGraph *g) {
  for (int i = 0; i < g->count; i++) {
    free(g->nodes[i].succ);
    free(g->nodes[i].pred);
  }
  free(g->nodes);
  fusePtrMapDestroy(&g->index);
  memset(g, 0, sizeof *g);
}

/* Depth-first search over successors from the outside successors of the
 * `from` nodes; true if it reaches a node marked in `target`. Nodes after
 * `limit` (program order) cannot reach a node at or before it. */
static bool reachesOutside(const FuseGraph *g, const bool *from, const bool *target,
                           const bool *skip, int limit) {
  bool *seen = calloc((size_t)g->count, 1);
  int *stack = malloc((size_t)g->count * sizeof *stack), top = 0;
  bool found = false;
  for (int i = 0; i <= limit && !found; i++) {
    if (!from[i]) continue;
    for (int k = 0; k < g->nodes[i].nsucc; k++) {
      int s = g->nodes[i].succ[k];
      if (s <= limit && !skip[s] && !target[s] && !seen[s]) seen[s] = true, stack[top++] = s;
    }
  }
  while (top && !found) {
    int v = stack[--top];
    for (int k = 0; k < g->nodes[v].nsucc && !found; k++) {
      int s = g->nodes[v].succ[k];
      if (s > limit || seen[s]) continue;
      if (target[s]) found = true;
      seen[s] = true;
      stack[top++] = s;
    }
  }
  free(seen);
  free(stack);
  return found;
}

bool fuseGraphBreaksConvexity(const FuseGraph *g, const bool *inBlock, int s) {
  bool *only = calloc((size_t)g->count, 1);
  only[s] = true;
  int last = s;
  for (int i = 0; i < g->count; i++)
    if (inBlock[i] && i > last) last = i;
  /* block -> outside -> s, and s -> outside -> block */
  bool broken = reachesOutside(g, inBlock, only, inBlock, s) ||
                reachesOutside(g, only, inBlock, only, last);
  free(only);
  return broken;
}
