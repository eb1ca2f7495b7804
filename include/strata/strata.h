/* Strata: a multi-dialect DNN compiler infrastructure on the MLIR C API.
 * The umbrella header: everything an embedder needs. */
#ifndef STRATA_STRATA_H
#define STRATA_STRATA_H

#include "strata/builder.h"
#include "strata/context.h"
#include "strata/dialect.h"
#include "strata/dsp.h"
#include "strata/fusion.h"
#include "strata/instrument.h"
#include "strata/interpreter.h"
#include "strata/nn.h"
#include "strata/onnx.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/pred.h"
#include "strata/rdp.h"
#include "strata/session.h"
#include "strata/sparse.h"
#include "strata/support.h"
#include "strata/target.h"
#include "strata/target_llvm.h"
#include "strata/tensor.h"

#endif /* STRATA_STRATA_H */
