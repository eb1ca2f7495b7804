/* transforms/rewrite internals: --nn-algebraic-rewrite (DNNFusion's
 * mathematical-property-based graph rewriting, Table 3.4).
 *
 * A rule never edits IR while matching. It fills an RwPlan: the ops the
 * rewrite removes (the root first), and the replacement expression as a
 * small DAG of nodes (existing values, new ops, scalar constants) whose
 * result types come from broadcasting. The driver (algebraic_rewrite.c) asks
 * every rule for a plan at every op, prices each plan with the dialect's own
 * FLOP and byte counts, applies the best independent ones through the
 * pattern API, and repeats until nothing saves anything. */
#ifndef STRATA_REWRITE_H
#define STRATA_REWRITE_H

#include <stdbool.h>
#include "strata/dialect.h"
#include "strata/pattern.h"
#include "strata/support.h"

/* ---- Plans (rw_plan.c) ---------------------------------------------------- */

#define RW_MAX_NODES 48
#define RW_MAX_REMOVED 32
#define RW_MAX_TOUCHED 96

typedef enum { RW_LEAF, RW_OP, RW_SCALAR } RwNodeKind;

typedef struct {
  RwNodeKind kind;
  MlirValue value;          /* RW_LEAF: an existing value */
  const char *name;         /* RW_OP: "nn.mul" */
  int args[2];              /* RW_OP: operand nodes */
  int numArgs;
  MlirOperation attrsFrom;  /* RW_OP: copy this op's attributes (axes, direction), or null */
  double scalar;            /* RW_SCALAR: a rank-0 nn.constant of this value */
  MlirType type;            /* result type: a static ranked tensor */
} RwNode;

typedef struct {
  StrataContext *ctx;
  MlirOperation root;
  bool ok; /* false once a step failed (shape, capacity): the rule then does not fire */
  RwNode nodes[RW_MAX_NODES];
  int numNodes;
  int result; /* node that replaces the root's result; -1 until set */
  /* Ops the rewrite deletes; removed[0] is the root. Every other one must be
   * used only by removed ops, or the rule does not fire. */
  MlirOperation removed[RW_MAX_REMOVED];
  int numRemoved;
  /* Every op the match looked at (including `removed` and leaf owners):
   * when neither of two plans deletes an op the other looked at, they
   * cannot invalidate each other, and one sweep may apply both. */
  MlirOperation touched[RW_MAX_TOUCHED];
  int numTouched;
} RwPlan;

/* What a plan saves: the removed ops' cost minus the new ops' cost. */
typedef struct {
  double flops, bytes;
  double flopsBefore, flopsAfter;
} RwSaving;

void rwPlanInit(RwPlan *p, StrataContext *ctx, MlirOperation root);

/* The op defining `v` if it is named `name` (NULL: any op the matcher may
 * look through), has static shapes and sits in the root's block. Ops without
 * an associative, commutative or distributive property (conv, matmul, ...)
 * are never returned: they partition the graph, and no rule matches across
 * them. Records the op as touched. */
MlirOperation rwDef(RwPlan *p, MlirValue v, const char *name);
MlirValue rwOperand(MlirOperation op, int i);
MlirValue rwResultOf(MlirOperation op);
bool rwHasOneUse(MlirValue v);
/* True if `root`'s only use is an op named `name` that would absorb it (a
 * chain is matched at its last op only). */
bool rwFeedsOnly(MlirOperation root, const char *name);

/* Marks an intermediate as deleted by the rewrite (idempotent). */
void rwConsume(RwPlan *p, MlirOperation op);
/* Equal values: the same value, or the same pure op applied to equal values
 * (so IR written without CSE, e.g. two ReduceSum(B), still matches). */
bool rwSame(RwPlan *p, MlirValue a, MlirValue b);
/* `dup` is being replaced by its equal `keep`: consumes dup's distinct ops. */
void rwDropDuplicate(RwPlan *p, MlirValue dup, MlirValue keep);
/* nn.constant, or a pure op of constants (which --nn-fold evaluates). */
bool rwIsConstant(RwPlan *p, MlirValue v);
/* Element-type classes of a tensor value. */
bool rwIsFloat(MlirValue v);
bool rwIsUnsigned(MlirValue v);
/* Static element count of a tensor value, -1 if unknown. */
int64_t rwNumElements(MlirValue v);

/* Replacement nodes; each returns a node index, or -1 (and clears p->ok). */
int rwLeaf(RwPlan *p, MlirValue v);
/* A new op over `args`; `type` null: broadcast the operands (elementwise). */
int rwOp(RwPlan *p, const char *name, const int *args, int numArgs, MlirOperation attrsFrom,
         MlirType type);
int rwUnary(RwPlan *p, const char *name, int a);
int rwBinary(RwPlan *p, const char *name, int a, int b);
/* A rank-0 constant of `like`'s element type. */
int rwScalar(RwPlan *p, double v, int like);
void rwSetResult(RwPlan *p, int node);

/* Checks a finished plan (types, exclusive intermediates) and prices it.
 * True if it is valid and saves FLOPs, or saves bytes at equal FLOPs. */
bool rwEvaluate(RwPlan *p, RwSaving *s);
/* Materializes the plan before the root, replaces the root, deletes the
 * removed ops. The plan must have passed rwEvaluate on the same IR. */
void rwApply(StrataRewrite *rw, RwPlan *p);

/* ---- Rules (rules_*.c) ---------------------------------------------------- */

/* Fills the plan for the rule at p->root (p is initialized and ok); true if
 * the rule matched. Looks only: the IR is not modified. */
typedef bool (*RwMatchFn)(RwPlan *p);

typedef struct {
  const char *name;        /* "assoc-recip" */
  const char *roots[3];    /* names of the ops it is rooted at; NULL-padded */
  bool fastMath;           /* only with fast-math=true */
  RwMatchFn match;
} RwRule;

/* Associative rules over multiplication chains (rules_assoc.c). */
bool rwMatchRecipPair(RwPlan *p);
bool rwMatchSqrtPair(RwPlan *p);
bool rwMatchAbsPair(RwPlan *p);
bool rwMatchEqualFactors(RwPlan *p);
bool rwMatchConstFactors(RwPlan *p);
bool rwMatchConstDiv(RwPlan *p);
/* Distributive rules and additive constant chains (rules_distr.c). */
bool rwMatchDistrSquare(RwPlan *p);
bool rwMatchDistrFactor(RwPlan *p);
bool rwMatchDistrOne(RwPlan *p);
bool rwMatchConstTerms(RwPlan *p);
/* Commutative rules: reductions (rules_comm.c). */
bool rwMatchReduceShift(RwPlan *p);
bool rwMatchReduceExp(RwPlan *p);
bool rwMatchReduceScalar(RwPlan *p);

#endif /* STRATA_REWRITE_H */
