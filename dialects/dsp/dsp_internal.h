/* The dsp dialect's interface to the layers above it (transforms/dsp):
 * its op tables and the names of layouts as attributes spell them. */
#ifndef STRATA_DSP_INTERNAL_H
#define STRATA_DSP_INTERNAL_H

#include "mlir-c/IR.h"
#include "strata/dsp.h"

extern const StrataOpTable strataDspVectorOps;
extern const StrataOpTable strataDspGraphOps;
extern const StrataOpTable strataDspQuantOps;

/* Attribute names on the operator-level ops. */
#define STRATA_DSP_LAYOUT "layout" /* "col1" | "col2" | "col4" */
#define STRATA_DSP_INST "inst"     /* "vmpy" | "vmpa" | "vrmpy" */

/* "col1", "col2", "col4" for 1, 2, 4 columns; NULL otherwise. */
const char *strataDspLayoutName(int columns);
/* The columns a layout name stands for, 0 if it names none. */
int strataDspLayoutFromName(const char *name);
/* The columns op's string attribute `name` names, 0 when absent or not a layout. */
int strataDspOpLayout(MlirOperation op, const char *name);

#endif /* STRATA_DSP_INTERNAL_H */
