/* --nn-rdp-plan: execution-order and memory planning from RDP facts (SOD²
 * B5, B6) on each function's top-level ops.
 *
 * Each op's intermediate size is the bytes of its tensor results as an RDP
 * expression (constants and weights count 0). An op whose size is not known
 * (a nac dim: EDO ops, data-dependent shapes) is a partition point: it is a
 * partition of its own and nothing moves across it. Each other partition of
 * up to STRATA_ORDER_MAX_EXACT ops is reordered to the order with the
 * provably smallest peak (order_plan.c: exact for constant sizes, symbolic
 * comparison otherwise); larger ones keep program order. The function gets
 * rdp.partitions (one line per partition: ops, planned and program-order
 * peaks), each op rdp.partition.
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

static size_t indexOf(const StrataOpList *ops, MlirOperation op) {
  for (size_t i = 0; i < ops->count; i++)
    if (mlirOperationEqual(ops->ops[i], op)) return i;
  return SIZE_MAX;
}

typedef struct {
  const StrataOpList *ops;
  size_t self, from, to; /* the node, and the partition [from, to) */
  MlirBlock entry;
  size_t *preds;
  size_t numPreds, capPreds;
  bool ok;
} PredWalk;

/* Producers (in the partition) of the operands of an op and its nested ops. */
static MlirWalkResult collectPreds(MlirOperation op, void *user) {
  PredWalk *w = user;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v)) continue;
    size_t p = indexOf(w->ops, topLevel(mlirOpResultGetOwner(v), w->entry));
    if (p == SIZE_MAX || p < w->from || p >= w->to || p == w->self) continue;
    size_t *g = w->numPreds + 1 > w->capPreds ? strataGrow(w->preds, &w->capPreds, w->numPreds + 1, sizeof *w->preds) : w->preds;
    if (!g) {
      w->ok = false;
      return MlirWalkResultInterrupt;
    }
    w->preds = g;
    w->preds[w->numPreds++] = p - w->from;
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

typedef struct {
  StrataContext *ctx;
  const StrataRdp *r;
  MlirBlock entry;
  StrataOpList *ops; /* top-level ops, terminator excluded; reordered in place */
  RdpDim *size;
} Planner;

/* Plans partition [from, to) and moves its ops into the planned order
 * before `anchor`; writes its summary line. False when out of memory. */
static bool planPartition(Planner *pl, size_t from, size_t to, MlirOperation anchor, char *line, size_t lineSize) {
  size_t n = to - from;
  const char *const *names = rdpSymbolNames(pl->r);
  char peakText[256], progText[256];
  size_t *predStart = calloc(n + 1, sizeof *predStart), *order = malloc(n * sizeof *order);
  bool *isOutput = calloc(n, sizeof *isOutput);
  PredWalk w = {.ops = pl->ops, .from = from, .to = to, .entry = pl->entry, .ok = true};
  bool ok = predStart && order && isOutput;
  for (size_t k = 0; ok && k < n; k++) {
    w.self = from + k;
    mlirOperationWalk(pl->ops->ops[from + k], collectPreds, &w, MlirWalkPreOrder);
    ok = w.ok;
    predStart[k + 1] = w.numPreds;
    isOutput[k] = usedOutside(pl->ops, from + k, from, to, pl->entry);
  }
  if (ok) {
    RdpOrderProblem p = {n, pl->size + from, predStart, w.preds, isOutput};
    for (size_t k = 0; k < n; k++) order[k] = k;
    RdpDim program = rdpOrderPeak(&p, order), peak = program;
    bool planned = n <= STRATA_ORDER_MAX_EXACT;
    if (planned && !rdpPlanOrder(&p, order, &peak)) ok = planned = false; /* out of memory: SSA has no cycle */
    rdpPrint(&peak, names, peakText, sizeof peakText);
    rdpPrint(&program, names, progText, sizeof progText);
    if (planned && peak.level != RDP_KNOWN) /* rdpPlanOrder kept program order */
      snprintf(line, lineSize, "%zu ops: program order (no order's peak is comparable for all sizes)", n);
    else
      snprintf(line, lineSize, "%zu ops: %s peak %s (program order %s)", n,
               planned ? "planned" : "program order (too many to search)", peakText, progText);
    MlirOperation moved[STRATA_ORDER_MAX_EXACT];
    for (size_t k = 0; planned && k < n; k++) moved[k] = pl->ops->ops[from + order[k]];
    for (size_t k = 0; planned && k < n; k++) {
      mlirOperationMoveBefore(moved[k], anchor);
      pl->ops->ops[from + k] = moved[k];
    }
    if (planned) { /* sizes follow their ops */
      RdpDim *sizes = malloc(n * sizeof *sizes);
      ok = sizes != NULL;
      for (size_t k = 0; ok && k < n; k++) sizes[k] = pl->size[from + order[k]];
      if (ok) memcpy(pl->size + from, sizes, n * sizeof *sizes);
      free(sizes);
    }
  }
  free(predStart);
  free(order);
  free(isOutput);
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
  Planner pl = {ctx, r, entry, &ops, NULL};
  bool ok = true;
  MlirOperation term = mlirBlockGetTerminator(entry);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); ok && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (!mlirOperationEqual(op, term)) ok = strataOpListAppend(&ops, op);
  pl.size = malloc((ops.count ? ops.count : 1) * sizeof *pl.size);
  ok = ok && pl.size;
  if (!ok) strataEmitOpError(func, "nn-rdp-plan: out of memory");
  for (size_t k = 0; ok && k < ops.count; k++) pl.size[k] = opBytes(ctx, r, ops.ops[k]);
  MlirContext c = mlirOperationGetContext(func);
  MlirAttribute lines[256];
  intptr_t numLines = 0;
  for (size_t from = 0; ok && from < ops.count;) {
    size_t to = from;
    if (pl.size[from].level != RDP_KNOWN) to = from + 1; /* a partition point */
    else
      while (to < ops.count && pl.size[to].level == RDP_KNOWN) to++;
    MlirOperation anchor = to < ops.count ? ops.ops[to] : term;
    char line[640];
    if (to == from + 1 && pl.size[from].level != RDP_KNOWN) snprintf(line, sizeof line, "partition point: %s (size nac)",
                                                                     mlirIdentifierStr(mlirOperationGetName(ops.ops[from])).data);
    else ok = planPartition(&pl, from, to, anchor, line, sizeof line);
    for (size_t k = from; ok && k < to; k++) setAttr(ops.ops[k], "rdp.partition", strataI64Attr(c, numLines));
    if (ok && numLines < 256) lines[numLines++] = strataStrAttr(c, line);
    from = to;
  }
  if (ok) setAttr(func, "rdp.partitions", mlirArrayAttrGet(c, numLines, lines));
  const char *sizes = strataPassGetString(run, "sizes");
  int64_t vals[RDP_MAX_SYMS];
  if (ok && *sizes) ok = parseSizes(r, func, sizes, vals) && planMemory(&pl, func, vals);
  if (!ok) strataPassSignalFailure(run);
  free(pl.size);
  strataOpListDestroy(&ops);
  strataRdpDestroy(r);
}

static const StrataPassOptionDef kOptions[] = {
    {"sizes", STRATA_OPTION_STRING, "",
     "A shape class, one value per symbol (N=1,H=32): also plan the arena for it"},
};

const StrataPassDef strataNnRdpPlanPass = {
    .name = "nn-rdp-plan",
    .summary = "SOD² execution-order planning over RDP partitions, and the arena plan for a shape class",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof *kOptions,
    .run = runPlan,
};
