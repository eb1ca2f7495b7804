/* The tool API: tools and their dependency order, the op context a callback
 * sees (accessors and the shared key/value store), and action recording. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/context.h"
#include "grow.h"
#include "instr_internal.h"

/* ---- Tools ---- */

StrataInstrTool *strataInstrToolCreate(const char *name) {
  StrataInstrTool *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->name = strdup(name ? name : "");
  if (!t->name) {
    free(t);
    return NULL;
  }
  return t;
}

void strataInstrToolDestroy(StrataInstrTool *t) {
  if (!t) return;
  if (t->cleanup) t->cleanup(t->cleanupUser);
  free(t->deps);
  free(t->name);
  free(t);
}

const char *strataInstrToolGetName(const StrataInstrTool *t) { return t->name; }

void strataInstrToolAddCallback(StrataInstrTool *t, StrataInstrPoint point, StrataInstrCallback fn,
                                void *user) {
  if ((unsigned)point >= STRATA_INSTR_NUM_POINTS) return;
  t->points[point].fn = fn;
  t->points[point].user = user;
}

void strataInstrToolSetFinish(StrataInstrTool *t, StrataInstrFinishFn fn, void *user) {
  t->finish = fn;
  t->finishUser = user;
}

void strataInstrToolDependsOn(StrataInstrTool *t, StrataInstrTool *dep) {
  StrataInstrTool **d = strataGrow(t->deps, &t->capDeps, t->numDeps + 1, sizeof *d);
  if (!d) return;
  t->deps = d;
  t->deps[t->numDeps++] = dep;
}

void instrToolSetCleanup(StrataInstrTool *t, void (*fn)(void *), void *user) {
  t->cleanup = fn;
  t->cleanupUser = user;
}

/* ---- Dependency order: depth-first, dependencies first ---- */

typedef struct {
  StrataInstrTool **all; /* every tool reached, with its DFS state */
  int *state;            /* 0 new, 1 on the DFS stack, 2 done */
  size_t numAll, capAll;
  StrataInstrTool **order;
  size_t numOrder;
  StrataInstrTool **stack;
  size_t depth;
  MlirLocation loc;
} Toposort;

static int *stateOf(Toposort *ts, StrataInstrTool *t) {
  for (size_t i = 0; i < ts->numAll; i++)
    if (ts->all[i] == t) return &ts->state[i];
  if (ts->numAll == ts->capAll) {
    /* The four arrays share capAll: each grows from a copy of it, and capAll
     * changes once all did (an array grown before a failure is just roomier). */
    size_t need = ts->numAll + 1, capA = ts->capAll, capS = ts->capAll, capO = ts->capAll,
           capK = ts->capAll;
    StrataInstrTool **a = strataGrow(ts->all, &capA, need, sizeof *a);
    if (a) ts->all = a;
    int *s = a ? strataGrow(ts->state, &capS, need, sizeof *s) : NULL;
    if (s) ts->state = s;
    StrataInstrTool **o = s ? strataGrow(ts->order, &capO, need, sizeof *o) : NULL;
    if (o) ts->order = o;
    StrataInstrTool **k = o ? strataGrow(ts->stack, &capK, need, sizeof *k) : NULL;
    if (!k) return NULL;
    ts->stack = k;
    ts->capAll = capK;
  }
  ts->all[ts->numAll] = t;
  ts->state[ts->numAll] = 0;
  return &ts->state[ts->numAll++];
}

static bool visit(Toposort *ts, StrataInstrTool *t) {
  int *st = stateOf(ts, t);
  if (!st) return false;
  if (*st == 2) return true;
  if (*st == 1) {
    /* The cycle: from t's place on the stack back to t. */
    char names[1024] = "";
    size_t from = 0;
    while (ts->stack[from] != t) from++;
    for (size_t i = from; i < ts->depth; i++) {
      strncat(names, ts->stack[i]->name, sizeof names - strlen(names) - 1);
      strncat(names, " -> ", sizeof names - strlen(names) - 1);
    }
    strncat(names, t->name, sizeof names - strlen(names) - 1);
    strataEmitError(ts->loc, "instrument: tool dependency cycle: %s", names);
    return false;
  }
  *st = 1;
  ts->stack[ts->depth++] = t;
  for (size_t i = 0; i < t->numDeps; i++)
    if (!visit(ts, t->deps[i])) return false;
  ts->depth--;
  *stateOf(ts, t) = 2; /* re-found: `st` may have moved when the arrays grew */
  ts->order[ts->numOrder++] = t;
  return true;
}

StrataInstrTool **instrToolOrder(StrataInstrTool *const *tools, size_t n, MlirLocation loc,
                                 size_t *count) {
  Toposort ts = {.loc = loc};
  bool ok = true;
  for (size_t i = 0; i < n && ok; i++) ok = visit(&ts, tools[i]);
  free(ts.all);
  free(ts.state);
  free(ts.stack);
  if (!ok) {
    free(ts.order);
    return NULL;
  }
  *count = ts.numOrder;
  return ts.order ? ts.order : calloc(1, sizeof *ts.order);
}

/* ---- Globs ---- */

static bool globMatch(const char *g, size_t glen, const char *s) {
  if (!glen) return !*s;
  if (*g == '*') return globMatch(g + 1, glen - 1, s) || (*s && globMatch(g, glen, s + 1));
  if (!*s) return false;
  return (*g == '?' || *g == *s) && globMatch(g + 1, glen - 1, s + 1);
}

/* Op names are dialect.op: letters, digits, '_', '$', '.'; a glob adds '*'
 * and '?'. Anything else ('[', spaces, an empty item) would silently match
 * nothing, so it is refused. */
bool instrCheckGlobs(const char *globs, MlirLocation loc) {
  if (!globs || !*globs) return true;
  for (const char *p = globs;; p++) {
    size_t len = strcspn(p, ",");
    size_t bad = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$.*?");
    if (!len || bad < len) {
      strataEmitError(loc,
                      "instrument: ops='%s': %s (a comma-separated list of op-name globs: letters, "
                      "digits, '_', '.', '*', '?')",
                      globs, !len ? "empty glob" : "bad character in an op-name glob");
      return false;
    }
    p += len;
    if (!*p) return true;
  }
}

bool instrMatchGlobs(const char *globs, const char *name) {
  if (!globs || !*globs) return true;
  for (const char *p = globs; *p;) {
    size_t len = strcspn(p, ",");
    if (len && globMatch(p, len, name)) return true;
    p += len + (p[len] == ',');
  }
  return false;
}

/* ---- Op context ---- */

StrataContext *strataInstrOpGetContext(const StrataInstrOpContext *c) { return c->ctx; }
MlirOperation strataInstrOpGetOperation(const StrataInstrOpContext *c) { return c->op; }
const char *strataInstrOpGetName(const StrataInstrOpContext *c) { return c->name; }
int64_t strataInstrOpGetId(const StrataInstrOpContext *c) { return c->id; }
StrataInstrPoint strataInstrOpGetPoint(const StrataInstrOpContext *c) { return c->point; }
bool strataInstrOpIsForward(const StrataInstrOpContext *c) {
  return c->point == STRATA_INSTR_BEFORE_FORWARD || c->point == STRATA_INSTR_AFTER_FORWARD;
}
const char *strataInstrOpGetToolName(const StrataInstrOpContext *c) {
  return c->tool ? c->tool->name : "";
}
intptr_t strataInstrOpGetNumInputs(const StrataInstrOpContext *c) {
  return mlirOperationGetNumOperands(c->op);
}
MlirValue strataInstrOpGetInput(const StrataInstrOpContext *c, intptr_t i) {
  return i >= 0 && i < mlirOperationGetNumOperands(c->op) ? mlirOperationGetOperand(c->op, i)
                                                          : (MlirValue){NULL};
}
intptr_t strataInstrOpGetNumOutputs(const StrataInstrOpContext *c) {
  return mlirOperationGetNumResults(c->op);
}
MlirValue strataInstrOpGetOutput(const StrataInstrOpContext *c, intptr_t i) {
  return i >= 0 && i < mlirOperationGetNumResults(c->op) ? mlirOperationGetResult(c->op, i)
                                                         : (MlirValue){NULL};
}
MlirAttribute strataInstrOpGetAttribute(const StrataInstrOpContext *c, const char *name) {
  return mlirOperationGetAttributeByName(c->op, mlirStringRefCreateFromCString(name));
}

/* ---- Key/value store ---- */

static const InstrKeyValue *findKey(const StrataInstrOpContext *c, const char *key) {
  for (size_t i = 0; i < c->numKv; i++)
    if (!strcmp(c->kv[i].key, key)) return &c->kv[i];
  return NULL;
}

/* The entry for `key`, emptied for a new value; NULL if out of memory. */
static InstrKeyValue *slotFor(StrataInstrOpContext *c, const char *key) {
  InstrKeyValue *e = (InstrKeyValue *)findKey(c, key);
  if (e) {
    free(e->s);
    e->s = NULL;
    return e;
  }
  InstrKeyValue *kv = strataGrow(c->kv, &c->capKv, c->numKv + 1, sizeof *kv);
  if (!kv) return NULL;
  c->kv = kv;
  e = &c->kv[c->numKv];
  *e = (InstrKeyValue){.key = strdup(key)};
  if (!e->key) return NULL;
  c->numKv++;
  return e;
}

void strataInstrOpSetInt(StrataInstrOpContext *c, const char *key, int64_t value) {
  InstrKeyValue *e = slotFor(c, key);
  if (e) e->kind = STRATA_INSTR_VALUE_INT, e->i = value;
}
void strataInstrOpSetDouble(StrataInstrOpContext *c, const char *key, double value) {
  InstrKeyValue *e = slotFor(c, key);
  if (e) e->kind = STRATA_INSTR_VALUE_DOUBLE, e->d = value;
}
void strataInstrOpSetString(StrataInstrOpContext *c, const char *key, const char *value) {
  InstrKeyValue *e = slotFor(c, key);
  if (e) e->kind = (e->s = strdup(value ? value : "")) ? STRATA_INSTR_VALUE_STRING : STRATA_INSTR_VALUE_NONE;
}
StrataInstrValueKind strataInstrOpGetKind(const StrataInstrOpContext *c, const char *key) {
  const InstrKeyValue *e = findKey(c, key);
  return e ? e->kind : STRATA_INSTR_VALUE_NONE;
}
bool strataInstrOpGetInt(const StrataInstrOpContext *c, const char *key, int64_t *out) {
  const InstrKeyValue *e = findKey(c, key);
  if (!e || e->kind != STRATA_INSTR_VALUE_INT) return false;
  *out = e->i;
  return true;
}
bool strataInstrOpGetDouble(const StrataInstrOpContext *c, const char *key, double *out) {
  const InstrKeyValue *e = findKey(c, key);
  if (!e || (e->kind != STRATA_INSTR_VALUE_DOUBLE && e->kind != STRATA_INSTR_VALUE_INT)) return false;
  *out = e->kind == STRATA_INSTR_VALUE_INT ? (double)e->i : e->d;
  return true;
}
const char *strataInstrOpGetString(const StrataInstrOpContext *c, const char *key) {
  const InstrKeyValue *e = findKey(c, key);
  return e && e->kind == STRATA_INSTR_VALUE_STRING ? e->s : NULL;
}

void instrContextFree(StrataInstrOpContext *c) {
  for (size_t i = 0; i < c->numKv; i++) free(c->kv[i].key), free(c->kv[i].s);
  free(c->kv);
  free(c->actions);
  free(c->name);
}

/* ---- Recording actions ---- */

static MlirLogicalResult record(StrataInstrOpContext *c, InstrAction a) {
  intptr_t limit = a.kind == INSTR_ACT_BEFORE  ? mlirOperationGetNumOperands(c->op)
                   : a.kind == INSTR_ACT_AFTER ? mlirOperationGetNumResults(c->op)
                                               : 1;
  MlirLocation loc = mlirOperationGetLocation(c->op);
  a.tool = strataInstrOpGetToolName(c);
  if (a.index < 0 || a.index >= limit) {
    strataEmitError(loc, "instrument: tool '%s' inserts %s %s #%lld of '%s' (op_id %lld), which "
                    "has %lld", a.tool, a.kind == INSTR_ACT_BEFORE ? "before" : "after",
                    a.kind == INSTR_ACT_BEFORE ? "input" : "output", (long long)a.index, c->name,
                    (long long)c->id, (long long)limit);
    c->failed = true;
    return mlirLogicalResultFailure();
  }
  if (a.kind == INSTR_ACT_REPLACE) {
    if (c->replacedBy) {
      strataEmitError(loc, "instrument: tool '%s' replaces '%s' (op_id %lld), which tool '%s' "
                      "already replaced; an op can be replaced once", a.tool, c->name,
                      (long long)c->id, c->replacedBy);
      c->failed = true;
      return mlirLogicalResultFailure();
    }
    c->replacedBy = a.tool;
  }
  InstrAction *acts = strataGrow(c->actions, &c->capActions, c->numActions + 1, sizeof *acts);
  if (!acts) {
    c->failed = true;
    return mlirLogicalResultFailure();
  }
  c->actions = acts;
  c->actions[c->numActions++] = a;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult strataInstrInsertBefore(StrataInstrOpContext *c, intptr_t input,
                                          StrataInstrBuildFn fn, void *user) {
  return record(c, (InstrAction){INSTR_ACT_BEFORE, input, fn, NULL, user, fn == NULL, NULL});
}
MlirLogicalResult strataInstrInsertAfter(StrataInstrOpContext *c, intptr_t output,
                                         StrataInstrBuildFn fn, void *user) {
  return record(c, (InstrAction){INSTR_ACT_AFTER, output, fn, NULL, user, fn == NULL, NULL});
}
MlirLogicalResult strataInstrReplace(StrataInstrOpContext *c, StrataInstrReplaceFn fn, void *user) {
  if (!fn) {
    c->failed = true;
    return mlirLogicalResultFailure();
  }
  return record(c, (InstrAction){INSTR_ACT_REPLACE, 0, NULL, fn, user, false, NULL});
}
MlirLogicalResult strataInstrProbeBefore(StrataInstrOpContext *c, intptr_t input) {
  return strataInstrInsertBefore(c, input, NULL, NULL);
}
MlirLogicalResult strataInstrProbeAfter(StrataInstrOpContext *c, intptr_t output) {
  return strataInstrInsertAfter(c, output, NULL, NULL);
}
