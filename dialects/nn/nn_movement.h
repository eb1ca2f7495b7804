/* Data-movement ops (ops_movement.c): shared parameter readers, and the
 * source-index view the interpreter uses -- for an output element, which
 * input element (or the pad value) it copies. The lowering reuses the
 * parameter readers and resize coordinate math so both agree. */
#ifndef STRATA_NN_MOVEMENT_H
#define STRATA_NN_MOVEMENT_H

#include "nn_internal.h"

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

bool nnReshapeDims(MlirOperation op, const int64_t *in, int rank, const int64_t *shape, int n,
                   bool allowZero, int64_t *out);
bool nnTransposePerm(MlirOperation op, int rank, int64_t *perm);
bool nnSplitSizes(MlirOperation op, int64_t dim, int outputs, int64_t *sizes);
void nnSliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step, int64_t *first, int64_t *count);
bool nnSliceParams(const StrataOpDef *def, MlirOperation op, const int64_t *dims, int rank,
                   int64_t *first, int64_t *step, int64_t *count);

typedef enum { NN_SOURCE_ELEMENT, NN_SOURCE_PAD, NN_SOURCE_ERROR } NnSourceKind;

typedef struct {
  MlirOperation op;
  int kind; /* which op (internal) */
  StrataTensor *const *x;
  const StrataTensor *y;
  int64_t p[2 * STRATA_MAX_RANK], q[STRATA_MAX_RANK]; /* per-op parameters */
  double scales[STRATA_MAX_RANK];
  int64_t axis, blocksize;
  bool flag;
  double padValue;
  char mode[16];
  NnResize resize;
} NnSource;

bool nnSourceInit(MlirOperation op, StrataTensor *const *x, StrataTensor **y, NnSource *s);
NnSourceKind nnSourceOf(const NnSource *s, const int64_t *outIdx, const StrataTensor **from,
                        int64_t *flat);

#endif
