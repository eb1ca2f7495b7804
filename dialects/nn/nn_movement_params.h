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
  char mode[16];    /* nearest | linear */
  char coord[32];   /* coordinate_transformation_mode */
  char nearest[24]; /* nearest_mode */
} NnResize;

bool nnResizeAttrs(MlirOperation op, NnResize *r);
/* Input coordinate of output index `o` along a dim of lengths in -> out. */
double nnResizeCoord(const NnResize *r, int64_t o, int64_t in, int64_t out, double scale);
/* Nearest input index for coordinate x (clamped to [0, in)). */
int64_t nnResizeNearest(const NnResize *r, double x, int64_t in);
/* Per-dim scales of a resize op with static shapes (from `scales`, or
 * out/in when `sizes` is given). */
void nnResizeScales(const StrataOpDef *def, MlirOperation op, const int64_t *in, const int64_t *out,
                    int rank, double *scales);

#endif
