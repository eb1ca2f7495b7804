/* The ONNX frontend: imports an ONNX model into the nn dialect. */
#ifndef STRATA_ONNX_H
#define STRATA_ONNX_H

#include <stddef.h>
#include "mlir-c/IR.h"
#include "strata/context.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  const char *entryName;    /* the function's name; NULL: "main" */
  size_t resourceThreshold; /* initializers with more elements become MLIR
                               resources (not printed inline); 0: 64 */
  int *externalTensors;     /* if set, receives after a successful import the
                               number of tensors read from external data files
                               (a caller caching by the model's bytes must know) */
} StrataOnnxOptions;

/* Supported ai.onnx opsets: the importer refuses models outside this range. */
#define STRATA_ONNX_MIN_OPSET 1
#define STRATA_ONNX_MAX_OPSET 21

/* Imports the model at `path` into a module holding one func.func: graph
 * inputs (initializers excluded) become arguments, graph outputs the
 * results. Symbolic dims become '?' (their names are kept in the
 * `onnx.dim_params` argument attribute), node names become op locations.
 * External-data tensors are read relative to the model's directory. On any
 * unsupported or malformed input, returns a null module after one located
 * error naming the node, its op type and the reason. The module's ownership
 * transfers to the caller: destroy it with mlirModuleDestroy. */
MlirModule strataImportOnnxFile(StrataContext *ctx, const char *path, const StrataOnnxOptions *opts);

/* The same from a buffer; `name` is used in locations, `baseDir` to find
 * external data (NULL: none allowed). Ownership as strataImportOnnxFile. */
MlirModule strataImportOnnx(StrataContext *ctx, const void *data, size_t size, const char *name,
                            const char *baseDir, const StrataOnnxOptions *opts);

/* True if the file starts like an ONNX protobuf rather than MLIR text or
 * bytecode (by extension ".onnx", else by content). */
bool strataLooksLikeOnnx(const char *path, const void *data, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_ONNX_H */
