/* The fusion planner of DNNFusion's Listing 3.1. A seed is the unplanned
 * One-to-One op with the smallest intermediate result (ties: program
 * order); the block grows through successors, then through predecessors,
 * each candidate decided by Table 3.3 on the block's fused type and the
 * candidate's type: red never, green after the constraint check, yellow
 * only if the latency database says the fused kernel is no slower than the
 * two apart. Listing 3.1 seeds only One-to-One ops; ops still unplanned
 * when those run out are seeded the same way (so Reorganize/Shuffle chains
 * and lone Many-to-Many ops still form blocks, often of one op). With the
 * kernel constraint, ops the target runs as library kernels seed first.
 * Instrumentation probes take no part (fuse_probes.c): they join their
 * op's block once the plan is made. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "fuse_internal.h"
#include "grow.h"

typedef struct {
  FuseGraph *g;
  const FusePlanOptions *opts;
  FusePlan *plan;
  bool *inBlock;
  int *members, count;
  StrataMappingType type;
} Growth;

static int pickSeed(const FuseGraph *g, bool kernelsFirst) {
  /* With library kernels (the CPU's runtime kernels), kernel ops seed
   * first, in order, so each takes its epilogue before a later seed can
   * claim it as a prologue of something else. */
  for (int i = 0; kernelsFirst && i < g->count; i++)
    if (g->nodes[i].block < 0 && g->nodes[i].kernel) return i;
  int best = -1;
  bool bestO2O = false;
  for (int i = 0; i < g->count; i++) {
    const FuseNode *n = &g->nodes[i];
    if (n->block >= 0 || n->probe || n->opaque) continue;
    bool o2o = n->map == STRATA_MAP_ONE_TO_ONE;
    if (best < 0 || (o2o && !bestO2O) ||
        (o2o == bestO2O && n->irsBytes < g->nodes[best].irsBytes))
      best = i, bestO2O = o2o;
  }
  return best;
}

/* Distinct values the block would read from outside if it held `s` too. */
static int externalInputs(const Growth *gr, int s) {
  const FuseGraph *g = gr->g;
  int n = 0;
  size_t cap = 0;
  MlirValue *seen = NULL;
  for (int m = 0; m <= gr->count; m++) {
    int idx = m < gr->count ? gr->members[m] : s;
    MlirOperation op = g->nodes[idx].op;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
      MlirValue v = strataInstrThroughProbes(mlirOperationGetOperand(op, i), NULL);
      if (mlirValueIsAOpResult(v)) {
        int p = fuseGraphIndex(g, mlirOpResultGetOwner(v));
        if (p >= 0 && (gr->inBlock[p] || p == s)) continue; /* internal edge */
      }
      bool dup = false;
      for (int k = 0; k < n && !dup; k++) dup = mlirValueEqual(seen[k], v);
      if (dup) continue;
      MlirValue *grown = strataGrow(seen, &cap, (size_t)n + 1, sizeof *seen);
      if (!grown) { /* out of memory: too many inputs, so `s` stays out */
        free(seen);
        return INT_MAX;
      }
      (seen = grown)[n++] = v;
    }
  }
  free(seen);
  return n;
}

static void add(Growth *gr, int s, StrataMappingType type) {
  gr->inBlock[s] = true;
  gr->members[gr->count++] = s;
  gr->g->nodes[s].block = gr->plan->count;
  gr->type = type;
}

/* The kernel constraint: a library kernel (the CPU's runtime kernels)
 * reads its inputs from memory and absorbs only what follows it, so an op
 * that would feed a kernel op inside the block gains nothing -- and leaving
 * it free lets it join the block of its producer instead (as a kernel
 * epilogue). The exception is a prologue the target says the kernel call
 * absorbs (on the CPU a Transpose read only by a matmul/gemm, which the
 * kernel reads through a permuted view); and a target may refuse an
 * epilogue too. */
static bool absorbsPrologue(const FuseGraph *g, int producer, int kernel) {
  const StrataTargetDef *t = g->target;
  return t->absorbsPrologue && t->absorbsPrologue(t, g->nodes[producer].op, g->nodes[kernel].op);
}

static bool absorbsEpilogue(const FuseGraph *g, int kernel, int consumer) {
  const StrataTargetDef *t = g->target;
  return !t->absorbsEpilogue || t->absorbsEpilogue(t, g->nodes[kernel].op, g->nodes[consumer].op);
}

static bool feedsKernel(const Growth *gr, int s) {
  const FuseGraph *g = gr->g;
  const FuseNode *n = &g->nodes[s];
  for (int k = 0; k < n->nsucc; k++) {
    int m = n->succ[k];
    if (!gr->inBlock[m]) continue;
    if (g->nodes[m].kernel && !absorbsPrologue(g, s, m)) return true;
    if (n->kernel && !absorbsEpilogue(g, s, m)) return true;
  }
  for (int k = 0; k < n->npred; k++) {
    int p = n->pred[k];
    if (!gr->inBlock[p]) continue;
    if (n->kernel && !absorbsPrologue(g, p, s)) return true;
    if (g->nodes[p].kernel && !absorbsEpilogue(g, p, s)) return true;
  }
  return false;
}

/* Decides whether the block takes `s`, `blockFirst` telling whether the
 * block feeds s (successor) or s feeds the block (predecessor). */
static bool tryAdd(Growth *gr, int s, bool blockFirst) {
  FuseNode *n = &gr->g->nodes[s];
  if (n->block >= 0 || n->opaque) return false;
  StrataMappingType fused;
  StrataFuseDecision d = blockFirst ? strataFusionTable(gr->type, n->map, &fused)
                                    : strataFusionTable(n->map, gr->type, &fused);
  if (d == STRATA_FUSE_NEVER) return gr->plan->rejectedRed++, false;
  /* The table's green cells assume the thesis' code generator; with
   * profile-green they must also prove themselves on this one. */
  if (d == STRATA_FUSE_ALWAYS && gr->opts->profileGreen) d = STRATA_FUSE_PROFILE;
  if (gr->count >= gr->opts->maxBlockOps ||
      externalInputs(gr, s) > gr->opts->maxBlockInputs || (gr->opts->kernels && feedsKernel(gr, s)))
    return gr->plan->rejectedConstraint++, false;
  if (fuseGraphBreaksConvexity(gr->g, gr->inBlock, s)) return gr->plan->rejectedCycle++, false;
  if (d == STRATA_FUSE_PROFILE) {
    bool yes = gr->opts->profile &&
               gr->opts->profile(gr->opts->profileUser, gr->g, gr->members, gr->count, s);
    if (!yes) return gr->plan->rejectedProfile++, false;
    gr->plan->acceptedProfile++;
  }
  add(gr, s, fused);
  return true;
}

static void fuseSuccessors(Growth *gr, int v) {
  const FuseNode *n = &gr->g->nodes[v];
  for (int k = 0; k < n->nsucc; k++)
    if (tryAdd(gr, n->succ[k], true)) fuseSuccessors(gr, n->succ[k]);
}

static void fusePredecessors(Growth *gr, int v) {
  const FuseNode *n = &gr->g->nodes[v];
  for (int k = 0; k < n->npred; k++)
    if (tryAdd(gr, n->pred[k], false)) fusePredecessors(gr, n->pred[k]);
}

void fusePlanRun(FuseGraph *g, const FusePlanOptions *opts, FusePlan *plan) {
  memset(plan, 0, sizeof *plan);
  plan->mapping = malloc(((size_t)g->count + 1) * sizeof *plan->mapping);
  Growth gr = {g, opts, plan, calloc((size_t)g->count + 1, 1),
               malloc(((size_t)g->count + 1) * sizeof(int)), 0, STRATA_MAP_ONE_TO_ONE};
  for (int seed; (seed = pickSeed(g, opts->kernels)) >= 0;) {
    gr.count = 0;
    add(&gr, seed, g->nodes[seed].map);
    fuseSuccessors(&gr, seed);
    /* every member's predecessors, not only the seed's: a block grown
     * through successors may need an input chain of a later member */
    for (int m = 0; m < gr.count; m++) fusePredecessors(&gr, gr.members[m]);
    plan->mapping[plan->count++] = gr.type;
    for (int m = 0; m < gr.count; m++) gr.inBlock[gr.members[m]] = false;
  }
  fusePlaceProbes(g);
  free(gr.inBlock);
  free(gr.members);
}

void fusePlanDestroy(FusePlan *plan) {
  free(plan->mapping);
  memset(plan, 0, sizeof *plan);
}
