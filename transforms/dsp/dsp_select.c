/* Layout and instruction selection over an operator graph (A4): Eq. 4.1's
 * aggregate cost, local choice, Eq. 4.2's chain DP, exhaustive branch and
 * bound, and GCD²'s partitioned search (cut at desirable edges, exhaustive
 * inside each partition, partitions solved in topological order with the
 * plans of already solved neighbours fixed). */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "grow.h"
#include "strata/dsp.h"

typedef struct {
  StrataDspPlan plans[STRATA_DSP_MAX_PLANS];
  int numPlans;
} Node;

typedef struct {
  int src, dst;
  double convertCost;
} Edge;

struct StrataDspGraph {
  Node *nodes;
  size_t numNodes, capNodes;
  Edge *edges;
  size_t numEdges, capEdges;
};

StrataDspGraph *strataDspGraphCreate(void) { return calloc(1, sizeof(StrataDspGraph)); }

void strataDspGraphDestroy(StrataDspGraph *g) {
  if (!g) return;
  free(g->nodes);
  free(g->edges);
  free(g);
}

int strataDspGraphAddNode(StrataDspGraph *g, const StrataDspPlan *plans, int numPlans) {
  if (numPlans < 1 || numPlans > STRATA_DSP_MAX_PLANS || g->numNodes >= INT32_MAX) return -1;
  for (int p = 0; p < numPlans; p++)
    if (!(plans[p].cost >= 0)) return -1; /* the searches prune on non-negative costs */
  Node *n = strataGrow(g->nodes, &g->capNodes, g->numNodes + 1, sizeof *n);
  if (!n) return -1;
  g->nodes = n;
  memcpy(n[g->numNodes].plans, plans, sizeof *plans * (size_t)numPlans);
  n[g->numNodes].numPlans = numPlans;
  return (int)g->numNodes++;
}

bool strataDspGraphAddEdge(StrataDspGraph *g, int src, int dst, double convertCost) {
  if (src < 0 || dst < 0 || (size_t)src >= g->numNodes || (size_t)dst >= g->numNodes || src == dst)
    return false;
  Edge *e = strataGrow(g->edges, &g->capEdges, g->numEdges + 1, sizeof *e);
  if (!e) return false;
  g->edges = e;
  e[g->numEdges++] = (Edge){src, dst, convertCost};
  return true;
}

int strataDspGraphNumNodes(const StrataDspGraph *g) { return (int)g->numNodes; }

/* TC of edge e under the two plans: its conversion cost when the layouts differ. */
static double edgeCost(const StrataDspGraph *g, const Edge *e, int ps, int pd) {
  int out = g->nodes[e->src].plans[ps].outLayout, in = g->nodes[e->dst].plans[pd].inLayout;
  return in == 0 || in == out ? 0 : e->convertCost;
}

double strataDspAggCost(const StrataDspGraph *g, const int *choice) {
  double s = 0;
  for (size_t i = 0; i < g->numNodes; i++) s += g->nodes[i].plans[choice[i]].cost;
  for (size_t e = 0; e < g->numEdges; e++)
    s += edgeCost(g, &g->edges[e], choice[g->edges[e].src], choice[g->edges[e].dst]);
  return s;
}

static bool failf(char *err, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (err && size) vsnprintf(err, size, fmt, ap);
  va_end(ap);
  return false;
}

static int cheapestPlan(const Node *n) {
  int best = 0;
  for (int p = 1; p < n->numPlans; p++)
    if (n->plans[p].cost < n->plans[best].cost) best = p;
  return best;
}

/* Kahn's order into `order`; false on a cycle. */
static bool topoOrder(const StrataDspGraph *g, int *order) {
  size_t n = g->numNodes, head = 0, tail = 0;
  int *indeg = calloc(n ? n : 1, sizeof *indeg);
  if (!indeg) return false;
  for (size_t e = 0; e < g->numEdges; e++) indeg[g->edges[e].dst]++;
  for (size_t i = 0; i < n; i++)
    if (!indeg[i]) order[tail++] = (int)i;
  while (head < tail) {
    int v = order[head++];
    for (size_t e = 0; e < g->numEdges; e++)
      if (g->edges[e].src == v && --indeg[g->edges[e].dst] == 0) order[tail++] = g->edges[e].dst;
  }
  free(indeg);
  return tail == n;
}

/* ---- Exhaustive search over a set of nodes, the others fixed or ignored ---- */

typedef struct {
  const StrataDspGraph *g;
  const int *vars;     /* the nodes searched, in topological order */
  int numVars;
  int *choice;         /* current assignment (fixed nodes hold theirs) */
  const char *state;   /* per node: 'v' searched, 'f' fixed, 0 ignored */
  char *assigned;      /* per node: searched and assigned so far */
  double *minRest;     /* minRest[i] = sum of cheapest plans of vars[i..] */
  int *best;
  double bestCost;
} Search;

/* Cost node v's plan adds: its own plus its edges to nodes already known. */
static double addedCost(Search *s, int v) {
  const StrataDspGraph *g = s->g;
  double c = g->nodes[v].plans[s->choice[v]].cost;
  for (size_t e = 0; e < g->numEdges; e++) {
    const Edge *ed = &g->edges[e];
    int other = ed->src == v ? ed->dst : ed->dst == v ? ed->src : -1;
    if (other < 0 || !(s->state[other] == 'f' || s->assigned[other])) continue;
    c += edgeCost(g, ed, s->choice[ed->src], s->choice[ed->dst]);
  }
  return c;
}

static void branch(Search *s, int i, double cost) {
  if (cost + s->minRest[i] >= s->bestCost) return; /* costs are not negative */
  if (i == s->numVars) {
    s->bestCost = cost;
    for (int k = 0; k < s->numVars; k++) s->best[k] = s->choice[s->vars[k]];
    return;
  }
  int v = s->vars[i];
  s->assigned[v] = 1;
  for (int p = 0; p < s->g->nodes[v].numPlans; p++) {
    s->choice[v] = p;
    branch(s, i + 1, cost + addedCost(s, v));
  }
  s->assigned[v] = 0;
}

/* Solves vars (in topological order) with the 'f' nodes fixed; writes the
 * best plans into choice. */
static bool searchExhaustive(const StrataDspGraph *g, const int *vars, int numVars, const char *state,
                             int *choice) {
  Search s = {g, vars, numVars, choice, state, calloc(g->numNodes ? g->numNodes : 1, 1),
              calloc((size_t)numVars + 1, sizeof(double)), calloc((size_t)numVars + 1, sizeof(int)),
              INFINITY};
  bool ok = s.assigned && s.minRest && s.best;
  if (ok) {
    for (int i = numVars - 1; i >= 0; i--) {
      const Node *n = &g->nodes[vars[i]];
      s.minRest[i] = s.minRest[i + 1] + n->plans[cheapestPlan(n)].cost;
    }
    /* Seed the bound with the cheapest plans, so that pruning starts at once. */
    for (int i = 0; i < numVars; i++) choice[vars[i]] = cheapestPlan(&g->nodes[vars[i]]);
    branch(&s, 0, 0);
    for (int i = 0; i < numVars; i++) choice[vars[i]] = s.best[i];
  }
  free(s.assigned);
  free(s.minRest);
  free(s.best);
  return ok;
}

/* ---- Chain DP (Eq. 4.2, with the operator's own cost added) ---- */

static bool selectChain(const StrataDspGraph *g, const int *order, int *choice, char *err, size_t size) {
  size_t n = g->numNodes;
  if (g->numEdges + 1 != n && n) return failf(err, size, "the graph is not a chain (%zu operators, %zu edges)", n, g->numEdges);
  const Edge **into = calloc(n, sizeof *into);
  double *sol = malloc(sizeof(double) * n * STRATA_DSP_MAX_PLANS);
  int *from = malloc(sizeof(int) * n * STRATA_DSP_MAX_PLANS);
  bool ok = into && sol && from;
  for (size_t e = 0; ok && e < g->numEdges; e++) {
    const Edge *ed = &g->edges[e];
    if (into[ed->dst]) ok = failf(err, size, "the graph is not a chain (operator %d has two inputs)", ed->dst);
    into[ed->dst] = ed;
  }
  for (size_t k = 1; ok && k < n; k++)
    if (!into[order[k]] || into[order[k]]->src != order[k - 1])
      ok = failf(err, size, "the graph is not a chain (operator %d does not follow %d)", order[k], order[k - 1]);
  for (size_t k = 0; ok && k < n; k++) {
    int v = order[k];
    for (int j = 0; j < g->nodes[v].numPlans; j++) {
      double best = 0;
      int arg = -1;
      if (k > 0) {
        int u = order[k - 1];
        for (int l = 0; l < g->nodes[u].numPlans; l++) {
          double c = sol[(k - 1) * STRATA_DSP_MAX_PLANS + l] + edgeCost(g, into[v], l, j);
          if (arg < 0 || c < best) best = c, arg = l;
        }
      }
      sol[k * STRATA_DSP_MAX_PLANS + j] = best + g->nodes[v].plans[j].cost;
      from[k * STRATA_DSP_MAX_PLANS + j] = arg;
    }
  }
  if (ok && n) {
    int j = 0, last = order[n - 1];
    for (int p = 1; p < g->nodes[last].numPlans; p++)
      if (sol[(n - 1) * STRATA_DSP_MAX_PLANS + p] < sol[(n - 1) * STRATA_DSP_MAX_PLANS + j]) j = p;
    for (size_t k = n; k-- > 0;) {
      choice[order[k]] = j;
      j = from[k * STRATA_DSP_MAX_PLANS + j];
    }
  } else if (!into || !sol || !from) {
    ok = failf(err, size, "out of memory");
  }
  free(into);
  free(sol);
  free(from);
  return ok;
}

/* ---- Partitioning (Def. 4.4) ---- */

bool strataDspEdgeIsDesirableCut(const StrataDspGraph *g, int e) {
  if (e < 0 || (size_t)e >= g->numEdges) return false;
  const Edge *ed = &g->edges[e];
  for (size_t k = 0; k < g->numEdges; k++)
    if ((int)k != e && g->edges[k].dst == ed->dst) return false; /* a second predecessor */
  const Node *d = &g->nodes[ed->dst];
  bool anyInput = true;
  for (int p = 0; p < d->numPlans; p++) anyInput &= d->plans[p].inLayout == 0;
  if (anyInput) return true; /* a layout-transforming operator */
  /* Profitable: the successor's best plan beats the best one taking the
   * source's preferred layout by more than the conversion costs. */
  int want = g->nodes[ed->src].plans[cheapestPlan(&g->nodes[ed->src])].outLayout;
  double best = d->plans[cheapestPlan(d)].cost, matching = INFINITY;
  for (int p = 0; p < d->numPlans; p++)
    if (d->plans[p].inLayout == want && d->plans[p].cost < matching) matching = d->plans[p].cost;
  return matching - best > ed->convertCost;
}

static int findRoot(int *parent, int v) {
  while (parent[v] != v) v = parent[v] = parent[parent[v]];
  return v;
}

/* Solves chunk c (seq[starts[c]..starts[c+1])) with every other node fixed. */
static bool solveChunk(const StrataDspGraph *g, const int *seq, const int *starts, int c, char *state,
                       int *choice) {
  for (int i = starts[c]; i < starts[c + 1]; i++) state[seq[i]] = 'v';
  bool ok = searchExhaustive(g, seq + starts[c], starts[c + 1] - starts[c], state, choice);
  for (int i = starts[c]; i < starts[c + 1]; i++) state[seq[i]] = 'f';
  return ok;
}

static bool selectPartitioned(const StrataDspGraph *g, const int *order, int maxPartition, int *choice,
                              char *err, size_t size) {
  size_t n = g->numNodes;
  int *parent = malloc(sizeof(int) * n), *seq = malloc(sizeof(int) * n);
  int *starts = malloc(sizeof(int) * (n + 1));
  char *state = calloc(n, 1), *done = calloc(n, 1);
  bool ok = parent && seq && starts && state && done;
  for (size_t i = 0; ok && i < n; i++) parent[i] = (int)i;
  for (size_t e = 0; ok && e < g->numEdges; e++)
    if (!strataDspEdgeIsDesirableCut(g, (int)e)) {
      int a = findRoot(parent, g->edges[e].src), b = findRoot(parent, g->edges[e].dst);
      if (a != b) parent[a] = b;
    }
  /* Partitions in the topological order of their first operators, each in
   * topological order; one larger than maxPartition is cut further into
   * runs of that order (the complementary cuts). */
  int numSeq = 0, numChunks = 0;
  for (size_t k = 0; ok && k < n; k++) {
    int root = findRoot(parent, order[k]);
    if (done[root]) continue;
    done[root] = 1;
    int first = numSeq;
    for (size_t j = k; j < n; j++)
      if (findRoot(parent, order[j]) == root) seq[numSeq++] = order[j];
    for (int at = first; at < numSeq; at += maxPartition) starts[numChunks++] = at;
  }
  if (ok) starts[numChunks] = numSeq;
  /* Each chunk is solved exhaustively with the plans of the chunks solved
   * before it fixed; then, while Agg_Cost falls, each is solved again with
   * all its neighbours fixed (each step is optimal given the rest, so the
   * cost never rises). */
  for (int c = 0; ok && c < numChunks; c++) ok = solveChunk(g, seq, starts, c, state, choice);
  double cost = ok ? strataDspAggCost(g, choice) : 0;
  for (int round = 0; ok && numChunks > 1 && round < 8; round++) {
    for (int c = 0; ok && c < numChunks; c++) ok = solveChunk(g, seq, starts, c, state, choice);
    double now = ok ? strataDspAggCost(g, choice) : 0;
    if (now >= cost) break;
    cost = now;
  }
  if (!ok) failf(err, size, "out of memory");
  free(parent);
  free(seq);
  free(starts);
  free(state);
  free(done);
  return ok;
}

bool strataDspSelect(const StrataDspGraph *g, StrataDspSelectMode mode, int maxPartition, int *choice,
                     char *err, size_t errSize) {
  size_t n = g->numNodes;
  if (!n) return true;
  int *order = malloc(sizeof(int) * n);
  if (!order) return failf(err, errSize, "out of memory");
  bool ok = topoOrder(g, order);
  if (!ok) failf(err, errSize, "the operator graph has a cycle");
  if (ok) switch (mode) {
    case STRATA_DSP_SELECT_LOCAL:
      for (size_t i = 0; i < n; i++) choice[i] = cheapestPlan(&g->nodes[i]);
      break;
    case STRATA_DSP_SELECT_CHAIN: ok = selectChain(g, order, choice, err, errSize); break;
    case STRATA_DSP_SELECT_PARTITION:
      if (maxPartition < 1) ok = failf(err, errSize, "a partition needs at least one operator");
      else ok = selectPartitioned(g, order, maxPartition, choice, err, errSize);
      break;
    case STRATA_DSP_SELECT_EXHAUSTIVE: {
      double combos = 1;
      for (size_t i = 0; i < n; i++) combos *= g->nodes[i].numPlans;
      if (combos > 0x1p40) {
        ok = failf(err, errSize, "exhaustive search over %zu operators is %.3g combinations (at most 2^40)", n, combos);
        break;
      }
      char *state = malloc(n ? n : 1);
      if (state) memset(state, 'v', n);
      ok = state && searchExhaustive(g, order, (int)n, state, choice);
      if (!ok) failf(err, errSize, "out of memory");
      free(state);
      break;
    }
    default: ok = failf(err, errSize, "unknown selection mode %d", (int)mode);
    }
  free(order);
  return ok;
}
