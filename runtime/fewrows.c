/* libstrata_rt GEMM of a few rows (at most RT_FEW_ROWS): what the version
 * of a matmul for a small row count calls (nn-multiversion,
 * docs/dynamic-shapes.md). The blocked GEMM packs its operands for an MR x
 * NR microkernel; at M below MR the tile's rows are mostly padding, so a
 * product of 2-8 rows costs as much as one of MR (or more: M = 7 under
 * AVX2's MR = 6 is two tiles). Here a strip of 2 vectors of columns keeps
 * M x 2 accumulators in registers for exactly the M rows, reading B once,
 * unpacked, row by row (unit column stride), and A's M values per k as
 * broadcasts. M is a compile-time constant of each instance (a switch), so
 * the accumulators stay in registers. The columns past the last full strip
 * take a scalar loop. */
#include "rt_internal.h"

#define RT_F_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define RT_F_UNROLL RT_F_PRAGMA(clang loop unroll(full))
#else
#define RT_F_UNROLL RT_F_PRAGMA(GCC unroll 8)
#endif
#define RT_F_INLINE static inline __attribute__((always_inline))

#define RT_DEFINE_FEW_ROWS(NAME, TARGET, VW)                                                         \
  typedef float NAME##_fv __attribute__((vector_size((VW) * 4)));                                   \
  typedef float NAME##_fu __attribute__((vector_size((VW) * 4), aligned(4)));                       \
  TARGET RT_F_INLINE void NAME##_fewStrips(const int M, int64_t n, int64_t K, const float *a,        \
                                           int64_t ars, int64_t acs, const float *b, int64_t brs,    \
                                           float *c, int64_t ldc) {                                  \
    int64_t j = 0;                                                                                   \
    for (; j + 2 * (VW) <= n; j += 2 * (VW)) {                                                       \
      NAME##_fv acc[RT_FEW_ROWS][2];                                                                 \
      RT_F_UNROLL for (int i = 0; i < M; i++) acc[i][0] = acc[i][1] = (NAME##_fv){0};               \
      for (int64_t k = 0; k < K; k++) {                                                              \
        NAME##_fv b0 = *(const NAME##_fu *)(b + k * brs + j);                                        \
        NAME##_fv b1 = *(const NAME##_fu *)(b + k * brs + j + (VW));                                 \
        RT_F_UNROLL for (int i = 0; i < M; i++) {                                                    \
          float s = a[i * ars + k * acs];                                                            \
          acc[i][0] += s * b0;                                                                       \
          acc[i][1] += s * b1;                                                                       \
        }                                                                                            \
      }                                                                                              \
      RT_F_UNROLL for (int i = 0; i < M; i++) {                                                      \
        *(NAME##_fu *)(c + i * ldc + j) = acc[i][0];                                                 \
        *(NAME##_fu *)(c + i * ldc + j + (VW)) = acc[i][1];                                          \
      }                                                                                              \
    }                                                                                                \
    for (; j < n; j++)                                                                               \
      for (int i = 0; i < M; i++) {                                                                  \
        float s = 0.0f;                                                                              \
        for (int64_t k = 0; k < K; k++) s += a[i * ars + k * acs] * b[k * brs + j];                  \
        c[i * ldc + j] = s;                                                                          \
      }                                                                                              \
  }                                                                                                  \
  TARGET void NAME##_fewRows(int64_t m, int64_t n, int64_t K, const float *a, int64_t ars,           \
                             int64_t acs, const float *b, int64_t brs, float *c, int64_t ldc) {      \
    switch (m) {                                                                                     \
    case 1: NAME##_fewStrips(1, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    case 2: NAME##_fewStrips(2, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    case 3: NAME##_fewStrips(3, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    case 4: NAME##_fewStrips(4, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    case 5: NAME##_fewStrips(5, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    case 6: NAME##_fewStrips(6, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    case 7: NAME##_fewStrips(7, n, K, a, ars, acs, b, brs, c, ldc); break;                           \
    default: NAME##_fewStrips(8, n, K, a, ars, acs, b, brs, c, ldc); break;                          \
    }                                                                                                \
  }

RT_DEFINE_FEW_ROWS(generic, , 4)
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
RT_DEFINE_FEW_ROWS(avx2, __attribute__((target("avx2,fma"))), 8)
RT_DEFINE_FEW_ROWS(avx512, __attribute__((target("avx512f,avx2,fma"))), 16)
#endif
