/* VLIW packing (A5): GCD²'s soft-dependency-aware packer (Algorithm 1),
 * bottom-up over an instruction dependency graph, with the soft-to-hard and
 * soft-to-none baselines; the modeled cycles of a packing and its
 * legality. Plain C over arrays: the dsp-pack pass builds the IDG from IR. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/dsp.h"

StrataDspMachine strataDspHvxMachine(void) {
  StrataDspMachine m = {.slots = 4};
  m.capacity[STRATA_DSP_RES_LOAD] = 1;
  m.capacity[STRATA_DSP_RES_STORE] = 1;
  m.capacity[STRATA_DSP_RES_SHIFT] = 1;
  m.capacity[STRATA_DSP_RES_PERMUTE] = 1;
  m.capacity[STRATA_DSP_RES_MPY] = 2;
  return m;
}

static int failf(char *err, size_t size, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  if (err && size) vsnprintf(err, size, fmt, ap);
  va_end(ap);
  return -1;
}

static bool fits(const StrataDspMachine *m, const int *used, const StrataDspInstrInfo *in) {
  for (int r = 0; r < STRATA_DSP_NUM_RES; r++)
    if (used[r] + in->use[r] > m->capacity[r]) return false;
  return true;
}

/* depth[i]: edges on the longest path from the entry (order); preds[i]:
 * predecessor count; topo: a topological order. False on a cycle. */
static bool analyse(int n, const StrataDspDep *deps, int numDeps, int *depth, int *preds, int *topo) {
  int *indeg = calloc((size_t)n, sizeof *indeg), head = 0, tail = 0;
  if (!indeg) return false;
  for (int e = 0; e < numDeps; e++) indeg[deps[e].dst]++;
  for (int i = 0; i < n; i++) {
    preds[i] = indeg[i];
    depth[i] = 1;
    if (!indeg[i]) topo[tail++] = i;
  }
  while (head < tail) {
    int v = topo[head++];
    for (int e = 0; e < numDeps; e++)
      if (deps[e].src == v) {
        if (depth[v] + 1 > depth[deps[e].dst]) depth[deps[e].dst] = depth[v] + 1;
        if (--indeg[deps[e].dst] == 0) topo[tail++] = deps[e].dst;
      }
  }
  free(indeg);
  return tail == n;
}

int strataDspVliwPack(const StrataDspMachine *m, const StrataDspInstrInfo *instrs, int n,
                      const StrataDspDep *deps, int numDeps, StrataDspPackMode mode, double w, double p,
                      int *packetOf, char *err, size_t errSize) {
  if (n <= 0) return 0;
  if (mode < STRATA_DSP_PACK_SDA || mode > STRATA_DSP_PACK_SOFT_TO_NONE)
    return failf(err, errSize, "unknown packing mode %d", (int)mode);
  for (int e = 0; e < numDeps; e++)
    if (deps[e].src < 0 || deps[e].src >= n || deps[e].dst < 0 || deps[e].dst >= n || deps[e].src == deps[e].dst)
      return failf(err, errSize, "dependency #%d joins %d and %d, not two of the %d instructions", e,
                   deps[e].src, deps[e].dst, n);
  int none[STRATA_DSP_NUM_RES] = {0};
  for (int i = 0; i < n; i++)
    if (!fits(m, none, &instrs[i]) || instrs[i].latency < 1)
      return failf(err, errSize, "instruction %d fits no packet (latency %d or resources beyond the machine's)",
                   i, instrs[i].latency);
  if (mode == STRATA_DSP_PACK_SOFT_TO_NONE) p = 0;
  bool softShares = mode != STRATA_DSP_PACK_SOFT_TO_HARD;
  int *depth = malloc(sizeof(int) * (size_t)n), *preds = malloc(sizeof(int) * (size_t)n);
  int *topo = malloc(sizeof(int) * (size_t)n), *built = malloc(sizeof(int) * (size_t)n);
  int *pathEnd = malloc(sizeof(int) * (size_t)n);
  int result = -1;
  if (!depth || !preds || !topo || !built || !pathEnd) {
    failf(err, errSize, "out of memory");
    goto done;
  }
  if (!analyse(n, deps, numDeps, depth, preds, topo)) {
    failf(err, errSize, "the dependency graph has a cycle");
    goto done;
  }
  for (int i = 0; i < n; i++) built[i] = -1; /* packet index in build order (bottom-up) */
  int numBuilt = 0, left = n;
  while (left > 0) {
    /* The critical path of what is left: pathEnd[i] is the longest latency
     * of a path ending at i; its end is an instruction with nothing
     * unpacked after it. */
    for (int k = 0; k < n; k++) {
      int v = topo[k];
      if (built[v] >= 0) continue;
      pathEnd[v] = instrs[v].latency;
      for (int e = 0; e < numDeps; e++)
        if (deps[e].dst == v && built[deps[e].src] < 0 &&
            pathEnd[deps[e].src] + instrs[v].latency > pathEnd[v])
          pathEnd[v] = pathEnd[deps[e].src] + instrs[v].latency;
    }
    int seed = -1;
    for (int v = 0; v < n; v++) {
      if (built[v] >= 0) continue;
      bool last = true;
      for (int e = 0; e < numDeps && last; e++) last = !(deps[e].src == v && built[deps[e].dst] < 0);
      if (last && (seed < 0 || pathEnd[v] >= pathEnd[seed])) seed = v;
    }
    int cur = numBuilt++, size = 1, used[STRATA_DSP_NUM_RES] = {0}, hiLat = instrs[seed].latency;
    built[seed] = cur;
    left--;
    for (int r = 0; r < STRATA_DSP_NUM_RES; r++) used[r] += instrs[seed].use[r];
    while (size < m->slots) {
      int best = -1;
      double bestScore = -INFINITY;
      for (int i = 0; i < n; i++) {
        if (built[i] >= 0 || !fits(m, used, &instrs[i])) continue;
        /* Free: every successor is in a later packet, or in this one
         * through a soft edge the mode lets share a packet. */
        bool free = true, soft = false;
        for (int e = 0; e < numDeps && free; e++) {
          if (deps[e].src != i) continue;
          int b = built[deps[e].dst];
          if (b < 0) free = false;
          else if (b == cur) {
            free = deps[e].soft && softShares;
            soft = true;
          }
        }
        if (!free) continue;
        double score = (depth[i] + preds[i]) * w - fabs((double)(hiLat - instrs[i].latency)) * (1 - w) -
                       (soft ? p : 0);
        if (score >= bestScore) bestScore = score, best = i;
      }
      if (best < 0) break;
      built[best] = cur;
      left--;
      size++;
      if (instrs[best].latency > hiLat) hiLat = instrs[best].latency;
      for (int r = 0; r < STRATA_DSP_NUM_RES; r++) used[r] += instrs[best].use[r];
    }
  }
  for (int i = 0; i < n; i++) packetOf[i] = numBuilt - 1 - built[i];
  result = numBuilt;
done:
  free(depth);
  free(preds);
  free(topo);
  free(built);
  free(pathEnd);
  return result;
}

int64_t strataDspVliwCycles(const StrataDspInstrInfo *instrs, int n, const StrataDspDep *deps, int numDeps,
                            const int *packetOf, int numPackets) {
  int64_t total = 0;
  int *finish = malloc(sizeof(int) * (size_t)(n ? n : 1));
  if (!finish) return -1;
  for (int pk = 0; pk < numPackets; pk++) {
    /* Finish times inside the packet: a soft predecessor in the same packet
     * delays an instruction by the edge's stall; relax to a fixpoint (the
     * soft edges inside a packet form a DAG). */
    for (int i = 0; i < n; i++) finish[i] = packetOf[i] == pk ? instrs[i].latency : 0;
    for (bool changed = true; changed;) {
      changed = false;
      for (int e = 0; e < numDeps; e++) {
        const StrataDspDep *d = &deps[e];
        if (packetOf[d->src] != pk || packetOf[d->dst] != pk) continue;
        int f = finish[d->src] - instrs[d->src].latency + d->stall + instrs[d->dst].latency;
        if (f > finish[d->dst]) finish[d->dst] = f, changed = true;
      }
    }
    int longest = 0;
    for (int i = 0; i < n; i++)
      if (packetOf[i] == pk && finish[i] > longest) longest = finish[i];
    total += longest;
  }
  free(finish);
  return total;
}

bool strataDspVliwIsLegal(const StrataDspMachine *m, const StrataDspInstrInfo *instrs, int n,
                          const StrataDspDep *deps, int numDeps, const int *packetOf, int numPackets) {
  for (int pk = 0; pk < numPackets; pk++) {
    int count = 0, used[STRATA_DSP_NUM_RES] = {0};
    for (int i = 0; i < n; i++) {
      if (packetOf[i] != pk) continue;
      count++;
      for (int r = 0; r < STRATA_DSP_NUM_RES; r++) used[r] += instrs[i].use[r];
    }
    if (count > m->slots) return false;
    for (int r = 0; r < STRATA_DSP_NUM_RES; r++)
      if (used[r] > m->capacity[r]) return false;
  }
  for (int i = 0; i < n; i++)
    if (packetOf[i] < 0 || packetOf[i] >= numPackets) return false;
  for (int e = 0; e < numDeps; e++) {
    int a = packetOf[deps[e].src], b = packetOf[deps[e].dst];
    if (a > b || (a == b && !deps[e].soft)) return false;
  }
  return true;
}
