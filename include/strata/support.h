/* Small helpers every dialect and pass uses: printing types and attributes to
 * strings for diagnostics, reading shaped types. */
#ifndef STRATA_SUPPORT_H
#define STRATA_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

/* True if `op` belongs to dialect `dialect` (its name is "<dialect>.<op>"). */
bool strataOpIsInDialect(MlirOperation op, const char *dialect);
/* True if `op` is named exactly `name` ("nn.conv"). */
bool strataOpIsNamed(MlirOperation op, const char *name);

/* A growable list of ops, e.g. collected by a walk before rewriting them.
 * Zero-initialize; free with strataOpListFree. */
typedef struct {
  MlirOperation *ops;
  size_t count, cap;
} StrataOpList;
/* Appends `op`; false (list unchanged) if memory runs out. */
bool strataOpListAppend(StrataOpList *l, MlirOperation op);
bool strataOpListContains(const StrataOpList *l, MlirOperation op);
void strataOpListFree(StrataOpList *l);

/* Writes the textual form of a type / location into buf (truncated to fit). */
void strataTypeToString(MlirType t, char *buf, size_t size);
/* "tensor<1x?x3xf32>" for a shape (-1 = dynamic) and element type. */
void strataShapeToString(const int64_t *dims, int rank, MlirType elementType, char *buf,
                         size_t size);

/* Ranked-tensor queries; dims use -1 for '?'. False if not a ranked tensor. */
bool strataGetShape(MlirType t, int *rank, int64_t dims[STRATA_MAX_RANK]);
MlirType strataTensorType(MlirType elementType, int rank, const int64_t *dims);

/* Reads an integer-array attribute (DenseI64ArrayAttr or ArrayAttr of
 * integers) named `name` on `op` into out[0..n). Returns the element count,
 * -1 if absent, -2 if present but not an integer array or longer than max. */
/* The attribute `name` of `op` (null if absent). */
MlirAttribute strataOpAttr(MlirOperation op, const char *name);
int strataGetI64Array(MlirOperation op, const char *name, int64_t *out, int max);
/* Reads an integer attribute; returns false if absent or not an integer. */
bool strataGetI64(MlirOperation op, const char *name, int64_t *out);

/* The value of a one-element f32 or f64 constant (nn.constant or
 * arith.constant of a dense tensor); false for anything else. */
bool strataScalarConstant(MlirValue v, double *out);

/* Creates a tensor holding the values of a dense elements attribute. */
StrataTensor *strataTensorFromAttr(MlirAttribute dense);
/* The inverse: a dense elements attribute of `type` (a static ranked tensor
 * type matching t's shape and dtype) holding t's values. */
MlirAttribute strataTensorToAttr(MlirType type, const StrataTensor *t);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_SUPPORT_H */
