/* The 1-, 2- and 4-column layouts (Fig. 4.2), MatMul through each
 * instruction on the emulator, and the cost models local plan enumeration
 * uses. */
#include <stdlib.h>
#include <string.h>
#include "strata/dsp.h"
#include "strata/support.h"

static const char *const kInstrNames[] = {NULL, "vmpy", "vmpa", "vrmpy"};

const char *strataDspInstrName(StrataDspInstr inst) {
  return inst >= STRATA_DSP_VMPY && inst <= STRATA_DSP_VRMPY ? kInstrNames[inst] : NULL;
}

StrataDspInstr strataDspInstrFromName(const char *name) {
  for (int i = STRATA_DSP_VMPY; name && i <= STRATA_DSP_VRMPY; i++)
    if (!strcmp(name, kInstrNames[i])) return (StrataDspInstr)i;
  return 0;
}

int strataDspInstrColumns(StrataDspInstr inst) {
  switch (inst) {
  case STRATA_DSP_VMPY: return 1;
  case STRATA_DSP_VMPA: return 2;
  case STRATA_DSP_VRMPY: return 4;
  }
  return 0;
}

static bool goodColumns(int c) { return c == 1 || c == 2 || c == 4; }
static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

bool strataDspPackedSize(int c, int64_t rows, int64_t cols, size_t *bytes) {
  if (!goodColumns(c) || rows < 0 || cols < 0) return false;
  int64_t panel = STRATA_DSP_VBYTES / c, r, k, n;
  if (!strataCheckedMul(ceilDiv(rows, panel), panel, &r) || !strataCheckedMul(ceilDiv(cols, c), c, &k) ||
      !strataCheckedMul(r, k, &n) || (uint64_t)n > SIZE_MAX)
    return false;
  *bytes = (size_t)n;
  return true;
}

/* Byte offset of element (r, k) in the c-column layout of a matrix with
 * `cols` columns. */
static size_t packedOffset(int c, int64_t cols, int64_t r, int64_t k) {
  int64_t panel = STRATA_DSP_VBYTES / c, groups = ceilDiv(cols, c);
  int64_t vec = (r / panel) * groups + k / c;
  return (size_t)(vec * STRATA_DSP_VBYTES + (r % panel) * c + k % c);
}

bool strataDspPack(int c, int64_t rows, int64_t cols, const uint8_t *src, uint8_t *dst) {
  size_t bytes;
  if (!strataDspPackedSize(c, rows, cols, &bytes)) return false;
  memset(dst, 0, bytes);
  for (int64_t r = 0; r < rows; r++)
    for (int64_t k = 0; k < cols; k++) dst[packedOffset(c, cols, r, k)] = src[r * cols + k];
  return true;
}

bool strataDspUnpack(int c, int64_t rows, int64_t cols, const uint8_t *src, uint8_t *dst) {
  size_t bytes;
  if (!strataDspPackedSize(c, rows, cols, &bytes)) return false;
  for (int64_t r = 0; r < rows; r++)
    for (int64_t k = 0; k < cols; k++) dst[r * cols + k] = src[packedOffset(c, cols, r, k)];
  return true;
}

/* Rt from four weights (as HVX forms it from scalar registers). */
static uint32_t rtOf(int8_t b0, int8_t b1, int8_t b2, int8_t b3) {
  return (uint32_t)(uint8_t)b0 | (uint32_t)(uint8_t)b1 << 8 | (uint32_t)(uint8_t)b2 << 16 |
         (uint32_t)(uint8_t)b3 << 24;
}

/* B(k, n), zero beyond K (the padding columns of A are zero as well). */
static int8_t weight(const int8_t *B, int64_t K, int64_t N, int64_t k, int64_t n) {
  return k < K ? B[k * N + n] : 0;
}

/* a + b with int32 wraparound (HVX's vadd.w), defined in C. */
static int32_t addWrap(int32_t a, int32_t b) { return (int32_t)((uint32_t)a + (uint32_t)b); }

/* One panel of rows [row0, row0 + 128/c) of C's column n, into acc. */
static void panelColumn(StrataDspInstr inst, const uint8_t *panel, int64_t groups, const int8_t *B,
                        int64_t K, int64_t N, int64_t n, int32_t *acc) {
  static const uint8_t kZero[STRATA_DSP_VBYTES];
  if (inst == STRATA_DSP_VRMPY) { /* 4 columns a row, int32 throughout */
    for (int64_t g = 0; g < groups; g++) {
      uint32_t rt = rtOf(weight(B, K, N, 4 * g, n), weight(B, K, N, 4 * g + 1, n),
                         weight(B, K, N, 4 * g + 2, n), weight(B, K, N, 4 * g + 3, n));
      strataDspVrmpy(acc, panel + g * STRATA_DSP_VBYTES, rt, true, g > 0);
    }
    return;
  }
  int16_t lo[64], hi[64];
  if (inst == STRATA_DSP_VMPA) { /* groups g, g+1 = columns 2g..2g+3 for 64 rows */
    memset(acc, 0, 64 * sizeof *acc);
    for (int64_t g = 0; g < groups; g += 2) {
      const uint8_t *v1 = g + 1 < groups ? panel + (g + 1) * STRATA_DSP_VBYTES : kZero;
      uint32_t rt = rtOf(weight(B, K, N, 2 * g, n), weight(B, K, N, 2 * g + 2, n),
                         weight(B, K, N, 2 * g + 1, n), weight(B, K, N, 2 * g + 3, n));
      strataDspVmpa(lo, hi, panel + g * STRATA_DSP_VBYTES, v1, rt, false);
      for (int i = 0; i < 64; i++) acc[i] = addWrap(acc[i], (int32_t)lo[i] + hi[i]); /* outputs added */
    }
    return;
  }
  /* vmpy: one column of 128 rows times a splat weight; even rows in lo,
   * odd rows in hi, shuffled back into row order at the end. */
  int32_t even[64] = {0}, odd[64] = {0};
  for (int64_t k = 0; k < groups; k++) {
    int8_t w = weight(B, K, N, k, n);
    strataDspVmpy(lo, hi, panel + k * STRATA_DSP_VBYTES, rtOf(w, w, w, w), false);
    for (int i = 0; i < 64; i++) {
      even[i] = addWrap(even[i], lo[i]);
      odd[i] = addWrap(odd[i], hi[i]);
    }
  }
  strataDspVshuff(acc, acc + 32, even, odd, 4);
  strataDspVshuff(acc + 64, acc + 96, even + 32, odd + 32, 4);
}

bool strataDspMatMul(StrataDspInstr inst, int64_t M, int64_t K, int64_t N, const uint8_t *A,
                     const int8_t *B, int32_t *C) {
  int c = strataDspInstrColumns(inst);
  size_t bytes;
  if (!c || N < 0 || !strataDspPackedSize(c, M, K, &bytes)) return false;
  uint8_t *packed = malloc(bytes ? bytes : 1);
  if (!packed) return false;
  strataDspPack(c, M, K, A, packed);
  int64_t panel = STRATA_DSP_VBYTES / c, groups = ceilDiv(K, c);
  int32_t acc[STRATA_DSP_VBYTES];
  for (int64_t p = 0; p * panel < M; p++)
    for (int64_t n = 0; n < N; n++) {
      panelColumn(inst, packed + p * groups * STRATA_DSP_VBYTES, groups, B, K, N, n, acc);
      for (int64_t i = 0; i < panel && p * panel + i < M; i++) C[(p * panel + i) * N + n] = acc[i];
    }
  free(packed);
  return true;
}

bool strataDspVmpaExact(int64_t K, int64_t N, const int8_t *B, int aMax) {
  for (int64_t k = 0; k < K; k++)
    for (int64_t n = 0; k % 4 < 2 && n < N; n++) {
      int w0 = B[k * N + n], w1 = k + 2 < K ? B[(k + 2) * N + n] : 0;
      if ((int64_t)aMax * (abs(w0) + abs(w1)) > 32767) return false;
    }
  return true;
}

/* Cycles per instruction and per (panel, output column) overhead (Rt
 * formation, widening, the final shuffle and store), calibrated so that
 * the model ranks the three instructions as Table 4.2 measured them on
 * 32^3, 64^3, 96^3 and 128^3 (least squares on the log latency ratios;
 * docs/dsp.md lists model and table side by side). */
static const struct {
  double perInstr, perPanelColumn;
} kCost[] = {{0, 0}, {1.0, 0.0}, {1.8, 11.5}, {0.7, 14.0}};

double strataDspMatMulCost(StrataDspInstr inst, int64_t M, int64_t K, int64_t N) {
  int c = strataDspInstrColumns(inst);
  if (!c || M < 0 || K < 0 || N < 0) return -1;
  double panels = (double)ceilDiv(M, STRATA_DSP_VBYTES / c);
  /* vmpy takes one column an instruction, vmpa and vrmpy four. */
  double instrs = (double)(inst == STRATA_DSP_VMPY ? K : ceilDiv(K, 4));
  return (double)N * panels * (instrs * kCost[inst].perInstr + kCost[inst].perPanelColumn);
}

double strataDspConvertCost(int c1, int c2, int64_t rows, int64_t cols) {
  size_t a, b;
  if (c1 == c2) return 0;
  if (!strataDspPackedSize(c1, rows, cols, &a) || !strataDspPackedSize(c2, rows, cols, &b)) return -1;
  return (double)(a / STRATA_DSP_VBYTES) + 2.0 * (double)(b / STRATA_DSP_VBYTES);
}
