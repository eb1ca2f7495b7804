/* strata_rt_qlookup2_q8 (kernel_abi.def): y[i] = table[(a[i] ^ sa) * 256 +
 * (b[i] ^ sb)], the residual Add of two quantized tensors as
 * nn-qdq-to-qlinear writes it (transforms/quant/qdq_add.c: the table holds
 * the float chain's value at each pair of 8-bit inputs). On AVX-512 16
 * elements a step: the two byte vectors widened to 32-bit indices and one
 * vpgatherdd of the 32 bits at each entry (the table has 3 bytes past its
 * last entry), narrowed to the low bytes; elsewhere a byte loop. Threaded
 * over blocks of elements. */
#include <string.h>
#include "kernels.h"
#include "rt_internal.h"
#if defined(__x86_64__)
#include <immintrin.h>
#endif

enum { BLOCK = 4096, TABLE = 65536 + 3 };

typedef struct {
  const uint8_t *a, *b, *t;
  uint8_t *y;
  int64_t n;
  uint8_t sa, sb;
  bool wide;
} Lookup;

static void lookupBytes(const Lookup *l, int64_t i, int64_t end) {
  /* locals: a byte store may alias *l */
  const uint8_t *restrict a = l->a, *restrict b = l->b, *restrict t = l->t;
  uint8_t *restrict y = l->y;
  const unsigned sa = l->sa, sb = l->sb;
  for (; i + 8 <= end; i += 8) { /* eight loads, then one store (a byte store per entry stalled the loads) */
    uint64_t w = 0;
    for (int k = 0; k < 8; k++) w |= (uint64_t)t[(size_t)(a[i + k] ^ sa) << 8 | (size_t)(b[i + k] ^ sb)] << (8 * k);
    for (int k = 0; k < 8; k++) y[i + k] = (uint8_t)(w >> (8 * k));
  }
  for (; i < end; i++) y[i] = t[(size_t)(a[i] ^ sa) << 8 | (size_t)(b[i] ^ sb)];
}

#if defined(__x86_64__)
#define QL_TARGET __attribute__((target("avx512f,avx512bw,avx512vl")))
QL_TARGET static void lookupAvx512(const Lookup *l, int64_t i, int64_t end) {
  const __m128i sa = _mm_set1_epi8((char)l->sa), sb = _mm_set1_epi8((char)l->sb);
  for (; i + 16 <= end; i += 16) {
    __m128i a = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(l->a + i)), sa);
    __m128i b = _mm_xor_si128(_mm_loadu_si128((const __m128i *)(l->b + i)), sb);
    __m512i idx = _mm512_or_si512(_mm512_slli_epi32(_mm512_cvtepu8_epi32(a), 8), _mm512_cvtepu8_epi32(b));
    __m512i v = _mm512_i32gather_epi32(idx, (const void *)l->t, 1);
    _mm_storeu_si128((__m128i *)(l->y + i), _mm512_cvtepi32_epi8(v));
  }
  lookupBytes(l, i, end);
}
#endif

static void lookupTask(void *ctx, int64_t begin, int64_t end) {
  const Lookup *l = ctx;
  int64_t lo = begin * BLOCK, hi = end * BLOCK < l->n ? end * BLOCK : l->n;
#if defined(__x86_64__)
  if (l->wide) {
    lookupAvx512(l, lo, hi);
    return;
  }
#endif
  lookupBytes(l, lo, hi);
}

static int64_t numel(const StrataUnrankedMemRef *m) {
  View v = rtView(m);
  int64_t n = 1;
  for (int d = 0; d < v.rank; d++) n *= v.size[d];
  return n;
}

static uint8_t *bytes(const StrataUnrankedMemRef *m) {
  const StrataMemRefDesc *d = m->descriptor;
  return (uint8_t *)d->aligned + d->offset;
}

void _mlir_ciface_strata_rt_qlookup2_q8(StrataUnrankedMemRef *a, StrataUnrankedMemRef *b, StrataUnrankedMemRef *table,
                                        StrataUnrankedMemRef *y, int64_t flags) {
  rtScratchKernelStart();
  Lookup l = {bytes(a), bytes(b), bytes(table), bytes(y), numel(y), flags & 1 ? 0x80 : 0, flags & 2 ? 0x80 : 0, false};
  if (numel(a) != l.n || numel(b) != l.n || numel(table) < TABLE)
    rtInvariant("qlookup2: a, b and y must have one element count and the table 65539 entries");
#if defined(__x86_64__)
  l.wide = strcmp(strataRtIsaName(), "avx512") == 0 && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vl");
#endif
  int64_t blocks = (l.n + BLOCK - 1) / BLOCK;
  if (blocks > 1 && !rtInParallelRegion()) rtParallelFor(blocks, lookupTask, &l);
  else lookupTask(&l, 0, blocks);
}
