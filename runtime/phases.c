/* The zero-padded, phase-split copy of an input plane that the per-plane
 * depthwise kernel and the grouped direct kernel read (rt_internal.h,
 * rtFillPhasePlane): padded row r (from the band's first padded row r0)
 * and column q sit at ((r % sh * sw + q % sw) * Hq + r / sh) * Wq + q / sw,
 * so that for any strides every tap of a window is one contiguous run over
 * the outputs, laid out on a Wq-wide grid. */
#include <string.h>
#include "rt_internal.h"

/* One padded row's sw column phases from an input row. */
static void fillPhases(float *dst, int64_t phaseStride, const float *src, int64_t ws, int64_t W,
                       int64_t pw, int64_t s, int64_t Wq) {
  for (int64_t p = 0; p < s; p++) {
    float *d = dst + p * phaseStride;
    /* t with 0 <= t * s + p - pw < W */
    int64_t lo = pw - p <= 0 ? 0 : (pw - p + s - 1) / s;
    int64_t hi = W - 1 + pw - p < 0 ? -1 : (W - 1 + pw - p) / s;
    if (hi > Wq - 1) hi = Wq - 1;
    if (lo > hi + 1) lo = hi + 1;
    memset(d, 0, sizeof(float) * (size_t)lo);
    const float *x = src + (lo * s + p - pw) * ws;
    if (s == 1 && ws == 1) memcpy(d + lo, x, sizeof(float) * (size_t)(hi + 1 - lo));
    else if (s == 2 && ws == 1) /* a constant stride the compiler vectorizes */
      for (int64_t t = 0; t <= hi - lo; t++) d[lo + t] = x[2 * t];
    else
      for (int64_t t = lo; t <= hi; t++, x += s * ws) d[t] = *x;
    memset(d + hi + 1, 0, sizeof(float) * (size_t)(Wq - hi - 1));
  }
}

void rtFillPhasePlane(float *pad, const RtPhasePlane *pp, const float *x, int64_t r0) {
  int64_t sh = pp->sh, s = pp->sw, Hq = pp->Hq, Wq = pp->Wq;
  for (int64_t r = 0; r < Hq * sh; r++) {
    float *dst = pad + ((r % sh) * s * Hq + r / sh) * Wq;
    int64_t ih = r0 + r - pp->ph;
    if (ih < 0 || ih >= pp->H || r >= pp->Hp)
      for (int64_t p = 0; p < s; p++) memset(dst + p * Hq * Wq, 0, sizeof(float) * (size_t)Wq);
    else fillPhases(dst, Hq * Wq, x + ih * pp->hs, pp->ws, pp->W, pp->pw, s, Wq);
  }
}

RtPhasePlane rtPhasePlaneOf(const RtConvGeom *g, int64_t rows) {
  RtPhasePlane pp;
  pp.H = g->H, pp.W = g->W, pp.hs = g->hs, pp.ws = g->ws;
  pp.sh = g->sh, pp.sw = g->sw, pp.ph = g->ph, pp.pw = g->pw;
  /* padded extent the windows of `rows` output rows read */
  pp.Hp = (rows - 1) * g->sh + (g->KH - 1) * g->dh + 1;
  int64_t Wp = (g->OW - 1) * g->sw + (g->KW - 1) * g->dw + 1;
  pp.Hq = (pp.Hp + g->sh - 1) / g->sh, pp.Wq = (Wp + g->sw - 1) / g->sw;
  pp.size = g->sh * g->sw * pp.Hq * pp.Wq;
  return pp;
}

int64_t rtPhaseTapOffset(const RtPhasePlane *pp, int64_t r0, int64_t q0) {
  return ((r0 % pp->sh * pp->sw + q0 % pp->sw) * pp->Hq + r0 / pp->sh) * pp->Wq + q0 / pp->sw;
}
