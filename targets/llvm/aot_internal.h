/* Shared by the AOT compiler (aot.c) and its header emitter (aot_header.c). */
#ifndef STRATA_TARGETS_LLVM_AOT_INTERNAL_H
#define STRATA_TARGETS_LLVM_AOT_INTERNAL_H

#include "mlir-c/IR.h"

/* Public functions with a body, in module order: stores up to `max` in
 * `out` and returns how many there are. */
int strataAotPublicFuncs(MlirModule m, MlirOperation *out, int max);
/* A func.func's sym_name. */
MlirStringRef strataAotSymName(MlirOperation f);

#endif
