/* Holds each planned block in `scf.execute_region no_inline`, tagged
 *   strata.fused = {id = N, mapping = "Many-to-Many", ops = ["nn.add", ...]}
 * yielding the members' results that are used outside the block (the
 * block's probes are members too, unlisted in `ops`). Members
 * move to the position of the block's last op; anything between them that
 * uses a block result then moves after it (a stable topological sort). */
#include <stdlib.h>
#include <string.h>
#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "strata/builder.h"

static bool usedOutside(MlirValue v, const FuseGraph *g, int block) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    int n = fuseGraphIndex(g, mlirOpOperandGetOwner(u));
    if (n < 0 || g->nodes[n].block != block) return true;
  }
  return false;
}

/* `ops` lists the planned ops: the block's probes ride along unlisted. */
static MlirAttribute blockAttr(MlirContext c, int id, StrataMappingType map, MlirOperation *ops,
                               int n) {
  MlirAttribute names[n];
  int listed = 0;
  for (int i = 0; i < n; i++)
    if (!strataInstrIsProbe(ops[i], NULL))
      names[listed++] = mlirStringAttrGet(c, mlirIdentifierStr(mlirOperationGetName(ops[i])));
  MlirNamedAttribute fields[] = {
      {mlirIdentifierGet(c, mlirStringRefCreateFromCString("id")), strataI64Attr(c, id)},
      {mlirIdentifierGet(c, mlirStringRefCreateFromCString("mapping")),
       strataStrAttr(c, strataMappingTypeName(map))},
      {mlirIdentifierGet(c, mlirStringRefCreateFromCString("ops")), mlirArrayAttrGet(c, listed, names)},
  };
  return mlirDictionaryAttrGet(c, 3, fields);
}

static void wrapBlock(const FuseGraph *g, int block, StrataMappingType map, MlirOperation *ops,
                      int n) {
  MlirContext c = mlirOperationGetContext(ops[0]);
  int maxOut = 0;
  for (int i = 0; i < n; i++) maxOut += (int)mlirOperationGetNumResults(ops[i]);
  MlirValue outs[maxOut + 1];
  MlirType types[maxOut + 1];
  int numOut = 0;
  for (int i = 0; i < n; i++)
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[i]); r++) {
      MlirValue v = mlirOperationGetResult(ops[i], r);
      if (!usedOutside(v, g, block)) continue;
      outs[numOut] = v;
      types[numOut++] = mlirValueGetType(v);
    }
  MlirOperation last = ops[n - 1];
  StrataBuilder b = strataBuilderBefore(mlirOperationGetNextInBlock(last), (MlirRewriterBase){NULL});
  MlirLocation loc = mlirOperationGetLocation(last);
  MlirOperation region = strataCreateOp(
      &b, "scf.execute_region", loc, .results = (StrataTypeList){types, numOut},
      .attrs = STRATA_ATTRS({"no_inline", mlirUnitAttrGet(c)},
                            {"strata.fused", blockAttr(c, block, map, ops, n)}),
      .numRegions = 1);
  MlirBlock body = strataAddBlock(region, 0, (StrataTypeList){NULL, 0}, loc);
  StrataBuilder inside = strataBuilderAtEnd(c, body);
  MlirOperation yield =
      strataCreateOp(&inside, "scf.yield", loc, .operands = (StrataValueList){outs, numOut});
  for (int i = 0; i < n; i++) mlirOperationMoveBefore(ops[i], yield);
  MlirOperation except[n + 1];
  memcpy(except, ops, (size_t)n * sizeof *ops);
  except[n] = yield;
  for (int k = 0; k < numOut; k++)
    mlirValueReplaceAllUsesExcept(outs[k], strataResult(region, k), n + 1, except);
}

/* ---- Stable topological order of a block's ops ---- */
typedef struct {
  MlirBlock block;
  MlirOperation *ops;
  FusePtrMap index;
  char *state; /* 0 unvisited, 1 visiting, 2 placed */
  MlirOperation *order;
  int placed;
} Sorter;

static void visit(Sorter *s, int i);

/* The op of s->block that contains `op` (op itself, or an ancestor). */
static int topLevel(Sorter *s, MlirOperation op) {
  while (!mlirOperationIsNull(op)) {
    if (mlirBlockEqual(mlirOperationGetBlock(op), s->block)) return fusePtrMapGet(&s->index, op.ptr);
    op = mlirOperationGetParentOperation(op);
  }
  return -1;
}

typedef struct {
  Sorter *s;
  int self;
} DepWalk;

static MlirWalkResult visitDeps(MlirOperation op, void *user) {
  DepWalk *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v)) continue;
    int d = topLevel(w->s, mlirOpResultGetOwner(v));
    if (d >= 0 && d != w->self) visit(w->s, d);
  }
  return MlirWalkResultAdvance;
}

static void visit(Sorter *s, int i) {
  if (s->state[i]) return; /* placed, or a cycle through a region: keep order */
  s->state[i] = 1;
  DepWalk w = {s, i};
  mlirOperationWalk(s->ops[i], visitDeps, &w, MlirWalkPreOrder);
  s->state[i] = 2;
  s->order[s->placed++] = s->ops[i];
}

static void sortTopologically(MlirBlock block) {
  int n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    n++;
  Sorter s = {block, malloc((size_t)n * sizeof(MlirOperation)), {0}, calloc((size_t)n, 1),
              malloc((size_t)n * sizeof(MlirOperation)), 0};
  fusePtrMapInit(&s.index, n);
  int k = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op), k++) {
    s.ops[k] = op;
    fusePtrMapPut(&s.index, op.ptr, k);
  }
  for (int i = 0; i < n; i++) visit(&s, i);
  MlirOperation terminator = s.ops[n - 1];
  for (int i = 0; i < n; i++)
    if (!mlirOperationEqual(s.order[i], terminator)) mlirOperationMoveBefore(s.order[i], terminator);
  fusePtrMapDestroy(&s.index);
  free(s.ops);
  free(s.state);
  free(s.order);
}

void fuseWrapBlocks(FuseGraph *g, const FusePlan *plan, MlirOperation func) {
  MlirOperation *ops = malloc(((size_t)g->count + 1) * sizeof *ops);
  for (int b = 0; b < plan->count; b++) {
    int n = 0;
    for (int i = 0; i < g->count; i++)
      if (g->nodes[i].block == b) ops[n++] = g->nodes[i].op;
    if (n) wrapBlock(g, b, plan->mapping[b], ops, n);
  }
  free(ops);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (g->count) sortTopologically(entry);
}
