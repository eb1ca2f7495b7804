/* ONNX control flow: If -> scf.if, Loop -> scf.while, with the subgraphs
 * (graph attributes) imported into the regions. A subgraph sees the values
 * of the graphs around it directly (scf regions are not isolated), and its
 * own names shadow theirs without leaking out (onnxScopePush/Pop).
 *
 * An If whose branches give different types and a loop-carried value whose
 * type changes across iterations are refused (they would need values whose
 * rank or shape differs by path). A scan output is stacked into a static
 * [M, ...] tensor when the trip count M is a constant and no cond input can
 * cut the loop short; otherwise its length is known only at run time: it
 * grows by doubling and is cut to the iterations run after the loop.
 * Sequences and optionals are refused. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx_internal.h"
#include "strata/builder.h"
#include "strata/support.h"

/* The graph attribute `name` of the node; NULL after an error. */
const Onnx__GraphProto *onnxGraphAttr(Node *x, const char *name) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, name);
  if (!a || a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH || !a->g) {
    NODE_ERROR(x->im, x->loc, x->n, "needs the graph attribute '%s'", name);
    return NULL;
  }
  return a->g;
}

/* False, after an error, when a subgraph input or output is no tensor. */
static bool tensorsOnly(Node *x, const char *attr, const Onnx__ValueInfoProto *const *vis, size_t n,
                        const char *what) {
  for (size_t i = 0; i < n; i++) {
    const Onnx__TypeProto *t = vis[i]->type;
    if (t && t->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && t->value_case != ONNX__TYPE_PROTO__VALUE__NOT_SET) {
      NODE_ERROR(x->im, x->loc, x->n, "%s '%s' of the '%s' graph is %s; Strata imports only tensors (no sequences "
                 "or optionals)", what, vis[i]->name ? vis[i]->name : "", attr,
                 t->value_case == ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE ? "a sequence"
                 : t->value_case == ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE ? "an optional" : "not a tensor");
      return false;
    }
  }
  return true;
}

/* v narrowed to the static type its subgraph output `vi` declares, where
 * v's type leaves one dim '?' that the declaration fixes (a Slice with
 * run-time bounds in a loop body, say): an nn.reshape to that type, whose
 * element-count check (in the interpreter and the compiled code) then checks
 * that one extent at run time. With two or more '?' dims a count check
 * could not tell 2x3 from 3x2: v stays as it is. */
static MlirValue narrowToDeclared(Node *x, MlirValue v, const Onnx__ValueInfoProto *vi) {
  char err[160];
  MlirType want = onnxValueInfoType(x->im, vi, NULL, err, sizeof err), have = mlirValueGetType(v);
  int rank, wantRank;
  int64_t dims[STRATA_MAX_RANK], wantDims[STRATA_MAX_RANK];
  if (mlirTypeIsNull(want) || !mlirShapedTypeHasStaticShape(want) || !strataGetShape(have, &rank, dims) ||
      !strataGetShape(want, &wantRank, wantDims) || rank != wantRank ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(want), mlirShapedTypeGetElementType(have)))
    return v;
  int unknown = 0;
  for (int d = 0; d < rank; d++) {
    if (dims[d] >= 0 && dims[d] != wantDims[d]) return v; /* the verifier's business, not a narrowing */
    unknown += dims[d] < 0;
  }
  if (unknown != 1) return v;
  MlirValue shape = onnxI64Vector(x, wantDims, rank);
  MlirOperation op = onnxBuild1(x->im, x->loc, "nn.reshape", v, shape, NULL, 0);
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

/* Imports graph g at the end of `block` in its own scope, its inputs bound
 * to the block's arguments (or to `inputs`, when given) and its outputs
 * returned in outs; false after a located error. */
bool onnxImportSubgraph(Node *x, const char *attr, const Onnx__GraphProto *g, MlirBlock block,
                           const MlirValue *inputs, MlirValue *outs) {
  Importer *im = x->im;
  if (!tensorsOnly(x, attr, (const Onnx__ValueInfoProto *const *)g->input, g->n_input, "input") ||
      !tensorsOnly(x, attr, (const Onnx__ValueInfoProto *const *)g->output, g->n_output, "output"))
    return false;
  if (g->n_output > MAX_IO) {
    NODE_ERROR(im, x->loc, x->n, "the '%s' graph has more than %d outputs", attr, MAX_IO);
    return false;
  }
  if (!inputs && g->n_input != (size_t)mlirBlockGetNumArguments(block)) {
    NODE_ERROR(im, x->loc, x->n, "the '%s' graph takes %zu inputs; it must take none", attr, g->n_input);
    return false;
  }
  /* Each level costs C stack (this importer recurses); real models nest a
   * few levels, a corrupt one could nest thousands. */
  if (im->depth >= MAX_GRAPH_DEPTH) {
    NODE_ERROR(im, x->loc, x->n, "subgraphs are nested more than %d deep", MAX_GRAPH_DEPTH);
    return false;
  }
  StrataBuilder outer = im->b;
  size_t scope = onnxScopePush(im);
  im->depth++;
  im->b = strataBuilderAtEnd(im->mc, block);
  bool ok = true;
  for (size_t i = 0; ok && i < g->n_input; i++)
    if (g->input[i]->name && *g->input[i]->name)
      ok = onnxBind(im, x->loc, g->input[i]->name, inputs ? inputs[i] : mlirBlockGetArgument(block, (intptr_t)i),
                    "subgraph input");
  ok = ok && onnxImportGraphBody(im, g);
  for (size_t i = 0; ok && i < g->n_output; i++) {
    const char *name = g->output[i]->name ? g->output[i]->name : "";
    outs[i] = onnxLookup(im, name);
    if (mlirValueIsNull(outs[i])) {
      NODE_ERROR(im, x->loc, x->n, "output '%s' of the '%s' graph is not produced by any node", name, attr);
      ok = false;
    } else {
      outs[i] = narrowToDeclared(x, outs[i], g->output[i]);
      ok = !mlirValueIsNull(outs[i]);
    }
  }
  onnxScopePop(im, scope);
  im->depth--;
  im->b = outer;
  return ok;
}

/* A detached region holding one block with the given arguments. */
MlirRegion onnxNewRegion(MlirLocation loc, const MlirType *args, intptr_t n, MlirBlock *block) {
  MlirRegion r = mlirRegionCreate();
  MlirLocation locs[MAX_IO + 2];
  for (intptr_t i = 0; i < n; i++) locs[i] = loc;
  *block = mlirBlockCreate(n, args, locs);
  mlirRegionAppendOwnedBlock(r, *block);
  return r;
}

/* The element of a one-element tensor of element type `elem` (i1 for a
 * condition, i64 for a trip count) as a scalar, at b; null after an error. */
static MlirValue scalarOf(Node *x, StrataBuilder *b, MlirValue v, MlirType elem, const char *what) {
  MlirType t = mlirValueGetType(v);
  int64_t count = 0;
  bool ok = mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) &&
            mlirTypeEqual(mlirShapedTypeGetElementType(t), elem);
  intptr_t rank = ok ? mlirShapedTypeGetRank(t) : 0;
  int64_t dims[STRATA_MAX_RANK];
  for (intptr_t i = 0; ok && i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
  ok = ok && strataShapeNumElements(dims, (int)rank, &count) && count == 1;
  if (!ok) {
    char ts[256], es[64];
    strataTypeToString(t, ts, sizeof ts);
    strataTypeToString(elem, es, sizeof es);
    NODE_ERROR(x->im, x->loc, x->n, "%s must be a %s tensor of one element, not %s", what, es, ts);
    return (MlirValue){NULL};
  }
  MlirValue idx[STRATA_MAX_RANK + 1];
  idx[0] = v;
  for (intptr_t i = 0; i < rank; i++) idx[1 + i] = strataConstInt(b, x->loc, strataIndexType(x->im->mc), 0);
  return strataResult(strataCreateOp(b, "tensor.extract", x->loc, .operands = {idx, 1 + rank},
                                     .results = STRATA_TYPES(elem)),
                      0);
}

/* ---- If ---- */

bool onnxImportIf(Node *x) {
  Importer *im = x->im;
  const Onnx__GraphProto *g[2] = {onnxGraphAttr(x, "then_branch"), onnxGraphAttr(x, "else_branch")};
  if (!g[0] || !g[1]) return false;
  static const char *const kNames[2] = {"then_branch", "else_branch"};
  if (x->nIn != 1 || mlirValueIsNull(x->in[0])) {
    NODE_ERROR(im, x->loc, x->n, "takes one input, the condition");
    return false;
  }
  MlirValue cond = scalarOf(x, &im->b, x->in[0], mlirIntegerTypeGet(im->mc, 1), "the condition");
  if (mlirValueIsNull(cond)) return false;
  MlirBlock blocks[2];
  MlirRegion regions[2] = {onnxNewRegion(x->loc, NULL, 0, &blocks[0]), onnxNewRegion(x->loc, NULL, 0, &blocks[1])};
  MlirValue outs[2][MAX_IO];
  MlirType types[MAX_IO];
  size_t n = g[0]->n_output;
  bool ok = onnxImportSubgraph(x, kNames[0], g[0], blocks[0], NULL, outs[0]) &&
            onnxImportSubgraph(x, kNames[1], g[1], blocks[1], NULL, outs[1]);
  if (ok && (g[1]->n_output != n || x->n->n_output != n)) {
    NODE_ERROR(im, x->loc, x->n, "has %zu outputs, its then branch %zu and its else branch %zu; they must agree",
               x->n->n_output, n, g[1]->n_output);
    ok = false;
  }
  for (size_t i = 0; ok && i < n; i++) {
    types[i] = mlirValueGetType(outs[0][i]);
    MlirType other = mlirValueGetType(outs[1][i]);
    if (!mlirTypeEqual(types[i], other) || !mlirTypeIsARankedTensor(types[i]) ||
        !mlirShapedTypeHasStaticShape(types[i])) {
      char a[256], b[256];
      strataTypeToString(types[i], a, sizeof a);
      strataTypeToString(other, b, sizeof b);
      NODE_ERROR(im, x->loc, x->n, "output #%zu is %.100s in the then branch and %.100s in the else branch; Strata needs "
                 "both to have the same static shape (results whose shape depends on the branch need dynamic "
                 "shapes, issue 19)", i, a, b);
      ok = false;
    }
  }
  MlirOperation op = {NULL};
  if (ok) {
    for (int k = 0; k < 2; k++) {
      StrataBuilder b = strataBuilderAtEnd(im->mc, blocks[k]);
      strataCreateOp(&b, "scf.yield", x->loc, .operands = {outs[k], (intptr_t)n});
    }
    op = strataCreateOp(&im->b, "scf.if", x->loc, .operands = {&cond, 1}, .results = {types, (intptr_t)n},
                        .numRegions = 2);
    for (int k = 0; k < 2; k++) mlirRegionTakeBody(mlirOperationGetRegion(op, k), regions[k]);
  }
  for (int k = 0; k < 2; k++) mlirRegionDestroy(regions[k]);
  return ok && onnxBindOutputs(x, op, (int)n);
}

/* ---- Loop ---- */

/* The stacked type [trip, ...t] of a scan output of type t (trip -1: '?');
 * null after an error. */
static MlirType scanType(Node *x, size_t i, MlirType t, int64_t trip) {
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) >= STRATA_MAX_RANK) {
    char ts[256];
    strataTypeToString(t, ts, sizeof ts);
    NODE_ERROR(x->im, x->loc, x->n, "scan output #%zu is %s; Strata stacks static shapes of rank below %d only", i,
               ts, STRATA_MAX_RANK);
    return (MlirType){NULL};
  }
  int64_t dims[STRATA_MAX_RANK];
  intptr_t rank = mlirShapedTypeGetRank(t);
  dims[0] = trip;
  for (intptr_t d = 0; d < rank; d++) dims[1 + d] = mlirShapedTypeGetDimSize(t, d);
  return strataTensorType(mlirShapedTypeGetElementType(t), (int)rank + 1, dims);
}

/* The scan accumulators of a loop whose iteration count is known only at
 * run time: each holds `cap` rows (1 at first); when iteration `iv` finds
 * them full, all double (concatenated with themselves: the copied rows are
 * overwritten before they are read) -- amortized O(1) copies per row.
 * Builds, at b,
 *   %acc', %cap' = scf.if (iv == cap) { concat(acc, acc)..., 2 * cap } else { acc..., cap }
 * and replaces accs[] by the grown accumulators and *cap by cap'. */
static void growAccumulators(Node *x, StrataBuilder *b, MlirValue iv, MlirValue *cap, MlirValue *accs, size_t n) {
  MlirContext mc = x->im->mc;
  MlirType i64 = mlirIntegerTypeGet(mc, 64), i1 = mlirIntegerTypeGet(mc, 1), types[MAX_IO + 1];
  MlirValue cmp[2] = {iv, *cap};
  MlirValue full = strataResult(strataCreateOp(b, "arith.cmpi", x->loc, .operands = {cmp, 2}, .results = STRATA_TYPES(i1),
                                               .attrs = STRATA_ATTRS({"predicate", strataI64Attr(mc, 0)})), 0); /* eq */
  MlirBlock blocks[2];
  MlirRegion regions[2] = {onnxNewRegion(x->loc, NULL, 0, &blocks[0]), onnxNewRegion(x->loc, NULL, 0, &blocks[1])};
  MlirValue grown[MAX_IO + 1], kept[MAX_IO + 1];
  StrataBuilder tb = strataBuilderAtEnd(mc, blocks[0]), eb = strataBuilderAtEnd(mc, blocks[1]);
  for (size_t i = 0; i < n; i++) {
    types[i] = mlirValueGetType(accs[i]);
    MlirValue twice[2] = {accs[i], accs[i]};
    grown[i] = strataResult(strataCreateOp(&tb, "nn.concat", x->loc, .operands = {twice, 2}, .results = STRATA_TYPES(types[i]),
                                           .attrs = STRATA_ATTRS({"axis", strataI64Attr(mc, 0)})), 0);
    kept[i] = accs[i];
  }
  MlirValue prod[2] = {*cap, strataConstInt(&tb, x->loc, i64, 2)};
  grown[n] = strataResult(strataCreateOp(&tb, "arith.muli", x->loc, .operands = {prod, 2}, .results = STRATA_TYPES(i64)), 0);
  kept[n] = *cap;
  types[n] = i64;
  strataCreateOp(&tb, "scf.yield", x->loc, .operands = {grown, (intptr_t)n + 1});
  strataCreateOp(&eb, "scf.yield", x->loc, .operands = {kept, (intptr_t)n + 1});
  MlirOperation op = strataCreateOp(b, "scf.if", x->loc, .operands = {&full, 1}, .results = {types, (intptr_t)n + 1},
                                    .numRegions = 2);
  for (int k = 0; k < 2; k++) {
    mlirRegionTakeBody(mlirOperationGetRegion(op, k), regions[k]);
    mlirRegionDestroy(regions[k]);
  }
  for (size_t i = 0; i < n; i++) accs[i] = strataResult(op, (intptr_t)i);
  *cap = strataResult(op, (intptr_t)n);
}

/* The first `count` (a run-time i64) rows of a grown accumulator. */
static MlirValue firstRows(Node *x, MlirValue acc, MlirValue count) {
  int64_t zero = 0;
  MlirType vec = mlirRankedTensorTypeGet(1, (int64_t[]){1}, mlirIntegerTypeGet(x->im->mc, 64), mlirAttributeGetNull());
  MlirValue end = strataResult(strataCreateOp(&x->im->b, "tensor.from_elements", x->loc, .operands = {&count, 1},
                                              .results = STRATA_TYPES(vec)), 0);
  MlirValue ins[4] = {acc, onnxI64Vector(x, &zero, 1), end, onnxI64Vector(x, &zero, 1)};
  int32_t seg[5] = {1, 1, 1, 1, 0};
  Attr attrs[1] = {{"operandSegmentSizes", mlirDenseI32ArrayGet(x->im->mc, 5, seg)}};
  MlirOperation op = onnxBuild(x->im, x->loc, "nn.slice", ins, 4, 1, attrs, 1, (MlirType){NULL});
  return mlirOperationIsNull(op) ? (MlirValue){NULL} : strataResult(op, 0);
}

/* The tensor type (rank 0, or [1] when the body declares it so) the body's
 * input #i (iteration_num or cond) gets. */
static MlirType counterType(const Onnx__GraphProto *body, size_t i, MlirType elem) {
  const Onnx__TypeProto *t = i < body->n_input ? body->input[i]->type : NULL;
  bool one = t && t->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE && t->tensor_type && t->tensor_type->shape &&
             t->tensor_type->shape->n_dim == 1;
  int64_t d = 1;
  return mlirRankedTensorTypeGet(one ? 1 : 0, &d, elem, mlirAttributeGetNull());
}

/* Loop(M?, cond?, v_initial...) -> (v_final..., scan_outputs...) as
 *   scf.while (i: i64, c: i1, v..., scans..., cap?: i64) {
 *     scf.condition(c && i < M) ...
 *   } do { body(tensor(i), tensor(c), v...); [grow scans]; scans[i] = scan values; i + 1 }
 * c is the body's cond output when the node has a cond input; ONNX ignores
 * that output otherwise (a for loop). The scans are [M, ...] when M is a
 * constant and there is no cond input; otherwise [?, ...] accumulators of
 * capacity cap (growAccumulators), cut to the i rows written after the loop. */
bool onnxImportLoop(Node *x) {
  Importer *im = x->im;
  const Onnx__GraphProto *body = onnxGraphAttr(x, "body");
  if (!body) return false;
  if (x->nIn < 2) {
    NODE_ERROR(im, x->loc, x->n, "takes at least two inputs, M and cond (either may be \"\")");
    return false;
  }
  size_t nCarried = (size_t)x->nIn - 2;
  if (body->n_input != nCarried + 2 || body->n_output < nCarried + 1 ||
      x->n->n_output != body->n_output - 1) {
    NODE_ERROR(im, x->loc, x->n, "has %zu loop-carried inputs and %zu outputs, its body %zu inputs and %zu outputs; "
               "the body takes (iteration_num, cond, carried...) and gives (cond, carried..., scan outputs...)",
               nCarried, x->n->n_output, body->n_input, body->n_output);
    return false;
  }
  size_t nScan = body->n_output - 1 - nCarried;
  MlirValue tripIn = x->in[0], condIn = x->in[1];
  if (mlirValueIsNull(tripIn) && mlirValueIsNull(condIn)) {
    NODE_ERROR(im, x->loc, x->n, "has neither a trip count nor a condition: it would never end");
    return false;
  }
  int64_t trip = -1;
  bool constTrip = !mlirValueIsNull(tripIn) && onnxConstInts(tripIn, &trip, 1) == 1;
  /* Scan outputs of a length known only at run time grow (one more carried
   * value: their capacity). */
  bool grow = nScan && (!constTrip || !mlirValueIsNull(condIn));
  size_t nIter = 2 + nCarried + nScan + grow;
  if (constTrip && trip < 0) trip = 0;
  MlirContext mc = im->mc;
  MlirType i64 = mlirIntegerTypeGet(mc, 64), i1 = mlirIntegerTypeGet(mc, 1);
  MlirType types[MAX_IO + 2];
  MlirValue inits[MAX_IO + 2];
  if (nIter > MAX_IO + 2) {
    NODE_ERROR(im, x->loc, x->n, "has too many loop-carried values and scan outputs");
    return false;
  }
  /* Initial values, before the loop. */
  MlirValue tripScalar = mlirValueIsNull(tripIn) ? tripIn : scalarOf(x, &im->b, tripIn, i64, "the trip count M");
  if (!mlirValueIsNull(tripIn) && mlirValueIsNull(tripScalar)) return false;
  inits[0] = strataConstInt(&im->b, x->loc, i64, 0);
  inits[1] = mlirValueIsNull(condIn) ? strataConstInt(&im->b, x->loc, i1, 1)
                                     : scalarOf(x, &im->b, condIn, i1, "the condition input");
  if (mlirValueIsNull(inits[1])) return false;
  for (size_t i = 0; i < nCarried; i++) {
    inits[2 + i] = x->in[2 + i];
    if (mlirValueIsNull(inits[2 + i])) {
      NODE_ERROR(im, x->loc, x->n, "loop-carried input #%zu is absent", i);
      return false;
    }
  }
  for (size_t i = 0; i < 2 + nCarried; i++) types[i] = mlirValueGetType(inits[i]);
  /* The body, into the after region; its scan outputs' types are known
   * once it is imported, and the accumulators become block arguments then. */
  MlirBlock before, after;
  MlirRegion afterRegion = onnxNewRegion(x->loc, types, (intptr_t)(2 + nCarried), &after);
  MlirRegion beforeRegion = (MlirRegion){NULL};
  StrataBuilder ab = strataBuilderAtEnd(mc, after);
  MlirValue bodyIn[MAX_IO + 2], outs[MAX_IO];
  MlirValue iv = mlirBlockGetArgument(after, 0), c = mlirBlockGetArgument(after, 1);
  bodyIn[0] = strataResult(strataCreateOp(&ab, "tensor.from_elements", x->loc, .operands = {&iv, 1},
                                          .results = STRATA_TYPES(counterType(body, 0, i64))), 0);
  bodyIn[1] = strataResult(strataCreateOp(&ab, "tensor.from_elements", x->loc, .operands = {&c, 1},
                                          .results = STRATA_TYPES(counterType(body, 1, i1))), 0);
  for (size_t i = 0; i < nCarried; i++) bodyIn[2 + i] = mlirBlockGetArgument(after, (intptr_t)(2 + i));
  bool ok = onnxImportSubgraph(x, "body", body, after, bodyIn, outs);
  MlirValue yields[MAX_IO + 2];
  if (ok) {
    yields[1] = mlirValueIsNull(condIn) ? c : scalarOf(x, &ab, outs[0], i1, "the body's cond output");
    ok = !mlirValueIsNull(yields[1]);
  }
  for (size_t i = 0; ok && i < nCarried; i++) {
    yields[2 + i] = outs[1 + i];
    if (!mlirTypeEqual(mlirValueGetType(outs[1 + i]), types[2 + i])) {
      char a[256], b[256];
      strataTypeToString(types[2 + i], a, sizeof a);
      strataTypeToString(mlirValueGetType(outs[1 + i]), b, sizeof b);
      NODE_ERROR(im, x->loc, x->n, "loop-carried value #%zu enters the loop as %.100s and leaves the body as %.100s; Strata "
                 "needs one static type across iterations (dynamic shapes are issue 19)", i, a, b);
      ok = false;
    }
  }
  if (ok && nScan) {
    MlirValue offset = strataResult(strataCreateOp(&ab, "arith.index_cast", x->loc, .operands = {&iv, 1},
                                                   .results = STRATA_TYPES(strataIndexType(mc))), 0);
    MlirValue accs[MAX_IO], cap = {NULL};
    for (size_t i = 0; ok && i < nScan; i++) {
      MlirValue v = outs[1 + nCarried + i];
      MlirType acc = scanType(x, i, mlirValueGetType(v), grow ? -1 : trip);
      if (!(ok = !mlirTypeIsNull(acc))) break;
      size_t k = 2 + nCarried + i;
      types[k] = acc;
      /* Zeros: [M, ...], or one row to grow from. */
      MlirType first = grow ? scanType(x, i, mlirValueGetType(v), 1) : acc;
      inits[k] = strataResult(strataCreateOp(&im->b, "arith.constant", x->loc, .results = STRATA_TYPES(first),
                                             .attrs = STRATA_ATTRS({"value", mlirDenseElementsAttrSplatGet(first, strataNumberAttr(mlirShapedTypeGetElementType(acc), 0))})), 0);
      if (grow)
        inits[k] = strataResult(strataCreateOp(&im->b, "tensor.cast", x->loc, .operands = {&inits[k], 1},
                                               .results = STRATA_TYPES(acc)), 0);
      accs[i] = mlirBlockAddArgument(after, acc, x->loc);
    }
    if (ok && grow) {
      types[nIter - 1] = i64;
      inits[nIter - 1] = strataConstInt(&im->b, x->loc, i64, 1);
      cap = mlirBlockAddArgument(after, i64, x->loc);
      growAccumulators(x, &ab, iv, &cap, accs, nScan);
      yields[nIter - 1] = cap;
    }
    for (size_t i = 0; ok && i < nScan; i++) {
      MlirValue v = outs[1 + nCarried + i], accArg = accs[i];
      size_t k = 2 + nCarried + i;
      MlirType acc = types[k];
      intptr_t rank = mlirShapedTypeGetRank(acc);
      int64_t offs[STRATA_MAX_RANK], sizes[STRATA_MAX_RANK], strides[STRATA_MAX_RANK];
      for (intptr_t d = 0; d < rank; d++) {
        offs[d] = d ? 0 : INT64_MIN; /* ShapedType::kDynamic: the iteration */
        sizes[d] = d ? mlirShapedTypeGetDimSize(acc, d) : 1;
        strides[d] = 1;
      }
      MlirValue operands[3] = {v, accArg, offset};
      yields[k] = strataResult(
          strataCreateOp(&ab, "tensor.insert_slice", x->loc, .operands = {operands, 3}, .results = STRATA_TYPES(acc),
                         .attrs = STRATA_ATTRS({"static_offsets", mlirDenseI64ArrayGet(mc, rank, offs)},
                                               {"static_sizes", mlirDenseI64ArrayGet(mc, rank, sizes)},
                                               {"static_strides", mlirDenseI64ArrayGet(mc, rank, strides)},
                                               {"operandSegmentSizes", mlirDenseI32ArrayGet(mc, 5, (int32_t[]){1, 1, 1, 0, 0})})),
          0);
    }
  }
  MlirOperation op = {NULL};
  if (ok) {
    MlirValue one = strataConstInt(&ab, x->loc, i64, 1), sum[2] = {iv, one};
    yields[0] = strataResult(strataCreateOp(&ab, "arith.addi", x->loc, .operands = {sum, 2}, .results = STRATA_TYPES(i64)), 0);
    strataCreateOp(&ab, "scf.yield", x->loc, .operands = {yields, (intptr_t)nIter});
    /* The before region: go on while c (and i < M). */
    beforeRegion = onnxNewRegion(x->loc, types, (intptr_t)nIter, &before);
    StrataBuilder bb = strataBuilderAtEnd(mc, before);
    MlirValue args[MAX_IO + 3];
    for (size_t i = 0; i < nIter; i++) args[1 + i] = mlirBlockGetArgument(before, (intptr_t)i);
    MlirValue go = args[2];
    if (!mlirValueIsNull(tripIn)) {
      MlirValue cmp[2] = {args[1], tripScalar};
      go = strataResult(strataCreateOp(&bb, "arith.cmpi", x->loc, .operands = {cmp, 2}, .results = STRATA_TYPES(i1),
                                       .attrs = STRATA_ATTRS({"predicate", strataI64Attr(mc, 2)})), 0); /* slt */
      if (!mlirValueIsNull(condIn)) {
        MlirValue both[2] = {go, args[2]};
        go = strataResult(strataCreateOp(&bb, "arith.andi", x->loc, .operands = {both, 2}, .results = STRATA_TYPES(i1)), 0);
      }
    }
    args[0] = go;
    strataCreateOp(&bb, "scf.condition", x->loc, .operands = {args, (intptr_t)nIter + 1});
    op = strataCreateOp(&im->b, "scf.while", x->loc, .operands = {inits, (intptr_t)nIter},
                        .results = {types, (intptr_t)nIter}, .numRegions = 2);
    mlirRegionTakeBody(mlirOperationGetRegion(op, 0), beforeRegion);
    mlirRegionTakeBody(mlirOperationGetRegion(op, 1), afterRegion);
  }
  if (!mlirRegionIsNull(beforeRegion)) mlirRegionDestroy(beforeRegion);
  mlirRegionDestroy(afterRegion);
  if (!ok) return false;
  for (size_t i = 0; i < nCarried + nScan; i++) {
    MlirValue v = strataResult(op, (intptr_t)(2 + i));
    if (grow && i >= nCarried) v = firstRows(x, v, strataResult(op, 0)); /* the iterations run */
    if (mlirValueIsNull(v) || !onnxBindOutput(x, i, v)) return false;
  }
  return true;
}
