/* nn-qdq-to-qlinear's activations in the quantized domain (qdq_clamp.c):
 * a Relu or Clip that a QuantizeLinear quantizes becomes an integer clamp
 * of the quantized tensor, where that is exactly the float graph's value.
 * Not public API. */
#ifndef STRATA_TRANSFORMS_QDQ_CLAMP_H
#define STRATA_TRANSFORMS_QDQ_CLAMP_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "strata/pattern.h"

/* The bounds of a Clip or Relu `act` (f32; Relu: [0, inf]) as the f32
 * values it compares with; false if it is neither, or a bound is NaN or
 * has no f32 value (finite beyond FLT_MAX). */
bool strataQdqActivationBounds(MlirOperation act, float *lo, float *hi);

/* QuantizeLinear of the f32 value v, per tensor with scale s and zero
 * point z, to u8 or i8, as the interpreter computes it (v / s in f64) and
 * as the compiled code does (v / s in f32): false if the two differ or
 * s is not a positive finite number. */
bool strataQdqQuantizeValue(float v, float s, int32_t z, bool u8, int32_t *q);

/* A per-tensor QuantizeLinear or DequantizeLinear (`name`) with constant
 * f32 scale and zero point and an 8-bit quantized side (and f32 the
 * other): its scale, zero point and whether the 8-bit type is u8. */
bool strataQdqPerTensor(MlirOperation op, const char *name, float *s, int32_t *z, bool *u8);

/* The integer clamp of the QuantizeLinear q (per tensor, constant scale
 * and zero point) of a Clip whose bounds are [lo, hi]: [qlo, qhi] with
 * Q(clip(v, lo, hi)) = min(max(Q(v), qlo), qhi) for every v (Q is
 * monotone); false where it is not exact (see strataQdqQuantizeValue). */
bool strataQdqClampBounds(MlirOperation q, float lo, float hi, int32_t *qlo, int32_t *qhi);

/* An integer nn.clip of x (an 8-bit tensor) to [lo, hi], before the
 * builder's insertion point; x itself if [lo, hi] covers x's range. */
MlirValue strataQdqBuildClamp(StrataBuilder *b, MlirLocation loc, MlirValue x, int32_t lo, int32_t hi);

/* The pattern on nn.quantize_linear: Q(Clip or Relu(DQ(x))) with DQ and Q
 * per tensor on x's 8-bit type becomes nn.clip(x) (or x), when the float
 * chain, evaluated at every value of x in both arithmetics, is a clamp. */
MlirLogicalResult strataQdqClampRewrite(StrataRewrite *rw, MlirOperation q, void *user);

/* The pattern on nn.quantize_linear (qdq_add.c): Q(Add(DQ(a), DQ(b))),
 * optionally with a Relu or Clip before Q, all per tensor on 8-bit a, b,
 * becomes a lookup of a 65536-entry table of the chain's values at every
 * (a, b), computed here in the interpreter's arithmetic. */
MlirLogicalResult strataQdqAddRewrite(StrataRewrite *rw, MlirOperation q, void *user);

#endif /* STRATA_TRANSFORMS_QDQ_CLAMP_H */
