/* Layout and instruction selection (digest C1.3-C1.5): local plans from
 * the MatMul cost model pick Table 4.2's winners; the chain DP beats the
 * local choice on the two-operator example with Eq. 4.1's cost; cuts go
 * on single-predecessor edges into layout-transforming operators; and on
 * random DAGs of at most 12 operators the partitioned search stays within
 * 1% of the exhaustive optimum (which it never beats).
 * RUN: %capi/dsp_select 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include "strata/dsp.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

int main(void) {
  /* C1.3: local selection with the calibrated model. */
  static const int shapes[] = {32, 64, 96, 128};
  for (int i = 0; i < 4; i++) {
    int n = shapes[i], best = STRATA_DSP_VMPY;
    double c[4];
    for (int k = STRATA_DSP_VMPY; k <= STRATA_DSP_VRMPY; k++) {
      c[k] = strataDspMatMulCost((StrataDspInstr)k, n, n, n);
      if (c[k] < c[best]) best = k;
    }
    // CHECK: 32^3: vrmpy (vmpa/vmpy 0.81, vrmpy/vmpy 0.61)
    // CHECK: 64^3: vmpa (vmpa/vmpy 0.63, vrmpy/vmpy 0.79)
    // CHECK: 96^3: vrmpy (vmpa/vmpy 1.14, vrmpy/vmpy 0.96)
    // CHECK: 128^3: vmpy (vmpa/vmpy 1.08, vrmpy/vmpy 1.14)
    printf("%d^3: %s (vmpa/vmpy %.2f, vrmpy/vmpy %.2f)\n", n, strataDspInstrName((StrataDspInstr)best),
           c[2] / c[1], c[3] / c[1]);
  }

  /* C1.4: A {vmpa 10, vrmpy 12} -> B {vmpa 11, vrmpy 8}, TC = 5. */
  StrataDspGraph *g = strataDspGraphCreate();
  StrataDspPlan a[] = {{10, 2, 2}, {12, 4, 4}}, b[] = {{11, 2, 2}, {8, 4, 4}};
  int na = strataDspGraphAddNode(g, a, 2), nb = strataDspGraphAddNode(g, b, 2);
  strataDspGraphAddEdge(g, na, nb, 5);
  int choice[2];
  char err[128];
  strataDspSelect(g, STRATA_DSP_SELECT_LOCAL, 0, choice, err, sizeof err);
  // CHECK: local: vmpa vrmpy Agg_Cost 23
  printf("local: %s %s Agg_Cost %g\n", choice[0] ? "vrmpy" : "vmpa", choice[1] ? "vrmpy" : "vmpa",
         strataDspAggCost(g, choice));
  strataDspSelect(g, STRATA_DSP_SELECT_CHAIN, 0, choice, err, sizeof err);
  // CHECK: chain DP: vrmpy vrmpy Agg_Cost 20
  printf("chain DP: %s %s Agg_Cost %g\n", choice[0] ? "vrmpy" : "vmpa", choice[1] ? "vrmpy" : "vmpa",
         strataDspAggCost(g, choice));
  strataDspSelect(g, STRATA_DSP_SELECT_EXHAUSTIVE, 0, choice, err, sizeof err);
  // CHECK: exhaustive: Agg_Cost 20
  printf("exhaustive: Agg_Cost %g\n", strataDspAggCost(g, choice));
  /* A second input makes it no chain. */
  int nc = strataDspGraphAddNode(g, a, 2);
  strataDspGraphAddEdge(g, nc, nb, 1);
  // CHECK: chain on a DAG: refused: the graph is not a chain (operator 1 has two inputs)
  printf("chain on a DAG: %s: %s\n",
         strataDspSelect(g, STRATA_DSP_SELECT_CHAIN, 0, choice, err, sizeof err) ? "ran" : "refused", err);
  strataDspGraphAddEdge(g, nb, nc, 1);
  // CHECK: cycle: refused: the operator graph has a cycle
  printf("cycle: %s: %s\n",
         strataDspSelect(g, STRATA_DSP_SELECT_PARTITION, 13, choice, err, sizeof err) ? "ran" : "refused", err);
  // CHECK: bad plans refused: -1 -1
  StrataDspPlan neg = {-1, 1, 1};
  printf("bad plans refused: %d %d\n", strataDspGraphAddNode(g, &neg, 1), strataDspGraphAddNode(g, a, 0));
  strataDspGraphDestroy(g);

  /* C1.5: desirable cuts. m -> t (transpose: any input) is one; m -> m2
   * with m2 fed by m only is one only when converting pays. */
  g = strataDspGraphCreate();
  StrataDspPlan mm[] = {{10, 1, 1}, {12, 2, 2}, {14, 4, 4}}, tr[] = {{3, 0, 1}, {3, 0, 2}, {3, 0, 4}};
  StrataDspPlan skew[] = {{100, 1, 1}, {100, 2, 2}, {20, 4, 4}};
  int m = strataDspGraphAddNode(g, mm, 3), t = strataDspGraphAddNode(g, tr, 3);
  int s = strataDspGraphAddNode(g, skew, 3), u = strataDspGraphAddNode(g, mm, 3);
  strataDspGraphAddEdge(g, m, t, 50);  /* 0: into a transpose */
  strataDspGraphAddEdge(g, t, s, 50);  /* 1: gain 80 > 50 */
  strataDspGraphAddEdge(g, s, u, 50);  /* 2: no gain */
  strataDspGraphAddEdge(g, m, u, 50);  /* 3: u has two inputs */
  // CHECK: desirable cuts: 1 1 0 0
  printf("desirable cuts: %d %d %d %d\n", strataDspEdgeIsDesirableCut(g, 0), strataDspEdgeIsDesirableCut(g, 1),
         strataDspEdgeIsDesirableCut(g, 2), strataDspEdgeIsDesirableCut(g, 3));
  strataDspGraphDestroy(g);

  /* Random DAGs of 2..12 operators: MatMul-like (3 plans, in = out),
   * Transpose-like (any input), edges forward with probability 1/3, chained
   * so that each is connected. */
  double sumRatio = 0, worst = 1, sumLocal = 0;
  int beaten = 0, trials = 300;
  for (int trial = 0; trial < trials; trial++) {
    int n = 2 + (int)(next() % 11);
    g = strataDspGraphCreate();
    for (int i = 0; i < n; i++) {
      StrataDspPlan p[3];
      bool transpose = next() % 4 == 0;
      for (int k = 0; k < 3; k++)
        p[k] = (StrataDspPlan){transpose ? 2 + next() % 4 : 5 + next() % 20, transpose ? 0 : 1 << k, 1 << k};
      strataDspGraphAddNode(g, p, 3);
      if (i > 0) strataDspGraphAddEdge(g, (int)(next() % (unsigned)i), i, 2 + next() % 12);
      for (int j = 0; i > 1 && j < i - 1; j++)
        if (next() % 3 == 0) strataDspGraphAddEdge(g, j, i, 2 + next() % 12);
    }
    int opt[12], part[12], loc[12];
    strataDspSelect(g, STRATA_DSP_SELECT_EXHAUSTIVE, 0, opt, err, sizeof err);
    strataDspSelect(g, STRATA_DSP_SELECT_PARTITION, 13, part, err, sizeof err);
    strataDspSelect(g, STRATA_DSP_SELECT_LOCAL, 0, loc, err, sizeof err);
    double o = strataDspAggCost(g, opt), p = strataDspAggCost(g, part), l = strataDspAggCost(g, loc);
    beaten += p < o - 1e-9 || l < o - 1e-9;
    sumRatio += p / o;
    sumLocal += l / o;
    if (p / o > worst) worst = p / o;
    strataDspGraphDestroy(g);
  }
  // CHECK: random DAGs: exhaustive never beaten: yes
  printf("random DAGs: exhaustive never beaten: %s\n", beaten ? "no" : "yes");
  // CHECK: partitioned within 1% of exhaustive on average: yes
  printf("partitioned within 1%% of exhaustive on average: %s\n", sumRatio / trials <= 1.01 ? "yes" : "no");
  printf("partitioned/exhaustive mean %.4f worst %.4f; local/exhaustive mean %.4f\n",
          sumRatio / trials, worst, sumLocal / trials);
  return 0;
}
