/* conversions/nn-to-linalg internals: each category's pattern registration.
 * The helpers the lowering files share (with other conversions too) are in
 * conversions/common/lower_helpers.h. */
#ifndef STRATA_NN_TO_LINALG_INTERNAL_H
#define STRATA_NN_TO_LINALG_INTERNAL_H

#include "mlir-c/BuiltinTypes.h"
#include "lower_helpers.h"
#include "strata/dialect.h"
#include "strata/nn.h"
#include "strata/pattern.h"
#include "strata/support.h"

/* ---- Category registration ----
 * Each category registers its patterns through a LowerRegistry, which fills
 * a pattern set or answers whether an op is covered (for docs/ops.md). */
typedef struct {
  StrataPatternSet *set; /* may be NULL */
  const char *query;     /* if non-NULL: `found` says whether it was registered */
  bool found;
  bool unrollRnn; /* nn-to-linalg{unroll-rnn}: static sequences unrolled, not looped (lower_rnn.c) */
} LowerRegistry;
void lowerRegister(LowerRegistry *r, const char *opName, StrataMatchAndRewriteFn fn, void *user);

void nnToLinalgElementwise(LowerRegistry *r);
void nnToLinalgLinear(LowerRegistry *r);
void nnToLinalgShape(LowerRegistry *r);
void nnToLinalgReduce(LowerRegistry *r);
void nnToLinalgPoolNorm(LowerRegistry *r);
void nnToLinalgMovement(LowerRegistry *r);
void nnToLinalgQuant(LowerRegistry *r);
void nnToLinalgDataDep(LowerRegistry *r); /* NonZero, Compress, and: */
void nnToLinalgUnique(LowerRegistry *r);
void nnToLinalgNms(LowerRegistry *r);
void nnToLinalgPoolIndices(LowerRegistry *r); /* nn.max_pool_with_indices, nn.max_unpool */
void nnToLinalgQLinear(LowerRegistry *r);
/* numpy.matmul of a and b into result type t, accumulating onto init (k
 * the loop before n with kBeforeN); the convolution of op's window
 * attributes the same way (x zero-padded; the reduction loops before the
 * output's spatial loops with reduceOutside); null after an error
 * (lower_linear.c; the quantized ops reuse them). */
MlirValue lowerMatmulValues(StrataBuilder *b, MlirLocation loc, MlirValue a, MlirValue bv, MlirType t,
                            MlirValue init, bool kBeforeN);
MlirValue lowerConvValues(StrataBuilder *b, MlirLocation loc, MlirOperation op, MlirValue x, MlirValue w,
                          MlirValue init, bool reduceOutside);
void nnToLinalgRnn(LowerRegistry *r); /* nn.rnn, nn.gru, nn.lstm (lower_rnn.c) */
/* Result i's run-time extents of an nn.rnn, nn.gru or nn.lstm (y: sequence,
 * directions, batch, hidden in its layout; y_h, y_c: directions, batch,
 * hidden); with i = 0 also checks the operands' dynamic dims against x's and
 * the static hidden size (shape errors at *site). */
bool lowerRnnDims(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *site, MlirValue *out);
void nnToLinalgSequence(LowerRegistry *r); /* nn.reverse_sequence (lower_sequence.c) */
void nnToLinalgSample(LowerRegistry *r);   /* nn.grid_sample, nn.roi_align (lower_sample.c) */
void nnToLinalgSignal(LowerRegistry *r);   /* windows, nn.dft, nn.stft (lower_signal.c) */
void nnToLinalgDet(LowerRegistry *r);      /* nn.det (lower_det.c) */
void nnToLinalgTfIdf(LowerRegistry *r);    /* nn.tf_idf_vectorizer (lower_tfidf.c) */
void nnToLinalgCheck(LowerRegistry *r);    /* nn.check_range (lower_check.c) */
void nnToLinalgRandom(LowerRegistry *r);   /* nn.random_uniform/normal, nn.bernoulli (lower_random.c) */
/* The last step: linalg.generic inputs that are splat constants of an
 * unsigned type made signless (lower_unsigned.c). */
void lowerSignlessSplatInputs(MlirOperation root);
/* nn.slice with dynamic dims or run-time starts/ends (lower_slice_dynamic.c). */
bool lowerSliceIsDynamic(const StrataOpDef *def, MlirOperation op);
MlirLogicalResult lowerSliceDynamicPattern(StrataRewrite *rw, MlirOperation op, const StrataOpDef *def);
/* nn.concat and nn.tile with dynamic dims (lower_movement_dynamic.c): the
 * result, or null after a located error. */
MlirValue lowerConcatDynamic(StrataBuilder *b, MlirOperation op);
MlirValue lowerTileDynamic(StrataBuilder *b, MlirOperation op);
/* nn.resize with dynamic dims (run-time scales or sizes;
 * lower_resize_dynamic.c): the result, or null after a located error. */
MlirValue lowerResizeDynamic(StrataBuilder *b, MlirOperation op, const StrataOpDef *def);
/* The IR twin of nnCubicWeights: the 4 cubic tap weights (f64) at t in [0, 1)
 * with coefficient a (lower_resize_dynamic.c; GridSample uses it too). */
void lowerCubicWeights(StrataBuilder *b, MlirLocation loc, MlirValue t, double a, MlirValue w[4]);
/* nn.split with dynamic dims: replaces op, or fails after a located error. */
MlirLogicalResult lowerSplitDynamic(StrataRewrite *rw, MlirOperation op);
/* Result i of a split: its offset and extent along the axis as index
 * values (lower_dims.c; checks the given sizes against the extent). */
bool lowerSplitChunk(StrataBuilder *b, MlirOperation op, intptr_t i, MlirValue *offset, MlirValue *extent);

/* ---- Loops, branches and scalar accesses (lower_loops.c) ----
 * Begin/end pairs: between them *b builds the region; afterwards it is
 * back where it was and the op's results are strataResult(l.op, i). */
#define LOWER_MAX_CARRIED 8
typedef struct {
  MlirOperation op;
  MlirBlock body;
  StrataBuilder outer;
} LowerLoop;
/* scf.for %iv = lb to ub step 1 carrying `inits` (at most LOWER_MAX_CARRIED). */
void lowerForBegin(StrataBuilder *b, LowerLoop *l, MlirLocation loc, MlirValue lb, MlirValue ub,
                   const MlirValue *inits, int n);
MlirValue lowerLoopIv(const LowerLoop *l);
MlirValue lowerLoopArg(const LowerLoop *l, int i);
void lowerForEnd(StrataBuilder *b, LowerLoop *l, MlirLocation loc, const MlirValue *yields, int n);
typedef struct {
  MlirOperation op;
  StrataBuilder outer;
} LowerIf;
/* scf.if cond with results of the types of like[0..n): then-branch, else-branch. */
void lowerIfBegin(StrataBuilder *b, LowerIf *f, MlirLocation loc, MlirValue cond, const MlirValue *like, int n);
void lowerIfElse(StrataBuilder *b, LowerIf *f, MlirLocation loc, const MlirValue *yields, int n);
void lowerIfEnd(StrataBuilder *b, LowerIf *f, MlirLocation loc, const MlirValue *yields, int n);
/* tensor.insert of scalar v into t at indices at[0..n). */
MlirValue lowerInsert(StrataBuilder *b, MlirLocation loc, MlirValue v, MlirValue t, const MlirValue *at, int n);
/* tensor.empty of type t, its dynamic extents taken from dims[rank]. */
MlirValue lowerEmptyTensor(StrataBuilder *b, MlirLocation loc, MlirType t, const MlirValue *dims);
/* x as a 1-D tensor of its *count elements (row-major). */
MlirValue lowerFlatten(StrataBuilder *b, MlirLocation loc, MlirValue x, MlirValue *count);
/* The number of true elements among mask[0..n) (1-D i1), as an index. */
MlirValue lowerCountTrue(StrataBuilder *b, MlirLocation loc, MlirValue mask, MlirValue n);
/* Slice `offset` of x along `axis` (extent 1 there, the rank kept), and its
 * insertion into dest at `offset` along `axis`. */
MlirValue lowerSliceAt(StrataBuilder *b, MlirLocation loc, MlirValue x, int axis, MlirValue offset);
MlirValue lowerInsertSliceAt(StrataBuilder *b, MlirLocation loc, MlirValue slice, MlirValue dest, int axis,
                             MlirValue offset);
/* tensor.insert_slice of src into dest, rank-reducing: at the dims where
 * unit[d] the slice is one element at offset at[d] (an index value), the
 * other dims take src's dims in order, whole, from 0. */
MlirValue lowerInsertSliceUnits(StrataBuilder *b, MlirLocation loc, MlirValue src, MlirValue dest, const bool *unit,
                                const MlirValue *at);

/* Result 0 of op, of extents out[0..rank), computed by `body` at every
 * index (an identity linalg.generic over a tensor.empty): each static
 * extent of the result type is first checked against out[d] (shape error
 * kind 0 naming `operand`, at *site) and then stands for it in out.
 * Null after a located error. */
MlirValue lowerGenerateChecked(StrataBuilder *b, MlirOperation op, MlirValue *site, int operand, MlirValue *out,
                               LinalgBodyFn body, void *user);

/* x (f64) rounded to f32 "to odd" (an inexact result truncated toward 0
 * with its last bit set): rounding that to f16 then gives x's correct
 * rounding, as the host tensors convert (lower_elementwise.c). */
MlirValue lowerF64ToF32Odd(StrataBuilder *b, MlirLocation loc, MlirValue x);

/* A builder and a location, for scalar code written in many small steps
 * (lower_nms.c, lower_unique.c): index constants, binary ops, i1 constants. */
typedef struct LowerAt {
  StrataBuilder *b;
  MlirLocation loc;
} LowerAt;
static inline MlirValue atIdx(const LowerAt *a, int64_t v) { return lowerIndexConst(a->b, a->loc, v); }
static inline MlirValue atBin(const LowerAt *a, const char *name, MlirValue x, MlirValue y) {
  return emitBinary(a->b, a->loc, name, x, y);
}
static inline MlirValue atBool(const LowerAt *a, bool v) {
  return strataConstInt(a->b, a->loc, mlirIntegerTypeGet(a->b->ctx, 1), v);
}

/* ---- Axes known at run time (lower_axes_dynamic.c) ---- */
/* Element i of the 1-D integer `axes`, checked in [-rank, rank) and made
 * non-negative (an index); null after a located error. */
MlirValue lowerRuntimeAxis(StrataBuilder *b, MlirOperation op, MlirValue *site, MlirValue axes, int i, int rank);
/* isAxis[d] (i1) for d < rank: whether operand #1's run-time axes hold d;
 * each axis checked in range and not repeated. */
bool lowerRuntimeAxes(StrataBuilder *b, MlirOperation op, MlirValue *site, int rank, MlirValue *isAxis);
/* The result extents of a squeeze or unsqueeze whose axes (operand #1)
 * are run-time values. */
bool lowerRuntimeSqueezeDims(StrataBuilder *b, MlirOperation op, MlirValue *site, bool unsqueeze, MlirValue *out);
/* The same from flags: x's extents with the flagged dims removed (checked
 * to be 1) or inserted as 1s, into out[0..r). */
bool lowerSqueezeByFlags(StrataBuilder *b, MlirOperation op, MlirValue *site, bool unsqueeze, MlirValue x,
                         const MlirValue *isAxis, int r, MlirValue *out);
/* Reports `kind` through strata_rt_shape_error (runtime/status.c: its
 * kinds) with the site text `site` when `bad` holds at run time; got and
 * want are index values (lower_dims.c). */
#define SHAPE_ERROR_FN STRATA_SHAPE_ERROR_FN
void lowerShapeCheckAt(StrataBuilder *b, MlirLocation loc, MlirValue site, MlirValue bad, int kind, int operand,
                       int dim, MlirValue got, MlirValue want);

#endif
