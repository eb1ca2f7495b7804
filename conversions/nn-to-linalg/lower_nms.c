/* nn.non_max_suppression -> scf loops (issue 19), ONNX Runtime's selection
 * exactly: per batch and class, repeatedly the best remaining candidate
 * (highest score above score_threshold, the lower index on ties) is taken
 * out; it is kept unless its IoU with a box kept before for this class
 * exceeds iou_threshold, until max_output_boxes_per_class are kept. The
 * selections go to a [batches * classes * min(max, boxes) + 1, 3] buffer whose
 * first `count` rows are the result. IoU is computed in f32 (f64 for f64
 * boxes), step by step as ONNX Runtime's SuppressByIOU does; the
 * interpreter rounds each step the same way (datadep_interp.c). */
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "nn_datadep.h"
#include "lower_internal.h"

typedef struct {
  LowerAt at; /* first: the shorthands below take &x->at */
  MlirValue boxes, scores;
  MlirType ct, f64; /* IoU arithmetic; comparisons with the thresholds */
  bool center;
  bool hasScore;
  MlirValue iou, scoreMin; /* f64 */
  MlirValue N, perClass;
} Nms;


/* v (float) as type t: extended or truncated, or as is. */
static MlirValue toFloat(const Nms *s, MlirValue v, MlirType t) {
  unsigned from = mlirFloatTypeGetWidth(mlirValueGetType(v)), to = mlirFloatTypeGetWidth(t);
  return from == to ? v : emitConvert(s->at.b, s->at.loc, from < to ? "arith.extf" : "arith.truncf", v, t);
}

/* The value of an optional scalar (or one-element) operand. */
static MlirValue scalarOf(StrataBuilder *b, MlirLocation loc, MlirValue t) {
  MlirValue zero = lowerIndexConst(b, loc, 0);
  return linalgExtract(b, loc, t, &zero, lowerRank(t));
}

/* [ymin, xmin, ymax, xmax] of box n of batch bi, in the compute type. */
static void extents(const Nms *s, MlirValue bi, MlirValue n, MlirValue *e) {
  MlirValue v[4];
  for (int i = 0; i < 4; i++)
    v[i] = toFloat(s, linalgExtract(s->at.b, s->at.loc, s->boxes, (MlirValue[]){bi, n, atIdx(&s->at, i)}, 3), s->ct);
  if (s->center) {
    MlirValue two = emitConst(s->at.b, s->at.loc, s->ct, 2);
    MlirValue hw = atBin(&s->at, "arith.divf", v[2], two), hh = atBin(&s->at, "arith.divf", v[3], two);
    e[0] = atBin(&s->at, "arith.subf", v[1], hh), e[1] = atBin(&s->at, "arith.subf", v[0], hw);
    e[2] = atBin(&s->at, "arith.addf", v[1], hh), e[3] = atBin(&s->at, "arith.addf", v[0], hw);
    return;
  }
  e[0] = atBin(&s->at, "arith.minnumf", v[0], v[2]), e[1] = atBin(&s->at, "arith.minnumf", v[1], v[3]);
  e[2] = atBin(&s->at, "arith.maxnumf", v[0], v[2]), e[3] = atBin(&s->at, "arith.maxnumf", v[1], v[3]);
}

static MlirValue area(const Nms *s, const MlirValue *e) {
  return atBin(&s->at, "arith.mulf", atBin(&s->at, "arith.subf", e[3], e[1]), atBin(&s->at, "arith.subf", e[2], e[0]));
}

/* ONNX Runtime's SuppressByIOU for boxes a and c of batch bi (i1). */
static MlirValue suppresses(const Nms *s, MlirValue bi, MlirValue a, MlirValue c) {
  MlirValue u[4], v[4], zero = emitConst(s->at.b, s->at.loc, s->ct, 0);
  extents(s, bi, a, u);
  extents(s, bi, c, v);
  MlirValue ymin = atBin(&s->at, "arith.maxnumf", u[0], v[0]), xmin = atBin(&s->at, "arith.maxnumf", u[1], v[1]);
  MlirValue ymax = atBin(&s->at, "arith.minnumf", u[2], v[2]), xmax = atBin(&s->at, "arith.minnumf", u[3], v[3]);
  MlirValue inter = atBin(&s->at, "arith.mulf", atBin(&s->at, "arith.subf", xmax, xmin), atBin(&s->at, "arith.subf", ymax, ymin));
  MlirValue areaA = area(s, u), areaC = area(s, v);
  MlirValue uni = atBin(&s->at, "arith.subf", atBin(&s->at, "arith.addf", areaA, areaC), inter);
  MlirValue ok = atBin(&s->at, "arith.andi", emitCmpF(s->at.b, s->at.loc, CMPF_OGT, xmax, xmin), emitCmpF(s->at.b, s->at.loc, CMPF_OGT, ymax, ymin));
  MlirValue positive[4] = {inter, areaA, areaC, uni};
  for (int i = 0; i < 4; i++) ok = atBin(&s->at, "arith.andi", ok, emitCmpF(s->at.b, s->at.loc, CMPF_OGT, positive[i], zero));
  MlirValue ratio = toFloat(s, atBin(&s->at, "arith.divf", inter, uni), s->f64);
  return atBin(&s->at, "arith.andi", ok, emitCmpF(s->at.b, s->at.loc, CMPF_OGT, ratio, s->iou));
}

/* The best remaining candidate of (bi, ci): *found, *best (index). */
static void bestCandidate(const Nms *s, MlirValue bi, MlirValue ci, MlirValue removed, MlirValue *found, MlirValue *best) {
  StrataBuilder *b = s->at.b;
  LowerLoop l;
  MlirValue lowest = emitConst(b, s->at.loc, s->f64, 0);
  lowerForBegin(b, &l, s->at.loc, atIdx(&s->at, 0), s->N, (MlirValue[]){atBool(&s->at, false), atIdx(&s->at, 0), lowest}, 3);
  MlirValue n = lowerLoopIv(&l), had = lowerLoopArg(&l, 0), at = lowerLoopArg(&l, 1), top = lowerLoopArg(&l, 2);
  MlirValue score = toFloat(s, linalgExtract(b, s->at.loc, s->scores, (MlirValue[]){bi, ci, n}, 3), s->f64);
  MlirValue valid = atBin(&s->at, "arith.xori", linalgExtract(b, s->at.loc, removed, &n, 1), atBool(&s->at, true));
  /* a NaN score is never a candidate */
  valid = atBin(&s->at, "arith.andi", valid, emitCmpF(b, s->at.loc, CMPF_ORD, score, score));
  if (s->hasScore) valid = atBin(&s->at, "arith.andi", valid, emitCmpF(b, s->at.loc, CMPF_OGT, score, s->scoreMin));
  MlirValue better = atBin(&s->at, "arith.ori", atBin(&s->at, "arith.xori", had, atBool(&s->at, true)), emitCmpF(b, s->at.loc, CMPF_OGT, score, top));
  MlirValue take = atBin(&s->at, "arith.andi", valid, better);
  lowerForEnd(b, &l, s->at.loc,
              (MlirValue[]){atBin(&s->at, "arith.ori", had, take), emitSelect(b, s->at.loc, take, n, at),
                            emitSelect(b, s->at.loc, take, score, top)},
              3);
  *found = strataResult(l.op, 0), *best = strataResult(l.op, 1);
}

/* Whether box `cand` of batch bi overlaps one kept in rows first..count of sel. */
static MlirValue suppressedByKept(const Nms *s, MlirValue bi, MlirValue cand, MlirValue sel, MlirValue first,
                                  MlirValue count) {
  LowerLoop l;
  lowerForBegin(s->at.b, &l, s->at.loc, first, count, (MlirValue[]){atBool(&s->at, false)}, 1);
  MlirValue row = lowerLoopIv(&l);
  MlirValue kept = emitConvert(s->at.b, s->at.loc, "arith.index_cast",
                               linalgExtract(s->at.b, s->at.loc, sel, (MlirValue[]){row, atIdx(&s->at, 2)}, 2), strataIndexType(s->at.b->ctx));
  MlirValue any = atBin(&s->at, "arith.ori", lowerLoopArg(&l, 0), suppresses(s, bi, cand, kept));
  lowerForEnd(s->at.b, &l, s->at.loc, &any, 1);
  return strataResult(l.op, 0);
}

/* One class: N rounds of taking the best candidate out. Carries (sel, count). */
static void selectClass(const Nms *s, MlirValue bi, MlirValue ci, MlirValue *sel, MlirValue *count) {
  StrataBuilder *b = s->at.b;
  MlirType i1t = mlirIntegerTypeGet(b->ctx, 1), i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue removed = lowerInitDims(b, s->at.loc, strataTensorType(i1t, 1, (int64_t[]){-1}), &s->N, 0), first = *count;
  LowerLoop l;
  lowerForBegin(b, &l, s->at.loc, atIdx(&s->at, 0), s->N, (MlirValue[]){removed, *sel, *count, atIdx(&s->at, 0)}, 4);
  MlirValue carried[4] = {lowerLoopArg(&l, 0), lowerLoopArg(&l, 1), lowerLoopArg(&l, 2), lowerLoopArg(&l, 3)};
  MlirValue found, best;
  bestCandidate(s, bi, ci, carried[0], &found, &best);
  MlirValue go = atBin(&s->at, "arith.andi", found, emitCmpI(b, s->at.loc, CMPI_ULT, carried[3], s->perClass));
  LowerIf f;
  lowerIfBegin(b, &f, s->at.loc, go, carried, 4);
  MlirValue gone = lowerInsert(b, s->at.loc, atBool(&s->at, true), carried[0], &best, 1);
  MlirValue keep = atBin(&s->at, "arith.xori", suppressedByKept(s, bi, best, carried[1], first, carried[2]), atBool(&s->at, true));
  LowerIf k;
  lowerIfBegin(b, &k, s->at.loc, keep, carried + 1, 3);
  MlirValue row = carried[2], filled = carried[1], triple[3] = {bi, ci, best};
  for (int i = 0; i < 3; i++)
    filled = lowerInsert(b, s->at.loc, emitConvert(b, s->at.loc, "arith.index_cast", triple[i], i64), filled,
                         (MlirValue[]){row, atIdx(&s->at, i)}, 2);
  lowerIfElse(b, &k, s->at.loc,
              (MlirValue[]){filled, atBin(&s->at, "arith.addi", row, atIdx(&s->at, 1)), atBin(&s->at, "arith.addi", carried[3], atIdx(&s->at, 1))}, 3);
  lowerIfEnd(b, &k, s->at.loc, carried + 1, 3);
  lowerIfElse(b, &f, s->at.loc, (MlirValue[]){gone, strataResult(k.op, 0), strataResult(k.op, 1), strataResult(k.op, 2)}, 4);
  lowerIfEnd(b, &f, s->at.loc, carried, 4);
  MlirValue next[4];
  for (int i = 0; i < 4; i++) next[i] = strataResult(f.op, i);
  lowerForEnd(b, &l, s->at.loc, next, 4);
  *sel = strataResult(l.op, 1), *count = strataResult(l.op, 2);
}

/* The optional operands of run-time length hold one value each (checked
 * before they are read). */
static bool oneValueEach(StrataBuilder *b, MlirLocation loc, MlirOperation op) {
  MlirValue one = lowerIndexConst(b, loc, 1);
  for (intptr_t i = 2; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (lowerRank(v) != 1 || lowerDim(v, 0) >= 0) continue;
    MlirValue n = lowerDimValue(b, loc, v, 0);
    if (!lowerCheck(b, op, &(MlirValue){NULL}, emitCmpI(b, loc, CMPI_NE, n, one), 0, (int)i, 0, n, one)) return false;
  }
  return true;
}

/* Run-time checks of what the verifier could not see: boxes and scores
 * agree on batches and boxes, boxes hold 4 values, iou_threshold in [0, 1]. */
static bool checks(Nms *s, MlirOperation op) {
  StrataBuilder *b = s->at.b;
  struct { int operand, dim; MlirValue got, want; } eq[3] = {
      {0, 0, lowerDimValue(b, s->at.loc, s->boxes, 0), lowerDimValue(b, s->at.loc, s->scores, 0)},
      {0, 1, lowerDimValue(b, s->at.loc, s->boxes, 1), s->N},
      {0, 2, lowerDimValue(b, s->at.loc, s->boxes, 2), atIdx(&s->at, 4)}};
  for (int i = 0; i < 3; i++) {
    if (lowerDim(s->boxes, eq[i].dim) >= 0 && (i == 2 || lowerDim(s->scores, i == 0 ? 0 : 2) >= 0)) continue;
    MlirValue bad = emitCmpI(b, s->at.loc, CMPI_NE, eq[i].got, eq[i].want);
    if (!lowerCheck(b, op, &(MlirValue){NULL}, bad, 0, eq[i].operand, eq[i].dim, eq[i].got, eq[i].want))
      return false;
  }
  MlirValue out = atBin(&s->at, "arith.ori", emitCmpF(b, s->at.loc, CMPF_UNO, s->iou, s->iou),
                      atBin(&s->at, "arith.ori", emitCmpF(b, s->at.loc, CMPF_OLT, s->iou, emitConst(b, s->at.loc, s->f64, 0)),
                          emitCmpF(b, s->at.loc, CMPF_OGT, s->iou, emitConst(b, s->at.loc, s->f64, 1))));
  return lowerCheck(b, op, &(MlirValue){NULL}, out, 12, 3, 0, atIdx(&s->at, 0), atIdx(&s->at, 0));
}

static MlirLogicalResult lowerNms(StrataRewrite *rw, MlirOperation op, void *user) {
  (void)user;
  StrataBuilder *b = &rw->builder;
  MlirLocation loc = mlirOperationGetLocation(op);
  const StrataOpDef *def = nnDataDepDef(op);
  MlirValue maxV = strataNamedOperand(def, op, "max_output_boxes_per_class"),
            iouV = strataNamedOperand(def, op, "iou_threshold"), scoreV = strataNamedOperand(def, op, "score_threshold");
  int64_t center = 0;
  nnAttrInt(op, "center_point_box", 0, &center);
  MlirType bt = lowerElementType(lowerOperand(op, 0)), f64 = mlirF64TypeGet(b->ctx);
  Nms s = {{b, loc}, lowerOperand(op, 0), lowerOperand(op, 1),
           mlirFloatTypeGetWidth(bt) == 64 ? f64 : mlirF32TypeGet(b->ctx), f64, center, !mlirValueIsNull(scoreV),
           {NULL}, {NULL}, {NULL}, {NULL}};
  if (!oneValueEach(b, loc, op)) return mlirLogicalResultFailure();
  s.iou = mlirValueIsNull(iouV) ? emitConst(b, loc, f64, 0) : toFloat(&s, scalarOf(b, loc, iouV), f64);
  if (s.hasScore) s.scoreMin = toFloat(&s, scalarOf(b, loc, scoreV), f64);
  s.N = lowerDimValue(b, loc, s.scores, 2);
  if (!checks(&s, op)) return mlirLogicalResultFailure();
  /* max_output_boxes_per_class: absent or negative keeps none; more than N is N */
  MlirValue perClass = atIdx(&s.at, 0);
  if (!mlirValueIsNull(maxV)) {
    MlirValue m = emitConvert(b, loc, "arith.index_cast", scalarOf(b, loc, maxV), strataIndexType(b->ctx));
    perClass = atBin(&s.at, "arith.minsi", atBin(&s.at, "arith.maxsi", m, atIdx(&s.at, 0)), s.N);
  }
  s.perClass = perClass;
  MlirValue B = lowerDimValue(b, loc, s.scores, 0), C = lowerDimValue(b, loc, s.scores, 1);
  /* one spare row: a buffer that folds to 0 rows would make the final
   * slice's offset 0 "out of bounds" to memref.subview's verifier */
  MlirValue cap = atBin(&s.at, "arith.addi", atBin(&s.at, "arith.muli", atBin(&s.at, "arith.muli", B, C), perClass), atIdx(&s.at, 1));
  MlirType rt = lowerResultType(op, 0);
  MlirValue sel = lowerEmptyTensor(b, loc, rt, (MlirValue[]){cap, atIdx(&s.at, 3)}), count = atIdx(&s.at, 0);
  LowerLoop lb, lc;
  lowerForBegin(b, &lb, loc, atIdx(&s.at, 0), B, (MlirValue[]){sel, count}, 2);
  MlirValue bi = lowerLoopIv(&lb);
  lowerForBegin(b, &lc, loc, atIdx(&s.at, 0), C, (MlirValue[]){lowerLoopArg(&lb, 0), lowerLoopArg(&lb, 1)}, 2);
  MlirValue cs = lowerLoopArg(&lc, 0), cc = lowerLoopArg(&lc, 1);
  selectClass(&s, bi, lowerLoopIv(&lc), &cs, &cc);
  lowerForEnd(b, &lc, loc, (MlirValue[]){cs, cc}, 2);
  lowerForEnd(b, &lb, loc, (MlirValue[]){strataResult(lc.op, 0), strataResult(lc.op, 1)}, 2);
  sel = strataResult(lb.op, 0), count = strataResult(lb.op, 1);
  /* the first `count` rows */
  MlirValue y = strataResult(
      strataCreateOp(b, "tensor.extract_slice", loc, .operands = STRATA_VALUES(sel, count), .results = STRATA_TYPES(rt),
                     .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(b->ctx, 2, (int64_t[]){0, 0})},
                                           {"static_sizes", mlirDenseI64ArrayGet(b->ctx, 2, (int64_t[]){INT64_MIN, 3})},
                                           {"static_strides", mlirDenseI64ArrayGet(b->ctx, 2, (int64_t[]){1, 1})},
                                           {"operandSegmentSizes", mlirDenseI32ArrayGet(b->ctx, 4, (int32_t[]){1, 0, 1, 0})})),
      0);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

void nnToLinalgNms(LowerRegistry *r) { lowerRegister(r, "nn.non_max_suppression", lowerNms, NULL); }
