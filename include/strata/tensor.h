/* Host tensors: dense, row-major buffers with an element type and a shape.
 * Used by the reference interpreter, the JIT runner and .npy I/O. */
#ifndef STRATA_TENSOR_H
#define STRATA_TENSOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

#define STRATA_MAX_RANK 8

typedef enum {
  STRATA_DTYPE_INVALID = 0,
  STRATA_DTYPE_F32,
  STRATA_DTYPE_F64,
  STRATA_DTYPE_F16,
  STRATA_DTYPE_I1,
  STRATA_DTYPE_I8,
  STRATA_DTYPE_U8,
  STRATA_DTYPE_I32,
  STRATA_DTYPE_I64,
  STRATA_DTYPE_I16,
  STRATA_DTYPE_U16, /* unsigned types are MLIR's ui16/ui32/ui64: lowerings track */
  STRATA_DTYPE_U32, /* signedness through them (arith itself is signless)          */
  STRATA_DTYPE_U64,
  STRATA_DTYPE_BF16, /* bfloat16, held as its 16 bits (the top half of an f32) */
} StrataDType;

typedef struct {
  StrataDType dtype;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  void *data; /* owned; row-major, contiguous */
} StrataTensor;

size_t strataDTypeSize(StrataDType t);
const char *strataDTypeName(StrataDType t);
/* The dtype of an MLIR element type, or STRATA_DTYPE_INVALID. */
StrataDType strataDTypeFromMlir(MlirType elementType);
MlirType strataDTypeToMlir(MlirContext ctx, StrataDType t);

int64_t strataTensorNumElements(const StrataTensor *t);
size_t strataTensorNumBytes(const StrataTensor *t);

/* Allocates a zero-filled tensor; NULL on overflow or out of memory.
 * Ownership transfers to the caller: destroy it with strataTensorDestroy
 * (as every tensor the functions below return). */
StrataTensor *strataTensorCreate(StrataDType dtype, int rank, const int64_t *dims);
/* Allocates a tensor matching a static ranked tensor type; NULL if the type
 * is not a static-shaped ranked tensor of a supported dtype. */
StrataTensor *strataTensorCreateForType(MlirType tensorType);
/* An output tensor for a result of ranked tensor type: its dynamic dims
 * are 0 until a call (strataExecutableInvoke) sets them and the data. */
StrataTensor *strataTensorCreateForResult(MlirType tensorType);
/* Why strataTensorCreateForType(tensorType) gave NULL, as a phrase after
 * "has type T" ("has dynamic dimensions ...", "is too large to allocate
 * (... bytes)"), written into `buf`. */
void strataTensorTypeProblem(MlirType tensorType, char *buf, size_t size);
void strataTensorDestroy(StrataTensor *t);
/* True if `t` has exactly the shape and dtype of the ranked tensor type. */
bool strataTensorMatchesType(const StrataTensor *t, MlirType tensorType);
/* Writes the shape as "2x3x4xf32" into buf. */
void strataTensorFormatType(const StrataTensor *t, char *buf, size_t size);

/* Fills with reproducible uniform values in [lo, hi) from `seed`
 * (integers: rounded; i1: 0/1). */
void strataTensorFillRandom(StrataTensor *t, uint64_t seed, double lo, double hi);

/* Element access as double (any dtype). */
double strataTensorGetDouble(const StrataTensor *t, int64_t flatIndex);
void strataTensorSetDouble(StrataTensor *t, int64_t flatIndex, double v);

/* ---- .npy files (NumPy format 1.0/2.0, little-endian, C order) ---- */

/* Reads a .npy file; on failure returns NULL and writes a message into err.
 * Ownership transfers to the caller: destroy it with strataTensorDestroy. */
StrataTensor *strataNpyRead(const char *path, char *err, size_t errSize);
/* Writes a .npy file atomically (temp file + rename); false with err on failure. */
bool strataNpyWrite(const char *path, const StrataTensor *t, char *err, size_t errSize);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_TENSOR_H */
