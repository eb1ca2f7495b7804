/* The source-index view of the data-movement ops (nn_movement.c), which
 * the reference interpreter uses: for an output element, which input
 * element (or the pad value) it copies. It reads the ops' parameters
 * through nn_movement_params.h, as shape inference and the lowering do. */
#ifndef STRATA_NN_MOVEMENT_H
#define STRATA_NN_MOVEMENT_H

#include "nn_movement_params.h"

typedef enum { NN_SOURCE_ELEMENT, NN_SOURCE_PAD, NN_SOURCE_ERROR } NnSourceKind;

typedef struct {
  MlirOperation op;
  int kind; /* which op (internal) */
  StrataTensor *const *x;
  const StrataTensor *y;
  int64_t p[2 * STRATA_MAX_RANK], q[STRATA_MAX_RANK]; /* per-op parameters */
  int64_t axis, blocksize;
  bool flag;
  double padValue;
  char mode[16];
} NnSource;

/* `def` is op's definition (its named operands). False after an error. */
bool nnSourceInit(const StrataOpDef *def, MlirOperation op, StrataTensor *const *x, StrataTensor **y,
                  NnSource *s);
NnSourceKind nnSourceOf(const NnSource *s, const int64_t *outIdx, const StrataTensor **from,
                        int64_t *flat);

#endif
