/* The dsp emulator: each HVX instruction's pseudocode as a C loop, the
 * oracle every other implementation (interpreter, lowerings) is checked
 * against. Sums are formed in unsigned arithmetic of the destination width so
 * that wrapping is exactly HVX's (and defined in C). */
#include <string.h>
#include "strata/dsp.h"

static int rtSignedByte(uint32_t rt, int j) { return (int8_t)(uint8_t)(rt >> (8 * j)); }
static int rtUnsignedByte(uint32_t rt, int j) { return (uint8_t)(rt >> (8 * j)); }

void strataDspVrmpy(int32_t d[32], const uint8_t vu[128], uint32_t rt, bool rtSigned,
                    bool accumulate) {
  for (int i = 0; i < 32; i++) {
    uint32_t s = accumulate ? (uint32_t)d[i] : 0;
    for (int j = 0; j < 4; j++)
      s += (uint32_t)(vu[4 * i + j] * (rtSigned ? rtSignedByte(rt, j) : rtUnsignedByte(rt, j)));
    d[i] = (int32_t)s;
  }
}

static int16_t wrap16(uint32_t v) { return (int16_t)(uint16_t)v; }

void strataDspVmpy(int16_t lo[64], int16_t hi[64], const uint8_t vu[128], uint32_t rt,
                   bool accumulate) {
  for (int i = 0; i < 64; i++) {
    uint32_t e = (uint32_t)(vu[2 * i] * rtSignedByte(rt, (2 * i) % 4));
    uint32_t o = (uint32_t)(vu[2 * i + 1] * rtSignedByte(rt, (2 * i + 1) % 4));
    lo[i] = wrap16((accumulate ? (uint32_t)lo[i] : 0) + e);
    hi[i] = wrap16((accumulate ? (uint32_t)hi[i] : 0) + o);
  }
}

void strataDspVmpa(int16_t lo[64], int16_t hi[64], const uint8_t v0[128], const uint8_t v1[128],
                   uint32_t rt, bool accumulate) {
  for (int i = 0; i < 64; i++) {
    uint32_t e = (uint32_t)(v0[2 * i] * rtSignedByte(rt, 0) + v1[2 * i] * rtSignedByte(rt, 1));
    uint32_t o =
        (uint32_t)(v0[2 * i + 1] * rtSignedByte(rt, 2) + v1[2 * i + 1] * rtSignedByte(rt, 3));
    lo[i] = wrap16((accumulate ? (uint32_t)lo[i] : 0) + e);
    hi[i] = wrap16((accumulate ? (uint32_t)hi[i] : 0) + o);
  }
}

void strataDspVdmpy(int16_t d[64], const uint8_t vu[128], uint32_t rt, bool accumulate) {
  for (int i = 0; i < 64; i++) {
    uint32_t s = (uint32_t)(vu[2 * i] * rtSignedByte(rt, (2 * i) % 4) +
                            vu[2 * i + 1] * rtSignedByte(rt, (2 * i + 1) % 4));
    d[i] = wrap16((accumulate ? (uint32_t)d[i] : 0) + s);
  }
}

static uint8_t usat8(int32_t v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)v; }
static int16_t sat16(int32_t v) { return v < INT16_MIN ? INT16_MIN : v > INT16_MAX ? INT16_MAX : (int16_t)v; }

void strataDspVsatHalfToByte(uint8_t d[128], const int16_t vu[64], const int16_t vv[64]) {
  for (int i = 0; i < 64; i++) {
    d[2 * i] = usat8(vv[i]);
    d[2 * i + 1] = usat8(vu[i]);
  }
}

void strataDspVsatWordToHalf(int16_t d[64], const int32_t vu[32], const int32_t vv[32]) {
  for (int i = 0; i < 32; i++) {
    d[2 * i] = sat16(vv[i]);
    d[2 * i + 1] = sat16(vu[i]);
  }
}

/* Element k of the 256-byte concatenation a‖b (elements of e bytes). */
static void *elemOf(void *a, void *b, int k, int e) {
  int per = STRATA_DSP_VBYTES / e;
  return k < per ? (char *)a + (size_t)k * e : (char *)b + (size_t)(k - per) * e;
}

void strataDspVshuff(void *d0, void *d1, const void *lo, const void *hi, int elemBytes) {
  int per = STRATA_DSP_VBYTES / elemBytes;
  uint8_t out0[STRATA_DSP_VBYTES], out1[STRATA_DSP_VBYTES]; /* outputs may alias inputs */
  for (int i = 0; i < per; i++) {
    memcpy(elemOf(out0, out1, 2 * i, elemBytes), (const char *)lo + (size_t)i * elemBytes, elemBytes);
    memcpy(elemOf(out0, out1, 2 * i + 1, elemBytes), (const char *)hi + (size_t)i * elemBytes,
           elemBytes);
  }
  memcpy(d0, out0, sizeof out0);
  memcpy(d1, out1, sizeof out1);
}

void strataDspVdeal(void *even, void *odd, const void *in0, const void *in1, int elemBytes) {
  int per = STRATA_DSP_VBYTES / elemBytes;
  uint8_t a[STRATA_DSP_VBYTES], b[STRATA_DSP_VBYTES], e[STRATA_DSP_VBYTES], o[STRATA_DSP_VBYTES];
  memcpy(a, in0, sizeof a);
  memcpy(b, in1, sizeof b);
  for (int i = 0; i < per; i++) {
    memcpy(e + (size_t)i * elemBytes, elemOf(a, b, 2 * i, elemBytes), elemBytes);
    memcpy(o + (size_t)i * elemBytes, elemOf(a, b, 2 * i + 1, elemBytes), elemBytes);
  }
  memcpy(even, e, sizeof e);
  memcpy(odd, o, sizeof o);
}
