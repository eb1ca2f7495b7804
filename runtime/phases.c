/* The zero-padded, phase-split copy of an input plane that the per-plane
 * depthwise kernel and the grouped direct kernel read (rt_internal.h,
 * rtFillPhasePlane): padded row r (from the band's first padded row r0)
 * and column q sit at ((r % sh * sw + q % sw) * Hq + r / sh) * Wq + q / sw,
 * so that for any strides every tap of a window is one contiguous run over
 * the outputs, laid out on a Wq-wide grid. */
#include <stdbool.h>
#include "rt_internal.h"

/* Copies and zero fills of a row's runs, inline: the runs are a few to a
 * few dozen floats (a 7x7 or 14x14 map's rows, their one-column pads), and
 * a memcpy or memset call per run cost more than the copying (a grouped
 * 3x3 layer at 7x7 fills 25 groups x 16 channels x 9 rows). */
typedef float rtPhV8 __attribute__((vector_size(32), aligned(4)));
typedef float rtPhV4 __attribute__((vector_size(16), aligned(4)));

/* d made opaque in the loops: GCC would turn them back into the library
 * calls (a memcpy of 32 bytes for a 14-float row). */
#if defined(__GNUC__) || defined(__clang__)
#define RT_PH_OPAQUE(p) __asm__("" : "+r"(p))
#else
#define RT_PH_OPAQUE(p) (void)0
#endif

static inline void copyRun(float *restrict d, const float *restrict x, int64_t n) {
  for (; n >= 8; n -= 8, d += 8, x += 8) {
    RT_PH_OPAQUE(d);
    *(rtPhV8 *)d = *(const rtPhV8 *)x;
  }
  if (n & 4) *(rtPhV4 *)d = *(const rtPhV4 *)x, d += 4, x += 4;
  if (n & 2) d[0] = x[0], d[1] = x[1], d += 2, x += 2;
  if (n & 1) d[0] = x[0];
}

static inline void zeroRun(float *d, int64_t n) {
  for (; n >= 8; n -= 8, d += 8) {
    RT_PH_OPAQUE(d);
    *(rtPhV8 *)d = (rtPhV8){0};
  }
  if (n & 4) *(rtPhV4 *)d = (rtPhV4){0}, d += 4;
  if (n & 2) d[0] = 0.0f, d[1] = 0.0f, d += 2;
  if (n & 1) d[0] = 0.0f;
}

/* The input columns of column phase p: t in [lo, hi] reads input column
 * t * s + p - pw, inside [0, W); lo = hi + 1 when none. */
typedef struct {
  int64_t lo, hi;
} PhaseRun;

static PhaseRun phaseRun(int64_t p, int64_t pw, int64_t s, int64_t W, int64_t Wq) {
  int64_t lo = pw - p <= 0 ? 0 : (pw - p + s - 1) / s;
  int64_t hi = W - 1 + pw - p < 0 ? -1 : (W - 1 + pw - p) / s;
  if (hi > Wq - 1) hi = Wq - 1;
  if (lo > hi + 1) lo = hi + 1;
  return (PhaseRun){lo, hi};
}

/* One padded row's column phase: zeros, the input columns, zeros. */
static inline void fillPhase(float *d, const float *src, int64_t ws, int64_t pw, int64_t s, int64_t p,
                             PhaseRun run, int64_t Wq) {
  int64_t lo = run.lo, hi = run.hi;
  zeroRun(d, lo);
  const float *x = src + (lo * s + p - pw) * ws;
  if (s == 1 && ws == 1) copyRun(d + lo, x, hi + 1 - lo);
  else if (s == 2 && ws == 1) /* a constant stride the compiler vectorizes */
    for (int64_t t = 0; t <= hi - lo; t++) d[lo + t] = x[2 * t];
  else
    for (int64_t t = lo; t <= hi; t++, x += s * ws) d[t] = *x;
  zeroRun(d + hi + 1, Wq - hi - 1);
}

void rtFillPhasePlane(float *pad, const RtPhasePlane *pp, const float *x, int64_t r0) {
  int64_t sh = pp->sh, s = pp->sw, Hq = pp->Hq, Wq = pp->Wq;
  /* the phases' column runs are the same on every row: worked out once
   * (up to 8 phases; wider strides per row) */
  enum { PRECOMPUTED = 8 };
  PhaseRun runs[PRECOMPUTED];
  for (int64_t p = 0; p < s && p < PRECOMPUTED; p++) runs[p] = phaseRun(p, pp->pw, s, pp->W, Wq);
  for (int64_t rp = 0; rp < sh; rp++) /* row phase rp, its rows r = rq * sh + rp */
    for (int64_t rq = 0; rq < Hq; rq++) {
      int64_t r = rq * sh + rp, ih = r0 + r - pp->ph;
      float *dst = pad + (rp * s * Hq + rq) * Wq;
      bool zero = ih < 0 || ih >= pp->H || r >= pp->Hp;
      for (int64_t p = 0; p < s; p++) {
        float *d = dst + p * Hq * Wq;
        if (zero) zeroRun(d, Wq);
        else fillPhase(d, x + ih * pp->hs, pp->ws, pp->pw, s, p,
                       p < PRECOMPUTED ? runs[p] : phaseRun(p, pp->pw, s, pp->W, Wq), Wq);
      }
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
