/* The instrumentation driver: runs the tools' analysis routines over the
 * target ops -- the observable ops of every registered dialect -- once per
 * op and point, in dependency order, then applies the recorded actions as a
 * pattern set (one pattern per instrumented op name, rewriting through the
 * driver's rewriter) run by the walk driver. Nothing is changed until every
 * routine has run without an error, and nothing at all (not even op ids)
 * when no action was recorded: an idle tool leaves the IR byte-identical.
 * The analysis itself is not a pattern: a routine sees every op with the
 * ids of the whole module assigned and the other tools' results, before
 * anything changes (see docs/passes.md). */
#include <stdlib.h>
#include <string.h>
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pattern.h"
#include "strata/support.h"
#include "instr_internal.h"

MlirValue strataInstrBuildProbe(StrataBuilder *b, MlirLocation loc, MlirValue value, int64_t opId,
                                const char *point, const char *tool, const char *opName,
                                int64_t index) {
  MlirContext ctx = b->ctx;
  MlirOperation p = strataCreateOp(
      b, "instr.probe", loc, .operands = STRATA_VALUES(value),
      .results = STRATA_TYPES(mlirValueGetType(value)),
      .attrs = STRATA_ATTRS({"op_id", strataI64Attr(ctx, opId)}, {"point", strataStrAttr(ctx, point)},
                            {"tool", strataStrAttr(ctx, tool)}, {"op_name", strataStrAttr(ctx, opName)},
                            {"index", strataI64Attr(ctx, index)}));
  return mlirOperationIsNull(p) ? (MlirValue){NULL} : strataResult(p, 0);
}

/* ---- Collecting the target ops ---- */

typedef struct {
  StrataContext *ctx;
  StrataOpList list;
  int64_t maxId;
  bool oom;
} Targets;

static MlirWalkResult collect(MlirOperation op, void *user) {
  Targets *t = user;
  if (!strataInstrIsTarget(t->ctx, op)) return MlirWalkResultAdvance;
  if (!strataOpListAppend(&t->list, op)) {
    t->oom = true;
    return MlirWalkResultInterrupt;
  }
  int64_t id = strataInstrGetOpId(op);
  if (id > t->maxId) t->maxId = id;
  return MlirWalkResultAdvance;
}

/* ---- Applying one op's actions ---- */

/* The value an insert action builds on `v`, type-checked; null after an error. */
static MlirValue buildInserted(const StrataInstrOpContext *c, const InstrAction *a, StrataBuilder *b,
                               MlirLocation loc, MlirValue v) {
  const char *where = a->kind == INSTR_ACT_BEFORE ? "before" : "after";
  MlirValue nv = a->probe ? strataInstrBuildProbe(b, loc, v, c->id, where, a->tool, c->name, a->index)
                          : a->build(b, loc, v, a->user);
  if (mlirValueIsNull(nv) || !mlirTypeEqual(mlirValueGetType(nv), mlirValueGetType(v))) {
    strataEmitError(loc, "instrument: tool '%s' built %s for %s #%lld of '%s' (op_id %lld)", a->tool,
                    mlirValueIsNull(nv) ? "no value" : "a value of another type",
                    a->kind == INSTR_ACT_BEFORE ? "input" : "output", (long long)a->index, c->name,
                    (long long)c->id);
    return (MlirValue){NULL};
  }
  return nv;
}

/* The op whose block is `block` among `op` and its ancestors, or null. */
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op) && !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Replaces `v` by `nv` in the uses at or after `anchor` (in `block`, or
 * nested in an op there): the uses that existed when the action started. */
typedef struct {
  MlirOperation owner;
  intptr_t operand;
} Use;

static Use *laterUses(MlirValue v, MlirBlock block, MlirOperation anchor, size_t *n) {
  size_t count = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    count++;
  Use *uses = calloc(count ? count : 1, sizeof *uses);
  *n = 0;
  if (!uses || mlirOperationIsNull(anchor)) return uses;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u), at = ancestorIn(owner, block);
    if (mlirOperationIsNull(at) ||
        !(mlirOperationEqual(at, anchor) || mlirOperationIsBeforeInBlock(anchor, at)))
      continue;
    uses[(*n)++] = (Use){owner, (intptr_t)mlirOpOperandGetOperandNumber(u)};
  }
  return uses;
}

/* Sets operand `i` of `owner` to `v`, telling the rewriter. */
static void setOperand(MlirRewriterBase rw, MlirOperation owner, intptr_t i, MlirValue v) {
  mlirRewriterBaseStartOpModification(rw, owner);
  mlirOperationSetOperand(owner, i, v);
  mlirRewriterBaseFinalizeOpModification(rw, owner);
}

static bool applyReplace(const StrataInstrOpContext *c, const InstrAction *a, MlirRewriterBase rw,
                         MlirValue *cur) {
  MlirOperation op = c->op;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder b = strataBuilderBefore(op, rw);
  intptr_t nin = mlirOperationGetNumOperands(op), nout = mlirOperationGetNumResults(op);
  MlirValue inputs[nin ? nin : 1], outputs[nout ? nout : 1];
  for (intptr_t i = 0; i < nin; i++) inputs[i] = mlirOperationGetOperand(op, i);
  for (intptr_t i = 0; i < nout; i++) outputs[i] = (MlirValue){NULL};
  bool ok = a->replace(&b, loc, inputs, nin, outputs, nout, a->user);
  for (intptr_t i = 0; ok && i < nout; i++)
    ok = !mlirValueIsNull(outputs[i]) &&
         mlirTypeEqual(mlirValueGetType(outputs[i]), mlirValueGetType(cur[i]));
  if (!ok) {
    strataEmitError(loc, "instrument: tool '%s' could not replace '%s' (op_id %lld): its builder "
                    "failed or gave outputs of other types", a->tool, c->name, (long long)c->id);
    return false;
  }
  mlirRewriterBaseReplaceOpWithValues(rw, op, nout, outputs);
  for (intptr_t i = 0; i < nout; i++) cur[i] = outputs[i];
  return true;
}

/* One op's actions, through the rewriter of the pattern that matched it. */
static bool applyActions(StrataInstrOpContext *c, MlirRewriterBase rw) {
  MlirOperation op = c->op;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirBlock block = mlirOperationGetBlock(op);
  MlirOperation anchor = mlirOperationGetNextInBlock(op); /* after-actions go before it */
  intptr_t nout = mlirOperationGetNumResults(op);
  MlirValue cur[nout ? nout : 1];
  for (intptr_t i = 0; i < nout; i++) cur[i] = mlirOperationGetResult(op, i);
  /* Amanda's order: insert-before, replace, (the op), insert-after. */
  for (size_t i = 0; i < c->numActions; i++) {
    const InstrAction *a = &c->actions[i];
    if (a->kind != INSTR_ACT_BEFORE) continue;
    StrataBuilder b = strataBuilderBefore(op, rw);
    MlirValue nv = buildInserted(c, a, &b, loc, mlirOperationGetOperand(op, a->index));
    if (mlirValueIsNull(nv)) return false;
    setOperand(rw, op, a->index, nv);
  }
  for (size_t i = 0; i < c->numActions; i++)
    if (c->actions[i].kind == INSTR_ACT_REPLACE && !applyReplace(c, &c->actions[i], rw, cur))
      return false;
  for (size_t i = 0; i < c->numActions; i++) {
    const InstrAction *a = &c->actions[i];
    if (a->kind != INSTR_ACT_AFTER) continue;
    size_t n;
    Use *uses = laterUses(cur[a->index], block, anchor, &n);
    if (!uses) return false;
    /* Before the op that followed, through the rewriter; at the end of a
     * block without one (the rewriter needs an op to insert before). */
    StrataBuilder b = mlirOperationIsNull(anchor) ? strataBuilderAtEnd(mlirLocationGetContext(loc), block)
                                                  : strataBuilderBefore(anchor, rw);
    MlirValue nv = buildInserted(c, a, &b, loc, cur[a->index]);
    for (size_t u = 0; u < n && !mlirValueIsNull(nv); u++)
      setOperand(rw, uses[u].owner, uses[u].operand, nv);
    free(uses);
    if (mlirValueIsNull(nv)) return false;
    cur[a->index] = nv;
  }
  return true;
}

/* ---- Applying the actions as patterns ---- */

typedef struct {
  const void *op;
  StrataInstrOpContext *c;
} OpEntry;

typedef struct {
  OpEntry *byOp; /* sorted by op pointer */
  size_t count;
  bool failed;
} ApplyState;

static int cmpEntry(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)((const OpEntry *)a)->op, y = (uintptr_t)((const OpEntry *)b)->op;
  return x < y ? -1 : x > y;
}

/* The pattern: an op with recorded actions gets them applied, once. */
static MlirLogicalResult applyPattern(StrataRewrite *rw, MlirOperation op, void *user) {
  ApplyState *st = user;
  OpEntry key = {op.ptr, NULL};
  OpEntry *e = st->failed ? NULL : bsearch(&key, st->byOp, st->count, sizeof key, cmpEntry);
  if (!e || e->c->applied || !e->c->numActions) return mlirLogicalResultFailure();
  e->c->applied = true;
  if (!applyActions(e->c, rw->rewriter)) st->failed = true;
  return mlirLogicalResultSuccess();
}

/* Applies every context's actions with one pattern per op name. */
static bool applyAll(MlirOperation root, StrataInstrOpContext *cs, size_t n) {
  ApplyState st = {calloc(n ? n : 1, sizeof *st.byOp), 0, false};
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  bool ok = st.byOp && set;
  for (size_t i = 0; ok && i < n; i++) {
    if (!cs[i].numActions) continue;
    bool seen = false;
    for (size_t j = 0; j < st.count && !seen; j++) seen = !strcmp(st.byOp[j].c->name, cs[i].name);
    if (!seen) strataPatternSetAdd(set, cs[i].name, 1, applyPattern, &st);
    st.byOp[st.count++] = (OpEntry){cs[i].op.ptr, &cs[i]};
  }
  if (ok) {
    qsort(st.byOp, st.count, sizeof *st.byOp, cmpEntry);
    strataApplyPatternsWalk(set, root);
    for (size_t i = 0; i < st.count && !st.failed; i++)
      if (!st.byOp[i].c->applied) {
        /* The walk driver skips unreachable blocks; nothing else is left. */
        strataEmitError(mlirOperationGetLocation(st.byOp[i].c->op),
                        "instrument: '%s' (op_id %lld) is in an unreachable block; its actions "
                        "were not applied", st.byOp[i].c->name, (long long)st.byOp[i].c->id);
        st.failed = true;
      }
  }
  strataPatternSetDestroy(set);
  free(st.byOp);
  return ok && !st.failed;
}

/* ---- The run ---- */

static void analyze(StrataInstrOpContext *c, StrataInstrTool *const *order, size_t numOrder) {
  static const StrataInstrPoint kForward[] = {STRATA_INSTR_BEFORE_FORWARD, STRATA_INSTR_AFTER_FORWARD};
  for (size_t p = 0; p < 2; p++) {
    c->point = kForward[p];
    for (size_t t = 0; t < numOrder; t++) {
      if (!order[t]->points[c->point].fn) continue;
      c->tool = order[t];
      order[t]->points[c->point].fn(c, order[t]->points[c->point].user);
    }
  }
  c->tool = NULL;
}

MlirLogicalResult strataInstrument(StrataContext *ctx, MlirOperation root,
                                   StrataInstrTool *const *tools, size_t numTools, const char *ops) {
  MlirLocation rootLoc = mlirOperationGetLocation(root);
  if (!instrCheckGlobs(ops, rootLoc)) return mlirLogicalResultFailure();
  size_t numOrder = 0;
  StrataInstrTool **order = instrToolOrder(tools, numTools, rootLoc, &numOrder);
  if (!order) return mlirLogicalResultFailure();
  Targets t = {.ctx = ctx, .maxId = -1};
  mlirOperationWalk(root, collect, &t, MlirWalkPreOrder);
  StrataInstrOpContext *cs = calloc(t.list.count ? t.list.count : 1, sizeof *cs);
  bool ok = cs && !t.oom, any = false;
  /* Ids as strataInstrAssignIds would give them (same walk, same order),
   * written only if something is instrumented. */
  int64_t next = t.maxId + 1;
  for (size_t i = 0; ok && i < t.list.count; i++) {
    StrataInstrOpContext *c = &cs[i];
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(t.list.ops[i]));
    c->ctx = ctx;
    c->op = t.list.ops[i];
    c->id = strataInstrGetOpId(c->op) >= 0 ? strataInstrGetOpId(c->op) : next++;
    c->name = strndup(name.data, name.length);
    if (!c->name) ok = false;
    if (!ok || !instrMatchGlobs(ops, c->name)) continue;
    analyze(c, order, numOrder);
    ok = !c->failed;
    any = any || c->numActions;
  }
  if (ok && any) {
    strataInstrAssignIds(ctx, root);
    ok = applyAll(root, cs, t.list.count);
  }
  for (size_t i = 0; ok && i < numOrder; i++)
    if (order[i]->finish) order[i]->finish(order[i]->finishUser);
  for (size_t i = 0; cs && i < t.list.count; i++) instrContextFree(&cs[i]);
  free(cs);
  strataOpListDestroy(&t.list);
  free(order);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}
