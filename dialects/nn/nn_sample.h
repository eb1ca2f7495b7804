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

#endif
