/* Helpers for lowering to linalg/tensor/arith from C, shared by the
 * conversions (nn-to-linalg's lowerings, math-approx): op and type queries,
 * affine map text, scalar emitters for linalg bodies. Defined in
 * conversions/nn-to-linalg/lower_common.c. conversions/common/ is the
 * conversions layer's declared include directory (core/CMakeLists.txt). */
#ifndef STRATA_CONVERSIONS_LOWER_HELPERS_H
#define STRATA_CONVERSIONS_LOWER_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "linalg_build.h"
#include "strata/builder.h"

/* ---- Op and type queries ---- */
MlirType lowerResultType(MlirOperation op, intptr_t i);
MlirValue lowerOperand(MlirOperation op, intptr_t i);
int lowerRank(MlirValue v);
int64_t lowerDim(MlirValue v, int i);
MlirType lowerElementType(MlirValue v);
bool lowerIsFloat(MlirType elementType);
bool lowerIsUnsigned(MlirType elementType); /* ui8 ... */
/* The signless integer type of the same width (types other than non-signless
 * integers are returned unchanged). */
MlirType lowerSignless(MlirType elementType);
/* The one op using v, or null if v has no use or several (kernel
 * epilogues absorb their result's sole user). */
MlirOperation lowerSoleUser(MlirValue v);

/* ---- Affine map text ---- */
/* Operand map broadcasting `in` to an output type of the result's rank. */
void lowerBroadcastMap(char *buf, size_t size, MlirValue in, MlirType out);
void lowerIdentityMap(char *buf, size_t size, int rank);
/* Reductions over the dims in `mask`: the input's identity map, the map of
 * the tensor keeping the other dims, and iterators ('r' where reduced). Map
 * buffers hold 256 chars; its holds rank + 1. */
void lowerReductionMaps(int rank, const bool *mask, char *inMap, char *keptMap, char *its);
/* The type of x without the `mask` dims, with element type `element`. */
MlirType lowerKeptType(MlirValue x, const bool *mask, MlirType element);
void lowerParallelIterators(char *buf, int rank);

/* ---- Scalar emitters (inside linalg bodies) ---- */
MlirValue emitConst(StrataBuilder *b, MlirLocation loc, MlirType t, double v);
MlirValue emitBinary(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirValue y);
MlirValue emitUnary(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x);
/* arith.cmpf / arith.cmpi with MLIR's predicate numbering. */
enum { CMPF_OEQ = 1, CMPF_OGT = 2, CMPF_OGE = 3, CMPF_OLT = 4, CMPF_OLE = 5, CMPF_ONE = 6, CMPF_ORD = 7, CMPF_UNE = 13,
       CMPF_UNO = 14 };
enum { CMPI_EQ = 0, CMPI_NE = 1, CMPI_SLT = 2, CMPI_SLE = 3, CMPI_SGT = 4, CMPI_SGE = 5,
       CMPI_ULT = 6, CMPI_ULE = 7, CMPI_UGT = 8, CMPI_UGE = 9 };
MlirValue emitCmpF(StrataBuilder *b, MlirLocation loc, int pred, MlirValue x, MlirValue y);
MlirValue emitCmpI(StrataBuilder *b, MlirLocation loc, int pred, MlirValue x, MlirValue y);
MlirValue emitSelect(StrataBuilder *b, MlirLocation loc, MlirValue c, MlirValue x, MlirValue y);
/* A conversion op (arith.extf, arith.sitofp, ...) to type t. */
MlirValue emitConvert(StrataBuilder *b, MlirLocation loc, const char *name, MlirValue x, MlirType t);

/* ---- Run-time checks ---- */
/* The text compiled code reports a run-time error of `op` with (its
 * location, a tab, the op: a memref<*xi8> of a private global), built at
 * `b`, and runtime function `fn` (kernel_abi.def) declared in the module.
 * False (located error) outside a builtin.module. */
bool lowerRuntimeSite(StrataBuilder *b, MlirOperation op, const char *fn, MlirValue *site);
/* Reports run-time error `kind` (strata_rt_shape_error; kinds listed in
 * lower_dims.c) located at op when `bad` holds; *site (start NULL) holds
 * the op's location string once made. False after a located error. */
bool lowerCheck(StrataBuilder *b, MlirOperation op, MlirValue *site, MlirValue bad, int kind, int operand, int dim,
                MlirValue got, MlirValue want);

/* An index constant, and an index value (a count of elements) as a float
 * of floatType: how the lowerings compute extents and the divisors of
 * means at run time. */
MlirValue lowerIndexConst(StrataBuilder *b, MlirLocation loc, int64_t v);
MlirValue lowerIndexToFloat(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType floatType);

/* ---- Dynamic dims (lower_dims.c, docs/dynamic-shapes.md) ---- */
/* Whether op has an operand or result with a dynamic dim. */
bool lowerHasDynamicDims(MlirOperation op);
/* Whether the lowerings compile op with dynamic dims; if not, *why says so. */
bool lowerDynamicSupported(MlirOperation op, const char **why);
/* Dim d of ranked tensor t as an index value (a constant when static). */
MlirValue lowerDimValue(StrataBuilder *b, MlirLocation loc, MlirValue t, int d);
/* The extents of result i of op as index values (out[rank]), built at b,
 * with the run-time checks that the operands' dynamic extents agree with
 * them (located run-time errors). False after a located error. */
bool lowerResultDims(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *out);
/* A tensor of type t and extents dims, every element v: a splat constant
 * when t is static, tensor.empty + linalg.fill when not. */
MlirValue lowerInitDims(StrataBuilder *b, MlirLocation loc, MlirType t, const MlirValue *dims, double v);
/* The same with every element the run-time scalar `scalar` (of t's element
 * type): tensor.empty + linalg.fill. */
MlirValue lowerFillDims(StrataBuilder *b, MlirLocation loc, MlirType t, const MlirValue *dims, MlirValue scalar);
/* The init tensor of result i of op (lowerResultDims + lowerInitDims); a
 * splat constant when nothing about op is dynamic. Null after a located
 * error. */
MlirValue lowerResultInit(StrataBuilder *b, MlirOperation op, intptr_t i, double v);
/* The same without the fill (tensor.empty): for results every element of
 * which the lowering writes (element-wise ops, concatenations), where the
 * fill would be a wasted pass over memory. Null after a located error. */
MlirValue lowerResultEmpty(StrataBuilder *b, MlirOperation op, intptr_t i);
/* v (same elements) as type t of extents dims: a static reshape when both
 * are static, tensor.reshape with a run-time shape when not. */
MlirValue lowerReshapeTo(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirType t, const MlirValue *dims);

/* ---- Shared bodies ---- */
MlirValue bodyMulAcc(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u);
MlirValue bodyYieldInput(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u);

#endif
