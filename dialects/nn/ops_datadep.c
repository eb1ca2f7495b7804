/* Ops whose output shape depends on the input's values (SOD²'s EDO class,
 * issue 19): NonZero, Compress, Unique, NonMaxSuppression. Their data-
 * dependent dims are `?` whatever the operands; the interpreter kernels
 * (datadep_interp.c) allocate their results, the CPU lowerings
 * (conversions/nn-to-linalg/lower_datadep*.c) size them at run time. */
#include <string.h>
#include "nn_datadep.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }
static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static MlirType i64Type(MlirOperation op) { return mlirIntegerTypeGet(mlirOperationGetContext(op), 64); }

/* ---- NonZero ---- */

static MlirLogicalResult inferNonZero(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_ANY)) return fail();
  if (x.rank == 0) {
    /* ONNX's shape rule says [0, n], numpy's nonzero of a scalar gives [1, n]: refused, not guessed. */
    nnError(op, "operand 'x' must have rank >= 1 (NonZero of a scalar has no agreed shape)");
    return fail();
  }
  int64_t dims[2] = {x.rank, -1};
  nnSetShape(res, 2, dims, i64Type(op));
  return ok();
}

/* ---- Compress ---- */

bool nnCompressParams(const StrataOpDef *def, MlirOperation op, bool *hasAxis, int64_t *axis) {
  StrataShape x, c;
  if (!nnOperand(def, op, "input", &x) || !nnOperand(def, op, "condition", &c) ||
      !nnCheckType(op, "input", &x, NN_ANY) || !nnCheckType(op, "condition", &c, NN_BOOL))
    return false;
  if (c.rank != 1) {
    char dc[300];
    nnError(op, "%s must be 1-D", nnDescribe("condition", &c, dc, sizeof dc));
    return false;
  }
  *hasAxis = !mlirAttributeIsNull(strataOpAttr(op, "axis"));
  if (*hasAxis && (!nnAttrInt(op, "axis", 0, axis) || !nnNormalizeAxis(op, "axis", axis, x.rank))) return false;
  int64_t extent;
  if (*hasAxis) extent = x.dims[*axis];
  else if (!nnDimProduct(op, x.dims, x.rank, &extent)) return false;
  /* numpy reads condition[i] for every i it covers; ONNX allows only a
   * shorter one. A longer one is refused (at run time when a length is '?'). */
  if (extent >= 0 && c.dims[0] > extent) {
    nnError(op, "operand 'condition' has %lld elements, more than the %lld %s", (long long)c.dims[0],
            (long long)extent, *hasAxis ? "slices along 'axis'" : "elements of the flattened input");
    return false;
  }
  return true;
}

static MlirLogicalResult inferCompress(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  bool hasAxis;
  int64_t axis = 0, n = -1;
  if (!nnCompressParams(def, op, &hasAxis, &axis)) return fail();
  StrataShape x;
  nnOperand(def, op, "input", &x);
  if (!hasAxis) {
    nnSetShape(res, 1, &n, x.elementType);
    return ok();
  }
  *res = x;
  res->dims[axis] = -1;
  return ok();
}

/* ---- Unique ---- */

bool nnUniqueParams(const StrataOpDef *def, MlirOperation op, bool *hasAxis, int64_t *axis, bool *sorted) {
  StrataShape x;
  int64_t s;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_ANY) ||
      !nnAttrInt(op, "sorted", 1, &s))
    return false;
  if (s != 0 && s != 1) {
    nnError(op, "attribute 'sorted' must be 0 or 1, not %lld", (long long)s);
    return false;
  }
  *sorted = s;
  *hasAxis = !mlirAttributeIsNull(strataOpAttr(op, "axis"));
  *axis = 0;
  if (*hasAxis && (!nnAttrInt(op, "axis", 0, axis) || !nnNormalizeAxis(op, "axis", axis, x.rank))) return false;
  return true;
}

static MlirLogicalResult inferUnique(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  bool hasAxis, sorted;
  int64_t axis, unknown = -1, total;
  if (!nnUniqueParams(def, op, &hasAxis, &axis, &sorted)) return fail();
  StrataShape x;
  nnOperand(def, op, "x", &x);
  if (hasAxis) {
    res[0] = x;
    res[0].dims[axis] = -1;
    total = x.dims[axis];
  } else {
    nnSetShape(&res[0], 1, &unknown, x.elementType);
    if (!nnDimProduct(op, x.dims, x.rank, &total)) return fail();
  }
  nnSetShape(&res[1], 1, &unknown, i64Type(op));
  nnSetShape(&res[2], 1, &total, i64Type(op)); /* one per slice (element) of x */
  nnSetShape(&res[3], 1, &unknown, i64Type(op));
  return ok();
}

/* ---- NonMaxSuppression ---- */

/* A scalar or one-element 1-D operand of element type `mask` (ONNX's
 * examples give both); a 1-D length '?' is checked when it runs. */
static bool scalarOperand(const StrataOpDef *def, MlirOperation op, const char *name, unsigned mask) {
  StrataShape s;
  if (!nnHasOperand(def, op, name)) return true;
  if (!nnOperand(def, op, name, &s) || !nnCheckType(op, name, &s, mask)) return false;
  if (s.rank == 0 || (s.rank == 1 && (s.dims[0] == 1 || s.dims[0] == -1))) return true;
  char d[300];
  nnError(op, "%s must be a scalar or hold one element", nnDescribe(name, &s, d, sizeof d));
  return false;
}

static MlirLogicalResult inferNms(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape b, s;
  int64_t center;
  if (!nnOperand(def, op, "boxes", &b) || !nnOperand(def, op, "scores", &s) ||
      !nnCheckType(op, "boxes", &b, NN_FLOAT) || !nnSameType(op, "boxes", &b, "scores", &s) ||
      !scalarOperand(def, op, "max_output_boxes_per_class", NN_T(STRATA_DTYPE_I64)) ||
      !scalarOperand(def, op, "iou_threshold", NN_FLOAT) || !scalarOperand(def, op, "score_threshold", NN_FLOAT) ||
      !nnAttrInt(op, "center_point_box", 0, &center))
    return fail();
  if (center != 0 && center != 1) {
    nnError(op, "attribute 'center_point_box' must be 0 or 1, not %lld", (long long)center);
    return fail();
  }
  char db[300], ds[300];
  if (b.rank != 3 || (b.dims[2] != -1 && b.dims[2] != 4)) {
    nnError(op, "%s must be [batches, boxes, 4]", nnDescribe("boxes", &b, db, sizeof db));
    return fail();
  }
  if (s.rank != 3) {
    nnError(op, "%s must be [batches, classes, boxes]", nnDescribe("scores", &s, ds, sizeof ds));
    return fail();
  }
  for (int i = 0; i < 2; i++) {
    int bd = i == 0 ? 0 : 1, sd = i == 0 ? 0 : 2; /* batches, then boxes */
    if (b.dims[bd] >= 0 && s.dims[sd] >= 0 && b.dims[bd] != s.dims[sd]) {
      nnError(op, "%s and %s disagree on the number of %s", nnDescribe("boxes", &b, db, sizeof db),
              nnDescribe("scores", &s, ds, sizeof ds), i == 0 ? "batches" : "boxes");
      return fail();
    }
  }
  int64_t dims[2] = {-1, 3};
  nnSetShape(res, 2, dims, i64Type(op));
  return ok();
}

/* A declared static extent where the shape depends on the data would be
 * trusted by the lowerings (and be wrong for other inputs): refused. */
static MlirLogicalResult verifyDataDep(const StrataOpDef *def, MlirOperation op) {
  intptr_t n = mlirOperationGetNumResults(op);
  StrataShape inferred[4];
  if (n > 4 || mlirLogicalResultIsFailure(def->infer(def, op, inferred))) return fail();
  for (intptr_t i = 0; i < n; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    for (int d = 0; d < inferred[i].rank; d++)
      if (inferred[i].dims[d] == -1 && !mlirShapedTypeIsDynamicDim(t, d)) {
        nnError(op, "result #%d: dim %d depends on the input's values and must be '?'", (int)i, d);
        return fail();
      }
  }
  return ok();
}

#define DATADEP(n, sum, ins, outs, inf, run, ty)                                                        \
  {.name = "nn." n, .summary = sum, .operands = ins, .results = outs, .flags = STRATA_OP_PURE,          \
   .infer = inf, .interpret = run, .mapping = nnMapManyToMany, .dynamism = STRATA_DYN_EDO, .types = ty, \
   .verify = verifyDataDep}
static const StrataOpDef kOps[] = {
    DATADEP("non_zero", "the indices of the non-zero elements, [rank, count] i64, in row-major order", "x",
            "y", inferNonZero, nnInterpNonZero, "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64 -> i64"),
    DATADEP("compress", "the slices along `axis` (or elements of the flattened input without it) whose "
            "`condition` is true; a shorter condition drops the rest", "input, condition", "output",
            inferCompress, nnInterpCompress, "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"),
    DATADEP("unique", "the distinct slices along `axis` (or elements of the flattened input), sorted or in "
            "order of first occurrence (`sorted`), with their first indices, each input slice's index "
            "into them and their counts (i64)", "x", "y, indices, inverse_indices, counts", inferUnique,
            nnInterpUnique, "f16 bf16 f32 f64 i1 i8 i16 i32 i64 ui8 ui16 ui32 ui64"),
    DATADEP("non_max_suppression", "ONNX NonMaxSuppression: per batch and class, boxes by descending score "
            "(above `score_threshold`) not overlapping a kept one by IoU > `iou_threshold`, at most "
            "`max_output_boxes_per_class` (absent: none); [count, 3] i64 of (batch, class, box)",
            "boxes, scores, max_output_boxes_per_class?, iou_threshold?, score_threshold?", "selected_indices",
            inferNms, nnInterpNms, "f16 bf16 f32 f64 -> i64"),
};

const StrataOpTable nnDataDepTable = {kOps, sizeof kOps / sizeof kOps[0]};

const StrataOpDef *nnDataDepDef(MlirOperation op) {
  for (size_t i = 0; i < sizeof kOps / sizeof kOps[0]; i++)
    if (strataOpIsNamed(op, kOps[i].name)) return &kOps[i];
  return NULL;
}
