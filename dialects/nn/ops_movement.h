/* The shape inference functions of ops_movement_index.c (and its one
 * interpreter), named by the movement op table in ops_movement.c. */
#ifndef STRATA_NN_OPS_MOVEMENT_H
#define STRATA_NN_OPS_MOVEMENT_H

#include "nn_internal.h"

MlirLogicalResult nnInferGather(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInferGatherElements(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInferScatterElements(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInferExpand(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInferTile(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInferPad(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInferResize(const StrataOpDef *def, MlirOperation op, StrataShape *res);
/* DepthToSpace and SpaceToDepth. */
MlirLogicalResult nnInferDepthSpace(const StrataOpDef *def, MlirOperation op, StrataShape *res);
MlirLogicalResult nnInterpScatter(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                  StrataTensor **y);

#endif
