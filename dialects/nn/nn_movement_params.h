/* Parameter readers of the data-movement ops and the resize coordinate
 * math (movement_params.c), shared by shape inference (ops_movement*.c),
 * the interpreter's source indices (nn_movement.h) and the lowering
 * (conversions/nn-to-linalg/lower_movement.c), so all three agree. */
#ifndef STRATA_NN_MOVEMENT_PARAMS_H
#define STRATA_NN_MOVEMENT_PARAMS_H

#include "nn_internal.h"

/* ---- Operands ---- */

/* The values of constant integer operand `name` in out[0..*n); false (with
 * *n < 0) when they are not known. */
bool nnConstOperand(const StrataOpDef *def, MlirOperation op, const char *name, int64_t *out, int max, int *n);
/* Operand `name` as a 1-D index tensor; false after an error. */
bool nnInt1DOperand(const StrataOpDef *def, MlirOperation op, const char *name, StrataShape *s);

/* ---- Reshape, Transpose, Split, Slice (false after an error) ---- */

bool nnReshapeDims(MlirOperation op, const int64_t *in, int rank, const int64_t *shape, int n,
                   bool allowZero, int64_t *out);
bool nnTransposePerm(MlirOperation op, int rank, int64_t *perm);
/* Split sizes from the `split` attribute or operand (`value`: its run-time
 * value in the interpreter), else even chunks; all -1 when the operand is
 * a run-time value. */
bool nnSplitSizes(MlirOperation op, const StrataTensor *value, int64_t dim, int outputs, int64_t *sizes);
void nnSliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t *first, int64_t *count);
bool nnSliceParams(const StrataOpDef *def, MlirOperation op, const int64_t *dims, int rank,
                   int64_t *first, int64_t *step, int64_t *count);

/* ---- Resize ---- */

typedef struct {
  char mode[16];    /* nearest | linear | cubic */
  char coord[32];   /* coordinate_transformation_mode */
  char nearest[24]; /* nearest_mode */
  double cubicA;    /* cubic_coeff_a */
  bool exclude;     /* exclude_outside: cubic taps outside the input get no weight */
  double extrapolation; /* extrapolation_value (tf_crop_and_resize) */
} NnResize;

bool nnResizeAttrs(MlirOperation op, NnResize *r);
/* Input coordinate of output index `o` along a dim of lengths in -> out.
 * `roi` is this dim's (start, end) for tf_crop_and_resize, else unused. */
double nnResizeCoord(const NnResize *r, int64_t o, int64_t in, int64_t out, double scale, const double *roi);
/* True when coordinate x lies outside the input of tf_crop_and_resize:
 * the element is then extrapolation_value. */
bool nnResizeOutside(const NnResize *r, double x, int64_t in);

/* The weights of the 4 taps floor(x)-1 .. floor(x)+2 of a cubic
 * convolution at t = x - floor(x) in [0, 1), with coefficient a (Keys;
 * Resize's cubic_coeff_a, GridSample's -0.75). */
void nnCubicWeights(double t, double a, double w[4]);

/* The input taps of one output coordinate along one dim: n taps (1 nearest,
 * 2 linear, 4 cubic), indices clamped into [0, in) (edge padding) and their
 * weights (exclude_outside renormalized). */
typedef struct {
  int n;
  int64_t idx[4];
  double w[4];
} NnTaps;
void nnResizeTaps(const NnResize *r, double x, int64_t in, NnTaps *t);
/* Nearest input index for coordinate x (clamped to [0, in)). */
int64_t nnResizeNearest(const NnResize *r, double x, int64_t in);
/* Per-dim scales of a resize op with static shapes (from `scales`, or
 * out/in when `sizes` is given). */
void nnResizeScales(const StrataOpDef *def, MlirOperation op, const int64_t *in, const int64_t *out,
                    int rank, double *scales);
/* The taps per output index of one dim of a static resize (the tables the
 * lowering and the runtime kernel read): 1 for a dim kept as it is (`same`:
 * length and scale unchanged, no crop) or in nearest mode, else 2 (linear)
 * or 4 (cubic); and those of output index o (a kept dim reads its own
 * index with weight 1). */
int nnResizeTapCount(const NnResize *r, bool same);
void nnResizeOutputTaps(const NnResize *r, bool same, int64_t o, int64_t in, int64_t out, double scale,
                        const double *roi, NnTaps *t);
/* The definition of a data-movement op (nn.resize, nn.pad, ...) in the
 * movement table; NULL for another op. */
const StrataOpDef *nnMovementDef(MlirOperation op);

#endif
