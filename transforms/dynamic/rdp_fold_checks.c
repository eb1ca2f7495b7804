/* --rdp-fold-checks: the compiled code uses RDP's facts (issue 19).
 *
 * The lowerings check every extent they assume at run time (two dynamic
 * dims that broadcast together are equal, an absorbed addend has the
 * result's extents, ...: conversions/nn-to-linalg/lower_dims.c), comparing
 * `tensor.dim`s and the arithmetic on them. Two arguments with the same ONNX
 * `dim_param` (or one symbol through any chain of shape rules) have equal
 * extents by RDP, but the IR reads them as two values, so those checks
 * stayed. This pass runs RDP on the lowered function (its rules cover the
 * shape arithmetic of lowered code: tensor.dim, arith on indices,
 * tensor.empty), then
 *  - folds every integer comparison whose two sides RDP proves equal (the
 *    same polynomial over the symbols) to its constant, and drops the
 *    checks (`scf.if` calling strata_rt_shape_error) it made dead;
 *  - makes the assumption the folding rests on true: the argument dims
 *    that share a symbol are compared once, at the function's entry (a
 *    located error naming the argument, kind 16), and every other read of
 *    them becomes the first one's extent, so the rest of the function
 *    sees one value per symbol.
 * Comparisons RDP cannot decide (different symbols, nac) are left as they
 * are. Anchored on func.func, after nn-to-linalg and
 * resolve-ranked-shaped-type-result-dims in the CPU pipelines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/rdp.h"
#include "strata/support.h"

enum { MAX_ARG_DIMS = 256, SYM_LEN = 64 };

typedef struct {
  intptr_t arg;
  int dim;
  char sym[SYM_LEN];
} ArgDim;

typedef struct {
  const StrataRdp *r;
  StrataOpList cmps;  /* comparisons RDP decides */
  bool *value;        /* their folded value, by index in cmps */
  size_t cap;
  bool ok;
} Collect;

/* Whether a comparison with predicate `p` holds when both sides are equal
 * (arith.cmpi: eq ne slt sle sgt sge ult ule ugt uge). */
static bool holdsWhenEqual(int64_t p) { return p == 0 || p == 3 || p == 5 || p == 7 || p == 9; }

static bool knownScalar(const StrataRdp *r, MlirValue v, char *buf, size_t size) {
  if (strataRdpValueLength(r, v) != 1) return false;
  StrataRdpKind k = strataRdpValueOf(r, v, 0, NULL, buf, size);
  return k == STRATA_RDP_CONST || k == STRATA_RDP_SYMBOL || k == STRATA_RDP_EXPR;
}

static MlirWalkResult collectCmp(MlirOperation op, void *user) {
  Collect *c = user;
  if (!strataOpIsNamed(op, "arith.cmpi") || mlirOperationGetNumOperands(op) != 2) return MlirWalkResultAdvance;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  int64_t pred;
  if (!mlirTypeIsAInteger(t) || !strataGetI64(op, "predicate", &pred)) return MlirWalkResultAdvance;
  char x[512], y[512];
  if (!knownScalar(c->r, mlirOperationGetOperand(op, 0), x, sizeof x) ||
      !knownScalar(c->r, mlirOperationGetOperand(op, 1), y, sizeof y) || strcmp(x, y))
    return MlirWalkResultAdvance; /* canonical polynomials: equal iff printed the same */
  if (c->cmps.count == c->cap) {
    size_t cap = c->cap ? 2 * c->cap : 16;
    bool *v = realloc(c->value, cap * sizeof *v);
    if (!v) return c->ok = false, MlirWalkResultInterrupt;
    c->value = v, c->cap = cap;
  }
  if (!strataOpListAppend(&c->cmps, op)) return c->ok = false, MlirWalkResultInterrupt;
  c->value[c->cmps.count - 1] = holdsWhenEqual(pred);
  return MlirWalkResultAdvance;
}

/* The argument dims of input symbols, in argument order. */
static size_t argDims(const StrataRdp *r, MlirBlock entry, ArgDim *out) {
  size_t n = 0;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(entry); a++) {
    MlirValue v = mlirBlockGetArgument(entry, a);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t)) continue;
    for (int d = 0; d < mlirShapedTypeGetRank(t) && n < MAX_ARG_DIMS; d++) {
      if (!mlirShapedTypeIsDynamicDim(t, d)) continue;
      if (strataRdpDimOf(r, v, d, NULL, out[n].sym, SYM_LEN) != STRATA_RDP_SYMBOL) continue;
      out[n].arg = a, out[n].dim = d, n++;
    }
  }
  return n;
}

/* An `scf.if` with no results and no else whose condition is one of the
 * false constants the folding made: a check that cannot fire. */
static bool deadCheck(MlirOperation op, const StrataOpList *made) {
  if (!strataOpIsNamed(op, "scf.if") || mlirOperationGetNumResults(op) != 0) return false;
  MlirBlock els = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 1));
  if (!mlirBlockIsNull(els) && !mlirOperationIsNull(mlirBlockGetFirstOperation(els)) &&
      !strataOpIsNamed(mlirBlockGetFirstOperation(els), "scf.yield"))
    return false;
  MlirValue c = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(c) || !strataOpListContains(made, mlirOpResultGetOwner(c))) return false;
  MlirAttribute v = strataOpAttr(mlirOpResultGetOwner(c), "value");
  return mlirAttributeIsAInteger(v) && mlirIntegerAttrGetValueInt(v) == 0;
}

static MlirValue dimOf(StrataBuilder *b, MlirLocation loc, MlirValue t, int d) {
  MlirValue i = strataConstInt(b, loc, strataIndexType(b->ctx), d);
  return strataResult(strataCreateOp(b, "tensor.dim", loc, .operands = STRATA_VALUES(t, i),
                                     .results = STRATA_TYPES(strataIndexType(b->ctx))),
                      0);
}

/* Folds the decided comparisons (before anything else changes the IR the
 * facts refer to) into constants, listed in `made`. */
static bool foldComparisons(Collect *c, StrataOpList *made) {
  for (size_t i = 0; i < c->cmps.count; i++) {
    MlirOperation op = c->cmps.ops[i];
    StrataBuilder b = strataBuilderBefore(op, (MlirRewriterBase){NULL});
    MlirValue k = strataConstInt(&b, mlirOperationGetLocation(op), mlirValueGetType(mlirOperationGetResult(op, 0)),
                                 c->value[i]);
    if (!strataOpListAppend(made, mlirOpResultGetOwner(k))) return false;
    MlirValue res = mlirOperationGetResult(op, 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(res); !mlirOpOperandIsNull(u); u = mlirValueGetFirstUse(res))
      mlirOperationSetOperand(mlirOpOperandGetOwner(u), mlirOpOperandGetOperandNumber(u), k);
    mlirOperationDestroy(op);
  }
  return true;
}

typedef struct {
  const StrataOpList *made;
  StrataOpList dead;
  bool ok;
} DeadChecks;

static MlirWalkResult collectDeadChecks(MlirOperation op, void *user) {
  DeadChecks *d = user;
  if (deadCheck(op, d->made) && !strataOpListAppend(&d->dead, op)) return d->ok = false, MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

/* Replaces each `tensor.dim %arg, d` (constant d) of a grouped argument dim
 * by its symbol's representative extent `rep[g]`; the entry checks'
 * own reads (`keep`) stay. */
typedef struct {
  MlirBlock entry;
  const ArgDim *dims;
  const int *group; /* per dim: index of its representative in dims */
  const MlirValue *rep;
  size_t n;
  StrataOpList *keep, *dead;
} Redirect;

static MlirWalkResult redirectDim(MlirOperation op, void *user) {
  Redirect *r = user;
  if (!strataOpIsNamed(op, "tensor.dim") || strataOpListContains(r->keep, op)) return MlirWalkResultAdvance;
  MlirValue src = mlirOperationGetOperand(op, 0), idx = mlirOperationGetOperand(op, 1);
  if (!mlirValueIsABlockArgument(src) || !mlirBlockEqual(mlirBlockArgumentGetOwner(src), r->entry) ||
      !mlirValueIsAOpResult(idx) || !strataOpIsNamed(mlirOpResultGetOwner(idx), "arith.constant"))
    return MlirWalkResultAdvance;
  MlirAttribute a = strataOpAttr(mlirOpResultGetOwner(idx), "value");
  if (!mlirAttributeIsAInteger(a)) return MlirWalkResultAdvance;
  int64_t d = mlirIntegerAttrGetValueInt(a);
  for (size_t i = 0; i < r->n; i++) {
    if (r->dims[i].arg != mlirBlockArgumentGetArgNumber(src) || r->dims[i].dim != d || !r->rep[i].ptr) continue;
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r->rep[i]);
    if (!strataOpListAppend(r->dead, op)) return MlirWalkResultInterrupt;
    break;
  }
  return MlirWalkResultAdvance;
}

/* The entry checks: per symbol of two or more argument dims, each later
 * dim against the first (kind 16); then every read of a grouped dim is
 * the first's extent. */
static bool checkAtEntry(MlirOperation func, MlirBlock entry, const ArgDim *dims, size_t n, size_t *checks) {
  int group[MAX_ARG_DIMS];
  MlirValue rep[MAX_ARG_DIMS] = {{NULL}};
  bool shared = false;
  for (size_t i = 0; i < n; i++) {
    group[i] = (int)i;
    for (size_t j = 0; j < i; j++)
      if (!strcmp(dims[i].sym, dims[j].sym)) {
        group[i] = group[j];
        shared = true;
        break;
      }
  }
  if (!shared) return true;
  MlirLocation loc = mlirOperationGetLocation(func);
  StrataBuilder b = strataBuilderBefore(mlirBlockGetFirstOperation(entry), (MlirRewriterBase){NULL});
  StrataOpList keep = {0}, dead = {0};
  MlirValue site = {NULL};
  bool ok = true;
  for (size_t i = 0; ok && i < n; i++) {
    if (group[i] == (int)i) continue;
    size_t g = (size_t)group[i];
    if (!rep[g].ptr) {
      rep[g] = dimOf(&b, loc, mlirBlockGetArgument(entry, dims[g].arg), dims[g].dim);
      ok = strataOpListAppend(&keep, mlirOpResultGetOwner(rep[g]));
    }
    MlirValue x = dimOf(&b, loc, mlirBlockGetArgument(entry, dims[i].arg), dims[i].dim);
    ok = ok && strataOpListAppend(&keep, mlirOpResultGetOwner(x));
    if (!site.ptr && ok) ok = strataRuntimeSite(&b, func, STRATA_SHAPE_ERROR_FN, &site);
    if (!ok) break;
    MlirValue bad = strataResult(
        strataCreateOp(&b, "arith.cmpi", loc, .operands = STRATA_VALUES(x, rep[g]),
                       .results = STRATA_TYPES(mlirIntegerTypeGet(b.ctx, 1)),
                       .attrs = STRATA_ATTRS({"predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(b.ctx, 64), 1)})),
        0);
    strataShapeCheckAt(&b, loc, site, bad, 16, (int)dims[i].arg, dims[i].dim, x, rep[g]);
    (*checks)++;
  }
  MlirValue repOf[MAX_ARG_DIMS];
  for (size_t i = 0; i < n; i++) repOf[i] = rep[group[i]];
  Redirect rd = {entry, dims, group, repOf, n, &keep, &dead};
  if (ok) mlirOperationWalk(func, redirectDim, &rd, MlirWalkPreOrder);
  for (size_t i = 0; i < dead.count; i++) mlirOperationDestroy(dead.ops[i]);
  strataOpListDestroy(&keep);
  strataOpListDestroy(&dead);
  return ok;
}

static void runFoldChecks(StrataPassRun *run, MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) return;
  StrataRdp *r = strataRdpRun(strataPassGetContext(run), func, false);
  if (!r) {
    strataPassSignalFailure(run);
    return;
  }
  ArgDim dims[MAX_ARG_DIMS];
  size_t n = argDims(r, entry, dims);
  Collect c = {r, {0}, NULL, 0, true};
  mlirOperationWalk(func, collectCmp, &c, MlirWalkPreOrder);
  strataRdpDestroy(r);
  size_t folded = c.cmps.count, checks = 0;
  StrataOpList made = {0};
  bool ok = c.ok && foldComparisons(&c, &made);
  strataOpListDestroy(&c.cmps);
  free(c.value);
  DeadChecks dc = {&made, {0}, ok};
  if (ok) mlirOperationWalk(func, collectDeadChecks, &dc, MlirWalkPostOrder);
  ok = dc.ok;
  for (size_t i = 0; i < dc.dead.count; i++) mlirOperationDestroy(dc.dead.ops[i]);
  size_t dropped = dc.dead.count;
  strataOpListDestroy(&dc.dead);
  strataOpListDestroy(&made);
  ok = ok && checkAtEntry(func, entry, dims, n, &checks);
  if (!ok) {
    strataEmitOpError(func, "rdp-fold-checks: out of memory or no enclosing module");
    strataPassSignalFailure(run);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(func);
  if (strataPassGetBool(run, "stats")) {
    mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("rdp.folded_compares"),
                                    strataI64Attr(ctx, (int64_t)folded));
    mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("rdp.dropped_checks"),
                                    strataI64Attr(ctx, (int64_t)dropped));
    mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("rdp.entry_checks"),
                                    strataI64Attr(ctx, (int64_t)checks));
  }
}

static const StrataPassOptionDef kOptions[] = {
    {"stats", STRATA_OPTION_BOOL, "false",
     "Write rdp.folded_compares, rdp.dropped_checks and rdp.entry_checks on each function"},
};

const StrataPassDef strataRdpFoldChecksPass = {
    .name = "rdp-fold-checks",
    .summary = "Fold the run-time extent comparisons RDP decides (dims of one symbol), drop the checks they "
               "kill, and check argument dims that share a symbol once at entry",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof *kOptions,
    .run = runFoldChecks,
};
