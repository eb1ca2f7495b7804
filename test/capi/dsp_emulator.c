/* The dsp emulator (include/strata/dsp.h) against the digest's C1.1 values,
 * exactly, plus the properties its other instructions promise: vsat
 * saturates, vshuff and vdeal are inverse, the accumulating forms wrap.
 * RUN: %capi/dsp_emulator 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "strata/dsp.h"

static bool all32(const int32_t *v, int n, int32_t x) {
  for (int i = 0; i < n; i++)
    if (v[i] != x) return false;
  return true;
}
static bool alt16(const int16_t *v, int n, int16_t a, int16_t b) {
  for (int i = 0; i < n; i++)
    if (v[i] != (i % 2 ? b : a)) return false;
  return true;
}

int main(void) {
  uint8_t vu[128], v1[128];
  for (int i = 0; i < 128; i++) vu[i] = (uint8_t)(i % 4 + 1); /* splat 0x04030201 */
  int32_t w[32];
  strataDspVrmpy(w, vu, 0x01010101u, true, false);
  // CHECK: vrmpy: every word 10: yes
  printf("vrmpy: every word 10: %s\n", all32(w, 32, 10) ? "yes" : "no");
  for (int i = 0; i < 32; i++) w[i] = 5;
  strataDspVrmpy(w, vu, 0x01010101u, true, true);
  // CHECK: vrmpy acc 5: every word 15: yes
  printf("vrmpy acc 5: every word 15: %s\n", all32(w, 32, 15) ? "yes" : "no");
  for (int i = 0; i < 32; i++) w[i] = INT32_MAX;
  strataDspVrmpy(w, vu, 0x01010101u, true, true);
  // CHECK: vrmpy acc wraps: INT32_MIN + 9: yes
  printf("vrmpy acc wraps: INT32_MIN + 9: %s\n", all32(w, 32, INT32_MIN + 9) ? "yes" : "no");
  strataDspVrmpy(w, vu, 0xFFFFFFFFu, false, false);
  // CHECK: vrmpy Rt.ub 0xFF: 2550: yes
  printf("vrmpy Rt.ub 0xFF: 2550: %s\n", all32(w, 32, 2550) ? "yes" : "no");

  int16_t lo[64], hi[64];
  memset(vu, 2, sizeof vu);
  strataDspVmpy(lo, hi, vu, 0x04030201u, false);
  // CHECK: vmpy: lo 2,6 hi 4,8: yes yes
  printf("vmpy: lo 2,6 hi 4,8: %s %s\n", alt16(lo, 64, 2, 6) ? "yes" : "no",
         alt16(hi, 64, 4, 8) ? "yes" : "no");
  memset(vu, 255, sizeof vu);
  strataDspVmpy(lo, hi, vu, 0xFFFFFFFFu, false);
  // CHECK: vmpy 255 x Rt.b 0xFF: -255 -255
  printf("vmpy 255 x Rt.b 0xFF: %d %d\n", lo[0], hi[63]);
  for (int i = 0; i < 64; i++) lo[i] = hi[i] = INT16_MIN;
  strataDspVmpy(lo, hi, vu, 0xFFFFFFFFu, true);
  // CHECK: vmpy acc wraps at 16 bits: 32513
  printf("vmpy acc wraps at 16 bits: %d\n", lo[5]);

  memset(vu, 1, sizeof vu);
  memset(v1, 2, sizeof v1);
  strataDspVmpa(lo, hi, vu, v1, 0x04030201u, false);
  // CHECK: vmpa: lo all 5 hi all 11: yes yes
  printf("vmpa: lo all 5 hi all 11: %s %s\n", alt16(lo, 64, 5, 5) ? "yes" : "no",
         alt16(hi, 64, 11, 11) ? "yes" : "no");

  int16_t d[64];
  strataDspVdmpy(d, vu, 0x04030201u, false);
  // CHECK: vdmpy: 3,7: yes
  printf("vdmpy: 3,7: %s\n", alt16(d, 64, 3, 7) ? "yes" : "no");
  strataDspVdmpy(d, vu, 0x04030201u, true);
  // CHECK: vdmpy acc: 6,14: yes
  printf("vdmpy acc: 6,14: %s\n", alt16(d, 64, 6, 14) ? "yes" : "no");

  int16_t hu[64], hv[64];
  for (int i = 0; i < 64; i++) {
    hu[i] = (int16_t)(i * 10 - 300);
    hv[i] = (int16_t)(i - 1);
  }
  uint8_t b[128];
  strataDspVsatHalfToByte(b, hu, hv);
  // CHECK: vsat h->ub: b[0]=0 b[1]=0 b[2]=0 b[127]=255 b[100]=49
  printf("vsat h->ub: b[0]=%d b[1]=%d b[2]=%d b[127]=%d b[100]=%d\n", b[0], b[1], b[2], b[127], b[100]);
  int32_t wu[32], wv[32];
  for (int i = 0; i < 32; i++) {
    wu[i] = 40000 * (i - 16);
    wv[i] = i;
  }
  strataDspVsatWordToHalf(d, wu, wv);
  // CHECK: vsat w->h: -32768 32767 3
  printf("vsat w->h: %d %d %d\n", d[1], d[63], d[6]);

  int32_t e0[32], e1[32], x0[32], x1[32], o0[32], o1[32];
  for (int i = 0; i < 32; i++) {
    e0[i] = i;
    e1[i] = 100 + i;
  }
  strataDspVshuff(x0, x1, e0, e1, 4);
  // CHECK: vshuff words: 0 100 1 101 ... 16 116
  printf("vshuff words: %d %d %d %d ... %d %d\n", x0[0], x0[1], x0[2], x0[3], x1[0], x1[1]);
  strataDspVdeal(o0, o1, x0, x1, 4);
  // CHECK: vdeal undoes vshuff: yes
  printf("vdeal undoes vshuff: %s\n", !memcmp(o0, e0, sizeof e0) && !memcmp(o1, e1, sizeof e1) ? "yes" : "no");
  uint8_t c0[128], c1[128], bb[128];
  for (int i = 0; i < 128; i++) bb[i] = (uint8_t)i;
  strataDspVshuff(c0, c1, bb, vu, 1);
  // CHECK: vshuff bytes: 0 1 1 1 64 1
  printf("vshuff bytes: %d %d %d %d %d %d\n", c0[0], c0[1], c0[2], c0[3], c1[0], c1[1]);
  return 0;
}
