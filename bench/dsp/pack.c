/* bench/dsp/pack (docs/dsp.md): SDA against soft-to-hard and soft-to-none
 * on the HVX machine model, for the inner-loop bodies of MatMul through
 * each instruction (two K steps, U output columns unrolled, Rt values in
 * registers) and the digest's examples. Prints packets and modeled cycles;
 * not a test.
 *   pack */
#include <stdio.h>
#include "strata/dsp.h"

enum { MAXN = 128, MAXE = 512 };

typedef struct {
  StrataDspInstrInfo in[MAXN];
  StrataDspDep dep[MAXE];
  int n, ne;
} Idg;

static int add(Idg *g, int latency, int res, int units) {
  StrataDspInstrInfo x = {latency, {0}};
  if (res >= 0) x.use[res] = units;
  g->in[g->n] = x;
  return g->n++;
}
static void edge(Idg *g, int a, int b, bool soft) { g->dep[g->ne++] = (StrataDspDep){a, b, soft, soft ? 1 : 0}; }

static int load(Idg *g) { return add(g, 3, STRATA_DSP_RES_LOAD, 1); }
static int valu(Idg *g) { return add(g, 3, -1, 0); }

/* Two K steps of the kernel for `inst` with U output columns. */
static void kernel(Idg *g, StrataDspInstr inst, int U) {
  int acc[8][2];
  for (int j = 0; j < U; j++) acc[j][0] = acc[j][1] = -1;
  for (int k = 0; k < 2; k++) {
    int l0 = load(g), l1 = inst == STRATA_DSP_VMPA ? load(g) : -1;
    for (int j = 0; j < U; j++) {
      if (inst == STRATA_DSP_VRMPY) { /* vrmpy_acc onto the column's accumulator */
        int m = add(g, 3, STRATA_DSP_RES_MPY, 1);
        edge(g, l0, m, true);
        if (acc[j][0] >= 0) edge(g, acc[j][0], m, false);
        acc[j][0] = m;
        continue;
      }
      int m = add(g, 3, STRATA_DSP_RES_MPY, 2); /* vmpy / vmpa: both multiply units */
      edge(g, l0, m, true);
      if (l1 >= 0) edge(g, l1, m, true);
      if (inst == STRATA_DSP_VMPA) { /* lo + hi, then widened onto the accumulator */
        int s = valu(g), w = valu(g);
        edge(g, m, s, false), edge(g, s, w, false);
        if (acc[j][0] >= 0) edge(g, acc[j][0], w, false);
        acc[j][0] = w;
      } else { /* even and odd rows widened onto their accumulators */
        for (int h = 0; h < 2; h++) {
          int w = valu(g);
          edge(g, m, w, false);
          if (acc[j][h] >= 0) edge(g, acc[j][h], w, false);
          acc[j][h] = w;
        }
      }
    }
  }
}

static void report(const char *name, const Idg *g) {
  StrataDspMachine m = strataDspHvxMachine();
  const StrataDspPackMode modes[3] = {STRATA_DSP_PACK_SDA, STRATA_DSP_PACK_SOFT_TO_HARD, STRATA_DSP_PACK_SOFT_TO_NONE};
  int pk[MAXN];
  char err[160];
  printf("%-18s %4d", name, g->n);
  for (int i = 0; i < 3; i++) {
    int np = strataDspVliwPack(&m, g->in, g->n, g->dep, g->ne, modes[i], 0.5, 2, pk, err, sizeof err);
    if (np < 0) {
      printf("  %s\n", err);
      return;
    }
    printf("  %4d %5lld", np, (long long)strataDspVliwCycles(g->in, g->n, g->dep, g->ne, pk, np));
  }
  printf("\n");
}

int main(void) {
  printf("%-18s %4s  %10s  %10s  %10s\n", "kernel", "ins", "SDA p/cyc", "s2h p/cyc", "s2n p/cyc");
  Idg g = {.n = 0};
  int l = load(&g), a = valu(&g);
  edge(&g, l, a, true);
  report("Fig 4.4(a)", &g);
  g = (Idg){.n = 0};
  int la = load(&g), lb = load(&g), lc = load(&g), wa = valu(&g), wb = valu(&g), wc = valu(&g), s = valu(&g), t = valu(&g);
  int st = add(&g, 1, STRATA_DSP_RES_STORE, 1);
  edge(&g, la, wa, true), edge(&g, lb, wb, true), edge(&g, lc, wc, true);
  edge(&g, wa, s, false), edge(&g, wb, s, false), edge(&g, s, t, false), edge(&g, wc, t, false), edge(&g, t, st, true);
  report("Fig 4.5 R=A+B+C", &g);
  static const StrataDspInstr insts[3] = {STRATA_DSP_VMPY, STRATA_DSP_VMPA, STRATA_DSP_VRMPY};
  for (int i = 0; i < 3; i++)
    for (int U = 1; U <= 4; U *= 2) {
      char name[32];
      snprintf(name, sizeof name, "%s U=%d", strataDspInstrName(insts[i]), U);
      g = (Idg){.n = 0};
      kernel(&g, insts[i], U);
      report(name, &g);
    }
  return 0;
}
