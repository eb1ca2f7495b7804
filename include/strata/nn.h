/* The `nn` dialect: tensor-level DNN operators with ONNX semantics.
 * Shape inference is exposed so builders and importers can compute result
 * types; the dialect's verifier uses the same functions. Dims are -1 for '?'. */
#ifndef STRATA_NN_H
#define STRATA_NN_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/dialect.h"

#ifdef __cplusplus
extern "C" {
#endif

extern const StrataDialectDef strataNnDialect;

/* Infers the result types of a Strata op from its operands and attributes
 * and sets them on its results (for builders and importers that create ops
 * with placeholder result types). Errors are located at the op. */
MlirLogicalResult strataInferResultTypes(StrataContext *ctx, MlirOperation op);

/* The value of `op` when it is known at compile time, as a dense elements
 * attribute of its result type (null when it is not, or has more than
 * `limit` elements): a pure one-result op whose operands are all
 * nn.constant, evaluated with its interpreter kernel, or an nn.shape /
 * nn.size reading only static dims. --nn-fold and the ONNX importer fold
 * with it. */
MlirAttribute strataNnFoldValue(StrataContext *ctx, MlirOperation op, int64_t limit);

/* Multidirectional (numpy) broadcasting of two shapes. On failure returns
 * false and writes the offending output dim index to *badDim. */
bool nn_infer_broadcast_shape(const int64_t *a, int rankA, const int64_t *b, int rankB,
                              int64_t *out, int *rankOut, int *badDim);

/* numpy.matmul shapes (1-D promotion, broadcast batch dims). On failure
 * returns false with a reason in `why`. */
bool nn_infer_matmul_shape(const int64_t *a, int rankA, const int64_t *b, int rankB,
                           int64_t *out, int *rankOut, const char **why);

#define NN_MAX_SPATIAL 3

/* Sliding-window parameters shared by Conv, ConvTranspose and pooling, with
 * ONNX attribute names and defaults. pads = [begin..., end...]. */
typedef struct {
  int spatial; /* number of spatial dims (1-3) */
  int64_t kernel[NN_MAX_SPATIAL];
  int64_t strides[NN_MAX_SPATIAL];
  int64_t dilations[NN_MAX_SPATIAL];
  int64_t pads[2 * NN_MAX_SPATIAL];
  int64_t group;
  bool ceilMode;
  char autoPad[16]; /* NOTSET, SAME_UPPER, SAME_LOWER, VALID */
} NnWindow;

/* Reads window attributes of `op` for `spatial` dims; `kernel` gives the
 * kernel size when it comes from a weight shape (else kernel_shape is
 * required). Emits a located error and returns false on a bad attribute. */
bool nn_get_window(MlirOperation op, int spatial, const int64_t *kernel, NnWindow *w);

/* Output spatial sizes of a window over `in` (-1 stays -1). With auto_pad
 * SAME_* the pads in `w` are resolved. False with `why` if a window does not
 * fit. */
bool nn_infer_window_output(NnWindow *w, const int64_t *in, int64_t *out, const char **why);

/* The op's mapping type for documentation: its fixed type, or "One-to-One
 * (One-to-Many when an operand broadcasts)" for the elementwise family. */
const char *nn_mapping_doc(const StrataOpDef *def);

/* True if --nn-to-linalg has a lowering for op `opName` ("nn.conv"). */
bool strataNnToLinalgSupports(const char *opName);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_NN_H */
