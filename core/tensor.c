/* Host tensors (include/strata/tensor.h): plain C, no MLIR (the
 * launcher strata-run links it alone); tensor_types.c bridges MLIR types. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/support.h"
#include "strata/tensor.h"

size_t strataDTypeSize(StrataDType t) {
  switch (t) {
  case STRATA_DTYPE_F32: case STRATA_DTYPE_I32: case STRATA_DTYPE_U32: return 4;
  case STRATA_DTYPE_F64: case STRATA_DTYPE_I64: case STRATA_DTYPE_U64: return 8;
  case STRATA_DTYPE_F16: case STRATA_DTYPE_I16: case STRATA_DTYPE_U16: case STRATA_DTYPE_BF16: return 2;
  case STRATA_DTYPE_I1: case STRATA_DTYPE_I8: case STRATA_DTYPE_U8: return 1;
  default: return 0;
  }
}

const char *strataDTypeName(StrataDType t) {
  static const char *const names[] = {"invalid", "f32", "f64", "f16", "i1", "i8", "ui8", "i32", "i64", "i16",
                                       "ui16", "ui32", "ui64", "bf16"};
  return (unsigned)t < sizeof names / sizeof names[0] ? names[t] : "invalid";
}

int64_t strataTensorNumElements(const StrataTensor *t) {
  int64_t n = 1;
  for (int i = 0; i < t->rank; i++) n *= t->dims[i];
  return n;
}

size_t strataTensorNumBytes(const StrataTensor *t) {
  return (size_t)strataTensorNumElements(t) * strataDTypeSize(t->dtype);
}

StrataTensor *strataTensorCreate(StrataDType dtype, int rank, const int64_t *dims) {
  if (rank < 0 || rank > STRATA_MAX_RANK || !strataDTypeSize(dtype)) return NULL;
  StrataTensor *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->dtype = dtype;
  t->rank = rank;
  uint64_t n = 1;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0 || (dims[i] && n > (UINT64_C(1) << 40) / (uint64_t)dims[i])) {
      free(t);
      return NULL; /* negative or absurdly large */
    }
    t->dims[i] = dims[i];
    n *= (uint64_t)dims[i];
  }
  t->data = calloc(n ? n : 1, strataDTypeSize(dtype));
  if (!t->data) {
    free(t);
    return NULL;
  }
  return t;
}

void strataTensorDestroy(StrataTensor *t) {
  if (!t) return;
  free(t->data);
  free(t);
}

void strataTensorFormatType(const StrataTensor *t, char *buf, size_t size) {
  size_t off = 0;
  buf[0] = '\0';
  for (int i = 0; i < t->rank && off < size; i++)
    off += (size_t)snprintf(buf + off, size - off, "%lldx", (long long)t->dims[i]);
  if (off < size) snprintf(buf + off, size - off, "%s", strataDTypeName(t->dtype));
}

bool strataCheckedAdd(int64_t a, int64_t b, int64_t *out) { return !__builtin_add_overflow(a, b, out); }

bool strataCheckedMul(int64_t a, int64_t b, int64_t *out) { return !__builtin_mul_overflow(a, b, out); }

bool strataShapeNumElements(const int64_t *dims, int rank, int64_t *out) {
  int64_t n = 1;
  bool dynamic = false;
  for (int i = 0; i < rank; i++) {
    if (dims[i] < 0) dynamic = true;
    else if (!strataCheckedMul(n, dims[i], &n)) return false;
  }
  *out = dynamic ? -1 : n;
  return true;
}

/* -2^63 and 2^63 are exact doubles; every double in [-2^63, 2^63) truncates
 * to an int64, and NaN fails both comparisons. */
bool strataDoubleToInt64(double d, int64_t *out) {
  if (!(d >= -0x1p63 && d < 0x1p63)) return false;
  *out = (int64_t)d;
  return true;
}

int64_t strataDoubleToInt64Saturated(double d) {
  int64_t v;
  if (strataDoubleToInt64(d, &v)) return v;
  return isnan(d) ? 0 : d < 0 ? INT64_MIN : INT64_MAX;
}

/* 2^64 is an exact double; every double in [0, 2^64) truncates to a uint64. */
uint64_t strataDoubleToUInt64Saturated(double d) {
  if (isnan(d) || d < 0) return 0;
  return d >= 0x1p64 ? UINT64_MAX : (uint64_t)d;
}

/* splitmix64: small, seedable, and the same on every platform. */
static uint64_t nextRandom(uint64_t *state) {
  uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

void strataTensorFillRandom(StrataTensor *t, uint64_t seed, double lo, double hi) {
  uint64_t state = seed;
  int64_t n = strataTensorNumElements(t);
  for (int64_t i = 0; i < n; i++) {
    double u = (double)(nextRandom(&state) >> 11) * (1.0 / 9007199254740992.0);
    double v = lo + (hi - lo) * u;
    if (t->dtype == STRATA_DTYPE_I1) v = u < 0.5 ? 0 : 1;
    else if (t->dtype != STRATA_DTYPE_F32 && t->dtype != STRATA_DTYPE_F64 && t->dtype != STRATA_DTYPE_F16 &&
             t->dtype != STRATA_DTYPE_BF16)
      v = floor(v);
    strataTensorSetDouble(t, i, v);
  }
}

static float halfToFloat(uint16_t h) {
  uint32_t sign = (uint32_t)(h & 0x8000) << 16, exp = (h >> 10) & 0x1f, man = h & 0x3ff, bits;
  if (exp == 0) {
    if (man == 0) bits = sign;
    else { /* subnormal */
      exp = 127 - 15 + 1;
      while (!(man & 0x400)) { man <<= 1; exp--; }
      bits = sign | (exp << 23) | ((man & 0x3ff) << 13);
    }
  } else if (exp == 31) bits = sign | 0x7f800000 | (man << 13);
  else bits = sign | ((exp - 15 + 127) << 23) | (man << 13);
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static uint16_t floatToHalf(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  uint16_t sign = (uint16_t)((x >> 16) & 0x8000);
  int32_t exp = (int32_t)((x >> 23) & 0xff) - 127 + 15;
  uint32_t man = x & 0x7fffff;
  if (((x >> 23) & 0xff) == 0xff) return sign | 0x7c00 | (man ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    man |= 0x800000;
    uint32_t shift = (uint32_t)(14 - exp);
    uint32_t half = man >> shift, rem = man & ((1u << shift) - 1), mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return sign | (uint16_t)half;
  }
  uint32_t half = ((uint32_t)exp << 10) | (man >> 13), rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (half & 1))) half++;
  return sign | (uint16_t)half;
}

/* bfloat16 is the top half of an f32: widening is exact; narrowing rounds
 * to nearest, ties to even (ONNX's Cast and ml_dtypes' rounding), and keeps
 * a NaN a (quiet) NaN. */
static float bf16ToFloat(uint16_t h) {
  uint32_t bits = (uint32_t)h << 16;
  float f;
  memcpy(&f, &bits, 4);
  return f;
}

static uint16_t floatToBf16(float f) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if (isnan(f)) return (uint16_t)((x >> 16) | 0x40);
  return (uint16_t)((x + 0x7fff + ((x >> 16) & 1)) >> 16);
}

/* d rounded to f32 "to odd": an inexact result is truncated toward 0 and
 * gets its last bit set. f32 has more than two bits beyond f16's, so
 * rounding that to f16 (to nearest even) is the correct rounding of d, as
 * numpy converts: no double rounding. (bfloat16 goes through f32 rounded
 * to nearest even, as ONNX's reference Cast does.) */
static float toFloatOdd(double d) {
  float f = (float)d;
  if (!((double)f != d) || isnan(d)) return f;
  uint32_t x;
  memcpy(&x, &f, 4);
  if (fabs((double)f) > fabs(d)) x--; /* rounded away from 0: one step back */
  x |= 1;
  memcpy(&f, &x, 4);
  return f;
}

double strataTensorGetDouble(const StrataTensor *t, int64_t i) {
  switch (t->dtype) {
  case STRATA_DTYPE_F32: return ((const float *)t->data)[i];
  case STRATA_DTYPE_F64: return ((const double *)t->data)[i];
  case STRATA_DTYPE_F16: return halfToFloat(((const uint16_t *)t->data)[i]);
  case STRATA_DTYPE_BF16: return bf16ToFloat(((const uint16_t *)t->data)[i]);
  case STRATA_DTYPE_I1: return ((const uint8_t *)t->data)[i] != 0;
  case STRATA_DTYPE_I8: return ((const int8_t *)t->data)[i];
  case STRATA_DTYPE_U8: return ((const uint8_t *)t->data)[i];
  case STRATA_DTYPE_I16: return ((const int16_t *)t->data)[i];
  case STRATA_DTYPE_I32: return ((const int32_t *)t->data)[i];
  case STRATA_DTYPE_I64: return (double)((const int64_t *)t->data)[i];
  case STRATA_DTYPE_U16: return ((const uint16_t *)t->data)[i];
  case STRATA_DTYPE_U32: return ((const uint32_t *)t->data)[i];
  case STRATA_DTYPE_U64: return (double)((const uint64_t *)t->data)[i];
  default: return 0;
  }
}

static int64_t saturate(double v, double lo, double hi) {
  return isnan(v) ? 0 : (int64_t)(v < lo ? lo : v > hi ? hi : v);
}

void strataTensorSetDouble(StrataTensor *t, int64_t i, double v) {
  switch (t->dtype) {
  case STRATA_DTYPE_F32: ((float *)t->data)[i] = (float)v; break;
  case STRATA_DTYPE_F64: ((double *)t->data)[i] = v; break;
  case STRATA_DTYPE_F16: ((uint16_t *)t->data)[i] = floatToHalf(toFloatOdd(v)); break;
  case STRATA_DTYPE_BF16: ((uint16_t *)t->data)[i] = floatToBf16((float)v); break;
  case STRATA_DTYPE_I1: ((uint8_t *)t->data)[i] = v != 0; break;
  /* Integers saturate (NaN is 0): C leaves out-of-range conversions undefined. */
  case STRATA_DTYPE_I8: ((int8_t *)t->data)[i] = (int8_t)saturate(v, INT8_MIN, INT8_MAX); break;
  case STRATA_DTYPE_U8: ((uint8_t *)t->data)[i] = (uint8_t)saturate(v, 0, UINT8_MAX); break;
  case STRATA_DTYPE_I16: ((int16_t *)t->data)[i] = (int16_t)saturate(v, INT16_MIN, INT16_MAX); break;
  case STRATA_DTYPE_I32: ((int32_t *)t->data)[i] = (int32_t)saturate(v, INT32_MIN, INT32_MAX); break;
  case STRATA_DTYPE_I64: ((int64_t *)t->data)[i] = strataDoubleToInt64Saturated(v); break;
  case STRATA_DTYPE_U16: ((uint16_t *)t->data)[i] = (uint16_t)saturate(v, 0, UINT16_MAX); break;
  case STRATA_DTYPE_U32: ((uint32_t *)t->data)[i] = (uint32_t)saturate(v, 0, UINT32_MAX); break;
  case STRATA_DTYPE_U64: ((uint64_t *)t->data)[i] = strataDoubleToUInt64Saturated(v); break;
  default: break;
  }
}

