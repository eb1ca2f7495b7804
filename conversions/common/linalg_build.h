/* Helpers for building linalg/tensor IR from C, shared by the conversions
 * (conversions/common/ is their declared include directory; defined in
 * conversions/nn-to-linalg/linalg_build.c). */
#ifndef STRATA_LINALG_BUILD_H
#define STRATA_LINALG_BUILD_H

#include "strata/builder.h"
#include "strata/tensor.h"

/* Builds the region body of a linalg.generic: gets the block arguments
 * (inputs' then outputs' scalars) and returns the value to yield. Bodies see
 * signless scalars (a ui8 argument arrives as i8); the builder casts back. */
typedef MlirValue (*LinalgBodyFn)(StrataBuilder *b, MlirLocation loc, const MlirValue *args,
                                  void *user);

/* Affine map text for one operand, e.g. "(d0, d2)"; the helper adds the
 * "(d0, ..., dN) ->" prefix. `iterators` is a string of 'p' (parallel) and
 * 'r' (reduction), one per loop dim. */
MlirValue linalgBuildGeneric(StrataBuilder *b, MlirLocation loc, StrataValueList inputs,
                             MlirValue init, const char *const *mapResults, const char *iterators,
                             LinalgBodyFn body, void *user);

/* The same with several outputs: `body` writes one value per output into
 * `yields` (given the block arguments: inputs' scalars, then outputs');
 * results[i] receives output i. maps: inputs then outputs. */
typedef void (*LinalgBodyNFn)(StrataBuilder *b, MlirLocation loc, const MlirValue *args,
                              MlirValue *yields, void *user);
void linalgBuildGenericN(StrataBuilder *b, MlirLocation loc, StrataValueList inputs,
                         StrataValueList inits, const char *const *mapResults, const char *iterators,
                         LinalgBodyNFn body, void *user, MlirValue *results);

/* arith.constant dense<v> : tensorType (a splat). */
MlirValue linalgSplatConstant(StrataBuilder *b, MlirLocation loc, MlirType tensorType, double v);

/* tensor.insert_slice of `src` into `dest` at static offsets (unit strides). */
MlirValue linalgInsertSlice(StrataBuilder *b, MlirLocation loc, MlirValue src, MlirValue dest,
                            const int64_t *offsets);

/* tensor.extract_slice of `src` with static offsets, sizes and (positive)
 * strides; the result type has `sizes`. */
MlirValue linalgExtractSlice(StrataBuilder *b, MlirLocation loc, MlirValue src, const int64_t *offsets,
                             const int64_t *sizes, const int64_t *strides);

/* tensor.reshape of `v` to the static shape of `type` (same element count). */
MlirValue linalgReshape(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType type);

/* linalg.index <dim> inside a linalg.generic body. */
MlirValue linalgIndex(StrataBuilder *b, MlirLocation loc, int dim);
/* tensor.extract %t[indices] (indices of index type). */
MlirValue linalgExtract(StrataBuilder *b, MlirLocation loc, MlirValue t, const MlirValue *indices,
                        int n);

/* "d<i>" names appended to a buffer: writes "(dA, dB, ...)" for a list. */
void linalgFormatDims(char *buf, size_t size, const int *dims, int n);

#endif
