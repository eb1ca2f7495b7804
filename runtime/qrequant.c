/* The integer kernels' requantization in its fast form (qgemm.h's
 * RtQReqTile), AVX-512: what rtQGemm's tiles and rtQFinishRow's rows run on
 * the VNNI path when the zero-point corrections reduce to one term per row
 * and one per column and m is finite. Bit for bit the reference's
 * arithmetic (dialects/nn/ops_qlinear.c):
 *   q = min(max(roundeven((double)v * (double)m) + zy, floor), ceil)
 * computed as roundeven(min(max(p, floor - zy), ceil - zy)) + zy with p the
 * same f64 product: rounding is monotone and leaves the integer bounds
 * fixed, so clamping before it changes nothing (floor > ceil gives ceil
 * both ways), and the clamped, rounded p converts to i32 exactly. A finite m keeps p finite (|v| <
 * 2^31), so there is no NaN to map to 0. */
#include "qgemm.h"

#ifdef RT_QREQ_TILE
#include "qrequant.h"

RT_QREQ_TARGET void rtQRequantTile(const RtQReqTile *t) {
  RtQReqCols cl;
  rtQReqColsInit(&cl, t);
  for (int64_t i = 0; i < t->mr; i++) {
    const int32_t *c = t->c + i * t->ldc;
    rtQReqRow(&cl, t, i, _mm512_maskz_loadu_epi32(cl.k0, c), _mm512_maskz_loadu_epi32(cl.k1, c + 16));
  }
}
#endif
