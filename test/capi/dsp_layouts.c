/* The 1-, 2- and 4-column layouts (digest C1.2): for every c and every
 * M, K in {31, 32, 33, 64, 96, 128, 130}, unpack(pack(x)) = x, the packed
 * size is ceil(M/(128/c))*(128/c)*ceil(K/c)*c, and MatMul through every
 * layout + instruction path equals an int32 reference (N = 5). The vmpa
 * path forms int16 pair sums as HVX does, exact while activations stay
 * below 128; with full-range activations it wraps exactly where the int16
 * sum leaves its range, which the last check shows.
 * RUN: %capi/dsp_layouts 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/dsp.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (uint32_t)rng;
}

static void reference(int64_t M, int64_t K, int64_t N, const uint8_t *A, const int8_t *B, int32_t *C) {
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      int64_t s = 0;
      for (int64_t k = 0; k < K; k++) s += A[i * K + k] * B[k * N + j];
      C[i * N + j] = (int32_t)s;
    }
}

int main(void) {
  static const int64_t sizes[] = {31, 32, 33, 64, 96, 128, 130};
  const int ns = sizeof sizes / sizeof sizes[0];
  enum { N = 5 };
  int roundTrips = 0, sizesOk = 0, matmuls = 0, failures = 0;
  for (int c = 1; c <= 4; c *= 2)
    for (int mi = 0; mi < ns; mi++)
      for (int ki = 0; ki < ns; ki++) {
        int64_t M = sizes[mi], K = sizes[ki], P = 128 / c;
        size_t bytes;
        if (!strataDspPackedSize(c, M, K, &bytes)) return 1;
        sizesOk += bytes == (size_t)(((M + P - 1) / P) * P * ((K + c - 1) / c) * c);
        uint8_t *A = malloc((size_t)(M * K)), *packed = malloc(bytes), *back = malloc((size_t)(M * K));
        int8_t *B = malloc((size_t)(K * N));
        int32_t *C = malloc(sizeof(int32_t) * (size_t)(M * N)), *R = malloc(sizeof(int32_t) * (size_t)(M * N));
        if (!A || !packed || !back || !B || !C || !R) return 1;
        for (int64_t i = 0; i < M * K; i++) A[i] = (uint8_t)(next() % (c == 2 ? 128 : 256));
        for (int64_t i = 0; i < K * N; i++) B[i] = (int8_t)next();
        strataDspPack(c, M, K, A, packed);
        strataDspUnpack(c, M, K, packed, back);
        roundTrips += !memcmp(A, back, (size_t)(M * K));
        StrataDspInstr inst = c == 1 ? STRATA_DSP_VMPY : c == 2 ? STRATA_DSP_VMPA : STRATA_DSP_VRMPY;
        reference(M, K, N, A, B, R);
        if (!strataDspMatMul(inst, M, K, N, A, B, C)) return 1;
        if (!memcmp(C, R, sizeof(int32_t) * (size_t)(M * N))) matmuls++;
        else if (failures++ < 3) printf("mismatch: %s M=%lld K=%lld\n", strataDspInstrName(inst), (long long)M, (long long)K);
        free(A); free(packed); free(back); free(B); free(C); free(R);
      }
  // CHECK: pack/unpack identity: 147 of 147
  printf("pack/unpack identity: %d of %d\n", roundTrips, 3 * ns * ns);
  // CHECK: padded size formula: 147 of 147
  printf("padded size formula: %d of %d\n", sizesOk, 3 * ns * ns);
  // CHECK: MatMul equals the int32 reference: 147 of 147
  printf("MatMul equals the int32 reference: %d of %d\n", matmuls, 3 * ns * ns);

  /* The layout itself: byte r*c + j of a group's vector is row r, column j. */
  uint8_t m[3 * 6], p[128 * 6];
  for (int i = 0; i < 18; i++) m[i] = (uint8_t)i;
  strataDspPack(2, 3, 6, m, p);
  // CHECK: col2 of a 3x6 matrix: group 0: 0 1 6 7 12 13 0 | group 1 at 128: 2 3 8
  printf("col2 of a 3x6 matrix: group 0: %d %d %d %d %d %d %d | group 1 at 128: %d %d %d\n", p[0], p[1],
         p[2], p[3], p[4], p[5], p[6], p[128], p[129], p[130]);

  /* vmpa's int16 pair sum: 255*127 + 255*127 wraps, as HVX's does. */
  uint8_t A4[4] = {255, 255, 255, 255};
  int8_t B4[4] = {127, 127, 127, 127};
  int32_t c4;
  strataDspMatMul(STRATA_DSP_VMPA, 1, 4, 1, A4, B4, &c4);
  int32_t v4;
  strataDspMatMul(STRATA_DSP_VRMPY, 1, 4, 1, A4, B4, &v4);
  // CHECK: full-range vmpa: -1532 (vrmpy 129540)
  printf("full-range vmpa: %d (vrmpy %d)\n", c4, v4);
  /* strataDspVmpaExact is sound: where it holds, vmpa equals the int32
   * reference on full-range activations (weights drawn so that it holds
   * about half the time); and it refuses the wrapping example above. */
  int exactClaims = 0, exactRight = 0;
  for (int round = 0; round < 200; round++) {
    enum { M = 70, K = 37, NN = 3 };
    uint8_t A[M * K];
    int8_t B[K * NN];
    int32_t C[M * NN], R[M * NN];
    int lim = 60 + (int)(next() % 10);
    for (int i = 0; i < M * K; i++) A[i] = (uint8_t)next();
    for (int i = 0; i < K * NN; i++) B[i] = (int8_t)((int)(next() % (2 * lim + 1)) - lim);
    if (!strataDspVmpaExact(K, NN, B, 255)) continue;
    exactClaims++;
    reference(M, K, NN, A, B, R);
    strataDspMatMul(STRATA_DSP_VMPA, M, K, NN, A, B, C);
    exactRight += !memcmp(C, R, sizeof C);
  }
  // CHECK: vmpa exact where claimed: [[N:[1-9][0-9]*]] of [[N]]; wrapping example: not exact; activations <= 127: exact
  printf("vmpa exact where claimed: %d of %d; wrapping example: %s; activations <= 127: %s\n", exactRight, exactClaims,
         strataDspVmpaExact(4, 1, B4, 255) ? "exact" : "not exact", strataDspVmpaExact(4, 1, B4, 127) ? "exact" : "not exact");
  // CHECK: bad layout refused: yes
  size_t b3;
  printf("bad layout refused: %s\n", !strataDspPackedSize(3, 4, 4, &b3) && !strataDspMatMul(0, 1, 1, 1, A4, B4, &c4) ? "yes" : "no");
  return 0;
}
