/* Sampling ops (ops_sample.c: GridSample, RoiAlign): the coordinate math
 * the interpreter uses and the lowering (conversions/nn-to-linalg/
 * lower_sample.c) mirrors in IR, op for op, so both agree. */
#ifndef STRATA_NN_SAMPLE_H
#define STRATA_NN_SAMPLE_H

#include "nn_internal.h"

/* ---- GridSample ---- */

enum { NN_GRID_NEAREST, NN_GRID_LINEAR, NN_GRID_CUBIC };
enum { NN_GRID_ZEROS, NN_GRID_BORDER, NN_GRID_REFLECTION };

typedef struct {
  int mode;    /* NN_GRID_*: nearest, (bi)linear, (bi)cubic */
  int padding; /* NN_GRID_ZEROS | BORDER | REFLECTION */
  bool align;  /* align_corners */
} NnGridSample;

/* Reads mode (opset 16 and 20 names), padding_mode and align_corners;
 * false after an error. */
bool nnGridSampleAttrs(MlirOperation op, NnGridSample *g);
/* Grid value v in [-1, 1] to a coordinate along a dim of `size` elements. */
double nnGridUnnormalize(const NnGridSample *g, double v, int64_t size);
/* Border clamps x into [0, size - 1]; reflection reflects it at the
 * borders (the pixel centers with align_corners, else their edges) until
 * it is inside, then clamps; zeros leaves it. NaN stays NaN. */
double nnGridPad(const NnGridSample *g, double x, int64_t size);

/* ---- RoiAlign ---- */

typedef struct {
  bool max;       /* mode max (else avg) */
  bool halfPixel; /* coordinate_transformation_mode half_pixel (else output_half_pixel) */
  int64_t outH, outW, sampling;
  double scale; /* spatial_scale */
} NnRoiAlign;

bool nnRoiAlignAttrs(MlirOperation op, NnRoiAlign *r);

/* One roi's sampling geometry from its [x1, y1, x2, y2]: the start, bin
 * size and samples per bin along H ([0]) and W ([1]), and the divisor of
 * avg. Samples per bin are adaptive (ceil(roi extent / bins)) when
 * sampling_ratio is 0; never negative (0 for an empty or NaN roi). */
typedef struct {
  double start[2], bin[2], samples[2], count;
} NnRoiGeometry;
void nnRoiGeometry(const NnRoiAlign *r, const double box[4], NnRoiGeometry *g);

#endif
