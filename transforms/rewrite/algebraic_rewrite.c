/* --nn-algebraic-rewrite: DNNFusion's mathematical-property-based graph
 * rewriting (Table 3.4, rows 1 and 5 corrected), with the thesis' matching
 * procedure:
 *   1. the graph is partitioned at ops with none of the associative,
 *      commutative or distributive properties (conv, matmul, ...): rules
 *      only look through property ops (rwDef), so no match crosses one;
 *   2. every rule is tried at every op of the partitions;
 *   3. the match with the largest FLOP saving is applied first (bytes break
 *      ties: row 6 saves a load, not a FLOP);
 *   4. repeat until nothing matches.
 * Savings depend on shapes, so a pattern's static benefit cannot rank them.
 * Each sweep therefore prices every candidate, selects greedily by saving
 * among candidates that cannot invalidate each other (neither deletes an op
 * the other looked at), and then runs the rules as patterns through the
 * greedy driver, where a rule fires only at the op it was selected for. A
 * rewrite always lowers (FLOPs, bytes), so the sweeps terminate;
 * `max-iterations` caps them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/pass.h"
#include "strata/support.h"
#include "../analysis/nn_flops.h"
#include "grow.h"
#include "rewrite.h"

static const RwRule kRules[] = {
    {"assoc-recip", {"nn.mul"}, false, rwMatchRecipPair},
    {"assoc-sqrt", {"nn.mul"}, true, rwMatchSqrtPair},
    {"assoc-abs", {"nn.mul"}, false, rwMatchAbsPair},
    {"assoc-square", {"nn.mul"}, false, rwMatchEqualFactors},
    {"assoc-const-mul", {"nn.mul"}, false, rwMatchConstFactors},
    {"assoc-const-div", {"nn.mul", "nn.div"}, false, rwMatchConstDiv},
    {"distr-square", {"nn.add", "nn.sub"}, false, rwMatchDistrSquare},
    {"distr-factor", {"nn.add", "nn.sub"}, false, rwMatchDistrFactor},
    {"distr-one", {"nn.add", "nn.sub"}, false, rwMatchDistrOne},
    {"assoc-const-add", {"nn.add", "nn.sub"}, false, rwMatchConstTerms},
    {"comm-reduce-shift", {"nn.reduce_sum"}, true, rwMatchReduceShift},
    {"comm-reduce-exp", {"nn.reduce_prod"}, true, rwMatchReduceExp},
    {"comm-reduce-scalar", {"nn.reduce_sum", "nn.reduce_mean"}, false, rwMatchReduceScalar},
};
enum { NUM_RULES = sizeof kRules / sizeof kRules[0] };

typedef struct {
  MlirOperation root;
  int rule;
  RwSaving saving;
  size_t order;               /* program order of the root, for ties */
  size_t touched, numTouched; /* ranges in the sweep's pool of ops */
  size_t removed, numRemoved;
  bool selected;
} Candidate;

/* A set of ops (open addressing on the pointer), for the selection. */
typedef struct {
  const void **slots;
  size_t cap; /* a power of two */
} OpSet;

typedef struct RewriteRun RewriteRun;
typedef struct {
  RewriteRun *run;
  int rule;
} RuleBinding;

struct RewriteRun {
  StrataContext *ctx;
  bool fastMath, report;
  MlirStringRef func;
  Candidate *cands;
  size_t numCands, capCands;
  MlirOperation *pool;
  size_t numPool, capPool;
  size_t order;
  bool outOfMemory; /* then the sweep stops: rewriting is optional */
  int applied;
  RuleBinding bindings[NUM_RULES];
};

static size_t slotOf(const OpSet *s, const void *p) {
  size_t h = (size_t)((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ull;
  for (size_t i = h & (s->cap - 1);; i = (i + 1) & (s->cap - 1))
    if (!s->slots[i] || s->slots[i] == p) return i;
}

static bool ruleIsRootedAt(const RwRule *r, MlirOperation op) {
  for (int i = 0; i < 3 && r->roots[i]; i++)
    if (strataOpIsNamed(op, r->roots[i])) return true;
  return false;
}

static bool ruleEnabled(const RewriteRun *run, int rule) { return run->fastMath || !kRules[rule].fastMath; }

/* ---- Sweep, step 1-2: every rule at every op, priced ---- */

static size_t addToPool(RewriteRun *run, const MlirOperation *ops, int n) {
  size_t start = run->numPool;
  memcpy(run->pool + start, ops, (size_t)n * sizeof *ops);
  run->numPool += (size_t)n;
  return start;
}

static void addCandidate(RewriteRun *run, int rule, const RwPlan *p, const RwSaving *s) {
  size_t n = (size_t)(p->numTouched + p->numRemoved);
  Candidate *cands = strataGrow(run->cands, &run->capCands, run->numCands + 1, sizeof *cands);
  if (cands) run->cands = cands;
  MlirOperation *pool = cands ? strataGrow(run->pool, &run->capPool, run->numPool + n, sizeof *pool) : NULL;
  if (!pool) {
    run->outOfMemory = true;
    return;
  }
  run->pool = pool;
  Candidate *c = &run->cands[run->numCands++];
  *c = (Candidate){.root = p->root, .rule = rule, .saving = *s, .order = run->order};
  c->touched = addToPool(run, p->touched, p->numTouched);
  c->numTouched = (size_t)p->numTouched;
  c->removed = addToPool(run, p->removed, p->numRemoved);
  c->numRemoved = (size_t)p->numRemoved;
}

static MlirWalkResult collect(MlirOperation op, void *user) {
  RewriteRun *run = user;
  run->order++;
  for (int r = 0; r < NUM_RULES && !run->outOfMemory; r++) {
    if (!ruleEnabled(run, r) || !ruleIsRootedAt(&kRules[r], op)) continue;
    RwPlan plan;
    RwSaving s;
    rwPlanInit(&plan, run->ctx, op);
    if (plan.ok && kRules[r].match(&plan) && rwEvaluate(&plan, &s)) addCandidate(run, r, &plan, &s);
  }
  return MlirWalkResultAdvance;
}

/* ---- Step 3: the largest saving first, among independent candidates ---- */

static int byBenefit(const void *pa, const void *pb) {
  const Candidate *a = pa, *b = pb;
  if (a->saving.flops != b->saving.flops) return a->saving.flops > b->saving.flops ? -1 : 1;
  if (a->saving.bytes != b->saving.bytes) return a->saving.bytes > b->saving.bytes ? -1 : 1;
  if (a->order != b->order) return a->order < b->order ? -1 : 1;
  return (a->rule > b->rule) - (a->rule < b->rule);
}

static bool opSetInit(OpSet *s, size_t maxOps) {
  s->cap = 16;
  while (s->cap < 2 * maxOps + 1) s->cap *= 2;
  s->slots = calloc(s->cap, sizeof *s->slots);
  return s->slots != NULL;
}

static bool anyIn(const OpSet *s, const MlirOperation *ops, size_t n) {
  for (size_t k = 0; k < n; k++)
    if (s->slots[slotOf(s, ops[k].ptr)]) return true;
  return false;
}

static void addAll(OpSet *s, const MlirOperation *ops, size_t n) {
  for (size_t k = 0; k < n; k++) s->slots[slotOf(s, ops[k].ptr)] = ops[k].ptr;
}

/* A candidate is independent of the ones already selected if it deletes
 * nothing they looked at, and looks at nothing they delete (a leaf gaining
 * a use is seen through its owner, which the other side looked at). Shared
 * leaves, such as one constant used everywhere, do not conflict. */
static size_t selectIndependent(RewriteRun *run) {
  if (run->numCands > 1) qsort(run->cands, run->numCands, sizeof *run->cands, byBenefit);
  OpSet looked = {NULL, 0}, deleted = {NULL, 0};
  size_t n = 0;
  if (opSetInit(&looked, run->numPool) && opSetInit(&deleted, run->numPool)) {
    for (size_t i = 0; i < run->numCands; i++) {
      Candidate *c = &run->cands[i];
      const MlirOperation *t = run->pool + c->touched, *r = run->pool + c->removed;
      if (anyIn(&deleted, t, c->numTouched) || anyIn(&looked, r, c->numRemoved)) continue;
      addAll(&looked, t, c->numTouched);
      addAll(&deleted, r, c->numRemoved);
      c->selected = true;
      n++;
    }
  }
  free(looked.slots);
  free(deleted.slots);
  return n;
}

/* ---- Application: each rule is a pattern that fires where it was selected ---- */

static MlirLogicalResult applySelected(StrataRewrite *rw, MlirOperation op, void *user) {
  RuleBinding *b = user;
  RewriteRun *run = b->run;
  for (size_t i = 0; i < run->numCands; i++) {
    Candidate *c = &run->cands[i];
    if (!c->selected || c->rule != b->rule || !mlirOperationEqual(c->root, op)) continue;
    c->selected = false; /* once: a new op may later reuse the address */
    RwPlan plan;
    RwSaving s;
    rwPlanInit(&plan, run->ctx, op);
    if (!plan.ok || !kRules[b->rule].match(&plan) || !rwEvaluate(&plan, &s)) return mlirLogicalResultFailure();
    if (run->report)
      fprintf(stderr, "nn-algebraic-rewrite: @%.*s: %s saves %.0f FLOPs, %.0f bytes\n",
              (int)run->func.length, run->func.data, kRules[b->rule].name, s.flops, s.bytes);
    rwApply(rw, &plan);
    run->applied++;
    return mlirLogicalResultSuccess();
  }
  return mlirLogicalResultFailure();
}

static StrataPatternSet *createPatterns(RewriteRun *run, MlirContext mlir) {
  StrataPatternSet *set = strataPatternSetCreate(mlir);
  for (int r = 0; set && r < NUM_RULES; r++) {
    run->bindings[r] = (RuleBinding){run, r};
    if (!ruleEnabled(run, r)) continue;
    for (int i = 0; i < 3 && kRules[r].roots[i]; i++)
      strataPatternSetAdd(set, kRules[r].roots[i], 1, applySelected, &run->bindings[r]);
  }
  return set;
}

static void runAlgebraicRewrite(StrataPassRun *pass, MlirOperation func) {
  RewriteRun run = {.ctx = strataPassGetContext(pass),
                    .fastMath = strataPassGetBool(pass, "fast-math"),
                    .report = strataPassGetBool(pass, "report"),
                    .func = nnFuncName(func)};
  NnCost before = {0, 0, 0};
  if (run.report) before = nnCountCost(run.ctx, func);
  StrataPatternSet *set = createPatterns(&run, mlirOperationGetContext(func));
  int64_t maxSweeps = strataPassGetInt(pass, "max-iterations");
  for (int64_t sweep = 0; set && sweep < maxSweeps; sweep++) {
    run.numCands = run.numPool = run.order = 0;
    mlirOperationWalk(func, collect, &run, MlirWalkPreOrder);
    if (run.outOfMemory || !selectIndependent(&run)) break;
    StrataGreedyConfig cfg = {0, true, false};
    /* Converges in two iterations: selections fire once, nothing else does. */
    strataApplyPatternsGreedily(set, func, &cfg);
  }
  strataPatternSetDestroy(set);
  free(run.cands);
  free(run.pool);
  if (run.report) {
    NnCost after = nnCountCost(run.ctx, func);
    fprintf(stderr, "nn-algebraic-rewrite: @%.*s FLOPs %.0f -> %.0f (rules applied: %d)\n",
            (int)run.func.length, run.func.data, before.flops, after.flops, run.applied);
  }
}

static const StrataPassOptionDef kOptions[] = {
    {"fast-math", STRATA_OPTION_BOOL, "false",
     "Also apply rules that change NaN/overflow behaviour: sqrt(x)*sqrt(x) -> x, "
     "ReduceSum(BitShift) and ReduceProd(Exp) commutes"},
    {"max-iterations", STRATA_OPTION_INT, "10", "Sweeps (match all, apply the best) before stopping"},
    {"report", STRATA_OPTION_BOOL, "false",
     "Print each applied rule and the function's FLOPs before -> after to stderr"},
};

const StrataPassDef strataNnAlgebraicRewritePass = {
    .name = "nn-algebraic-rewrite",
    .summary = "DNNFusion's algebraic graph rewriting (Table 3.4): associative, distributive and "
               "commutative rules, the largest FLOP saving first",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runAlgebraicRewrite,
};
