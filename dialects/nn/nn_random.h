/* Strata's counter-based random generator, shared by the interpreter
 * kernels (dialects/nn/ops_random.c) and the lowering
 * (conversions/nn-to-linalg/lower_random.c), which emits the same steps in
 * arith ops: both produce the same bits for the same seed, run to run and
 * target to target (docs/onnx.md, "Random operators").
 *
 * A random op's `seed` (an i64) keys a stream of 64-bit words; element k of
 * the result (its row-major index) uses word k alone, so no element depends
 * on how the others are computed (loops may be tiled, reordered, split):
 *   mix(z)  = splitmix64's finalizer: z ^= z >> 30; z *= M1; z ^= z >> 27;
 *             z *= M2; z ^= z >> 31 (all mod 2^64)
 *   key     = mix(seed)
 *   word(k) = mix(key + (k + 1) * GAMMA)
 * From a word:
 *   unit(w)   = (w >> 11) * 2^-53, uniform in [0, 1) (53 bits)
 *   normal(w) = sqrt(-2 ln u1) cos(2 pi u2) (Box-Muller's cosine branch) with
 *               u1 = ((w >> 32) + 1) * 2^-32 in (0, 1] and u2 = (w & (2^32-1))
 *               * 2^-32 in [0, 1), in f64 through libm's log and cos (the
 *               compiled code calls the same libm).
 * Values are computed in f64 and rounded to the result type as the host
 * tensors convert (f16 once; bf16 through f32). */
#ifndef STRATA_NN_RANDOM_H
#define STRATA_NN_RANDOM_H

#include <math.h>
#include <stdint.h>

#define NN_RANDOM_GAMMA 0x9E3779B97F4A7C15ull
#define NN_RANDOM_M1 0xBF58476D1CE4E5B9ull
#define NN_RANDOM_M2 0x94D049BB133111EBull
#define NN_RANDOM_TWO_PI 6.283185307179586

static inline uint64_t nnRandomMix(uint64_t z) {
  z = (z ^ (z >> 30)) * NN_RANDOM_M1;
  z = (z ^ (z >> 27)) * NN_RANDOM_M2;
  return z ^ (z >> 31);
}

static inline uint64_t nnRandomWord(uint64_t key, uint64_t k) { return nnRandomMix(key + (k + 1) * NN_RANDOM_GAMMA); }

static inline double nnRandomUnit(uint64_t w) { return (double)(w >> 11) * 0x1p-53; }

static inline double nnRandomNormal(uint64_t w) {
  double u1 = (double)((w >> 32) + 1) * 0x1p-32, u2 = (double)(w & 0xffffffffu) * 0x1p-32;
  double r = sqrt(-2.0 * log(u1));
  double c = cos(u2 * NN_RANDOM_TWO_PI);
  return r * c;
}

#endif
