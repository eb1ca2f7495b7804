/* The dsp dialect (issue 21, GCD²): HVX-style SIMD on 128-byte vectors, its
 * bit-exact emulator, the 1-, 2- and 4-column data layouts, layout and
 * instruction selection over an operator graph, and VLIW packing.
 *
 *   uint8_t vu[128];  memset(vu, 2, sizeof vu);
 *   int16_t lo[64], hi[64];
 *   strataDspVmpy(lo, hi, vu, 0x04030201u, false);   // lo = 2,6,2,6...  hi = 4,8,4,8...
 *
 *   size_t bytes;
 *   strataDspPackedSize(4, M, K, &bytes);               // 32-row panels, 4 columns a cell row
 *   strataDspMatMul(STRATA_DSP_VRMPY, M, K, N, A, B, C); // C = A x B through vrmpy
 *
 * Everything here is plain C with no MLIR state: the functions take caller
 * buffers and own nothing unless they say so. docs/dsp.md has the
 * semantics, the layouts and the cost models. */
#ifndef STRATA_DSP_H
#define STRATA_DSP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const StrataDialectDef strataDspDialect;

#define STRATA_DSP_VBYTES 128 /* bytes in one HVX vector (128-byte mode) */

/* ---- Instruction semantics (the emulator; HVX pseudocode) ------------------
 * Rt's bytes are rt.b[j] = (rt >> 8j) & 0xff. Arithmetic wraps at the
 * destination width as HVX does (no saturation unless the name says so).
 * With `accumulate`, the destination holds the accumulator on entry
 * (the `+=` forms); otherwise it is only written. */

/* Vd.w = vrmpy(Vu.ub, Rt.b) (rtSigned) or Vd.uw = vrmpy(Vu.ub, Rt.ub):
 * d[i] = sum_{j<4} vu[4i+j] * rt.b[j], i < 32. */
void strataDspVrmpy(int32_t d[32], const uint8_t vu[128], uint32_t rt, bool rtSigned,
                    bool accumulate);
/* Vdd.h = vmpy(Vu.ub, Rt.b): lo[i] = vu[2i]*rt.b[(2i)%4],
 * hi[i] = vu[2i+1]*rt.b[(2i+1)%4], i < 64. */
void strataDspVmpy(int16_t lo[64], int16_t hi[64], const uint8_t vu[128], uint32_t rt,
                   bool accumulate);
/* Vdd.h = vmpa(Vuu.ub, Rt.b): lo[i] = v0[2i]*rt.b[0] + v1[2i]*rt.b[1],
 * hi[i] = v0[2i+1]*rt.b[2] + v1[2i+1]*rt.b[3]. */
void strataDspVmpa(int16_t lo[64], int16_t hi[64], const uint8_t v0[128], const uint8_t v1[128],
                   uint32_t rt, bool accumulate);
/* Vd.h = vdmpy(Vu.ub, Rt.b): d[i] = vu[2i]*rt.b[(2i)%4] + vu[2i+1]*rt.b[(2i+1)%4]. */
void strataDspVdmpy(int16_t d[64], const uint8_t vu[128], uint32_t rt, bool accumulate);
/* Vd.ub = vsat(Vu.h, Vv.h): d[2i] = usat8(vv[i]), d[2i+1] = usat8(vu[i]). */
void strataDspVsatHalfToByte(uint8_t d[128], const int16_t vu[64], const int16_t vv[64]);
/* Vd.h = vsat(Vu.w, Vv.w): d[2i] = sat16(vv[i]), d[2i+1] = sat16(vu[i]). */
void strataDspVsatWordToHalf(int16_t d[64], const int32_t vu[32], const int32_t vv[32]);
/* Interleave of two vectors of `elemBytes`-byte elements (1, 2 or 4): the
 * sequence lo[0], hi[0], lo[1], hi[1], ... fills d0 then d1 (HVX
 * Vdd = vshuff(Vu=hi, Vv=lo, Rt=-elemBytes)). vmpy's even/odd halves back in
 * row order. */
void strataDspVshuff(void *d0, void *d1, const void *lo, const void *hi, int elemBytes);
/* The inverse (vdeal): the even elements of in0‖in1 go to `even`, the odd
 * ones to `odd`. */
void strataDspVdeal(void *even, void *odd, const void *in0, const void *in1, int elemBytes);

/* ---- Data layouts (Fig. 4.2) -------------------------------------------------
 * A c-column layout (c = 1, 2, 4) of an M x K byte matrix stores panels of
 * 128/c rows; inside a panel, groups of c consecutive columns, each group
 * one 128-byte vector holding its rows in order with a row's c bytes
 * together (byte r*c + j is row r, column j of the group). Panels follow
 * each other, each holding its ceil(K/c) groups in column order; padding
 * is zero. */

/* The instructions GCD² maps MatMul onto, each with its layout. */
typedef enum {
  STRATA_DSP_VMPY = 1, /* 1-column */
  STRATA_DSP_VMPA,     /* 2-column */
  STRATA_DSP_VRMPY,    /* 4-column */
} StrataDspInstr;

/* "vmpy", "vmpa", "vrmpy"; NULL for anything else. */
const char *strataDspInstrName(StrataDspInstr inst);
/* The instruction named `name`, or 0. */
StrataDspInstr strataDspInstrFromName(const char *name);
/* The columns of the instruction's layout (1, 2, 4), 0 for anything else. */
int strataDspInstrColumns(StrataDspInstr inst);

/* ceil(rows/(128/c))*(128/c) * ceil(cols/c)*c into *bytes; false if c is not
 * 1, 2 or 4, a size is negative, or the product overflows. */
bool strataDspPackedSize(int c, int64_t rows, int64_t cols, size_t *bytes);
/* Packs row-major src (rows x cols) into dst (strataDspPackedSize bytes,
 * caller-owned), padding with zeros; false as strataDspPackedSize. */
bool strataDspPack(int c, int64_t rows, int64_t cols, const uint8_t *src, uint8_t *dst);
/* The inverse: the rows x cols matrix out of a packed buffer. */
bool strataDspUnpack(int c, int64_t rows, int64_t cols, const uint8_t *src, uint8_t *dst);

/* C (M x N, int32, row-major) = A (M x K, u8 activations, row-major) times
 * B (K x N, s8 weights, row-major), computed the way GCD² maps it: A packed
 * in the instruction's layout, each instruction run by the emulator with
 * weights in Rt, partial sums widened to int32 as the layout needs (vmpy:
 * every product; vmpa: every pair sum, which is an int16 as on HVX and wraps
 * there when |a0*w0 + a1*w1| > 32767; vrmpy: int32 throughout). Equals the
 * int32 reference whenever no vmpa pair sum wraps. False for a bad
 * instruction or size, or when out of memory. */
bool strataDspMatMul(StrataDspInstr inst, int64_t M, int64_t K, int64_t N, const uint8_t *A,
                     const int8_t *B, int32_t *C);

/* True if vmpa computes C = A x B exactly (equal to the int32 reference)
 * for every A with elements <= aMax: no int16 pair sum
 * a(k)*B(k, n) + a(k+2)*B(k+2, n) (k % 4 in {0, 1}) can leave int16, i.e.
 * aMax * (|B(k, n)| + |B(k+2, n)|) <= 32767 everywhere. vmpy (each product
 * fits int16) and vrmpy (int32 sums) are always exact. */
bool strataDspVmpaExact(int64_t K, int64_t N, const int8_t *B, int aMax);

/* Modeled cycles of C = A x B through `inst` (the cost of a MatMul plan in
 * local enumeration): instructions per panel and column group plus a
 * per-panel overhead, with constants calibrated so that the model ranks
 * the instructions as Table 4.2 measured them (docs/dsp.md). Negative for a
 * bad instruction or size. */
double strataDspMatMulCost(StrataDspInstr inst, int64_t M, int64_t K, int64_t N);
/* Modeled cycles of converting an rows x cols tensor from the c1- to the
 * c2-column layout (0 when c1 == c2): one load per source vector and one
 * permute and store per destination vector. */
double strataDspConvertCost(int c1, int c2, int64_t rows, int64_t cols);

/* ---- Layout and instruction selection (A4) ----------------------------------
 * An operator graph with, per operator, its execution plans: a plan's cost
 * and the layout it needs its inputs in and produces its output in
 * (layouts are small positive integers, the column counts; an input layout
 * of 0 takes any layout, as Reshape and Transpose do). An edge costs its
 * `convertCost` when its source's output layout differs from what its
 * destination's plan takes, else nothing. */

#define STRATA_DSP_MAX_PLANS 8

typedef struct {
  double cost;
  int inLayout;  /* 0: any */
  int outLayout;
} StrataDspPlan;

typedef struct StrataDspGraph StrataDspGraph;

/* An empty graph, owned by the caller: destroy it with strataDspGraphDestroy.
 * NULL when out of memory. */
StrataDspGraph *strataDspGraphCreate(void);
void strataDspGraphDestroy(StrataDspGraph *g);
/* Adds an operator with 1..STRATA_DSP_MAX_PLANS plans (copied); returns its
 * index, or -1 for a bad plan count, a negative cost or out of memory. */
int strataDspGraphAddNode(StrataDspGraph *g, const StrataDspPlan *plans, int numPlans);
/* Adds the edge src -> dst (src < dst is not required); false for a bad
 * index, a self edge, a negative cost or out of memory. */
bool strataDspGraphAddEdge(StrataDspGraph *g, int src, int dst, double convertCost);
int strataDspGraphNumNodes(const StrataDspGraph *g);

/* Eq. 4.1: the plans' costs plus every edge's conversion cost under
 * `choice` (one plan index per node). */
double strataDspAggCost(const StrataDspGraph *g, const int *choice);

typedef enum {
  STRATA_DSP_SELECT_LOCAL = 1, /* each operator its cheapest plan */
  STRATA_DSP_SELECT_CHAIN,     /* Eq. 4.2's DP; the graph must be a chain */
  STRATA_DSP_SELECT_PARTITION, /* cut at desirable edges, exhaustive inside partitions */
  STRATA_DSP_SELECT_EXHAUSTIVE,/* the optimum, by branch and bound */
} StrataDspSelectMode;

/* Chooses a plan per node into `choice` (strataDspGraphNumNodes entries).
 * maxPartition caps a partition's operators (PARTITION; larger ones are cut
 * further along their topological order). False with a message in `err`
 * for a graph the mode cannot take (a cycle, CHAIN on a non-chain,
 * EXHAUSTIVE beyond 2^40 combinations) or out of memory. */
bool strataDspSelect(const StrataDspGraph *g, StrataDspSelectMode mode, int maxPartition,
                     int *choice, char *err, size_t errSize);
/* Def. 4.4: true if edge `e` (in insertion order) is a desirable
 * partitioning edge: its destination has only this predecessor and either
 * takes any input layout or is better off converting anyway (its best plan
 * beats the best plan taking its source's preferred layout by more than
 * the conversion costs). */
bool strataDspEdgeIsDesirableCut(const StrataDspGraph *g, int e);

/* ---- VLIW packing (A5, SDA) --------------------------------------------------
 * A machine model: slots per packet, per-resource capacities, and per
 * instruction class its latency and resource use. An instruction
 * dependency graph (IDG) of n instructions with hard and soft edges. */

enum {
  STRATA_DSP_RES_LOAD,
  STRATA_DSP_RES_STORE,
  STRATA_DSP_RES_SHIFT,
  STRATA_DSP_RES_PERMUTE,
  STRATA_DSP_RES_MPY,
  STRATA_DSP_NUM_RES,
};

typedef struct {
  int slots;                         /* instructions per packet */
  int capacity[STRATA_DSP_NUM_RES];  /* units of each resource per packet */
} StrataDspMachine;

/* HVX as the digest describes it: 4 slots; one load, store, shift and
 * permute unit, two multiply units. */
StrataDspMachine strataDspHvxMachine(void);

typedef struct {
  int latency;                 /* cycles, >= 1 */
  int use[STRATA_DSP_NUM_RES]; /* units of each resource it occupies */
} StrataDspInstrInfo;

typedef struct {
  int src, dst;  /* dst depends on src */
  bool soft;     /* RAW/WAR a packet can hold, at a stall */
  int stall;     /* soft: cycles the packet loses when both are in it */
} StrataDspDep;

typedef enum {
  STRATA_DSP_PACK_SDA = 1,     /* soft edges may share a packet, at score penalty p */
  STRATA_DSP_PACK_SOFT_TO_HARD,/* soft edges never share a packet */
  STRATA_DSP_PACK_SOFT_TO_NONE,/* soft edges share packets freely (p = 0) */
} StrataDspPackMode;

/* Packs the IDG with Algorithm 1 (bottom-up: seed each packet with the last
 * unpacked instruction on the critical path, fill it with the best-scoring
 * free instructions: (order + pred)*w - |hi_lat - lat|*(1-w) - p if soft-
 * dependent on the packet). Writes each instruction's packet (0 runs first)
 * into packetOf and returns the packet count; -1 with a message in `err`
 * for a dependency cycle, a bad edge, an instruction no packet can hold, or
 * out of memory. */
int strataDspVliwPack(const StrataDspMachine *m, const StrataDspInstrInfo *instrs, int n,
                  const StrataDspDep *deps, int numDeps, StrataDspPackMode mode, double w, double p,
                  int *packetOf, char *err, size_t errSize);
/* Modeled cycles of a packing: packets run one after another, each for its
 * longest latency plus the stalls of the soft chains inside it. */
int64_t strataDspVliwCycles(const StrataDspInstrInfo *instrs, int n, const StrataDspDep *deps,
                              int numDeps, const int *packetOf, int numPackets);
/* True if the packing is legal: at most m->slots per packet, no resource
 * over capacity, no hard edge inside a packet, every edge's source in a
 * packet no later than its destination's. */
bool strataDspVliwIsLegal(const StrataDspMachine *m, const StrataDspInstrInfo *instrs, int n,
                             const StrataDspDep *deps, int numDeps, const int *packetOf,
                             int numPackets);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_DSP_H */
