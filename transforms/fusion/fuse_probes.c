/* Read-only instrumentation probes in --nn-fuse. An `instr.probe` passes its
 * operand through unchanged, so the planner does not see it: edges, block
 * inputs, mapping types (is this operand a constant?) and the kernels the
 * latency database keys and times are all taken through chains of probes,
 * and the plan of an instrumented function is the plan of the function
 * without its probes. Once the nn ops have their blocks, each probe joins
 * the block of the op it observes:
 *   point = "after"  (an output of op X)  -> X's block;
 *   point = "before" (an input of op Y)   -> Y's block, even when the input
 *                                            comes from outside the block;
 * and a probe whose op is gone (a later pass removed it) goes to the block
 * of the op producing, else the op reading, its value; with neither it
 * stays outside the blocks. Computation a tool inserts (masks, QDQ pairs)
 * is made of nn ops and is planned like any other op. */
#include <string.h>
#include "fuse_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "strata/support.h"

bool fuseOpsContain(MlirOperation *ops, int n, MlirOperation op) {
  for (int i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op)) return true;
  return false;
}

bool fuseUsedOutsideOps(MlirValue v, MlirOperation *ops, int n) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (strataInstrIsProbe(owner, NULL) ? fuseUsedOutsideOps(mlirOperationGetResult(owner, 0), ops, n)
                           : !fuseOpsContain(ops, n, owner))
      return true;
  }
  return false;
}

/* The planned node producing `v` through probes, or -1. */
static int producerNode(const FuseGraph *g, MlirValue v) {
  v = strataInstrThroughProbes(v, NULL);
  if (!mlirValueIsAOpResult(v)) return -1;
  int p = fuseGraphIndex(g, mlirOpResultGetOwner(v));
  return p >= 0 && !g->nodes[p].probe ? p : -1;
}

/* The planned node reading `v` through a chain of probes, each the only
 * reader of the one before (what insert-before makes), or -1. */
static int readerNode(const FuseGraph *g, MlirValue v) {
  for (;;) {
    MlirOpOperand u = mlirValueGetFirstUse(v);
    if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u))) return -1;
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (!strataInstrIsProbe(owner, NULL)) {
      int r = fuseGraphIndex(g, owner);
      return r >= 0 && !g->nodes[r].probe ? r : -1;
    }
    v = mlirOperationGetResult(owner, 0);
  }
}

static bool observesInput(MlirOperation probe) {
  MlirAttribute point = mlirOperationGetAttributeByName(probe, mlirStringRefCreateFromCString("point"));
  return !mlirAttributeIsNull(point) && mlirAttributeIsAString(point) &&
         mlirStringRefEqual(mlirStringAttrGetValue(point), mlirStringRefCreateFromCString("before"));
}

void fusePlaceProbes(FuseGraph *g) {
  /* Program order: a probe reading another probe sees where that one went. */
  for (int i = 0; i < g->count; i++) {
    FuseNode *n = &g->nodes[i];
    if (!n->probe) continue;
    MlirValue in = mlirOperationGetOperand(n->op, 0), out = mlirOperationGetResult(n->op, 0);
    int producer = producerNode(g, in), reader = readerNode(g, out);
    int observed = observesInput(n->op) ? (reader >= 0 ? reader : producer)
                                        : (producer >= 0 ? producer : reader);
    n->block = observed >= 0 ? g->nodes[observed].block : -1;
    /* In a chain producer -> probes -> reader, a probe that follows one
     * placed in the reader's block goes there too (never back to the
     * producer's block: that would be a cycle between the two blocks).
     * The tools' chains are after-probes, then before-probes, so this only
     * matters for hand-written IR. */
    int prev = mlirValueIsAOpResult(in) ? fuseGraphIndex(g, mlirOpResultGetOwner(in)) : -1;
    if (prev >= 0 && g->nodes[prev].probe && observed == producer && g->nodes[prev].block >= 0)
      n->block = g->nodes[prev].block;
  }
}
