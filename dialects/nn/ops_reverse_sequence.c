/* ReverseSequence: reverses the first sequence_lens[b] steps along
 * time_axis of each batch b (batch_axis); later steps are copied. */
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

/* Reads and checks the axes: one of batch_axis and time_axis is 0, the
 * other 1 (ONNX). */
bool nnReverseSequenceAxes(MlirOperation op, int64_t *batchAxis, int64_t *timeAxis) {
  if (!nnAttrInt(op, "batch_axis", 1, batchAxis) || !nnAttrInt(op, "time_axis", 0, timeAxis)) return false;
  if (!((*batchAxis == 0 && *timeAxis == 1) || (*batchAxis == 1 && *timeAxis == 0))) {
    nnError(op, "batch_axis %lld and time_axis %lld must be 0 and 1 or 1 and 0", (long long)*batchAxis,
            (long long)*timeAxis);
    return false;
  }
  return true;
}

static MlirLogicalResult inferReverseSequence(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x, lens;
  int64_t batchAxis, timeAxis;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_ANY) || !nnOperand(def, op, "sequence_lens", &lens) ||
      !nnCheckType(op, "sequence_lens", &lens, NN_INDEX) || !nnReverseSequenceAxes(op, &batchAxis, &timeAxis))
    return fail();
  if (x.rank < 2) {
    nnError(op, "operand 'x' must have rank >= 2 (time and batch), got rank %d", x.rank);
    return fail();
  }
  int64_t B = x.dims[batchAxis];
  if (lens.rank != 1 || (B >= 0 && lens.dims[0] >= 0 && lens.dims[0] != B)) {
    char d[300];
    nnError(op, "%s must be 1-D with one length per batch entry (%lld)", nnDescribe("sequence_lens", &lens, d, sizeof d),
            (long long)B);
    return fail();
  }
  *res = x;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpReverseSequence(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                               StrataTensor **y) {
  (void)in;
  int64_t batchAxis, timeAxis, idx[STRATA_MAX_RANK] = {0}, strides[STRATA_MAX_RANK];
  if (!nnReverseSequenceAxes(op, &batchAxis, &timeAxis)) return fail();
  const StrataTensor *X = x[0];
  int64_t T = X->dims[timeAxis], n = strataTensorNumElements(X);
  for (int64_t b = 0; b < X->dims[batchAxis]; b++) {
    int64_t len = nnGetInt(x[1], b);
    if (len < 0 || len > T)
      return nnInterpError(op, "sequence_lens[%lld] is %lld; expected 0 to the time extent %lld", (long long)b,
                           (long long)len, (long long)T);
  }
  nnStrides(X, strides);
  size_t size = strataDTypeSize(X->dtype);
  for (int64_t i = 0; i < n; i++) {
    int64_t t = idx[timeAxis], len = nnGetInt(x[1], idx[batchAxis]);
    int64_t src = i + ((t < len ? len - 1 - t : t) - t) * strides[timeAxis];
    memcpy((char *)y[0]->data + i * size, (const char *)X->data + src * size, size);
    nnNextIndex(idx, X->dims, X->rank);
  }
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.reverse_sequence",
     .summary = "reverses the first sequence_lens[b] steps along time_axis of each batch entry b (batch_axis); "
                "later steps are copied",
     .operands = "x, sequence_lens",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferReverseSequence,
     .interpret = interpReverseSequence,
     .mapping = nnMapReorganize,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "any"},
};

const StrataOpTable nnSequenceTable = {kOps, sizeof kOps / sizeof kOps[0]};
