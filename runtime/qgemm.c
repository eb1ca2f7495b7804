/* libstrata_rt integer GEMM for 8-bit operands (qgemm.h), exact:
 *   C[i][n] = sum_k (A[i][k] - za[i]) (B[k][n] - zb[n])   (mod 2^32)
 * computed as sum_k A'B' - zb' rowsum(A') - za' colsum(B') + K za' zb' on
 * operands brought to one unsigned and one signed side (what vpdpbusd
 * multiplies): u8 x u8 flips B to s8 (b ^ 0x80 is b - 128, so zb' = zb -
 * 128), s8 x s8 flips A to u8 (za' = za + 128). Every step wraps in 32
 * bits, and so does the interpreter's sum, so the two agree bit for bit
 * whatever the order of the additions.
 *
 * Layout: k in groups of 4 bytes (vpdpbusd's dot of 4). A in panels of MR
 * rows, ap[(kq * MR + i) * 4 + j] = A'(i, 4 kq + j); B in panels of NR
 * columns, bp[(kq * NR + n) * 4 + j] = B'(4 kq + j, n); zero padding, which
 * adds nothing. A is packed whole (cached when constant: the weights of a
 * conv), B a panel at a time (the whole matrix cached when constant: the
 * weights of a matmul). Kernels: AVX-512 VNNI (vpdpbusd, which does not
 * saturate), AVX2 (bytes widened to i16, vpmaddwd: 255 * 128 * 2 fits in
 * i32), portable C. */
#include "qgemm.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"

enum { MAX_MR = 8, MAX_NR = 32 };

typedef void (*QKernel)(int64_t kq, const uint8_t *ap, const uint8_t *bp, int32_t *c, bool aUnsigned);
#ifdef RT_QREQ_TILE
/* A kernel that requantizes its tile in registers: t's fast form, t->c
 * unused (the sums never leave the accumulators). */
typedef void (*QKernelReq)(int64_t kq, const uint8_t *ap, const uint8_t *bp, bool aUnsigned, const RtQReqTile *t);
#else
typedef void (*QKernelReq)(void);
#endif
typedef struct QRow QRow;
typedef RtQFast QFast;

typedef struct {
  const char *name;
  int mr, nr;
  QKernel kernel;
  QKernelReq kernelReq; /* NULL: the tile goes through memory to finishTile */
  void (*finishRow)(const QRow *r);
  /* packBPanel for an im2col, where the ISA has its own (NULL: none);
   * false if it does not take this geometry */
  bool (*packConv)(uint8_t *dst, int32_t *sums, const RtQConvGeom *g, int64_t K, int64_t n0, int64_t nr,
                   uint8_t flip, bool isUnsigned);
} QIsa;

/* The value of byte b in its domain. */
static inline int32_t byteValue(uint8_t b, bool isUnsigned) { return isUnsigned ? (int32_t)b : (int32_t)(int8_t)b; }

/* ---- Portable kernel (MR 4, NR 8) ---- */
static void genericKernel(int64_t kq, const uint8_t *ap, const uint8_t *bp, int32_t *c, bool aU) {
  enum { MR = 4, NR = 8 };
  int32_t acc[MR * NR] = {0};
  for (int64_t q = 0; q < kq; q++, ap += MR * 4, bp += NR * 4)
    for (int i = 0; i < MR; i++)
      for (int n = 0; n < NR; n++) {
        int32_t s = 0;
        for (int j = 0; j < 4; j++) s += byteValue(ap[i * 4 + j], aU) * byteValue(bp[n * 4 + j], !aU);
        acc[i * NR + n] = (int32_t)((uint32_t)acc[i * NR + n] + (uint32_t)s);
      }
  memcpy(c, acc, sizeof acc);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#include "qrequant.h"
#define RT_Q_X86 1

/* AVX2 (MR 4, NR 8): per k group, B's 8 columns x 4 bytes widen to two
 * vectors of 16 i16 (columns 0-3, 4-7), A's 4 bytes of a row to i16 and
 * broadcast; vpmaddwd leaves each column's sum in two adjacent lanes,
 * added pairwise (vphaddd) at the end. */
#define AVX2_TARGET __attribute__((target("avx2")))
AVX2_TARGET static inline __m256i avx2Widen(__m128i v, bool isUnsigned) {
  return isUnsigned ? _mm256_cvtepu8_epi16(v) : _mm256_cvtepi8_epi16(v);
}
AVX2_TARGET static inline void avx2Body(int64_t kq, const uint8_t *ap, const uint8_t *bp, int32_t *c,
                                        const bool aU) {
  enum { MR = 4, NR = 8 };
  __m256i lo[MR], hi[MR];
  for (int i = 0; i < MR; i++) lo[i] = hi[i] = _mm256_setzero_si256();
  for (int64_t q = 0; q < kq; q++, ap += MR * 4, bp += NR * 4) {
    __m256i b0 = avx2Widen(_mm_loadu_si128((const __m128i *)bp), !aU);
    __m256i b1 = avx2Widen(_mm_loadu_si128((const __m128i *)(bp + 16)), !aU);
    for (int i = 0; i < MR; i++) {
      int32_t quad;
      memcpy(&quad, ap + i * 4, 4);
      __m128i w = aU ? _mm_cvtepu8_epi16(_mm_cvtsi32_si128(quad)) : _mm_cvtepi8_epi16(_mm_cvtsi32_si128(quad));
      __m256i a = _mm256_broadcastq_epi64(w);
      lo[i] = _mm256_add_epi32(lo[i], _mm256_madd_epi16(b0, a));
      hi[i] = _mm256_add_epi32(hi[i], _mm256_madd_epi16(b1, a));
    }
  }
  for (int i = 0; i < MR; i++) {
    __m256i h = _mm256_permute4x64_epi64(_mm256_hadd_epi32(lo[i], hi[i]), 0xD8);
    _mm256_storeu_si256((__m256i *)(c + i * NR), h);
  }
}
AVX2_TARGET static void avx2Kernel(int64_t kq, const uint8_t *ap, const uint8_t *bp, int32_t *c, bool aU) {
  if (aU) avx2Body(kq, ap, bp, c, true);
  else avx2Body(kq, ap, bp, c, false);
}

/* AVX-512 VNNI (MR 8, NR 32): two 16-lane accumulators per row; vpdpbusd
 * multiplies its first source as unsigned bytes, its second as signed.
 * The tile is stored to c (i32), or with req, requantized from the
 * accumulators (rtQReqRow, the fast form's arithmetic) and stored as bytes:
 * rows < req->mr, columns < req->nr, so edge tiles too. */
#define VNNI_TARGET __attribute__((target("avx512f,avx512bw,avx512dq,avx512vl,avx512vnni")))
VNNI_TARGET static inline __attribute__((always_inline)) void vnniBody(int64_t kq, const uint8_t *ap,
                                                                        const uint8_t *bp, int32_t *c, const bool aU,
                                                                        const RtQReqTile *req) {
  enum { MR = 8, NR = 32 };
  __m512i acc0[MR], acc1[MR];
  for (int i = 0; i < MR; i++) acc0[i] = acc1[i] = _mm512_setzero_si512();
  for (int64_t q = 0; q < kq; q++, ap += MR * 4, bp += NR * 4) {
    __m512i b0 = _mm512_loadu_si512((const void *)bp), b1 = _mm512_loadu_si512((const void *)(bp + 64));
    for (int i = 0; i < MR; i++) {
      int32_t quad;
      memcpy(&quad, ap + i * 4, 4);
      __m512i a = _mm512_set1_epi32(quad);
      if (aU) {
        acc0[i] = rtQDpbusd(acc0[i], a, b0);
        acc1[i] = rtQDpbusd(acc1[i], a, b1);
      } else {
        acc0[i] = rtQDpbusd(acc0[i], b0, a);
        acc1[i] = rtQDpbusd(acc1[i], b1, a);
      }
    }
  }
  if (req) {
    RtQReqCols cl;
    rtQReqColsInit(&cl, req);
#pragma GCC unroll 8 /* constant indices: the accumulators stay in registers */
    for (int i = 0; i < MR; i++)
      if (i < req->mr) rtQReqRow(&cl, req, i, acc0[i], acc1[i]);
    return;
  }
  for (int i = 0; i < MR; i++) {
    _mm512_storeu_si512((void *)(c + i * NR), acc0[i]);
    _mm512_storeu_si512((void *)(c + i * NR + 16), acc1[i]);
  }
}
VNNI_TARGET static void vnniKernel(int64_t kq, const uint8_t *ap, const uint8_t *bp, int32_t *c, bool aU) {
  if (aU) vnniBody(kq, ap, bp, c, true, NULL);
  else vnniBody(kq, ap, bp, c, false, NULL);
}
VNNI_TARGET static void vnniKernelReq(int64_t kq, const uint8_t *ap, const uint8_t *bp, bool aU, const RtQReqTile *t) {
  if (aU) vnniBody(kq, ap, bp, NULL, true, t);
  else vnniBody(kq, ap, bp, NULL, false, t);
}
#endif

#if defined(__GNUC__) && !defined(__clang__)
#define RT_Q_NO_LIBCALLS __attribute__((optimize("no-tree-loop-distribute-patterns")))
#else
#define RT_Q_NO_LIBCALLS
#endif

static int64_t roundUp(int64_t v, int64_t r) { return (v + r - 1) / r * r; }
static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* ---- Packing ---- */

/* The operands' canonical form: A' unsigned (aU) or signed, B' the other;
 * which of them flips its top bit. */
typedef struct {
  bool aU, flipA, flipB;
} Canon;

static Canon canonical(const RtQOperand *A, const RtQOperand *B) {
  if (A->isUnsigned && B->isUnsigned) return (Canon){true, false, true};
  if (!A->isUnsigned && !B->isUnsigned) return (Canon){true, true, false};
  return (Canon){A->isUnsigned, false, false};
}

/* Rows [0, rows) x k [0, K) of a strided matrix, flipped, as 4-byte k
 * groups in panels of r: dst[(p * KQ + kq) * r * 4 + i * 4 + j]; sums[i]
 * the row sums of the flipped values (domain isUnsigned). */
static void packRows(uint8_t *dst, int32_t *sums, const uint8_t *p, int64_t rs, int64_t cs, int64_t rows,
                     int64_t K, int r, uint8_t flip, bool isUnsigned) {
  const int64_t KQ = (K + 3) / 4, padded = roundUp(rows, r);
  memset(dst, 0, (size_t)(padded * KQ * 4));
  for (int64_t i = 0; i < padded; i++) sums[i] = 0;
  for (int64_t i = 0; i < rows; i++) {
    uint8_t *d = dst + (i / r) * KQ * r * 4 + (i % r) * 4;
    const uint8_t *s = p + i * rs;
    uint32_t sum = 0;
    for (int64_t k = 0; k < K; k++) {
      uint8_t v = (uint8_t)(s[k * cs] ^ flip);
      d[(k / 4) * r * 4 + (k % 4)] = v;
      sum += (uint32_t)byteValue(v, isUnsigned);
    }
    sums[i] = (int32_t)sum;
  }
}

/* The runs of an im2col panel's columns n0..n0+nr within one output row:
 * run q covers columns [j[q], j[q + 1]) at output (oh[q], ow[q]). */
typedef struct {
  int runs;
  int64_t oh[MAX_NR], ow[MAX_NR], j[MAX_NR + 1];
} QRuns;

static void panelRuns(QRuns *r, const RtQConvGeom *g, int64_t n0, int64_t nr) {
  r->runs = 0;
  int64_t oh = n0 / g->OW, ow = n0 % g->OW;
  for (int64_t j = 0; j < nr; oh++, ow = 0) {
    r->oh[r->runs] = oh, r->ow[r->runs] = ow, r->j[r->runs++] = j;
    j += min64(nr - j, g->OW - ow);
  }
  r->j[r->runs] = nr;
}

/* Run q of an im2col k row at tap (ki, kj): its image row *ih and first
 * image column *iw0; t in [*lo, *hi) (lo <= hi) reads image column
 * iw0 + t * sw inside [0, W), the run's other columns are padding. */
static inline void runSpan(const RtQConvGeom *g, const QRuns *r, int q, int64_t ki, int64_t kj, int64_t *ih,
                           int64_t *iw0, int64_t *lo, int64_t *hi) {
  const int64_t h = r->oh[q] * g->sh + ki * g->dh - g->ph, w = r->ow[q] * g->sw + kj * g->dw - g->pw;
  *ih = h, *iw0 = w, *lo = *hi = 0;
  if (h >= 0 && h < g->H) rtQColumnRun(w, g->sw, g->W, r->j[q + 1] - r->j[q], lo, hi);
}

/* One k row of an im2col panel (channel c, tap ki, kj): raw bytes, the
 * padding's taps `pad`. The runs are at most NR bytes: plain loops, not
 * memcpy/memset calls (GCC would turn the loops back into calls, which
 * cost more than such copies). */
RT_Q_NO_LIBCALLS static void im2colRow(uint8_t *row, const RtQConvGeom *g, const QRuns *r, int64_t c, int64_t ki,
                                       int64_t kj) {
  const uint8_t *plane = g->x + c * g->cs;
  const int64_t sw = g->sw;
  for (int q = 0; q < r->runs; q++) {
    int64_t len = r->j[q + 1] - r->j[q], ih, iw0, lo, hi;
    runSpan(g, r, q, ki, kj, &ih, &iw0, &lo, &hi);
    uint8_t *o = row + r->j[q];
    for (int64_t t = 0; t < lo; t++) o[t] = g->pad;
    if (hi > lo) {
      const uint8_t *src = plane + ih * g->hs + (iw0 + lo * sw) * g->ws;
      int64_t step = sw * g->ws, cnt = hi - lo;
      if (step == 1)
        for (int64_t t = 0; t < cnt; t++) o[lo + t] = src[t];
      else if (step == 2) /* a constant stride the compiler vectorizes (stride-2 convs) */
        for (int64_t t = 0; t < cnt; t++) o[lo + t] = src[2 * t];
      else
        for (int64_t t = 0; t < cnt; t++) o[lo + t] = src[t * step];
    }
    for (int64_t t = hi; t < len; t++) o[t] = g->pad;
  }
}

/* The B panel of columns n0..n0+nr (nr <= NR), all of k: dst[(kq * NR +
 * n) * 4 + j]; sums[n] its column sums (flipped values). */
static void packBPanel(uint8_t *dst, int32_t *sums, const RtQOperand *B, int64_t K, int64_t n0, int64_t nr,
                       int NR, uint8_t flip, bool isUnsigned) {
  const int64_t KQ = (K + 3) / 4;
  uint8_t rows[4][MAX_NR];
  uint32_t acc[MAX_NR] = {0};
  QRuns runs;
  const RtQConvGeom *g = B->conv;
  int64_t c = 0, ki = 0, kj = 0; /* k = (c, ki, kj) of an im2col, stepped along */
  if (g) panelRuns(&runs, g, n0, nr);
  for (int64_t q = 0; q < KQ; q++) {
    for (int j = 0; j < 4; j++) {
      int64_t k = 4 * q + j;
      uint8_t *row = rows[j];
      if (k >= K) {
        memset(row, flip, (size_t)NR); /* 0 once flipped: adds nothing */
        continue;
      }
      if (g) {
        im2colRow(row, g, &runs, c, ki, kj);
        if (++kj == g->KW) {
          kj = 0;
          if (++ki == g->KH) ki = 0, c++;
        }
      } else {
        const uint8_t *s = B->p + k * B->rs + n0 * B->cs;
        for (int64_t n = 0; n < nr; n++) row[n] = s[n * B->cs];
      }
      for (int64_t n = nr; n < NR; n++) row[n] = 0;
    }
    /* flip, the column sums, and the interleave of the 4 rows as one u32
     * per column (little endian: row j in byte j), in loops that vectorize */
    uint32_t *d = (uint32_t *)(dst + q * NR * 4), fl = flip ? 0x80808080u : 0;
    for (int n = 0; n < NR; n++) {
      uint32_t w = ((uint32_t)rows[0][n] | (uint32_t)rows[1][n] << 8 | (uint32_t)rows[2][n] << 16 |
                    (uint32_t)rows[3][n] << 24) ^ fl;
      d[n] = w;
      if (isUnsigned)
        acc[n] += (w & 0xff) + (w >> 8 & 0xff) + (w >> 16 & 0xff) + (w >> 24);
      else
        acc[n] += (uint32_t)((int32_t)(int8_t)w + (int8_t)(w >> 8) + (int8_t)(w >> 16) + (int8_t)(w >> 24));
    }
  }
  for (int n = nr; n < NR; n++) acc[n] = 0; /* the padding columns (flipped zeros) are not read */
  for (int n = 0; n < NR; n++) sums[n] = (int32_t)acc[n];
}

#ifdef RT_Q_X86
/* packBPanel for an im2col whose k rows step 1 or 2 bytes through the
 * image (stride 1 or 2 along W, W contiguous), on AVX-512 (NR 32): a row
 * is one masked load per run (lanes outside the image keep the pad byte
 * and are not read; masked-off bytes of a load never fault; stride 2
 * loads the run's even bytes of 64 and narrows them), the four rows of a
 * k group widen to one u32 per column in registers, and vpdpbusd against
 * ones sums each column's four bytes in its domain. */
static inline uint64_t bitRange(int64_t from, int64_t count) {
  return (count >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << count) - 1) << from;
}
VNNI_TARGET static __m256i vnniIm2colRow(const RtQConvGeom *g, const QRuns *r, int64_t c, int64_t ki, int64_t kj,
                                         __m256i v) {
  const uintptr_t plane = (uintptr_t)(g->x + c * g->cs);
  const int64_t sw = g->sw;
  for (int q = 0; q < r->runs; q++) {
    int64_t j0 = r->j[q], ih, iw0, lo, hi;
    runSpan(g, r, q, ki, kj, &ih, &iw0, &lo, &hi);
    if (hi <= lo) continue;
    /* lane L = j0 + t reads byte sw * L of base */
    uintptr_t base = plane + (uintptr_t)(ih * g->hs) + (uintptr_t)(iw0 - sw * j0);
    __mmask32 m = (__mmask32)bitRange(j0 + lo, hi - lo);
    if (sw == 1) {
      v = _mm256_mask_loadu_epi8(v, m, (const void *)base);
    } else { /* the even bytes of 64, each the low byte of a 16-bit lane */
      const uint64_t even = 0x5555555555555555u;
      __m512i bytes = _mm512_maskz_loadu_epi8((__mmask64)(bitRange(2 * (j0 + lo), 2 * (hi - lo)) & even), (const void *)base);
      v = _mm256_mask_mov_epi8(v, m, _mm512_cvtepi16_epi8(bytes));
    }
  }
  return v;
}

/* A packed k group of a B panel (columns 0-15 in w0, 16-31 in w1) stored,
 * and its bytes added to the column sums acc (vpdpbusd against ones, in
 * the bytes' domain). */
VNNI_TARGET static inline void vnniStoreGroup(uint8_t *dst, __m512i w0, __m512i w1, __m512i acc[2], bool isUnsigned) {
  const __m512i ones = _mm512_set1_epi8(1);
  _mm512_storeu_si512((void *)dst, w0);
  _mm512_storeu_si512((void *)(dst + 64), w1);
  if (isUnsigned) {
    acc[0] = _mm512_dpbusd_epi32(acc[0], w0, ones);
    acc[1] = _mm512_dpbusd_epi32(acc[1], w1, ones);
  } else {
    acc[0] = _mm512_dpbusd_epi32(acc[0], ones, w0);
    acc[1] = _mm512_dpbusd_epi32(acc[1], ones, w1);
  }
}

/* The column sums of a panel of `live` columns: the padding columns
 * (flipped zeros) are not read, their sums are 0. */
VNNI_TARGET static inline void vnniStoreSums(int32_t *sums, __mmask32 live, const __m512i acc[2]) {
  _mm512_storeu_si512((void *)sums, _mm512_maskz_mov_epi32((__mmask16)live, acc[0]));
  _mm512_storeu_si512((void *)(sums + 16), _mm512_maskz_mov_epi32((__mmask16)(live >> 16), acc[1]));
}

/* The panel of a 1x1 convolution of stride 1 without pads over dense
 * image rows: B(k, n) is the image's byte k * cs + n, so a k row of the
 * panel is one 32-byte load (lanes past nr zero, as packBPanel's), and the
 * four rows of a k group interleave into one u32 per column with byte and
 * halfword unpacks (the column order restored by the 128-bit permutes). */
VNNI_TARGET static void vnniPackPointwise(uint8_t *dst, int32_t *sums, const RtQConvGeom *g, int64_t K, int64_t n0,
                                          int64_t nr, uint8_t flip, bool isUnsigned) {
  const int64_t KQ = (K + 3) / 4;
  const __mmask32 live = nr >= 32 ? ~(__mmask32)0 : (__mmask32)(((uint64_t)1 << nr) - 1);
  const __m256i fl = _mm256_set1_epi8((char)flip);
  const uint8_t *x = g->x + n0;
  __m512i acc[2] = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  for (int64_t q = 0; q < KQ; q++) {
    __m256i r[4];
    for (int j = 0; j < 4; j++) /* a row past K: 0 once flipped */
      r[j] = 4 * q + j < K ? _mm256_xor_si256(_mm256_maskz_loadu_epi8(live, x + (4 * q + j) * g->cs), fl)
                           : _mm256_setzero_si256();
    /* t0: (r0, r1) byte pairs of columns 0-7 | 16-23, t1: 8-15 | 24-31; t2, t3: (r2, r3) */
    __m256i t0 = _mm256_unpacklo_epi8(r[0], r[1]), t1 = _mm256_unpackhi_epi8(r[0], r[1]);
    __m256i t2 = _mm256_unpacklo_epi8(r[2], r[3]), t3 = _mm256_unpackhi_epi8(r[2], r[3]);
    /* u0: columns 0-3 | 16-19, u1: 4-7 | 20-23, u2: 8-11 | 24-27, u3: 12-15 | 28-31 */
    __m256i u0 = _mm256_unpacklo_epi16(t0, t2), u1 = _mm256_unpackhi_epi16(t0, t2);
    __m256i u2 = _mm256_unpacklo_epi16(t1, t3), u3 = _mm256_unpackhi_epi16(t1, t3);
    __m512i w0 = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_permute2x128_si256(u0, u1, 0x20)),
                                    _mm256_permute2x128_si256(u2, u3, 0x20), 1);
    __m512i w1 = _mm512_inserti64x4(_mm512_castsi256_si512(_mm256_permute2x128_si256(u0, u1, 0x31)),
                                    _mm256_permute2x128_si256(u2, u3, 0x31), 1);
    vnniStoreGroup(dst + q * 128, w0, w1, acc, isUnsigned);
  }
  vnniStoreSums(sums, live, acc);
}

VNNI_TARGET static bool vnniPackConv(uint8_t *dst, int32_t *sums, const RtQConvGeom *g, int64_t K, int64_t n0,
                                     int64_t nr, uint8_t flip, bool isUnsigned) {
  if (g->KH == 1 && g->KW == 1 && g->sh == 1 && g->sw == 1 && !g->ph && !g->pw && g->OH == g->H && g->OW == g->W &&
      g->ws == 1 && g->hs == g->W) {
    vnniPackPointwise(dst, sums, g, K, n0, nr, flip, isUnsigned);
    return true;
  }
  if ((g->sw != 1 && g->sw != 2) || g->ws != 1) return false;
  QRuns runs;
  panelRuns(&runs, g, n0, nr);
  const int64_t KQ = (K + 3) / 4;
  const __mmask32 live = nr >= 32 ? ~(__mmask32)0 : (__mmask32)(((uint64_t)1 << nr) - 1);
  /* lanes past nr are 0 before the flip, like packBPanel's; rows past K the flipped 0 */
  const __m256i pad = _mm256_maskz_mov_epi8(live, _mm256_set1_epi8((char)g->pad));
  const __m256i fl = _mm256_set1_epi8((char)flip);
  __m512i acc[2] = {_mm512_setzero_si512(), _mm512_setzero_si512()};
  int64_t c = 0, ki = 0, kj = 0;
  for (int64_t q = 0; q < KQ; q++) {
    __m512i w0 = _mm512_setzero_si512(), w1 = _mm512_setzero_si512();
    for (int j = 0; j < 4; j++) {
      __m256i row = _mm256_setzero_si256(); /* a row past K: 0 once flipped */
      if (4 * q + j < K) {
        row = _mm256_xor_si256(vnniIm2colRow(g, &runs, c, ki, kj, pad), fl);
        if (++kj == g->KW) {
          kj = 0;
          if (++ki == g->KH) ki = 0, c++;
        }
      }
      w0 = _mm512_or_si512(w0, _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm256_castsi256_si128(row)), 8 * j));
      w1 = _mm512_or_si512(w1, _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm256_extracti128_si256(row, 1)), 8 * j));
    }
    vnniStoreGroup(dst + q * 128, w0, w1, acc, isUnsigned);
  }
  vnniStoreSums(sums, live, acc);
  return true;
}
#endif

/* Cached packed constants: the panels, then the sums (i32, one per padded
 * row or column). */
typedef struct {
  const RtQOperand *op;
  int64_t rows, K;
  int r;
  uint8_t flip;
  bool isUnsigned, isB;
} QPackJob;

static int64_t packedBytes(int64_t rows, int64_t K, int r) { return roundUp(rows, r) * ((K + 3) / 4) * 4; }

static void packWhole(float *dstf, const void *ctx) {
  const QPackJob *j = ctx;
  uint8_t *dst = (uint8_t *)dstf;
  int64_t bytes = packedBytes(j->rows, j->K, j->r);
  int32_t *sums = (int32_t *)(dst + roundUp(bytes, 64));
  if (!j->isB) {
    packRows(dst, sums, j->op->p, j->op->rs, j->op->cs, j->rows, j->K, j->r, j->flip, j->isUnsigned);
    return;
  }
  const int64_t KQ = (j->K + 3) / 4;
  for (int64_t n0 = 0; n0 < j->rows; n0 += j->r)
    packBPanel(dst + n0 * KQ * 4, sums + n0, j->op, j->K, n0, min64(j->r, j->rows - n0), j->r, j->flip,
               j->isUnsigned);
}

static size_t packedFloats(int64_t rows, int64_t K, int r) {
  return (size_t)((roundUp(packedBytes(rows, K, r), 64) + 4 * roundUp(rows, r) + 3) / 4);
}

/* The packed form of A (rows M) or of a constant B (rows N: columns),
 * cached when constant, else (A: a B that varies is packed a panel at a
 * time by the tasks) in the caller's scratch 1. */
static const uint8_t *packed(const RtQOperand *op, bool isB, int64_t rows, int64_t K, int r, uint8_t flip,
                             bool isUnsigned, const int32_t **sums, char isa) {
  QPackJob j = {op, rows, K, r, flip, isUnsigned, isB};
  size_t floats = packedFloats(rows, K, r);
  const float *d;
  if (op->constant) {
    int64_t key[6] = {op->rs, op->cs, rows, K, r * 4 + (flip ? 2 : 0) + isB, isa};
    d = rtConstCacheGet(isB ? 'q' : 'Q', op->p, key, floats, packWhole, &j);
  } else {
    float *s = rtScratch(1, floats);
    if (s) packWhole(s, &j);
    d = s;
  }
  if (!d) rtError("out of memory for integer GEMM packing buffers");
  *sums = (const int32_t *)((const uint8_t *)d + roundUp(packedBytes(rows, K, r), 64));
  return (const uint8_t *)d;
}

/* ---- The output tiles ---- */

typedef struct {
  int64_t M, N, K;
  const QIsa *isa;
  Canon cn;
  const RtQOperand *A, *B;
  const RtQOut *out;
  const uint8_t *ap, *bpWhole; /* bpWhole: B packed whole (constant), or NULL */
  const int32_t *rowSums, *colSumsWhole;
  int32_t zaShift, zbShift; /* +128 / -128 of a flipped side */
  const QFast *fast;        /* the fast requantization, or NULL */
} QTask;

/* One row of a finished tile: the corrections' row terms and the
 * requantization's per-column values (m and bias materialized over the
 * tile's columns, so that the loop vectorizes). */
struct QRow {
  const int32_t *c, *zb, *cs, *bias;
  const float *m;
  int64_t nr;
  uint32_t za, rs, K;
  int32_t *y32;
  uint8_t *y8;
  double zy, lo, hi; /* lo, hi: the saturation range */
  bool relu;
  double clo, chi; /* then the clamp (lo, hi without one) */
};

/* The row's final bounds: q (saturated, then max(q, zy) with the Relu,
 * then min(max(q, clo), chi)) is min(max(q, floor), ceil) with these, as
 * zy, clo and chi lie in [lo, hi]; floor > ceil gives ceil, as the clamp
 * does. NaN is 0 before the Relu and the clamp. */
static inline double rowFloor(const QRow *r) {
  double f = r->relu && r->zy > r->lo ? r->zy : r->lo;
  return r->clo > f ? r->clo : f;
}
static inline double rowCeil(const QRow *r) { return r->chi < r->hi ? r->chi : r->hi; }
static inline double rowNan(double floor, double ceil) { return 0.0 < floor ? (floor > ceil ? ceil : floor) : 0.0 > ceil ? ceil : 0.0; }

/* Saturation range and clamp of out's rows. */
static void rowBounds(QRow *r, const RtQOut *o) {
  r->lo = o->yUnsigned ? 0 : -128, r->hi = o->yUnsigned ? 255 : 127;
  r->clo = o->clamp ? o->clampLo : r->lo, r->chi = o->clamp ? o->clampHi : r->hi;
}

/* The body, compiled per ISA (the compiler vectorizes it for each):
 * v = c - zb rs - za cs + K za zb (wrapping), then the i32 store, or
 * q = roundeven(v * m) + zy (f64; roundeven is nearbyint in the default
 * rounding mode, the interpreter's), NaN to 0, saturated, Relu. */
#define RT_Q_FINISH_ROW(NAME, TARGET)                                                              \
  TARGET static void NAME(const QRow *r) {                                                         \
    const int32_t *restrict c = r->c, *restrict zb = r->zb, *restrict cs = r->cs;                 \
    const uint32_t za = r->za, rs = r->rs, kza = r->K * r->za;                                     \
    if (r->y32) {                                                                                  \
      int32_t *restrict y = r->y32;                                                                \
      for (int64_t n = 0; n < r->nr; n++)                                                          \
        y[n] = (int32_t)((uint32_t)c[n] - (uint32_t)zb[n] * rs - za * (uint32_t)cs[n] + kza * (uint32_t)zb[n]); \
      return;                                                                                      \
    }                                                                                              \
    const int32_t *restrict bias = r->bias;                                                        \
    const float *restrict m = r->m;                                                                \
    uint8_t *restrict y = r->y8;                                                                   \
    const double zy = r->zy, qfloor = rowFloor(r), qceil = rowCeil(r);                          \
    const double nan0 = rowNan(qfloor, qceil); /* NaN is 0, then the Relu and the clamp */      \
    for (int64_t n = 0; n < r->nr; n++) {                                                          \
      uint32_t v = (uint32_t)c[n] - (uint32_t)zb[n] * rs - za * (uint32_t)cs[n] + kza * (uint32_t)zb[n] + \
                   (uint32_t)bias[n];                                                              \
      double q = __builtin_roundeven((double)(int32_t)v * (double)m[n]) + zy;                     \
      q = q < qfloor ? qfloor : q;                                                                 \
      q = q != q ? nan0 : q > qceil ? qceil : q;                                                   \
      y[n] = (uint8_t)(int32_t)q;                                                                  \
    }                                                                                              \
  }
RT_Q_FINISH_ROW(genericFinishRow, )
static const QIsa kGeneric = {"generic", 4, 8, genericKernel, NULL, genericFinishRow, NULL};
#ifdef RT_Q_X86
RT_Q_FINISH_ROW(avx2FinishRow, AVX2_TARGET)
/* The same row with AVX-512 (what GCC does not vectorize from the C
 * body): 16 columns a step, in two halves of 8 doubles. */
VNNI_TARGET static void vnniFinishRow(const QRow *r) {
  const __m512i rs = _mm512_set1_epi32((int32_t)r->rs), za = _mm512_set1_epi32((int32_t)r->za);
  const __m512i kza = _mm512_set1_epi32((int32_t)(r->K * r->za));
  const double qfloor = rowFloor(r), nan0 = rowNan(qfloor, rowCeil(r));
  const __m512d zy = _mm512_set1_pd(r->zy), vqfloor = _mm512_set1_pd(qfloor), hi = _mm512_set1_pd(rowCeil(r));
  const __m512d vnan0 = _mm512_set1_pd(nan0);
  for (int64_t n = 0; n < r->nr; n += 16) {
    __mmask16 k = r->nr - n >= 16 ? (__mmask16)0xFFFF : (__mmask16)((1u << (r->nr - n)) - 1);
    __m512i zb = _mm512_maskz_loadu_epi32(k, r->zb + n), cs = _mm512_maskz_loadu_epi32(k, r->cs + n);
    __m512i v = _mm512_maskz_loadu_epi32(k, r->c + n);
    v = _mm512_sub_epi32(v, _mm512_mullo_epi32(zb, rs));
    v = _mm512_sub_epi32(v, _mm512_mullo_epi32(za, cs));
    v = _mm512_add_epi32(v, _mm512_mullo_epi32(kza, zb));
    if (r->y32) {
      _mm512_mask_storeu_epi32(r->y32 + n, k, v);
      continue;
    }
    v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(k, r->bias + n));
    __m512 m = _mm512_maskz_loadu_ps(k, r->m + n);
    __m256i half[2];
    for (int h = 0; h < 2; h++) {
      __m512d a = _mm512_cvtepi32_pd(h ? _mm512_extracti64x4_epi64(v, 1) : _mm512_castsi512_si256(v));
      __m512d mm = _mm512_cvtps_pd(h ? _mm512_extractf32x8_ps(m, 1) : _mm512_castps512_ps256(m));
      __m512d q = _mm512_add_pd(_mm512_roundscale_pd(_mm512_mul_pd(a, mm), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC), zy);
      __mmask8 nan = _mm512_cmp_pd_mask(q, q, _CMP_UNORD_Q);
      q = _mm512_min_pd(_mm512_max_pd(q, vqfloor), hi);
      q = _mm512_mask_blend_pd(nan, q, vnan0);
      half[h] = _mm512_cvtpd_epi32(q);
    }
    __m512i w = _mm512_inserti64x4(_mm512_castsi256_si512(half[0]), half[1], 1);
    _mm_mask_storeu_epi8(r->y8 + n, k, _mm512_cvtepi32_epi8(w));
  }
}
static const QIsa kAvx2 = {"avx2", 4, 8, avx2Kernel, NULL, avx2FinishRow, NULL};
static const QIsa kVnni = {"avx512vnni", 8, 32, vnniKernel, vnniKernelReq, vnniFinishRow, vnniPackConv};
#endif

/* Follows the f32 kernels' ISA (so STRATA_RT_ISA and strataRtSetIsa force
 * the integer path too): avx512 runs VNNI when the host has it, AVX2
 * otherwise. */
static const QIsa *qIsa(void) {
  const char *f = strataRtGetIsa();
#ifdef RT_Q_X86
  if (!strcmp(f, "avx512")) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vnni") && __builtin_cpu_supports("avx512bw") &&
                   __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")
               ? &kVnni
               : &kAvx2;
  }
  if (!strcmp(f, "avx2")) return &kAvx2;
#endif
  return &kGeneric;
}

/* Value (i, n) of a parameter (each varies along rows or columns only). */
static inline float paramF(const RtQParam *p, int64_t i, int64_t n) {
  return ((const float *)p->p)[i * p->rs + n * p->cs];
}
static inline int32_t paramI(const RtQParam *p, int64_t i, int64_t n) {
  return ((const int32_t *)p->p)[i * p->rs + n * p->cs];
}

/* Row gi's requantization parameters over columns n0..n0+nr: m = (f32)(sa
 * * sb) / sy, each step in f32, as the interpreter, and the bias (0
 * without one). `fresh`: the first row (a later row keeps the values of the
 * one before when they do not vary by row). */
static void rowParams(const RtQOut *o, int64_t gi, int64_t n0, int64_t nr, bool fresh, bool mByColumn, float *m,
                      int32_t *bias) {
  if (!fresh && !o->sa.rs && !o->sb.rs && !o->sy.rs) {
    /* the previous row's m */
  } else if (mByColumn) {
    for (int64_t n = 0; n < nr; n++)
      m[n] = paramF(&o->sa, gi, n0 + n) * paramF(&o->sb, gi, n0 + n) / paramF(&o->sy, gi, n0 + n);
  } else {
    float v = paramF(&o->sa, gi, n0) * paramF(&o->sb, gi, n0);
    v = v / paramF(&o->sy, gi, n0);
    for (int64_t n = 0; n < nr; n++) m[n] = v;
  }
  if (!o->hasBias) {
    if (fresh) memset(bias, 0, sizeof(int32_t) * MAX_NR);
  } else if (!fresh && !o->bias.rs) {
    /* the previous row's bias */
  } else if (o->bias.cs) {
    for (int64_t n = 0; n < nr; n++) bias[n] = paramI(&o->bias, gi, n0 + n);
  } else {
    int32_t v = paramI(&o->bias, gi, n0);
    for (int64_t n = 0; n < nr; n++) bias[n] = v;
  }
}

/* Row gi's m, or column n's (f32, as rowParams); false if not finite. */
static inline bool finiteM(const RtQOut *o, int64_t gi, int64_t n, float *m) {
  float v = paramF(&o->sa, gi, n) * paramF(&o->sb, gi, n);
  *m = v / paramF(&o->sy, gi, n);
  return isfinite(*m);
}

#ifdef RT_QREQ_TILE
/* Whether scale p's values (f32 bits) differ along its count rows (or
 * columns). */
static bool scaleVaries(const RtQParam *p, int64_t count, bool rows) {
  const int64_t step = rows ? p->rs : p->cs;
  const uint32_t *v = p->p;
  for (int64_t i = 1; step && i < count; i++)
    if (v[i * step] != v[0]) return true;
  return false;
}
#endif

/* The QFast of out's M x N result (NULL: the fast form does not apply, or
 * not this ISA): za (M, stride zas, plus zaShift) and rs, the row sums, of
 * a GEMM (NULL: the sums come corrected, as rtQFinishRow's); zb (N, stride
 * zbs, plus zbShift; NULL: 0). One allocation; free with rtFree. */
static QFast *qFastNew(const QIsa *isa, const RtQOut *o, int64_t M, int64_t N, const int32_t *za, int64_t zas,
                       int32_t zaShift, const int32_t *rs, const int32_t *zb, int64_t zbs, int32_t zbShift,
                       uint32_t K) {
#ifdef RT_QREQ_TILE
  /* a scale given per row (or column) whose values are all the same bits
   * gives m by column (or row) only: QLinearMatMul's sa and sy, per row
   * of a but usually per tensor */
  const bool mByColumn = scaleVaries(&o->sa, N, false) || scaleVaries(&o->sb, N, false) || scaleVaries(&o->sy, N, false);
  const bool mByRow = scaleVaries(&o->sa, M, true) || scaleVaries(&o->sb, M, true) || scaleVaries(&o->sy, M, true);
  if (isa != &kVnni || !o->y8 || (mByColumn && mByRow) || (o->hasBias && o->bias.rs && o->bias.cs)) return NULL;
  const uint32_t zb0 = zb ? (uint32_t)(zb[0] + zbShift) : 0, za0 = rs ? (uint32_t)(za[0] + zaShift) : 0;
  for (int64_t n = 1; zb && zbs && n < N; n++)
    if ((uint32_t)(zb[n * zbs] + zbShift) != zb0) return NULL;
  for (int64_t i = 1; rs && zas && i < M; i++)
    if ((uint32_t)(za[i * zas] + zaShift) != za0) return NULL;
  size_t rowBytes = (size_t)M * (4 + 4 + 4 + 8 + 8), bytes = sizeof(QFast) + rowBytes + (mByColumn ? (size_t)N * 4 : 0);
  QFast *f = rtAlloc(rtCurEnv(), bytes + 64);
  if (!f) rtError("out of memory for the requantization's parameters");
  f->lo = (double *)(f + 1), f->hi = f->lo + M;
  f->rowAdd = (int32_t *)(f->hi + M), f->zy = f->rowAdd + M;
  f->mRow = mByColumn ? NULL : (float *)(f->zy + M);
  f->mCol = mByColumn ? (float *)(f->zy + M) : NULL;
  f->za0 = za0, f->useCs = rs && za0, f->colBias = o->hasBias && o->bias.cs;
  QRow r = {0};
  r.relu = o->relu;
  rowBounds(&r, o);
  bool ok = true;
  for (int64_t i = 0; i < M && ok; i++) {
    if (!mByColumn) ok = finiteM(o, i, 0, &f->mRow[i]);
    uint32_t b = o->hasBias && !o->bias.cs ? (uint32_t)paramI(&o->bias, i, 0) : 0;
    f->rowAdd[i] = (int32_t)(b - zb0 * (rs ? (uint32_t)rs[i] : 0) + K * za0 * zb0);
    f->zy[i] = paramI(&o->zy, i, 0);
    r.zy = f->zy[i];
    f->lo[i] = rowFloor(&r) - f->zy[i], f->hi[i] = rowCeil(&r) - f->zy[i];
  }
  for (int64_t n = 0; mByColumn && n < N && ok; n++) ok = finiteM(o, 0, n, &f->mCol[n]);
  if (!ok) rtFree(rtCurEnv(), f);
  return ok ? f : NULL;
#else
  (void)isa, (void)o, (void)M, (void)N, (void)za, (void)zas, (void)zaShift, (void)rs, (void)zb, (void)zbs;
  (void)zbShift, (void)K;
  return NULL;
#endif
}

#ifdef RT_QREQ_TILE
/* The column term of f's corrections and bias over columns n0.. (nr <=
 * MAX_NR); cs: the columns' sums (GEMM), or NULL. */
static void qFastColAdd(int32_t *colAdd, const QFast *f, const RtQOut *o, int64_t n0, int64_t nr, const int32_t *cs) {
  for (int64_t n = 0; n < nr; n++)
    colAdd[n] = (int32_t)((f->colBias ? (uint32_t)paramI(&o->bias, 0, n0 + n) : 0) -
                          (f->useCs ? f->za0 * (uint32_t)cs[n] : 0));
}

/* The tile of rows i0.. (mr) x columns n0.. (nr) through f, sums c (row
 * stride ldc; NULL: in a kernel's registers). */
static RtQReqTile qFastTileOf(const QFast *f, const RtQOut *o, const int32_t *colAdd, const int32_t *c, int64_t ldc,
                              int64_t i0, int64_t n0, int64_t mr, int64_t nr) {
  return (RtQReqTile){c, ldc, mr, nr, f->rowAdd + i0, colAdd, f->zy + i0, f->mRow ? f->mRow + i0 : NULL,
                      f->mCol ? f->mCol + n0 : NULL, f->lo + i0, f->hi + i0, o->y8 + i0 * o->ldy + n0, o->ldy};
}
#endif

/* Rows i0.. (mr) x columns n0.. (nr <= MAX_NR) of sums c (row stride ldc)
 * through f; cs: the columns' sums (GEMM), or NULL. */
static void qFastTile(const QFast *f, const RtQOut *o, const int32_t *c, int64_t ldc, int64_t i0, int64_t n0,
                      int64_t mr, int64_t nr, const int32_t *cs) {
#ifdef RT_QREQ_TILE
  int32_t colAdd[MAX_NR];
  qFastColAdd(colAdd, f, o, n0, nr, cs);
  RtQReqTile t = qFastTileOf(f, o, colAdd, c, ldc, i0, n0, mr, nr);
  rtQRequantTile(&t);
#else
  (void)f, (void)o, (void)c, (void)ldc, (void)i0, (void)n0, (void)mr, (void)nr, (void)cs;
#endif
}

/* Tile c (mr x nr, row stride NR) at (i0, n0): the zero-point corrections,
 * then the i32 store or the requantization, a row at a time. */
static void finishTile(const QTask *t, const int32_t *c, int NR, int64_t i0, int64_t n0, int64_t mr, int64_t nr,
                       const int32_t *colSums) {
  const RtQOut *o = t->out;
  int32_t zb[MAX_NR], bias[MAX_NR];
  float m[MAX_NR];
  if (t->fast) {
    qFastTile(t->fast, o, c, NR, i0, n0, mr, nr, colSums);
    return;
  }
  for (int64_t n = 0; n < nr; n++) zb[n] = t->B->zp[(n0 + n) * t->B->zps] + t->zbShift;
  QRow r = {NULL, zb, colSums, bias, m, nr, 0, 0, (uint32_t)t->K, NULL, NULL, 0, 0, 0, o->relu, 0, 0};
  rowBounds(&r, o);
  bool mByColumn = o->sa.cs || o->sb.cs || o->sy.cs;
  for (int64_t i = 0; i < mr; i++) {
    int64_t gi = i0 + i;
    r.c = c + i * NR;
    r.za = (uint32_t)(t->A->zp[gi * t->A->zps] + t->zaShift), r.rs = (uint32_t)t->rowSums[gi];
    if (o->y32) {
      r.y32 = o->y32 + gi * o->ldy + n0;
      t->isa->finishRow(&r);
      continue;
    }
    r.y8 = o->y8 + gi * o->ldy + n0;
    r.zy = (double)paramI(&o->zy, gi, n0);
    rowParams(o, gi, n0, nr, i == 0, mByColumn, m, bias);
    t->isa->finishRow(&r);
  }
}

/* See qgemm.h. */
void rtQFinishBegin(RtQFinish *f, const RtQOut *out, int64_t rows, int64_t columns) {
  const QIsa *isa = qIsa();
  f->out = out, f->isa = isa;
  f->fast = qFastNew(isa, out, rows, columns, NULL, 0, 0, NULL, NULL, 0, 0, 0);
}

void rtQFinishEnd(RtQFinish *f) {
  if (f->fast) rtFree(rtCurEnv(), f->fast);
  f->fast = NULL;
}

void rtQFinishRow(const RtQFinish *f, int64_t gi, int64_t n0, int64_t n, const int32_t *acc) {
  static const int32_t zeros[MAX_NR];
  const RtQOut *o = f->out;
  const QIsa *isa = f->isa;
  int32_t bias[MAX_NR];
  float m[MAX_NR];
  bool mByColumn = o->sa.cs || o->sb.cs || o->sy.cs;
  for (int64_t c0 = 0; c0 < n; c0 += MAX_NR) {
    int64_t nr = min64(MAX_NR, n - c0);
    if (f->fast) {
      qFastTile(f->fast, o, acc + c0, 0, gi, n0 + c0, 1, nr, NULL);
      continue;
    }
    QRow r = {acc + c0, zeros, zeros, bias, m, nr, 0, 0, 0, NULL, NULL, 0, 0, 0, o->relu, 0, 0};
    rowBounds(&r, o);
    if (o->y32) {
      r.y32 = o->y32 + gi * o->ldy + n0 + c0;
    } else {
      r.y8 = o->y8 + gi * o->ldy + n0 + c0;
      r.zy = (double)paramI(&o->zy, gi, n0 + c0);
      /* m and the bias vary along the row only by column: once otherwise */
      if (c0 == 0 || mByColumn || (o->hasBias && o->bias.cs)) rowParams(o, gi, n0 + c0, nr, true, mByColumn, m, bias);
    }
    isa->finishRow(&r);
  }
}

int rtQIsaLevel(void) {
  const QIsa *isa = qIsa();
  return isa->packConv ? 2 : isa->name[0] == 'a' ? 1 : 0;
}

static void qTask(void *ctx, int64_t begin, int64_t end) {
  const QTask *t = ctx;
  const int MR = t->isa->mr, NR = t->isa->nr;
  const int64_t KQ = (t->K + 3) / 4;
  int32_t tile[MAX_MR * MAX_NR], colSums[MAX_NR];
  uint8_t *panel = NULL;
  if (!t->bpWhole) {
    panel = (uint8_t *)rtScratch(0, (size_t)(KQ * NR));
    if (!panel) rtError("out of memory for integer GEMM packing buffers");
  }
  for (int64_t p = begin; p < end; p++) {
    int64_t n0 = p * NR, nr = min64(NR, t->N - n0);
    const uint8_t *bp;
    const int32_t *cs;
    if (t->bpWhole) {
      bp = t->bpWhole + n0 * KQ * 4, cs = t->colSumsWhole + n0;
    } else {
      const uint8_t flip = t->cn.flipB ? 0x80 : 0;
      if (!t->B->conv || !t->isa->packConv || !t->isa->packConv(panel, colSums, t->B->conv, t->K, n0, nr, flip, !t->cn.aU))
        packBPanel(panel, colSums, t->B, t->K, n0, nr, NR, flip, !t->cn.aU);
      bp = panel, cs = colSums;
    }
#ifdef RT_QREQ_TILE
    if (t->fast && t->isa->kernelReq) { /* requantized in the kernel's registers */
      int32_t colAdd[MAX_NR];
      qFastColAdd(colAdd, t->fast, t->out, n0, nr, cs);
      for (int64_t i0 = 0; i0 < t->M; i0 += MR) {
        RtQReqTile rq = qFastTileOf(t->fast, t->out, colAdd, NULL, 0, i0, n0, min64(MR, t->M - i0), nr);
        t->isa->kernelReq(KQ, t->ap + i0 * KQ * 4, bp, t->cn.aU, &rq);
      }
      continue;
    }
#endif
    for (int64_t i0 = 0; i0 < t->M; i0 += MR) {
      t->isa->kernel(KQ, t->ap + i0 * KQ * 4, bp, tile, t->cn.aU);
      finishTile(t, tile, NR, i0, n0, min64(MR, t->M - i0), nr, cs);
    }
  }
}

#ifdef RT_QREQ_TILE
/* A convolution of s8 weights with zero points 0 and a u8 image on VNNI,
 * requantized by the fast form with m by row: qconv.c's implicit GEMM
 * (no im2col panels). False: not such a convolution. */
static bool qConvImplicit(const QIsa *isa, int64_t M, int64_t N, int64_t K, const RtQOperand *A,
                          const RtQOperand *B, const RtQOut *out, bool parallel) {
  if (isa != &kVnni || !B->conv || A->isUnsigned || !B->isUnsigned || !out->y8 || !rtQConvImplicitFits(B->conv) ||
      K != B->conv->C * B->conv->KH * B->conv->KW)
    return false;
  for (int64_t i = 0; i < M; i++)
    if (A->zp[i * A->zps]) return false;
  const int32_t *rs;
  const uint8_t *ap = rtQConvPackWeights(A, M, B->conv, &rs);
  QFast *fast = qFastNew(isa, out, M, N, A->zp, A->zps, 0, rs, B->zp, B->zps, 0, (uint32_t)K);
  bool ok = fast && !fast->useCs && !fast->colBias && fast->mRow;
  if (ok) rtQConvImplicit(M, ap, B->conv, fast, out, parallel);
  if (fast) rtFree(rtCurEnv(), fast);
  return ok;
}
#endif

void rtQGemm(int64_t M, int64_t N, int64_t K, const RtQOperand *A, const RtQOperand *B, const RtQOut *out,
             bool parallel) {
  if (M <= 0 || N <= 0) return;
  const QIsa *isa = qIsa();
#ifdef RT_QREQ_TILE
  if (qConvImplicit(isa, M, N, K, A, B, out, parallel)) return;
#endif
  QTask t = {M, N, K, isa, canonical(A, B), A, B, out, NULL, NULL, NULL, NULL, 0, 0, NULL};
  t.zaShift = t.cn.flipA ? 128 : 0;
  t.zbShift = t.cn.flipB ? -128 : 0;
  char isaKey = isa->name[0];
  t.ap = packed(A, false, M, K, isa->mr, t.cn.flipA ? 0x80 : 0, t.cn.aU, &t.rowSums, isaKey);
  if (B->constant && !B->conv) {
    /* packed as NR-column panels (packWhole's B form), columns as rows */
    t.bpWhole = packed(B, true, N, K, isa->nr, t.cn.flipB ? 0x80 : 0, !t.cn.aU, &t.colSumsWhole, isaKey);
  }
  QFast *fast = qFastNew(isa, out, M, N, A->zp, A->zps, t.zaShift, t.rowSums, B->zp, B->zps, t.zbShift, (uint32_t)K);
  t.fast = fast;
  int64_t panels = (N + isa->nr - 1) / isa->nr;
  if (parallel) rtParallelFor(panels, qTask, &t);
  else qTask(&t, 0, panels);
  if (fast) rtFree(rtCurEnv(), fast);
}
