/* dialects/nn internals shared by the op categories (not public API). */
#ifndef STRATA_NN_INTERNAL_H
#define STRATA_NN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/dialect.h"
#include "strata/nn.h"
#include "strata/support.h"
#include "strata/tensor.h"

/* ---- Element-type classes (bit masks over StrataDType) ---- */
#define NN_T(d) (1u << (d))
#define NN_FLOAT (NN_T(STRATA_DTYPE_F16) | NN_T(STRATA_DTYPE_F32) | NN_T(STRATA_DTYPE_F64) | NN_T(STRATA_DTYPE_BF16))
#define NN_SINT (NN_T(STRATA_DTYPE_I8) | NN_T(STRATA_DTYPE_I16) | NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64))
#define NN_U8 NN_T(STRATA_DTYPE_U8)
#define NN_UINT (NN_U8 | NN_T(STRATA_DTYPE_U16) | NN_T(STRATA_DTYPE_U32) | NN_T(STRATA_DTYPE_U64))
#define NN_INT (NN_SINT | NN_UINT)
#define NN_BOOL NN_T(STRATA_DTYPE_I1)
#define NN_SIGNED (NN_FLOAT | NN_SINT)
#define NN_NUMERIC (NN_FLOAT | NN_INT)
#define NN_ANY (NN_NUMERIC | NN_BOOL)
/* The numeric types of ops whose kernels hold values as double (Clip's
 * bounds, TopK's ranking): exact for all but uint64 (and int64 beyond
 * 2^53, as before), so uint64 is refused there rather than misordered. */
#define NN_NUMERIC_NO_U64 (NN_NUMERIC & ~NN_T(STRATA_DTYPE_U64))
#define NN_INDEX (NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64))

/* Emits "'<op>' op <message>" at the op's location. */
#define nnError strataEmitOpError

/* Operand `name` (per the op's spec) as a shape; false after an error. An
 * absent optional operand is an error here: check with nnHasOperand first. */
bool nnOperand(const StrataOpDef *def, MlirOperation op, const char *name, StrataShape *s);
bool nnHasOperand(const StrataOpDef *def, MlirOperation op, const char *name);
/* Checks an element type against a class mask, naming the operand. */
bool nnCheckType(MlirOperation op, const char *name, const StrataShape *s, unsigned mask);
bool nnSameType(MlirOperation op, const char *nameA, const StrataShape *a, const char *nameB,
                const StrataShape *b);
/* "operand 'X' of type tensor<...>" into buf, for messages. */
const char *nnDescribe(const char *name, const StrataShape *s, char *buf, size_t size);
StrataDType nnDType(const StrataShape *s);
void nnSetShape(StrataShape *s, int rank, const int64_t *dims, MlirType elementType);

/* ---- Checked shape arithmetic ----
 * Every shape inference computes dims through these (strataCheckedAdd/Mul
 * underneath): a+b, a*b, and the product of dims (-1 if one is '?'). On
 * overflow they emit "'<op>' op shape is too large: ..." and return false.
 * '?' operands are the caller's business, except in nnDimProduct. */
bool nnDimAdd(MlirOperation op, int64_t a, int64_t b, int64_t *out);
bool nnDimMul(MlirOperation op, int64_t a, int64_t b, int64_t *out);
bool nnDimProduct(MlirOperation op, const int64_t *dims, int n, int64_t *out);

/* ---- Attributes with ONNX defaults; false after an error ---- */
bool nnAttrInt(MlirOperation op, const char *name, int64_t dflt, int64_t *out);
bool nnAttrFloat(MlirOperation op, const char *name, double dflt, double *out);
/* Copies the string attribute (or dflt) into buf; checks it is one of the
 * '|'-separated choices when `choices` is non-NULL. */
bool nnAttrString(MlirOperation op, const char *name, const char *dflt, const char *choices,
                  char *buf, size_t size);
/* Integer array attribute: count in *n (-1 if absent); false after an error. */
bool nnAttrInts(MlirOperation op, const char *name, int64_t *out, int max, int *n);
/* An integer list an op takes either as attribute `attr` or as its optional
 * operand #operand (ONNX's axes, split sizes, ... that became inputs):
 * from `value` (the operand's run-time value, in the interpreter) when
 * non-NULL, else from the attribute or a constant operand. Returns 1 with
 * the values in out[0..*n) (*n = -1 when neither is given), 0 when the
 * operand is a run-time value, -1 after an error. */
int nnIntsArg(MlirOperation op, int operand, const StrataTensor *value, const char *attr, int64_t *out, int max,
              int *n);
/* Normalizes an axis in [-rank, rank) to [0, rank); false after an error. */
bool nnNormalizeAxis(MlirOperation op, const char *what, int64_t *axis, int rank);

/* Values of a constant integer operand (nn.constant or arith.constant
 * holding a dense integer tensor): count, or -1 if not constant. */
int nnConstInts(MlirValue v, int64_t *out, int max);
/* The same for a float/int constant read as double. */
int nnConstDoubles(MlirValue v, double *out, int max);

/* nn.shape's dims start..end (its attributes, clamped to [0, rank]). */
void nnShapeRange(MlirOperation op, int rank, int64_t *start, int64_t *end);

/* ---- Facts helpers ---- */
int64_t nnNumElements(MlirType t); /* static element count, -1 if dynamic */
StrataMappingType nnMapOneToOne(MlirOperation op);
StrataMappingType nnMapOneToMany(MlirOperation op);
StrataMappingType nnMapManyToMany(MlirOperation op);
StrataMappingType nnMapReorganize(MlirOperation op);
StrataMappingType nnMapShuffle(MlirOperation op);
/* One-to-One unless an operand is broadcast (its shape differs from the
 * result's), then One-to-Many. */
StrataMappingType nnMapElementwise(MlirOperation op);

/* ---- Interpreter helpers ---- */
bool nnIsFloatDType(StrataDType t);
/* ui8 ... ui64. nnGetInt holds a ui64 element as its bits (values >= 2^63
 * read negative), so kernels compare and divide unsigned types as uint64. */
bool nnIsUnsignedDType(StrataDType t);
int64_t nnGetInt(const StrataTensor *t, int64_t i);
void nnSetInt(StrataTensor *t, int64_t i, int64_t v);
/* Row-major strides of a tensor. */
void nnStrides(const StrataTensor *t, int64_t *strides);
/* Flat index into `in` of the element broadcast to output multi-index idx. */
int64_t nnBroadcastIndex(const StrataTensor *in, const int64_t *idx, int outRank);
/* Advances a multi-index over dims; false when it wraps to zero. */
bool nnNextIndex(int64_t *idx, const int64_t *dims, int rank);
MlirLogicalResult nnInterpError(MlirOperation op, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Reduced-axes mask of a reduce_* op (ops_reduce.c), its axes read by
 * nnIntsArg; false after an error, and without one when they are a
 * run-time value (axesValue NULL and a non-constant operand). */
bool nnReduceAxes(MlirOperation op, const StrataTensor *axesValue, int rank, bool *mask, bool *identity);

/* Resolves ConvTranspose begin/end pads from auto_pad or output_shape. */
void nnConvTransposePads(MlirOperation op, NnWindow *win, const int64_t *in, const int64_t *out);

/* ReverseSequence's batch_axis and time_axis, checked (ops_reverse_sequence.c). */
bool nnReverseSequenceAxes(MlirOperation op, int64_t *batchAxis, int64_t *timeAxis);

/* MaxUnpool's default output extents ((in - 1) * stride + kernel - pads;
 * -1 where x's is), false after an error (ops_unpool.c). */
bool nnUnpoolDims(MlirOperation op, const StrataShape *x, int64_t *out);

/* TfIdfVectorizer's attributes, checked (ops_tfidf.c): n-gram g is
 * pool[gramStart[g] .. + gramLen[g]), counted into column gramCol[g]. */
typedef enum { NN_TFIDF_TF, NN_TFIDF_IDF, NN_TFIDF_TFIDF } NnTfIdfMode;
typedef struct {
  NnTfIdfMode mode;
  int64_t minLen, maxLen, maxSkip, numGrams, numCols;
  int64_t *pool, *gramStart, *gramLen, *gramCol;
  double *weights; /* per output column; NULL: all 1 */
} NnTfIdf;
bool nnTfIdfParams(MlirOperation op, NnTfIdf *t);
void nnTfIdfFree(NnTfIdf *t);
/* The output value of a column's count under the mode and weights. */
double nnTfIdfWeigh(const NnTfIdf *t, double count, int64_t col);

/* ---- Category tables (each ops_*.c) ---- */
extern const StrataOpTable nnElementwiseTable, nnLinearTable, nnPoolNormTable, nnReduceTable,
    nnMovementTable, nnShapeTable, nnQuantTable, nnDataDepTable, nnUnpoolTable, nnQLinearTable,
    nnEinsumTable, nnRnnTable, nnSequenceTable, nnSampleTable, nnSignalTable, nnDetTable, nnTfIdfTable, nnRandomTable,
    nnCheckTable;

#endif /* STRATA_NN_INTERNAL_H */
