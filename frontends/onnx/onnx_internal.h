/* frontends/onnx internals. */
#ifndef STRATA_ONNX_INTERNAL_H
#define STRATA_ONNX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include "onnx.pb-c.h"
#include "strata/onnx.h"
#include "strata/tensor.h"

/* ONNX element type -> Strata dtype (INVALID if unsupported). */
StrataDType onnxDType(int32_t elemType);
const char *onnxDTypeName(int32_t elemType);

/* Reads a TensorProto's values (raw_data, typed fields or external data
 * relative to baseDir). NULL with a message in err if the data is missing,
 * of the wrong size, or of an unsupported type. */
StrataTensor *onnxReadTensor(const Onnx__TensorProto *t, const char *baseDir, char *err, size_t errSize);

#endif
