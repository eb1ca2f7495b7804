/* --nn-rdp-plan: execution-order and memory planning from RDP facts (SOD²
 * B5, B6) on each function's top-level ops.
 *
 * Each op's intermediate size is the bytes of its tensor results as an RDP
 * expression (constants and weights count 0). An op whose size is not known
 * (a nac dim: EDO ops, data-dependent shapes) or that has side effects (it,
 * or an op nested in it, is anything but a value computation or scf
 * control flow) is a partition point: it is a partition of its own and
 * nothing moves across it. In each other partition the constants (no
 * operands, no bytes) are no nodes; the rest, up to STRATA_ORDER_MAX_EXACT
 * ops, get the order with the provably smallest peak (order_plan.c: exact
 * for constant sizes, symbolic comparison otherwise), and move to it only
 * when that peak is provably below program order's (constants first);
 * larger partitions keep program order. An op moves only after the
 * producers of its and its nested ops' operands. Unless attrs=false (the
 * CPU pipelines), the function gets rdp.partitions (one line per
 * partition: ops, planned and program-order peaks), each op
 * rdp.partition.
 *
 * With sizes="N=1,H=32,W=32" (one value per symbol: a shape class), the
 * memory plan of the final order is computed for those sizes: each
 * known-size op gets rdp.offset in one arena, the function rdp.arena (the
 * peak-walk plan), rdp.arena_best_fit (the greedy baseline),
 * rdp.live_peak (the lower bound: most bytes live at once) and
 * rdp.runtime_allocs (tensors of unknown size, left to run time). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "grow.h"
#include "rdp_internal.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/pred.h"
#include "strata/support.h"

static void setAttr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

/* Bytes of op's tensor results as an expression; 0 for constants. */
static RdpDim opBytes(StrataContext *ctx, const StrataRdp *r, MlirOperation op) {
  const StrataOpDef *def = strataContextGetOpDef(ctx, op);
  if (strataOpIsNamed(op, "arith.constant") || (def && (strataOpDefGetFlags(ctx, def) & STRATA_OP_CONSTANT)))
    return rdpConst(0);
  RdpDim total = rdpConst(0);
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); j++) {
    MlirValue v = mlirOperationGetResult(op, j);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsATensor(t)) continue;
    MlirType e = mlirShapedTypeGetElementType(t);
    int64_t bits = mlirTypeIsAInteger(e) ? (int64_t)mlirIntegerTypeGetWidth(e)
                   : mlirTypeIsAFloat(e) ? (int64_t)mlirFloatTypeGetWidth(e)
                   : mlirTypeIsAIndex(e) ? 64 : -1;
    const RdpFact *f = rdpFactOf(r, v);
    if (bits < 0 || !f || f->rank < 0) return rdpNac();
    RdpDim bytes = rdpConst((bits + 7) / 8);
    for (int d = 0; d < f->rank; d++) bytes = rdpMul(&bytes, &f->dims[d]);
    total = rdpAdd(&total, &bytes);
  }
  return total.level == RDP_KNOWN ? total : rdpNac();
}

/* The top-level op of `entry` that holds `op` (op itself at top level). */
static MlirOperation topLevel(MlirOperation op, MlirBlock entry) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), entry))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Ops that only compute values: no memory effects, nothing observed. The
 * structured ops of scf hold such ops; everything else is kept in place. */
static MlirWalkResult checkValuesOnly(MlirOperation op, void *user) {
  static const char *const kStructured[] = {"scf.if", "scf.yield", "scf.for", "scf.while", "scf.condition",
                                            "scf.execute_region", "scf.index_switch"};
  bool structured = false;
  for (size_t i = 0; i < sizeof kStructured / sizeof *kStructured && !structured; i++)
    structured = strataOpIsNamed(op, kStructured[i]);
  if (structured || strataPredValuesOnly(op)) return MlirWalkResultAdvance;
  *(bool *)user = false;
  return MlirWalkResultInterrupt;
}

/* True if op (and every op nested in it) may run at another place among
 * its neighbours: it computes values only, so only its operands order it. */
static bool movable(MlirOperation op) {
  bool ok = true;
  mlirOperationWalk(op, checkValuesOnly, &ok, MlirWalkPreOrder);
  return ok;
}

static size_t indexOf(const StrataOpList *ops, MlirOperation op) {
  for (size_t i = 0; i < ops->count; i++)
    if (mlirOperationEqual(ops->ops[i], op)) return i;
  return SIZE_MAX;
}

typedef struct {
  const StrataOpList *ops;
  size_t self, from, to; /* the node's op, and the partition [from, to) */
  const size_t *nodeOf;  /* op from + i is node nodeOf[i] (SIZE_MAX: not a node) */
  MlirBlock entry;
  size_t *preds;
  size_t numPreds, capPreds;
  bool ok;
} PredWalk;

/* Producers (nodes of the partition) of the operands of an op and its
 * nested ops. */
static MlirWalkResult collectPreds(MlirOperation op, void *user) {
  PredWalk *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v)) continue;
    size_t p = indexOf(w->ops, topLevel(mlirOpResultGetOwner(v), w->entry));
    if (p == SIZE_MAX || p < w->from || p >= w->to || p == w->self || w->nodeOf[p - w->from] == SIZE_MAX) continue;
    size_t *g = w->numPreds + 1 > w->capPreds ? strataGrow(w->preds, &w->capPreds, w->numPreds + 1, sizeof *w->preds) : w->preds;
    if (!g) {
      w->ok = false;
      return MlirWalkResultInterrupt;
    }
    w->preds = g;
    w->preds[w->numPreds++] = w->nodeOf[p - w->from];
  }
  return MlirWalkResultAdvance;
}

/* True if a result of ops[k] is used outside the partition [from, to). */
static bool usedOutside(const StrataOpList *ops, size_t k, size_t from, size_t to, MlirBlock entry) {
  MlirOperation op = ops->ops[k];
  for (intptr_t j = 0; j < mlirOperationGetNumResults(op); j++)
    for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, j)); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      size_t p = indexOf(ops, topLevel(mlirOpOperandGetOwner(u), entry));
      if (p == SIZE_MAX || p < from || p >= to) return true;
    }
  return false;
}

/* Constants: no operands, no regions, no bytes. They are not nodes of the
 * order problem; placed before every node, they precede all their users. */
static bool freeOp(MlirOperation op, const RdpDim *size) {
  int64_t bytes;
  return mlirOperationGetNumOperands(op) == 0 && mlirOperationGetNumRegions(op) == 0 && rdpGetConst(size, &bytes) &&
         bytes == 0;
}

typedef struct {
  StrataContext *ctx;
  const StrataRdp *r;
  MlirBlock entry;
  StrataOpList *ops; /* top-level ops, terminator excluded; reordered in place */
  RdpDim *size;
  bool *fixed; /* per op: side effects, a partition point */
} Planner;

/* Moves partition [from, to) into the planned order before `anchor`: its
 * constants first, in program order, then the nodes in `order`
 * (node k is op from + opOf[k]); the op list and sizes follow. */
static bool moveOps(Planner *pl, size_t from, size_t to, const size_t *opOf, const size_t *order, size_t n,
                    MlirOperation anchor) {
  size_t m = to - from, at = 0;
  MlirOperation *ops = malloc(m * sizeof *ops);
  RdpDim *sizes = malloc(m * sizeof *sizes);
  bool *isNode = calloc(m, sizeof *isNode);
  bool ok = ops && sizes && isNode;
  for (size_t k = 0; ok && k < n; k++) isNode[opOf[k]] = true;
  for (size_t i = 0; ok && i < m; i++)
    if (!isNode[i]) ops[at] = pl->ops->ops[from + i], sizes[at++] = pl->size[from + i];
  for (size_t k = 0; ok && k < n; k++) ops[at] = pl->ops->ops[from + opOf[order[k]]], sizes[at++] = pl->size[from + opOf[order[k]]];
  for (size_t i = 0; ok && i < m; i++) {
    mlirOperationMoveBefore(ops[i], anchor);
    pl->ops->ops[from + i] = ops[i];
    pl->size[from + i] = sizes[i];
  }
  free(ops);
  free(sizes);
  free(isNode);
  return ok;
}

/* Plans partition [from, to) and moves its ops into the planned order
 * before `anchor` when that order's peak is provably lower; writes its
 * summary line. False when out of memory. */
static bool planPartition(Planner *pl, size_t from, size_t to, MlirOperation anchor, char *line, size_t lineSize) {
  size_t m = to - from, n = 0;
  const char *const *names = rdpSymbolNames(pl->r);
  char peakText[256], progText[256];
  size_t *nodeOf = malloc(m * sizeof *nodeOf), *opOf = malloc(m * sizeof *opOf);
  bool ok = nodeOf && opOf;
  for (size_t i = 0; ok && i < m; i++) {
    nodeOf[i] = freeOp(pl->ops->ops[from + i], &pl->size[from + i]) ? SIZE_MAX : n;
    if (nodeOf[i] != SIZE_MAX) opOf[n++] = i;
  }
  size_t *predStart = ok ? calloc(n + 1, sizeof *predStart) : NULL, *order = ok ? malloc((n + 1) * sizeof *order) : NULL;
  bool *isOutput = ok ? calloc(n + 1, sizeof *isOutput) : NULL;
  RdpDim *size = ok ? malloc((n + 1) * sizeof *size) : NULL;
  PredWalk w = {.ops = pl->ops, .from = from, .to = to, .nodeOf = nodeOf, .entry = pl->entry, .ok = true};
  ok = ok && predStart && order && isOutput && size;
  for (size_t k = 0; ok && k < n; k++) {
    w.self = from + opOf[k];
    mlirOperationWalk(pl->ops->ops[w.self], collectPreds, &w, MlirWalkPreOrder);
    ok = w.ok;
    predStart[k + 1] = w.numPreds;
    isOutput[k] = usedOutside(pl->ops, w.self, from, to, pl->entry);
    size[k] = pl->size[w.self];
  }
  if (ok) {
    RdpOrderProblem p = {n, size, predStart, w.preds, isOutput};
    for (size_t k = 0; k < n; k++) order[k] = k;
    RdpDim program = rdpOrderPeak(&p, order), peak = program;
    bool planned = n <= STRATA_ORDER_MAX_EXACT;
    if (planned && !rdpPlanOrder(&p, order, &peak)) ok = planned = false; /* out of memory: SSA has no cycle */
    rdpPrint(&peak, names, peakText, sizeof peakText);
    rdpPrint(&program, names, progText, sizeof progText);
    /* The ops move only when the planned order's peak is below program
     * order's for every size (the difference a non-zero polynomial without
     * negative coefficients): otherwise program order is as good. */
    bool lower = planned && peak.level == RDP_KNOWN && rdpProvablyLE(&peak, &program) && !rdpEqual(&peak, &program);
    if (planned && peak.level != RDP_KNOWN) /* rdpPlanOrder kept program order */
      snprintf(line, lineSize, "%zu ops: program order (no order's peak is comparable for all sizes)", n);
    else if (planned && !lower)
      snprintf(line, lineSize, "%zu ops: program order, peak %s (no order's is provably lower; planned %s)", n, progText,
               peakText);
    else
      snprintf(line, lineSize, "%zu ops: %s peak %s (program order %s)", n,
               planned ? "planned" : "program order (too many to search)", peakText, progText);
    if (lower) ok = moveOps(pl, from, to, opOf, order, n, anchor);
  }
  free(nodeOf);
  free(opOf);
  free(predStart);
  free(order);
  free(isOutput);
  free(size);
  free(w.preds);
  if (!ok) strataEmitOpError(pl->ops->ops[from], "nn-rdp-plan: out of memory planning this partition");
  return ok;
}

/* Parses "N=1,H=32" into one value per symbol; located errors. */
static bool parseSizes(const StrataRdp *r, MlirOperation func, const char *text, int64_t *vals) {
  size_t n = strataRdpNumInputSymbols(r);
  bool given[RDP_MAX_SYMS] = {false};
  for (const char *p = text; *p;) {
    const char *eq = strchr(p, '='), *end = strchr(p, ',');
    if (!end) end = p + strlen(p);
    if (!eq || eq > end) {
      strataEmitOpError(func, "nn-rdp-plan: option 'sizes' must be NAME=VALUE,...; got '%s'", text);
      return false;
    }
    size_t i = 0;
    while (i < n && (strlen(strataRdpSymbolName(r, i)) != (size_t)(eq - p) || strncmp(strataRdpSymbolName(r, i), p, (size_t)(eq - p))))
      i++;
    char *stop;
    long long v = strtoll(eq + 1, &stop, 10);
    if (i == n) {
      strataEmitOpError(func, "nn-rdp-plan: 'sizes' names '%.*s', which is not a symbol of this function", (int)(eq - p), p);
      return false;
    }
    if (stop != end || v < 1) {
      strataEmitOpError(func, "nn-rdp-plan: the size of '%s' must be an integer >= 1", strataRdpSymbolName(r, i));
      return false;
    }
    vals[i] = v;
    given[i] = true;
    p = *end ? end + 1 : end;
  }
  for (size_t i = 0; i < n; i++)
    if (!given[i]) {
      strataEmitOpError(func, "nn-rdp-plan: 'sizes' gives no value for symbol '%s'", strataRdpSymbolName(r, i));
      return false;
    }
  return true;
}

/* The memory plan of the (planned) order for one shape class. */
static bool planMemory(Planner *pl, MlirOperation func, const int64_t *inputs) {
  size_t n = pl->ops->count, m = 0, runtime = 0;
  int64_t vals[RDP_MAX_SYMS];
  if (!rdpSymbolValues(pl->r, inputs, vals)) {
    strataEmitOpError(func, "nn-rdp-plan: a derived size overflows int64 at these sizes");
    return false;
  }
  StrataMemTensor *t = malloc((n ? n : 1) * sizeof *t);
  size_t *owner = malloc((n ? n : 1) * sizeof *owner);
  int64_t *offsets = malloc((n ? n : 1) * sizeof *offsets), *baseline = malloc((n ? n : 1) * sizeof *baseline);
  bool ok = t && owner && offsets && baseline;
  for (size_t k = 0; ok && k < n; k++) {
    int64_t bytes;
    if (!rdpEval(&pl->size[k], vals, strataRdpNumSymbols(pl->r), &bytes)) {
      runtime += pl->size[k].level != RDP_KNOWN;
      if (pl->size[k].level == RDP_KNOWN) {
        strataEmitOpError(pl->ops->ops[k], "nn-rdp-plan: the result size overflows int64 at these sizes");
        ok = false;
      }
      continue;
    }
    if (bytes == 0) continue;
    int64_t end = (int64_t)k;
    MlirOperation op = pl->ops->ops[k];
    for (intptr_t j = 0; j < mlirOperationGetNumResults(op); j++)
      for (MlirOpOperand u = mlirValueGetFirstUse(mlirOperationGetResult(op, j)); !mlirOpOperandIsNull(u);
           u = mlirOpOperandGetNextUse(u)) {
        size_t p = indexOf(pl->ops, topLevel(mlirOpOperandGetOwner(u), pl->entry));
        int64_t at = p == SIZE_MAX ? (int64_t)n : (int64_t)p; /* the terminator: live to the end */
        end = at > end ? at : end;
      }
    t[m] = (StrataMemTensor){bytes, (int64_t)k, end};
    owner[m++] = k;
  }
  int64_t arena = ok ? strataMemPlanPeakWalk(t, m, offsets) : -1;
  int64_t best = ok ? strataMemPlanBestFit(t, m, baseline) : -1, livePeak = 0;
  for (size_t i = 0; i < m; i++) {
    int64_t live = 0;
    for (size_t k = 0; k < m; k++)
      if (t[k].start <= t[i].start && t[i].start <= t[k].end) live += t[k].size;
    livePeak = live > livePeak ? live : livePeak;
  }
  if (ok && (arena < 0 || best < 0)) {
    strataEmitOpError(func, "nn-rdp-plan: the arena size overflows int64 at these sizes");
    ok = false;
  }
  MlirContext c = mlirOperationGetContext(func);
  for (size_t i = 0; ok && i < m; i++) setAttr(pl->ops->ops[owner[i]], "rdp.offset", strataI64Attr(c, offsets[i]));
  if (ok) {
    setAttr(func, "rdp.arena", strataI64Attr(c, arena));
    setAttr(func, "rdp.arena_best_fit", strataI64Attr(c, best));
    setAttr(func, "rdp.live_peak", strataI64Attr(c, livePeak));
    setAttr(func, "rdp.runtime_allocs", strataI64Attr(c, (int64_t)runtime));
  }
  free(t);
  free(owner);
  free(offsets);
  free(baseline);
  return ok;
}

static void runPlan(StrataPassRun *run, MlirOperation func) {
  StrataContext *ctx = strataPassGetContext(run);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) return;
  StrataRdp *r = strataRdpRun(ctx, func, false);
  if (!r) {
    strataPassSignalFailure(run);
    return;
  }
  StrataOpList ops = {0};
  Planner pl = {ctx, r, entry, &ops, NULL, NULL};
  bool ok = true;
  MlirOperation term = mlirBlockGetTerminator(entry);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!mlirOperationEqual(op, term)) ok = strataOpListAppend(&ops, op);
  pl.size = malloc((ops.count ? ops.count : 1) * sizeof *pl.size);
  pl.fixed = calloc(ops.count ? ops.count : 1, sizeof *pl.fixed);
  ok = ok && pl.size && pl.fixed;
  if (!ok) strataEmitOpError(func, "nn-rdp-plan: out of memory");
  for (size_t k = 0; ok && k < ops.count; k++) {
    pl.size[k] = opBytes(ctx, r, ops.ops[k]);
    pl.fixed[k] = !movable(ops.ops[k]);
  }
  MlirContext c = mlirOperationGetContext(func);
  MlirAttribute lines[256];
  bool attrs = strataPassGetBool(run, "attrs");
  intptr_t numLines = 0;
  for (size_t from = 0; ok && from < ops.count;) {
    size_t to = from;
    bool point = pl.size[from].level != RDP_KNOWN || pl.fixed[from];
    if (point) to = from + 1; /* nothing moves across it */
    else
      while (to < ops.count && pl.size[to].level == RDP_KNOWN && !pl.fixed[to]) to++;
    MlirOperation anchor = to < ops.count ? ops.ops[to] : term;
    char line[640];
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(ops.ops[from]));
    if (point)
      snprintf(line, sizeof line, "partition point: %.*s (%s)", (int)name.length, name.data,
               pl.fixed[from] ? "side effects" : "size nac");
    else ok = planPartition(&pl, from, to, anchor, line, sizeof line);
    for (size_t k = from; ok && attrs && k < to; k++) setAttr(ops.ops[k], "rdp.partition", strataI64Attr(c, numLines));
    if (ok && numLines < 256) lines[numLines++] = strataStrAttr(c, line);
    from = to;
  }
  if (ok && attrs) setAttr(func, "rdp.partitions", mlirArrayAttrGet(c, numLines, lines));
  const char *sizes = strataPassGetString(run, "sizes");
  int64_t vals[RDP_MAX_SYMS];
  if (ok && *sizes) ok = parseSizes(r, func, sizes, vals) && planMemory(&pl, func, vals);
  if (!ok) strataPassSignalFailure(run);
  free(pl.size);
  free(pl.fixed);
  strataOpListDestroy(&ops);
  strataRdpDestroy(r);
}

static const StrataPassOptionDef kOptions[] = {
    {"sizes", STRATA_OPTION_STRING, "",
     "A shape class, one value per symbol (N=1,H=32): also plan the arena for it"},
    {"attrs", STRATA_OPTION_BOOL, "true", "Write rdp.partitions and rdp.partition (false: reorder only)"},
};

const StrataPassDef strataNnRdpPlanPass = {
    .name = "nn-rdp-plan",
    .summary = "SOD² execution-order planning over RDP partitions, and the arena plan for a shape class",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof *kOptions,
    .run = runPlan,
};
