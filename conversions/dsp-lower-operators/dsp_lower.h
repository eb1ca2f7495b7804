/* --dsp-lower-operators' pattern sets (conversions/dsp-lower-operators/). */
#ifndef STRATA_DSP_LOWER_H
#define STRATA_DSP_LOWER_H

#include "strata/builder.h"
#include "strata/pattern.h"

/* dsp.flip_sign, dsp.im2col, dsp.qrequant and dsp.qsum as linalg.generic
 * nests of integer arith, bit for bit their interpreter kernels
 * (dsp_lower_quant.c). */
void dspLowerQuantPatterns(StrataPatternSet *set);

/* A (M x K, ui8, row-major) packed into its 4-column layout: a tensor
 * <P x G x 128 x i8> (signless, the bytes), P = ceil(M/32) panels of G = ceil(K/4) groups, byte
 * 4r + j of group (p, g) = A(32p + r, 4g + j), 0 beyond M and K; so that a
 * group is one contiguous 128-byte load. A linalg.generic. */
MlirValue dspPackCol4(StrataBuilder *b, MlirLocation loc, MlirValue A, int64_t M, int64_t K);

#endif
