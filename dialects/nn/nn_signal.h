/* The signal ops' shared parameters (ops_signal.c), for their interpreter
 * kernels and lowerings (not public API). */
#ifndef STRATA_NN_SIGNAL_H
#define STRATA_NN_SIGNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/dialect.h"

/* pi (C11's math.h has no M_PI). */
#define NN_PI 3.14159265358979323846

/* ---- Windows: a0 - a1 cos(2 pi n / N) + a2 cos(4 pi n / N), N = size
 * (periodic) or size - 1 (symmetric) ---- */
typedef enum { NN_WINDOW_HANN, NN_WINDOW_HAMMING, NN_WINDOW_BLACKMAN } NnWindowKind;
/* Which window op `op` is; false for any other op. */
bool nnWindowKind(MlirOperation op, NnWindowKind *kind);
/* The `periodic` attribute (default 1), checked; false after an error. */
bool nnWindowPeriodic(MlirOperation op, bool *periodic);
void nnWindowCoefficients(NnWindowKind kind, double *a0, double *a1, double *a2);

/* ---- DFT ---- */
typedef struct {
  int64_t axis; /* normalized to [0, rank - 2] */
  bool inverse, onesided;
} NnDft;
/* nn.dft's attributes for an input of rank `rank`, checked; false after an error. */
bool nnDftParams(MlirOperation op, int rank, NnDft *p);
/* The first `bins` bins of the length-`length` DFT (inverse: e^{+i...} and
 * 1/length) of the m (<= length; the rest are zeros) values re + i im. */
void nnDftLine(const double *re, const double *im, int64_t m, int64_t length, int64_t bins, bool inverse,
               double *outRe, double *outIm);

/* ---- STFT ---- */
/* nn.stft's definition (its optional operands are found by name). */
const StrataOpDef *nnStftDef(void);
/* (signalLength - frameLength) / step + 1 frames; false after an error
 * (step not positive, or a frame longer than the signal). */
bool nnStftFrames(MlirOperation op, int64_t signalLength, int64_t frameLength, int64_t step, int64_t *frames);

/* ---- MelWeightMatrix ---- */
typedef struct {
  int64_t bins, dftLength, sampleRate;
  double lowHz, highHz;
} NnMel;
/* Edge t (0..bins+1) as a spectrogram bin, and the weight at bin j of the
 * band with edges l, c, h (ONNX's reference: the rising edge, then the
 * falling edge written over it). */
int64_t nnMelEdge(int64_t t, const NnMel *m);
double nnMelWeight(int64_t j, int64_t l, int64_t c, int64_t h);
/* The operands' conditions, and the bands inside the dft_length/2+1 rows;
 * false after an error. */
bool nnMelCheck(MlirOperation op, const NnMel *m);

#endif /* STRATA_NN_SIGNAL_H */
