/* Internals of --nn-fuse: the op graph of one function, the planner
 * (Listing 3.1), how instrumentation probes ride along, the wrapping of
 * blocks into scf.execute_region, and the latency measurement that fills
 * the profile database. */
#ifndef STRATA_FUSE_INTERNAL_H
#define STRATA_FUSE_INTERNAL_H

#include <stdio.h>
#include "strata/fusion.h"
#include "strata/instrument.h"
#include "strata/support.h"
#include "strata/target.h"

/* ---- A map from op pointers to indices (open addressing) ---- */
typedef struct {
  const void **keys;
  int *vals;
  int buckets;
} FusePtrMap;
bool fusePtrMapInit(FusePtrMap *m, int capacity);
void fusePtrMapDestroy(FusePtrMap *m);
void fusePtrMapPut(FusePtrMap *m, const void *key, int val); /* key not yet present */
int fusePtrMapGet(const FusePtrMap *m, const void *key);     /* -1 if absent */

/* ---- The graph: the ops at a function's top level ---- */
typedef struct {
  MlirOperation op;
  StrataMappingType map;
  double irsBytes; /* bytes of the op's results (its intermediate results) */
  int block;       /* fused block index, -1 while unplanned */
  bool kernel;     /* the target runs it as a library kernel (StrataTargetDef.isKernel) */
  bool probe;      /* an instr.probe: not planned (no edges, never a seed or a
                      candidate); joins the block of the op it observes */
  bool opaque;     /* a top-level op of another dialect (scf control flow,
                      tensor, arith): never in a block, but its edges (its
                      regions' uses included) keep blocks convex around it */
  int *succ, nsucc;
  int *pred, npred;
  size_t capSucc, capPred; /* allocated lengths of succ and pred */
} FuseNode;

typedef struct {
  FuseNode *nodes;
  int count;
  FusePtrMap index;              /* op -> node */
  const StrataTargetDef *target; /* whose library kernels the nodes are */
} FuseGraph;

/* Collects the top-level Strata ops of `func` (constants excluded: they
 * are inputs of blocks, not layers) in program order, marking the ones
 * `target` runs as library kernels. Edges go through probes: an op reading
 * a probe of X's result is a successor of X. */
bool fuseGraphBuild(FuseGraph *g, StrataContext *ctx, const StrataTargetDef *target,
                    MlirOperation func);
void fuseGraphDestroy(FuseGraph *g);
int fuseGraphIndex(const FuseGraph *g, MlirOperation op); /* -1 if not a node */
/* True if adding node `s` to the nodes marked in `inBlock` would make the
 * block non-convex: a path leaves the block and re-enters it. */
bool fuseGraphBreaksConvexity(const FuseGraph *g, const bool *inBlock, int s);

/* ---- The planner ---- */
/* Decides a "profile" cell: should `block` (node indices) absorb `s`?
 * Returns false when the fused kernel is slower (or cannot be measured,
 * counted in the plan's decisions and the report). */
typedef bool (*FuseProfileFn)(void *user, const FuseGraph *g, const int *block, int n, int s);

typedef struct {
  int maxBlockOps;    /* constraint: largest block, in ops */
  int maxBlockInputs; /* constraint: most distinct external tensor inputs */
  bool kernels;       /* constraint: nothing in a block feeds a library-kernel op
                         unless the kernel absorbs it (the graph's target) */
  bool profileGreen;  /* settle green cells by the latency database too */
  FuseProfileFn profile;
  void *profileUser;
} FusePlanOptions;

typedef struct {
  int count;                   /* blocks */
  StrataMappingType *mapping;  /* per block */
  int rejectedRed, rejectedConstraint, rejectedProfile, acceptedProfile, rejectedCycle;
} FusePlan;

/* Assigns every node a block (FuseNode.block); probes last
 * (fusePlaceProbes). */
void fusePlanRun(FuseGraph *g, const FusePlanOptions *opts, FusePlan *plan);
void fusePlanDestroy(FusePlan *plan);

/* ---- Probes (fuse_probes.c): instr.probe is transparent to planning
 * (strataInstrIsProbe, strataInstrThroughProbes of strata/instrument.h) ---- */
bool fuseOpsContain(MlirOperation *ops, int n, MlirOperation op);
/* True if an op outside `ops` reads `v`, directly or through probes. */
bool fuseUsedOutsideOps(MlirValue v, MlirOperation *ops, int n);
/* Gives each probe node the block of the op it observes (-1: none). */
void fusePlaceProbes(FuseGraph *g);

/* ---- Outlining ---- */
/* Wraps each block of the plan in `scf.execute_region no_inline` tagged
 * `strata.fused = {id, mapping, ops}` and restores a topological order. */
void fuseWrapBlocks(FuseGraph *g, const FusePlan *plan, MlirOperation func);

/* ---- Profile cells ---- */
typedef enum { YELLOW_MEASURE, YELLOW_DB, YELLOW_NEVER, YELLOW_ALWAYS } FuseYellowMode;

typedef struct {
  StrataContext *ctx;
  const StrataTargetDef *target; /* compiles and runs the candidates */
  StrataFuseDb *db; /* may be NULL: measurements are then not kept */
  FuseYellowMode mode;
  int missing;      /* cells the database could not answer (mode db) */
  int failed;       /* candidates that did not compile or run */
} FuseProfileState;

/* A FuseProfileFn over a FuseProfileState: fuse iff the latency of the
 * fused kernel <= the latencies of the block and `s` apart, each taken from
 * the database or (mode measure) measured by compiling the candidate for
 * the target (its planned-fusion lowering, strataCompile) and timing it on
 * random inputs. */
bool fuseMeasureProfitable(void *state, const FuseGraph *g, const int *block, int n, int s);

/* `ns` as the database file holds it (profile_db.c): what a measurement is
 * decided on, so that the plan read back from the file is the same. */
double fuseDbRepresentable(double ns);

/* Canonical text of the kernel formed by `ops` (op names, result and
 * operand types, attributes, internal edges) for the profile database. */
char *fuseKernelKey(MlirOperation *ops, int n);

/* fuse_report.c: the report of a fused function (Table 3.5's columns). */
void fuseReportFunction(StrataContext *ctx, MlirOperation func, FILE *out);

/* ---- Fused code generation ---- */
/* The tagged scf.execute_region blocks under `root`, innermost first, into
 * *out (free it with strataOpListDestroy). False when out of memory. */
bool fuseCollectBlocks(MlirOperation root, StrataOpList *out);

#endif
