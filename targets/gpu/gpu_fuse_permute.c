/* Nests whose dimensions run in another order than the nests before them
 * in their block (gpu_fuse.h): a transpose after a batched matmul or a
 * layer norm reads the buffer the run before it wrote at a permutation of
 * its own induction variables. An scf.parallel's iterations are
 * independent, so its dimensions may run in any order: the nest is rebuilt
 * with the dimensions that index the buffer where the run's fused
 * dimensions do brought first, in that order, and joins the run if that
 * makes the legal prefix longer (else it is rebuilt as it was). */
#include "strata/support.h"
#include "gpu_fuse.h"

enum { MAX_DIMS = 16 };

typedef struct {
  const GpuNest *run;
  int count;
  MlirOperation found; /* a load of `cand` from a buffer the run stores to */
  MlirOperation store; /* that store */
} LoadQuery;

typedef struct {
  MlirValue memref;
  MlirOperation store;
} StoreQuery;

static MlirWalkResult findStore(MlirOperation op, void *user) {
  StoreQuery *q = user;
  if (strataOpIsNamed(op, "memref.store") && mlirValueEqual(mlirOperationGetOperand(op, 1), q->memref)) {
    q->store = op;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult findLoad(MlirOperation op, void *user) {
  LoadQuery *q = user;
  if (!strataOpIsNamed(op, "memref.load")) return MlirWalkResultAdvance;
  StoreQuery s = {mlirOperationGetOperand(op, 0), {NULL}};
  for (int k = 0; k < q->count && !s.store.ptr; k++) mlirOperationWalk(q->run[k].op, findStore, &s, MlirWalkPreOrder);
  if (!s.store.ptr) return MlirWalkResultAdvance;
  q->found = op, q->store = s.store;
  return MlirWalkResultInterrupt;
}

/* The parallel loop whose induction variable `v` is, and its number. */
static bool ivOf(MlirValue v, MlirOperation nest, intptr_t *dim) {
  if (!mlirValueIsABlockArgument(v)) return false;
  MlirBlock owner = mlirBlockArgumentGetOwner(v);
  if (!mlirOperationEqual(mlirBlockGetParentOperation(owner), nest)) return false;
  *dim = mlirBlockArgumentGetArgNumber(v);
  return true;
}

/* The nest that holds `op`. */
static const GpuNest *holder(const GpuNest *run, int count, MlirOperation op) {
  for (MlirOperation p = op; !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    for (int k = 0; k < count; k++)
      if (mlirOperationEqual(p, run[k].op)) return &run[k];
  return NULL;
}

/* The order of `cand`'s dimensions that lines them up with the run's
 * fused ones through the first buffer the run stores to and `cand` loads
 * from; false if there is none or it is the identity. */
static bool permutation(const GpuNest *run, int count, intptr_t prefix, GpuNest cand, intptr_t *perm) {
  LoadQuery q = {run, count, {NULL}, {NULL}};
  mlirOperationWalk(cand.op, findLoad, &q, MlirWalkPreOrder);
  if (!q.found.ptr) return false;
  const GpuNest *writer = holder(run, count, q.store);
  intptr_t rank = mlirOperationGetNumOperands(q.store) - 2, n = 0;
  bool used[MAX_DIMS] = {false}, identity = true;
  for (intptr_t f = 0; f < prefix && f < cand.dims; f++) {
    intptr_t d = 0, wf, g;
    while (d < rank && !(ivOf(mlirOperationGetOperand(q.store, 2 + d), writer->op, &wf) && wf == f)) d++;
    if (d == rank || !ivOf(mlirOperationGetOperand(q.found, 1 + d), cand.op, &g) || used[g]) break;
    used[g] = true, perm[n++] = g, identity = identity && g == f;
  }
  for (intptr_t g = 0; g < cand.dims; g++)
    if (!used[g]) perm[n++] = g;
  for (intptr_t f = 0; f < cand.dims; f++) identity = identity && perm[f] == f;
  return !identity;
}

/* `nest` rebuilt with dimension f running perm[f]'s range and induction
 * variable; the old op goes. */
static MlirOperation permute(GpuNest nest, const intptr_t *perm) {
  MlirValue bounds[3 * MAX_DIMS] = {{NULL}};
  intptr_t n = nest.dims;
  for (intptr_t part = 0; part < 3; part++)
    for (intptr_t f = 0; f < n; f++) bounds[part * n + f] = mlirOperationGetOperand(nest.op, part * n + perm[f]);
  MlirOperation par = gpuFuseNewParallel(nest.op, bounds, bounds + n, bounds + 2 * n, n);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(par, 0));
  MlirBlock old = mlirRegionGetFirstBlock(mlirOperationGetRegion(nest.op, 0));
  for (intptr_t f = 0; f < n; f++)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(old, perm[f]), mlirBlockGetArgument(body, f));
  gpuFuseMoveBody(old, mlirBlockGetTerminator(body));
  mlirOperationDestroy(nest.op);
  return par;
}

intptr_t gpuFusePermuteToJoin(GpuNest *run, int count, intptr_t prefix, intptr_t legal, bool *oom) {
  GpuNest *cand = &run[count];
  intptr_t perm[MAX_DIMS], inverse[MAX_DIMS];
  if (cand->dims > MAX_DIMS || !permutation(run, count, prefix, *cand, perm)) return legal;
  GpuNest old = *cand;
  cand->op = permute(old, perm);
  intptr_t p = gpuFuseLegalPrefix(run, count + 1, false, oom);
  if (p > legal && !*oom) return p;
  for (intptr_t f = 0; f < cand->dims; f++) inverse[perm[f]] = f;
  cand->op = permute(*cand, inverse);
  return legal;
}
