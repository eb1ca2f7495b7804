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
 * Zero-initialize; free with strataOpListDestroy. */
typedef struct {
  MlirOperation *ops;
  size_t count, cap;
} StrataOpList;
/* Appends `op`; false (list unchanged) if memory runs out. */
bool strataOpListAppend(StrataOpList *l, MlirOperation op);
bool strataOpListContains(const StrataOpList *l, MlirOperation op);
void strataOpListDestroy(StrataOpList *l);

/* Erases every func.func of `module` that `entry` does not reach through
 * symbol references (calls, and any attribute naming a function), so that
 * compiling the module compiles only what running `entry` needs. Ops that
 * are not functions stay, with the functions they name. Fails (module
 * unchanged) only when memory runs out. */
MlirLogicalResult strataModuleKeepReachable(MlirModule module, MlirOperation entry);
/* The func.func named `name` in the body of `module` (a builtin.module),
 * or a null op. */
MlirOperation strataModuleFunc(MlirOperation module, MlirStringRef name);
/* The func.func a func.call names, looked up in the module around the
 * call; a null op if there is none. */
MlirOperation strataCallee(MlirOperation call);

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

/* ---- Checked arithmetic for shapes and sizes ----
 * Dims come from files and constants, so their sums and products can
 * overflow int64, which C leaves undefined. Every shape computation goes
 * through these (built on __builtin_*_overflow); false on overflow, with
 * *out unspecified. */
bool strataCheckedAdd(int64_t a, int64_t b, int64_t *out);
bool strataCheckedMul(int64_t a, int64_t b, int64_t *out);
/* Element count of a shape (-1 dims are '?'): *out is the product, or -1 if
 * a dim is '?'. False if the product of the known dims overflows int64. */
bool strataShapeNumElements(const int64_t *dims, int rank, int64_t *out);

/* f32 lanes of the host CPU's widest SIMD registers (16 with AVX-512, 8
 * with AVX, else 4): the vector width generated code targets by default. */
int64_t strataHostF32Lanes(void);

/* double -> int64 truncating toward zero; false (and *out untouched) for
 * NaN, infinities and values outside int64, whose C conversion is undefined.
 * Shape values read from float tensors go through this. */
bool strataDoubleToInt64(double d, int64_t *out);
/* The same, saturating (NaN -> 0, beyond the range -> INT64_MIN/MAX), for
 * computed values that must become some integer (interpreter kernels). */
int64_t strataDoubleToInt64Saturated(double d);
/* double -> uint64 truncating toward zero, saturating (NaN and negatives -> 0,
 * 2^64 and above -> UINT64_MAX). */
uint64_t strataDoubleToUInt64Saturated(double d);

/* Element i of `t` as an exact int64: integer dtypes as they are, floats
 * through strataDoubleToInt64. False for a float that does not fit. */
bool strataTensorGetInt64(const StrataTensor *t, int64_t i, int64_t *out);

/* Types Strata refuses wherever IR enters it (parsing, verification,
 * importers): a shaped type whose static element count overflows int64, and
 * a zero-width integer type (i0/si0/ui0; MLIR's printer crashes on dense
 * elements of it). Emits "<what> has type T: ..." at loc and returns false. */
bool strataCheckType(MlirLocation loc, const char *what, MlirType t);

/* Creates a tensor holding the values of a dense elements attribute (NULL
 * if it cannot). Ownership transfers to the caller: destroy it with
 * strataTensorDestroy. */
StrataTensor *strataTensorFromAttr(MlirAttribute dense);

typedef struct StrataContext StrataContext;
/* A dense_resource attribute over `data` (`bytes` long, aligned to
 * `align`), which stays the caller's until the context releases the blob
 * (`release`, may be NULL), recorded so that strataResourceData finds the
 * bytes again. Null if out of memory. */
MlirAttribute strataResourceAttrGet(StrataContext *ctx, MlirType type, const char *key, void *data, size_t bytes,
                                    size_t align, void (*release)(void *user, const void *data, size_t bytes,
                                                                  size_t align),
                                    void *user);
/* The bytes of a dense_resource attribute strataResourceAttrGet made in
 * `ctx` (their count in *bytes); NULL for any other attribute. */
const void *strataResourceData(StrataContext *ctx, MlirAttribute attr, size_t *bytes);
/* The inverse: a dense elements attribute of `type` (a static ranked tensor
 * type matching t's shape and dtype) holding t's values. */
MlirAttribute strataTensorToAttr(MlirType type, const StrataTensor *t);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_SUPPORT_H */
