/* Einsum (numpy.einsum): one or two operands; the ONNX importer chains
 * equations of more operands into pairs. The equation is parsed by
 * nn_einsum.c into a loop nest, which the kernel below and the lowering
 * (one linalg.generic) both follow. */
#include <stdio.h>
#include <string.h>
#include "nn_einsum.h"
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }


/* The equation parsed for operands of the given ranks and dims; false with
 * the reason in `why`. */
static bool einsumFor(MlirOperation op, const int *ranks, const int64_t (*dims)[STRATA_MAX_RANK], NnEinsum *e,
                      char *why, size_t whySize) {
  MlirAttribute a = strataOpAttr(op, "equation");
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) {
    snprintf(why, whySize, "needs a string attribute 'equation'");
    return false;
  }
  MlirStringRef s = mlirStringAttrGetValue(a);
  char eq[512], reason[256];
  if (s.length >= sizeof eq) {
    snprintf(why, whySize, "equation is longer than %zu characters", sizeof eq - 1);
    return false;
  }
  snprintf(eq, sizeof eq, "%.*s", (int)s.length, s.data);
  if (!nnEinsumParse(eq, (int)mlirOperationGetNumOperands(op), ranks, dims, e, reason, sizeof reason)) {
    snprintf(why, whySize, "equation \"%s\" %s", eq, reason);
    return false;
  }
  return true;
}

/* The equation parsed for op's operand types; false after a located error
 * (when `emit`; silently otherwise). */
bool nnEinsumOf(MlirOperation op, NnEinsum *e, bool emit) {
  int n = (int)mlirOperationGetNumOperands(op), ranks[NN_EINSUM_MAX_INPUTS];
  int64_t dims[NN_EINSUM_MAX_INPUTS][STRATA_MAX_RANK];
  char why[1024];
  for (int i = 0; i < n && i < NN_EINSUM_MAX_INPUTS; i++)
    if (!strataGetShape(mlirValueGetType(mlirOperationGetOperand(op, i)), &ranks[i], dims[i])) {
      if (emit) nnError(op, "operand #%d must be a ranked tensor of rank <= %d", i, STRATA_MAX_RANK);
      return false;
    }
  if (!einsumFor(op, ranks, (const int64_t(*)[STRATA_MAX_RANK])dims, e, why, sizeof why)) {
    if (emit) nnError(op, "%s", why);
    return false;
  }
  return true;
}

static MlirLogicalResult inferEinsum(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape a, b;
  if (!nnOperand(def, op, "a", &a) || !nnCheckType(op, "a", &a, NN_NUMERIC)) return fail();
  if (nnHasOperand(def, op, "b") && (!nnOperand(def, op, "b", &b) || !nnSameType(op, "a", &a, "b", &b)))
    return fail();
  NnEinsum e;
  if (!nnEinsumOf(op, &e, true)) return fail();
  nnSetShape(res, e.outRank, e.extent, a.elementType);
  return mlirLogicalResultSuccess();
}

/* Flat offset of operand i at loop indices idx (broadcast dims read 0). */
static int64_t operandOffset(const NnEinsum *e, const StrataTensor *t, int i, const int64_t *idx) {
  int64_t off = 0;
  for (int d = 0; d < e->rank[i]; d++) off = off * t->dims[d] + (t->dims[d] == 1 ? 0 : idx[e->loop[i][d]]);
  return off;
}

/* Integers accumulate exactly in int64 (wrapping like the lowered code at
 * the element type's width on the final store), floats in double. */
static MlirLogicalResult interpEinsum(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  (void)in;
  /* the extents of the tensors given: the types may leave them open */
  int n = (int)mlirOperationGetNumOperands(op), ranks[NN_EINSUM_MAX_INPUTS];
  int64_t dims[NN_EINSUM_MAX_INPUTS][STRATA_MAX_RANK];
  for (int i = 0; i < n && i < NN_EINSUM_MAX_INPUTS; i++) {
    ranks[i] = x[i]->rank;
    memcpy(dims[i], x[i]->dims, sizeof(int64_t) * (size_t)x[i]->rank);
  }
  NnEinsum e;
  char why[1024];
  if (n > NN_EINSUM_MAX_INPUTS || !einsumFor(op, ranks, (const int64_t(*)[STRATA_MAX_RANK])dims, &e, why, sizeof why))
    return nnInterpError(op, "%s", n > NN_EINSUM_MAX_INPUTS ? "too many operands" : why);
  bool isFloat = nnIsFloatDType(y[0]->dtype);
  int64_t idx[NN_EINSUM_MAX_LOOPS] = {0}, out = 0;
  int sum = e.numLoops - e.outRank;
  bool noTerms = false; /* a summed extent of 0: every result element is 0 */
  for (int l = 0; l < e.numLoops; l++) {
    if (e.extent[l] == 0 && l < e.outRank) return mlirLogicalResultSuccess(); /* empty result */
    noTerms |= e.extent[l] == 0;
  }
  do {
    double accF = 0;
    uint64_t accI = 0;
    for (int l = e.outRank; l < e.numLoops; l++) idx[l] = 0;
    while (!noTerms) {
      double pf = 1;
      uint64_t pi = 1;
      for (int i = 0; i < e.numInputs; i++) {
        int64_t off = operandOffset(&e, x[i], i, idx);
        if (isFloat) pf *= strataTensorGetDouble(x[i], off);
        else pi *= (uint64_t)nnGetInt(x[i], off);
      }
      accF += pf;
      accI += pi;
      if (sum == 0 || !nnNextIndex(idx + e.outRank, e.extent + e.outRank, sum)) break;
    }
    if (isFloat) strataTensorSetDouble(y[0], out, accF);
    else nnSetInt(y[0], out, (int64_t)accI);
    out++;
  } while (e.outRank > 0 && nnNextIndex(idx, e.extent, e.outRank));
  return mlirLogicalResultSuccess();
}

static double flopsEinsum(MlirOperation op) {
  NnEinsum e;
  bool ok = nnEinsumOf(op, &e, false);
  double terms = 1;
  for (int l = 0; ok && l < e.numLoops; l++) terms *= e.extent[l] < 0 ? 0 : (double)e.extent[l];
  return ok ? terms * (double)e.numInputs : 0;
}

static const StrataAttrDef kEinsumAttrs[] = {
    {"equation", STRATA_ATTR_STRING, STRATA_ATTR_NON_EMPTY, NULL,
     "numpy.einsum subscripts: \"ij,jk->ik\", \"...ii->...i\", \"bij,bjk\""}};

static const StrataOpDef kOps[] = {
    {.name = "nn.einsum",
     .summary = "numpy.einsum of one or two operands: implicit or explicit result, diagonals, '...' "
                "broadcasting, sums over subscripts",
     .operands = "a, b?",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferEinsum,
     .interpret = interpEinsum,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .flops = flopsEinsum,
     .types = "f16 bf16 f32 f64 i8 i16 i32 i64 ui8 ui16 ui32 ui64",
     .attrs = kEinsumAttrs,
     .numAttrs = sizeof kEinsumAttrs / sizeof kEinsumAttrs[0]},
};

const StrataOpTable nnEinsumTable = {kOps, sizeof kOps / sizeof kOps[0]};
