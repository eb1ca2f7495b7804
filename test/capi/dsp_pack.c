/* VLIW packing (digest C1.7, C1.8): on random instruction dependency
 * graphs every packing (SDA, soft-to-hard, soft-to-none) is legal -- at
 * most 4 a packet, no resource over capacity, no hard pair in a packet,
 * producers no later than consumers; the Fig. 4.4(a) load -> add pair is 1
 * packet of 4 modeled cycles with SDA, 2 packets of 6 with soft-to-hard;
 * SDA needs no more packets than soft-to-hard, and with p > 0 no more
 * modeled cycles than soft-to-none, summed over the graphs.
 * RUN: %capi/dsp_pack 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include "strata/dsp.h"

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

enum { MAXN = 40, MAXE = 160 };

int main(void) {
  StrataDspMachine m = strataDspHvxMachine();
  char err[160];
  int pk[MAXN];

  /* Fig. 4.4(a): a load (3 cycles) and the add reading it (3 cycles), soft. */
  StrataDspInstrInfo pair[2] = {{3, {[STRATA_DSP_RES_LOAD] = 1}}, {3, {0}}};
  StrataDspDep soft = {0, 1, true, 1};
  int n1 = strataDspVliwPack(&m, pair, 2, &soft, 1, STRATA_DSP_PACK_SDA, 0.5, 2, pk, err, sizeof err);
  // CHECK: Fig. 4.4(a) SDA: 1 packet, 4 cycles
  printf("Fig. 4.4(a) SDA: %d packet, %lld cycles\n", n1, (long long)strataDspVliwCycles(pair, 2, &soft, 1, pk, n1));
  int n2 = strataDspVliwPack(&m, pair, 2, &soft, 1, STRATA_DSP_PACK_SOFT_TO_HARD, 0.5, 2, pk, err, sizeof err);
  // CHECK: Fig. 4.4(a) soft-to-hard: 2 packets, 6 cycles
  printf("Fig. 4.4(a) soft-to-hard: %d packets, %lld cycles\n", n2, (long long)strataDspVliwCycles(pair, 2, &soft, 1, pk, n2));

  /* Refusals. */
  StrataDspDep loop[2] = {{0, 1, false, 0}, {1, 0, false, 0}};
  // CHECK: cycle: -1 the dependency graph has a cycle
  printf("cycle: %d %s\n", strataDspVliwPack(&m, pair, 2, loop, 2, STRATA_DSP_PACK_SDA, 0.5, 1, pk, err, sizeof err), err);
  StrataDspInstrInfo three[1] = {{1, {[STRATA_DSP_RES_MPY] = 3}}};
  // CHECK: oversized: -1 instruction 0 fits no packet
  printf("oversized: %d %s\n", strataDspVliwPack(&m, three, 1, NULL, 0, STRATA_DSP_PACK_SDA, 0.5, 1, pk, err, sizeof err), err);

  /* Random IDGs: 8..40 instructions of HVX-like classes, edges forward,
   * load -> arithmetic and arithmetic -> store soft. */
  int illegal = 0, graphs = 200;
  long sdaPackets = 0, hardPackets = 0, nonePackets = 0, sdaCycles = 0, hardCycles = 0, noneCycles = 0;
  for (int gi = 0; gi < graphs; gi++) {
    int n = 8 + (int)(next() % (MAXN - 7)), ne = 0;
    StrataDspInstrInfo in[MAXN];
    StrataDspDep dep[MAXE];
    int kind[MAXN];
    for (int i = 0; i < n; i++) {
      kind[i] = (int)(next() % 6); /* load, store, alu, mpy, dv-mpy, shift/permute */
      StrataDspInstrInfo x = {3, {0}};
      if (kind[i] == 0) x.use[STRATA_DSP_RES_LOAD] = 1;
      if (kind[i] == 1) x = (StrataDspInstrInfo){1, {[STRATA_DSP_RES_STORE] = 1}};
      if (kind[i] == 3) x.use[STRATA_DSP_RES_MPY] = 1;
      if (kind[i] == 4) x.use[STRATA_DSP_RES_MPY] = 2;
      if (kind[i] == 5) x.use[next() % 2 ? STRATA_DSP_RES_SHIFT : STRATA_DSP_RES_PERMUTE] = 1;
      in[i] = x;
    }
    for (int j = 1; j < n; j++)
      for (int i = 0; i < j && ne < MAXE; i++)
        if (next() % 8 == 0 && kind[i] != 1) {
          bool s = (kind[i] == 0 && kind[j] >= 2) || (kind[i] == 2 && kind[j] == 1);
          dep[ne++] = (StrataDspDep){i, j, s, s ? 1 : 0};
        }
    int a[MAXN], b[MAXN], c[MAXN];
    int na = strataDspVliwPack(&m, in, n, dep, ne, STRATA_DSP_PACK_SDA, 0.5, 2, a, err, sizeof err);
    int nb = strataDspVliwPack(&m, in, n, dep, ne, STRATA_DSP_PACK_SOFT_TO_HARD, 0.5, 2, b, err, sizeof err);
    int nc = strataDspVliwPack(&m, in, n, dep, ne, STRATA_DSP_PACK_SOFT_TO_NONE, 0.5, 2, c, err, sizeof err);
    illegal += !strataDspVliwIsLegal(&m, in, n, dep, ne, a, na) + !strataDspVliwIsLegal(&m, in, n, dep, ne, b, nb) +
               !strataDspVliwIsLegal(&m, in, n, dep, ne, c, nc);
    sdaPackets += na, hardPackets += nb, nonePackets += nc;
    sdaCycles += strataDspVliwCycles(in, n, dep, ne, a, na);
    hardCycles += strataDspVliwCycles(in, n, dep, ne, b, nb);
    noneCycles += strataDspVliwCycles(in, n, dep, ne, c, nc);
  }
  // CHECK: random IDGs: illegal packings 0
  printf("random IDGs: illegal packings %d\n", illegal);
  // CHECK: SDA packets <= soft-to-hard: yes
  printf("SDA packets <= soft-to-hard: %s\n", sdaPackets <= hardPackets ? "yes" : "no");
  // CHECK: SDA cycles <= soft-to-none: yes
  printf("SDA cycles <= soft-to-none: %s\n", sdaCycles <= noneCycles ? "yes" : "no");
  printf("packets SDA %ld soft-to-hard %ld soft-to-none %ld; cycles %ld %ld %ld\n", sdaPackets, hardPackets,
         nonePackets, sdaCycles, hardCycles, noneCycles);

  /* A packing the checker must refuse: a hard pair in one packet. */
  StrataDspDep hard = {0, 1, false, 0};
  int same[2] = {0, 0};
  // CHECK: hard pair in one packet legal: no
  printf("hard pair in one packet legal: %s\n", strataDspVliwIsLegal(&m, pair, 2, &hard, 1, same, 1) ? "yes" : "no");
  return 0;
}
