/* --gpu-launch-operands: what a gpu.launch reads from the host, settled
 * before kernel outlining.
 *
 * Scalars the host would compute from buffer contents are computed in the
 * kernels that use them instead.
 * The GPU targets' host side allocates buffers, makes views, copies and
 * launches kernels; it reads no device memory. A lowering that loads a
 * scalar from a tensor outside its loops (Resize's run-time roi, the scale
 * and zero point DynamicQuantizeLinear derives from its min and max) leaves
 * a top-level memref.load, and arithmetic on it, that feeds a gpu.launch.
 * Before outlining, each launch gets its own copy of that chain: the loads,
 * and the arith/math ops and casts between them and the launch, cloned
 * into the launch's body, so every work-item reads the value itself. A load
 * is copied only where that reads the same value the host would have: no
 * op from the load up to the launch (the launch included) may write the
 * buffer it reads or any view of it. What stays on the host (a chain with
 * any other op, or a buffer written in between) is left for the target,
 * which refuses it at the op.
 *
 * And constant globals (memref.get_global) named inside a launch move
 * before it, so they become buffer arguments of the kernel. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "gpu_fuse.h"

enum { MAX_CHAIN = 256 };

/* True if the load `load` (a top-level op before `launch` in one block)
 * reads the same value at the launch: nothing after it up to the launch,
 * the launch included, may write its buffer or a view of it. */
static bool loadStable(MlirOperation load, MlirOperation launch) {
  return !gpuFuseWritten(mlirOperationGetNextInBlock(load), mlirOperationGetOperand(load, 0), launch);
}

static bool isSinkableArith(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) || mlirOperationGetNumResults(op) != 1) return false;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return (name.length > 6 && !strncmp(name.data, "arith.", 6)) || (name.length > 5 && !strncmp(name.data, "math.", 5)) ||
         strataOpIsNamed(op, "builtin.unrealized_conversion_cast");
}

typedef struct {
  MlirOperation ops[MAX_CHAIN];
  size_t n;
  bool hasLoad;
} Chain;

static bool inChain(const Chain *c, MlirOperation op) {
  for (size_t i = 0; i < c->n; i++)
    if (mlirOperationEqual(c->ops[i], op)) return true;
  return false;
}

/* Collects, operands first, the ops of `launch`'s block that `v` is
 * computed by and that can move into the launch; false if `v` depends on a
 * load that cannot. Values of other ops stay kernel arguments. */
static bool collect(Chain *c, MlirValue v, MlirOperation launch) {
  if (!mlirValueIsAOpResult(v)) return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(launch)) || inChain(c, def)) return true;
  bool load = strataOpIsNamed(def, "memref.load");
  if (!load && !isSinkableArith(def)) return true;
  if (load && !loadStable(def, launch)) return false;
  for (intptr_t i = load ? 1 : 0; i < mlirOperationGetNumOperands(def); i++)
    if (!collect(c, mlirOperationGetOperand(def, i), launch)) return false;
  if (c->n == MAX_CHAIN) return false;
  c->ops[c->n++] = def;
  c->hasLoad |= load;
  return true;
}

/* Uses inside `region` of values defined outside it, by chain member: the
 * chain's ops cloned at the top of the body, uses redirected. */
typedef struct {
  MlirOperation launch;
  Chain chain;
  bool ok;
} Sink;

/* True if `op` is nested in `launch` (not the launch itself). */
static bool isInside(MlirOperation op, MlirOperation launch) {
  for (op = mlirOperationGetParentOperation(op); !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(op, launch)) return true;
  return false;
}

static MlirWalkResult gatherUses(MlirOperation op, void *user) {
  Sink *s = user;
  for (intptr_t i = 0; s->ok && i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsAOpResult(v) && !isInside(mlirOpResultGetOwner(v), s->launch)) s->ok = collect(&s->chain, v, s->launch);
  }
  return s->ok ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
}

static void replaceInside(MlirValue from, MlirValue to, MlirOperation launch) {
  for (MlirOpOperand u = mlirValueGetFirstUse(from); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    unsigned at = mlirOpOperandGetOperandNumber(u);
    u = mlirOpOperandGetNextUse(u);
    if (isInside(user, launch)) mlirOperationSetOperand(user, at, to);
  }
}

static void sinkInto(MlirOperation launch) {
  MlirRegion body = mlirOperationGetRegion(launch, 0);
  Sink s = {launch, {.n = 0}, true};
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); s.ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, gatherUses, &s, MlirWalkPreOrder);
  if (!s.ok || !s.chain.hasLoad) return;
  MlirOperation first = mlirBlockGetFirstOperation(entry), copies[MAX_CHAIN];
  for (size_t i = 0; i < s.chain.n; i++) {
    copies[i] = mlirOperationClone(s.chain.ops[i]);
    mlirBlockInsertOwnedOperationBefore(entry, first, copies[i]);
  }
  /* Then every use inside, the copies' operands included, reads the copies. */
  for (size_t i = 0; i < s.chain.n; i++)
    for (intptr_t k = 0; k < mlirOperationGetNumResults(s.chain.ops[i]); k++)
      replaceInside(mlirOperationGetResult(s.chain.ops[i], k), mlirOperationGetResult(copies[i], k), launch);
}

/* Constant globals named inside `launch` (an error site's text in a loop
 * the launch runs), and their casts, move before it: the outlined kernel
 * takes them as buffer arguments, as the host plan makes constants. */
typedef struct {
  MlirOperation ops[MAX_CHAIN];
  size_t n;
} Globals;

static MlirWalkResult findGlobals(MlirOperation op, void *user) {
  Globals *g = user;
  if (strataOpIsNamed(op, "memref.get_global") && g->n < MAX_CHAIN) g->ops[g->n++] = op;
  return MlirWalkResultAdvance;
}

static void hoistGlobals(MlirOperation launch) {
  Globals g = {.n = 0};
  mlirOperationWalk(launch, findGlobals, &g, MlirWalkPreOrder);
  for (size_t i = 0; i < g.n; i++) {
    mlirOperationMoveBefore(g.ops[i], launch);
    MlirValue v = mlirOperationGetResult(g.ops[i], 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      u = mlirOpOperandGetNextUse(u);
      if (strataOpIsNamed(user, "memref.cast")) mlirOperationMoveBefore(user, launch);
    }
  }
}

static void runSink(StrataPassRun *run, MlirOperation func) {
  (void)run;
  MlirRegion r = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(r);
  if (mlirBlockIsNull(body)) return;
  for (MlirOperation op = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, "gpu.launch")) hoistGlobals(op), sinkInto(op);
}

const StrataPassDef strataGpuLaunchOperandsPass = {
    .name = "gpu-launch-operands",
    .summary = "Before kernel outlining: scalars a gpu.launch uses that the host would load from buffers (and "
               "arith/math on them) computed in its body, where no op up to the launch writes the buffer; constant "
               "globals named in its body moved before it (kernel arguments)",
    .anchor = "func.func",
    .run = runSink,
};
