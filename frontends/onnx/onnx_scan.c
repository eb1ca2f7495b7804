/* ONNX Scan as scf.for over its body (the subgraph imported into the loop's
 * region, as Loop's is: onnx_control.c). Iteration i of T runs the body on
 * the state variables and, per scan input, its slice at i (T - 1 - i when
 * the input's direction is 1) along its scan axis; each scan output's slice
 * is inserted at i (or T - 1 - i) along its output axis of a [.., T, ..]
 * accumulator. Opset 8 adds a leading batch dim to the states and scan
 * inputs (axis 1 is time): an outer scf.for over the batch runs the scan per
 * batch entry; its sequence_lens may be absent or a constant (entry b
 * scans its first lens[b] slices, reversed inputs from lens[b] - 1 down;
 * its scan outputs are zero from lens[b] on, as ONNX Runtime's; lengths
 * known only at run time pass nn.check_range for [1, T] first). The scan
 * inputs need static shapes (T is fixed when compiled); state variables
 * keep one type. */
#include <stdint.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"

typedef struct {
  int64_t T;
  size_t nState, nIn, nOut;
  int64_t inAxis[MAX_IO], inDir[MAX_IO], outAxis[MAX_IO], outDir[MAX_IO];
} ScanSpec;

static MlirValue indexConst(StrataBuilder *b, Node *x, int64_t v) {
  return strataConstInt(b, x->loc, strataIndexType(x->im->mc), v);
}

static MlirValue indexOp(StrataBuilder *b, Node *x, const char *name, MlirValue l, MlirValue r) {
  MlirValue ops[2] = {l, r};
  return strataResult(strataCreateOp(b, name, x->loc, .operands = {ops, 2},
                                     .results = STRATA_TYPES(strataIndexType(x->im->mc))),
                      0);
}

/* iv, or last - iv when reversed (last: T - 1, or a sequence's length - 1
 * when it is given). */
static MlirValue position(StrataBuilder *b, Node *x, MlirValue iv, int64_t T, MlirValue last, bool reverse) {
  if (!reverse) return iv;
  return indexOp(b, x, "arith.subi", last.ptr ? last : indexConst(b, x, T - 1), iv);
}

/* The attributes of a slice of `t` at one position of `axis`: offsets
 * (dynamic along axis), sizes (1 along axis), strides; nOperands is 2 for
 * tensor.extract_slice (source, offset), 3 for insert_slice (source, dest,
 * offset). */
static void sliceOf(Node *x, MlirType t, int axis, int nOperands, StrataNamedAttr *attrs) {
  MlirContext mc = x->im->mc;
  int rank = (int)mlirShapedTypeGetRank(t);
  int64_t offs[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
  for (int d = 0; d < rank; d++) {
    offs[d] = d == axis ? INT64_MIN : 0; /* ShapedType::kDynamic */
    sizes[d] = d == axis ? 1 : mlirShapedTypeGetDimSize(t, d);
    strides[d] = 1;
  }
  int32_t seg[5] = {1, 1, 1, 0, 0}, seg2[4] = {1, 1, 0, 0};
  attrs[0] = (StrataNamedAttr){"static_offsets", mlirDenseI64ArrayGet(mc, rank, offs)};
  attrs[1] = (StrataNamedAttr){"static_sizes", mlirDenseI64ArrayGet(mc, rank, sizes)};
  attrs[2] = (StrataNamedAttr){"static_strides", mlirDenseI64ArrayGet(mc, rank, strides)};
  attrs[3] = (StrataNamedAttr){"operandSegmentSizes", nOperands == 2 ? mlirDenseI32ArrayGet(mc, 4, seg2)
                                                                     : mlirDenseI32ArrayGet(mc, 5, seg)};
}

/* v's slice at `at` along axis, without that axis (tensor.extract_slice). */
static MlirValue sliceAt(StrataBuilder *b, Node *x, MlirValue v, int axis, MlirValue at) {
  MlirType t = mlirValueGetType(v);
  int rank = (int)mlirShapedTypeGetRank(t);
  StrataNamedAttr attrs[4];
  sliceOf(x, t, axis, 2, attrs);
  int64_t dims[STRATA_MAX_RANK];
  for (int d = 0, k = 0; d < rank; d++)
    if (d != axis) dims[k++] = mlirShapedTypeGetDimSize(t, d);
  MlirType rt = strataTensorType(mlirShapedTypeGetElementType(t), rank - 1, dims);
  MlirValue ops[2] = {v, at};
  return strataResult(strataCreateOp(b, "tensor.extract_slice", x->loc, .operands = {ops, 2}, .results = STRATA_TYPES(rt),
                                     .attrs = {attrs, 4}),
                      0);
}

/* dest with `slice` put at `at` along axis (tensor.insert_slice). */
static MlirValue insertAt(StrataBuilder *b, Node *x, MlirValue slice, MlirValue dest, int axis, MlirValue at) {
  StrataNamedAttr attrs[4];
  sliceOf(x, mlirValueGetType(dest), axis, 3, attrs);
  MlirValue ops[3] = {slice, dest, at};
  return strataResult(strataCreateOp(b, "tensor.insert_slice", x->loc, .operands = {ops, 3},
                                     .results = STRATA_TYPES(mlirValueGetType(dest)), .attrs = {attrs, 4}),
                      0);
}

static MlirValue zerosOf(StrataBuilder *b, Node *x, MlirType t) {
  MlirAttribute z = mlirDenseElementsAttrSplatGet(t, strataNumberAttr(mlirShapedTypeGetElementType(t), 0));
  return strataResult(strataCreateOp(b, "arith.constant", x->loc, .results = STRATA_TYPES(t), .attrs = STRATA_ATTRS({"value", z})), 0);
}

static MlirOperation forOp(StrataBuilder *b, Node *x, int64_t n, const MlirValue *inits, const MlirType *types, size_t k,
                           MlirRegion body) {
  MlirValue ops[MAX_IO + 3];
  ops[0] = indexConst(b, x, 0), ops[1] = indexConst(b, x, n), ops[2] = indexConst(b, x, 1);
  for (size_t i = 0; i < k; i++) ops[3 + i] = inits[i];
  MlirOperation op = strataCreateOp(b, "scf.for", x->loc, .operands = {ops, (intptr_t)k + 3}, .results = {types, (intptr_t)k},
                                    .numRegions = 1);
  mlirRegionTakeBody(mlirOperationGetRegion(op, 0), body);
  mlirRegionDestroy(body);
  return op;
}

/* The scan loop at x->im->b over states[nState] and ins[nIn]; outs gets the
 * final states then the stacked scan outputs. With `len` (an index, Scan-8's
 * sequence length of this batch entry, 1 <= len <= T) iterations from len
 * on keep the states and leave the scan outputs' zeros (scf.if), and
 * reversed inputs start at len - 1. False after an error. */
static bool scanLoop(Node *x, const Onnx__GraphProto *body, const ScanSpec *s, const MlirValue *states,
                     const MlirValue *ins, MlirValue len, MlirValue *outs) {
  Importer *im = x->im;
  MlirType types[MAX_IO + 1];
  types[0] = strataIndexType(im->mc);
  for (size_t i = 0; i < s->nState; i++) types[1 + i] = mlirValueGetType(states[i]);
  MlirBlock blk;
  MlirRegion region = onnxNewRegion(x->loc, types, (intptr_t)(1 + s->nState), &blk);
  StrataBuilder bb = strataBuilderAtEnd(im->mc, blk);
  MlirValue iv = mlirBlockGetArgument(blk, 0), bodyIn[MAX_IO], bodyOut[MAX_IO], yields[MAX_IO], inits[MAX_IO];
  MlirValue last = {NULL};
  /* the body goes into `work`: the loop's block, or the then-block of the
   * scf.if on iv < len */
  MlirBlock work = blk;
  MlirRegion thenRegion = {NULL};
  if (len.ptr) {
    last = indexOp(&bb, x, "arith.subi", len, indexConst(&bb, x, 1));
    thenRegion = onnxNewRegion(x->loc, NULL, 0, &work);
  }
  StrataBuilder wb = strataBuilderAtEnd(im->mc, work);
  for (size_t i = 0; i < s->nState; i++) bodyIn[i] = mlirBlockGetArgument(blk, (intptr_t)(1 + i)), inits[i] = states[i];
  for (size_t j = 0; j < s->nIn; j++)
    bodyIn[s->nState + j] = sliceAt(&wb, x, ins[j], (int)s->inAxis[j], position(&wb, x, iv, s->T, last, s->inDir[j]));
  bool ok = onnxImportSubgraph(x, "body", body, work, bodyIn, bodyOut);
  for (size_t i = 0; ok && i < s->nState; i++) {
    yields[i] = bodyOut[i];
    if (!mlirTypeEqual(mlirValueGetType(bodyOut[i]), types[1 + i])) {
      char a[256], b[256];
      strataTypeToString(types[1 + i], a, sizeof a);
      strataTypeToString(mlirValueGetType(bodyOut[i]), b, sizeof b);
      NODE_ERROR(im, x->loc, x->n, "state variable #%zu enters the scan as %.100s and leaves the body as %.100s; they "
                 "must have one type", i, a, b);
      ok = false;
    }
  }
  for (size_t k = 0; ok && k < s->nOut; k++) {
    MlirValue v = bodyOut[s->nState + k];
    MlirType vt = mlirValueGetType(v);
    int rank = mlirTypeIsARankedTensor(vt) ? (int)mlirShapedTypeGetRank(vt) : -1;
    int64_t axis = s->outAxis[k], dims[STRATA_MAX_RANK];
    if (rank < 0 || rank + 1 > STRATA_MAX_RANK || !mlirShapedTypeHasStaticShape(vt) || axis < -(rank + 1) || axis > rank) {
      NODE_ERROR(im, x->loc, x->n, "scan output #%zu needs a static shape of rank below %d and an axis (%lld) within its "
                 "rank + 1", k, STRATA_MAX_RANK, (long long)axis);
      ok = false;
      break;
    }
    if (axis < 0) axis += rank + 1;
    for (int d = 0, j = 0; d <= rank; d++) dims[d] = d == axis ? s->T : mlirShapedTypeGetDimSize(vt, j++);
    MlirType acc = strataTensorType(mlirShapedTypeGetElementType(vt), rank + 1, dims);
    types[1 + s->nState + k] = acc;
    inits[s->nState + k] = zerosOf(&im->b, x, acc);
    MlirValue arg = mlirBlockAddArgument(blk, acc, x->loc);
    yields[s->nState + k] = insertAt(&wb, x, v, arg, (int)axis, position(&wb, x, iv, s->T, last, s->outDir[k]));
  }
  if (!ok) {
    if (thenRegion.ptr) mlirRegionDestroy(thenRegion);
    mlirRegionDestroy(region);
    return false;
  }
  intptr_t n = (intptr_t)(s->nState + s->nOut);
  if (len.ptr) { /* scf.if (iv < len) { the body } else { the loop's values unchanged } */
    strataCreateOp(&wb, "scf.yield", x->loc, .operands = {yields, n});
    MlirBlock eb;
    MlirRegion elseRegion = onnxNewRegion(x->loc, NULL, 0, &eb);
    StrataBuilder ebb = strataBuilderAtEnd(im->mc, eb);
    for (intptr_t i = 0; i < n; i++) yields[i] = mlirBlockGetArgument(blk, 1 + i);
    strataCreateOp(&ebb, "scf.yield", x->loc, .operands = {yields, n});
    MlirValue cmp[2] = {iv, len};
    MlirValue active = strataResult(
        strataCreateOp(&bb, "arith.cmpi", x->loc, .operands = {cmp, 2}, .results = STRATA_TYPES(mlirIntegerTypeGet(im->mc, 1)),
                       .attrs = STRATA_ATTRS({"predicate", strataI64Attr(im->mc, 2)})),
        0); /* slt */
    MlirOperation ifOp = strataCreateOp(&bb, "scf.if", x->loc, .operands = {&active, 1}, .results = {types + 1, n},
                                        .numRegions = 2);
    mlirRegionTakeBody(mlirOperationGetRegion(ifOp, 0), thenRegion);
    mlirRegionTakeBody(mlirOperationGetRegion(ifOp, 1), elseRegion);
    mlirRegionDestroy(thenRegion);
    mlirRegionDestroy(elseRegion);
    for (intptr_t i = 0; i < n; i++) yields[i] = strataResult(ifOp, i);
  }
  strataCreateOp(&bb, "scf.yield", x->loc, .operands = {yields, n});
  MlirOperation op = forOp(&im->b, x, s->T, inits, types + 1, s->nState + s->nOut, region);
  for (size_t i = 0; i < s->nState + s->nOut; i++) outs[i] = strataResult(op, (intptr_t)i);
  return true;
}

/* An ints attribute of n values (default `dflt` each when absent); false
 * after an error. */
static bool intsAttr(Node *x, const char *name, size_t n, int64_t dflt, int64_t lo, int64_t hi, int64_t *out) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, name);
  for (size_t i = 0; i < n; i++) out[i] = dflt;
  if (!a) return true;
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS || a->n_ints != n) {
    NODE_ERROR(x->im, x->loc, x->n, "attribute '%s' must hold %zu integers", name, n);
    return false;
  }
  for (size_t i = 0; i < n; i++) {
    if (a->ints[i] < lo || a->ints[i] > hi) {
      NODE_ERROR(x->im, x->loc, x->n, "%s[%zu] = %lld is outside [%lld, %lld]", name, i, (long long)a->ints[i],
                 (long long)lo, (long long)hi);
      return false;
    }
    out[i] = a->ints[i];
  }
  return true;
}

/* The scan length: every scan input's static extent along its axis (each
 * axis normalized), equal for all; false after an error. */
static bool scanLength(Node *x, const MlirValue *ins, ScanSpec *s) {
  s->T = -1;
  for (size_t j = 0; j < s->nIn; j++) {
    MlirType t = mlirValueGetType(ins[j]);
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) {
      NODE_ERROR(x->im, x->loc, x->n, "scan input #%zu needs a static shape (the scan length is fixed when compiled)", j);
      return false;
    }
    int64_t rank = mlirShapedTypeGetRank(t);
    if (s->inAxis[j] < -rank || s->inAxis[j] >= rank) {
      NODE_ERROR(x->im, x->loc, x->n, "scan_input_axes[%zu] = %lld is outside the input's rank %lld", j,
                 (long long)s->inAxis[j], (long long)rank);
      return false;
    }
    if (s->inAxis[j] < 0) s->inAxis[j] += rank;
    int64_t len = mlirShapedTypeGetDimSize(t, s->inAxis[j]);
    if (s->T >= 0 && len != s->T) {
      NODE_ERROR(x->im, x->loc, x->n, "scan input #%zu has length %lld along its scan axis; the others %lld", j,
                 (long long)len, (long long)s->T);
      return false;
    }
    s->T = len;
  }
  return true;
}

static bool bindAll(Node *x, const MlirValue *outs, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!onnxBindOutput(x, i, outs[i])) return false;
  return true;
}

/* Scan-8: [B, ...] states and [B, T, ...] scan inputs, one scan per batch
 * entry in an outer scf.for whose results collect the entries. */
static bool importScan8(Node *x, const Onnx__GraphProto *body, ScanSpec *s) {
  Importer *im = x->im;
  const MlirValue *states = x->in + 1, *ins = x->in + 1 + s->nState;
  MlirValue all[MAX_IO];
  size_t nAll = s->nState + s->nIn;
  for (size_t i = 0; i < nAll; i++) all[i] = x->in[1 + i];
  int64_t B = -1;
  for (size_t i = 0; i < nAll; i++) {
    MlirType t = mlirValueGetType(all[i]);
    int64_t need = i < s->nState ? 1 : 2;
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) < need ||
        (B >= 0 && mlirShapedTypeGetDimSize(t, 0) != B)) {
      NODE_ERROR(im, x->loc, x->n, "input #%zu needs a static shape with the batch dim%s (of one extent for all)", 1 + i,
                 i < s->nState ? "" : " and the sequence dim");
      return false;
    }
    B = mlirShapedTypeGetDimSize(t, 0);
  }
  for (size_t j = 0; j < s->nIn; j++) s->inAxis[j] = 1;
  if (!scanLength(x, ins, s)) return false;
  for (size_t j = 0; j < s->nIn; j++) s->inAxis[j] = 0; /* per batch entry: [T, ...] */
  /* sequence_lens: a constant of B lengths in [1, T] (ONNX Runtime's
   * rule); all T is the same as none */
  bool shorter = false;
  MlirValue lensValue = x->in[0];
  if (!mlirValueIsNull(lensValue)) {
    int64_t lens[4096];
    int n = onnxConstInts(lensValue, lens, 4096);
    MlirType lt = mlirValueGetType(lensValue);
    if (!mlirTypeIsARankedTensor(lt) || mlirShapedTypeGetRank(lt) != 1 || mlirShapedTypeGetDimSize(lt, 0) != B ||
        !mlirTypeIsAInteger(onnxElemOf(lensValue)) || mlirIntegerTypeGetWidth(onnxElemOf(lensValue)) != 64) {
      NODE_ERROR(im, x->loc, x->n, "sequence_lens must be absent or a 1-D int64 tensor of %lld lengths", (long long)B);
      return false;
    }
    if (n < 0) { /* known at run time: each checked to lie in [1, T] */
      Attr range[2] = {{"min", strataI64Attr(im->mc, 1)}, {"max", strataI64Attr(im->mc, s->T)}};
      lensValue = onnxUnary(x, "nn.check_range", lensValue, range, 2);
      if (mlirValueIsNull(lensValue)) return false;
      shorter = true;
    }
    for (int i = 0; i < n; i++) {
      if (lens[i] < 1 || lens[i] > s->T) {
        NODE_ERROR(im, x->loc, x->n, "sequence_lens[%d] = %lld is outside [1, %lld]", i, (long long)lens[i],
                   (long long)s->T);
        return false;
      }
      shorter |= lens[i] < s->T;
    }
  }
  /* The outer loop over the batch: its results start as the state inputs
   * (each entry overwritten) and zeros for the scan outputs. */
  MlirType types[MAX_IO + 1];
  types[0] = strataIndexType(im->mc);
  for (size_t i = 0; i < s->nState; i++) types[1 + i] = mlirValueGetType(states[i]);
  MlirBlock blk;
  MlirRegion region = onnxNewRegion(x->loc, types, (intptr_t)(1 + s->nState), &blk);
  StrataBuilder outer = im->b;
  im->b = strataBuilderAtEnd(im->mc, blk);
  MlirValue b = mlirBlockGetArgument(blk, 0), st[MAX_IO], in[MAX_IO], outs[MAX_IO], yields[MAX_IO], inits[MAX_IO];
  for (size_t i = 0; i < s->nState; i++) st[i] = sliceAt(&im->b, x, states[i], 0, b), inits[i] = states[i];
  for (size_t j = 0; j < s->nIn; j++) in[j] = sliceAt(&im->b, x, ins[j], 0, b);
  MlirValue len = {NULL};
  if (shorter) { /* this entry's length, as an index */
    MlirValue at = strataResult(strataCreateOp(&im->b, "tensor.extract", x->loc, .operands = {(MlirValue[]){lensValue, b}, 2},
                                               .results = STRATA_TYPES(mlirIntegerTypeGet(im->mc, 64))),
                                0);
    len = strataResult(strataCreateOp(&im->b, "arith.index_cast", x->loc, .operands = {&at, 1},
                                      .results = STRATA_TYPES(strataIndexType(im->mc))),
                       0);
  }
  bool ok = scanLoop(x, body, s, st, in, len, outs);
  for (size_t i = 0; ok && i < s->nState + s->nOut; i++) {
    MlirValue dest;
    if (i < s->nState) {
      dest = mlirBlockGetArgument(blk, (intptr_t)(1 + i));
    } else {
      MlirType vt = mlirValueGetType(outs[i]);
      int rank = (int)mlirShapedTypeGetRank(vt);
      int64_t dims[STRATA_MAX_RANK];
      if (rank + 1 > STRATA_MAX_RANK) {
        NODE_ERROR(im, x->loc, x->n, "scan output #%zu has rank %d; with the batch dim it must be below %d", i - s->nState,
                   rank, STRATA_MAX_RANK);
        ok = false;
        break;
      }
      dims[0] = B;
      for (int d = 0; d < rank; d++) dims[1 + d] = mlirShapedTypeGetDimSize(vt, d);
      types[1 + i] = strataTensorType(mlirShapedTypeGetElementType(vt), rank + 1, dims);
      inits[i] = zerosOf(&outer, x, types[1 + i]);
      dest = mlirBlockAddArgument(blk, types[1 + i], x->loc);
    }
    yields[i] = insertAt(&im->b, x, outs[i], dest, 0, b);
  }
  if (ok) strataCreateOp(&im->b, "scf.yield", x->loc, .operands = {yields, (intptr_t)(s->nState + s->nOut)});
  im->b = outer;
  if (!ok) {
    mlirRegionDestroy(region);
    return false;
  }
  MlirOperation op = forOp(&im->b, x, B, inits, types + 1, s->nState + s->nOut, region);
  for (size_t i = 0; i < s->nState + s->nOut; i++) outs[i] = strataResult(op, (intptr_t)i);
  return bindAll(x, outs, s->nState + s->nOut);
}

bool onnxImportScan(Node *x) {
  Importer *im = x->im;
  const Onnx__GraphProto *body = onnxGraphAttr(x, "body");
  const Onnx__AttributeProto *m = onnxFindAttr(x->n, "num_scan_inputs");
  if (!body) return false;
  bool v8 = im->opset < 9;
  ScanSpec s = {0};
  int64_t first = v8 ? 1 : 0; /* Scan-8's sequence_lens */
  if (!m || m->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT || m->i < 1 || m->i > x->nIn - first) {
    NODE_ERROR(im, x->loc, x->n, "needs 'num_scan_inputs' from 1 to its %lld state and scan inputs",
               (long long)(x->nIn - first));
    return false;
  }
  s.nIn = (size_t)m->i;
  s.nState = (size_t)(x->nIn - first) - s.nIn;
  if (x->n->n_output < s.nState || body->n_input != s.nState + s.nIn || body->n_output != x->n->n_output) {
    NODE_ERROR(im, x->loc, x->n, "has %zu state and %zu scan inputs and %zu outputs, its body %zu inputs and %zu "
               "outputs; the body takes (states..., scan slices...) and gives (states..., scan output slices...)",
               s.nState, s.nIn, x->n->n_output, body->n_input, body->n_output);
    return false;
  }
  s.nOut = x->n->n_output - s.nState;
  for (int i = (int)first; i < x->nIn; i++)
    if (mlirValueIsNull(x->in[i])) {
      NODE_ERROR(im, x->loc, x->n, "input #%d is absent", i);
      return false;
    }
  if (v8) {
    if (!intsAttr(x, "directions", s.nIn, 0, 0, 1, s.inDir)) return false;
    return importScan8(x, body, &s);
  }
  if (!intsAttr(x, "scan_input_axes", s.nIn, 0, INT64_MIN / 2, INT64_MAX / 2, s.inAxis) ||
      !intsAttr(x, "scan_input_directions", s.nIn, 0, 0, 1, s.inDir) ||
      !intsAttr(x, "scan_output_axes", s.nOut, 0, INT64_MIN / 2, INT64_MAX / 2, s.outAxis) ||
      !intsAttr(x, "scan_output_directions", s.nOut, 0, 0, 1, s.outDir) || !scanLength(x, x->in + s.nState, &s))
    return false;
  MlirValue outs[MAX_IO];
  return scanLoop(x, body, &s, x->in, x->in + s.nState, (MlirValue){NULL}, outs) && bindAll(x, outs, s.nState + s.nOut);
}
