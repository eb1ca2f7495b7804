/* Built-in tools that act at compile time only: `flops` (FLOPs and bytes
 * per op and in total, from the ops' static facts; inserts nothing), `noop`
 * (callbacks that record nothing: the framework's share of a tool's cost,
 * Amanda's no-op routines) and `prune` (a magnitude mask multiplied into the
 * constant weight input of nn.conv / nn.matmul / nn.gemm before the op:
 * Amanda's Listing 1). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "../analysis/nn_flops.h"
#include "instr_internal.h"

/* ---- flops ---- */

typedef struct {
  double flops, bytes;
  int64_t ops, dynamicOps;
} FlopsState;

static void flopsOp(StrataInstrOpContext *c, void *user) {
  FlopsState *s = user;
  MlirOperation op = strataInstrOpGetOperation(c);
  const StrataOpDef *def = strataContextGetOpDef(strataInstrOpGetContext(c), op);
  s->ops++;
  if (!def || !nnHasStaticShapes(op)) {
    s->dynamicOps++;
    fprintf(stderr, "instrument flops: op_id %lld %s FLOPs ? (dynamic shapes)\n",
            (long long)strataInstrOpGetId(c), strataInstrOpGetName(c));
    return;
  }
  double flops = strataOpFlops(def, op), bytes = strataOpBytes(op);
  s->flops += flops;
  s->bytes += bytes;
  /* For tools that depend on this one. */
  strataInstrOpSetDouble(c, "flops", flops);
  strataInstrOpSetDouble(c, "bytes", bytes);
  fprintf(stderr, "instrument flops: op_id %lld %s FLOPs %.0f bytes %.0f\n",
          (long long)strataInstrOpGetId(c), strataInstrOpGetName(c), flops, bytes);
}

static void flopsFinish(void *user) {
  FlopsState *s = user;
  fprintf(stderr, "instrument flops: total FLOPs %.0f bytes %.0f in %lld ops", s->flops, s->bytes,
          (long long)s->ops);
  if (s->dynamicOps)
    fprintf(stderr, " (%lld with dynamic shapes not counted)", (long long)s->dynamicOps);
  fputc('\n', stderr);
  *s = (FlopsState){0}; /* a tool object may serve several runs */
}

StrataInstrTool *instrFlopsTool(void) {
  StrataInstrTool *t = strataInstrToolCreate("flops");
  FlopsState *s = calloc(1, sizeof *s);
  if (!t || !s) {
    free(s);
    strataInstrToolDestroy(t);
    return NULL;
  }
  strataInstrToolAddCallback(t, STRATA_INSTR_AFTER_FORWARD, flopsOp, s);
  strataInstrToolSetFinish(t, flopsFinish, s);
  instrToolSetCleanup(t, free, s);
  return t;
}

/* ---- noop ---- */

typedef struct {
  StrataInstrPoint first; /* the first point with a callback: counts the ops */
  int64_t ops, calls;
} NoopState;

/* Sees the op and records no action: the IR stays byte-identical. */
static void noopOp(StrataInstrOpContext *c, void *user) {
  NoopState *s = user;
  s->calls++;
  s->ops += strataInstrOpGetPoint(c) == s->first;
}

static void noopFinish(void *user) {
  NoopState *s = user;
  fprintf(stderr, "instrument noop: %lld ops, %lld callbacks, no actions\n", (long long)s->ops,
          (long long)s->calls);
  s->ops = s->calls = 0; /* a tool object may serve several runs */
}

StrataInstrTool *instrNoopTool(bool before, bool after) {
  StrataInstrTool *t = strataInstrToolCreate("noop");
  NoopState *s = calloc(1, sizeof *s);
  if (!t || !s) {
    free(s);
    strataInstrToolDestroy(t);
    return NULL;
  }
  s->first = before ? STRATA_INSTR_BEFORE_FORWARD : STRATA_INSTR_AFTER_FORWARD;
  if (before) strataInstrToolAddCallback(t, STRATA_INSTR_BEFORE_FORWARD, noopOp, s);
  if (after) strataInstrToolAddCallback(t, STRATA_INSTR_AFTER_FORWARD, noopOp, s);
  strataInstrToolSetFinish(t, noopFinish, s);
  instrToolSetCleanup(t, free, s);
  return t;
}

/* ---- prune ---- */

typedef struct {
  double sparsity;
} PruneState;

/* The dense f32 value of a constant (nn.constant / arith.constant), or null. */
static MlirAttribute constantF32(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirValueIsAOpResult(v) || !mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      !mlirTypeIsAF32(mlirShapedTypeGetElementType(t)))
    return mlirAttributeGetNull();
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(def, "nn.constant") && !strataOpIsNamed(def, "arith.constant"))
    return mlirAttributeGetNull();
  MlirAttribute a = mlirOperationGetAttributeByName(def, mlirStringRefCreateFromCString("value"));
  return !mlirAttributeIsNull(a) && mlirAttributeIsADenseElements(a) ? a : mlirAttributeGetNull();
}

typedef struct {
  float mag;
  int64_t index;
} Magnitude;

static int cmpMagnitude(const void *a, const void *b) {
  const Magnitude *x = a, *y = b;
  if (x->mag != y->mag) return x->mag < y->mag ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index); /* stable: ties by position */
}

/* w * mask, mask zeroing the floor(sparsity * n) smallest-magnitude weights. */
static MlirValue buildMask(StrataBuilder *b, MlirLocation loc, MlirValue w, void *user) {
  const PruneState *s = user;
  MlirAttribute value = constantF32(w);
  StrataTensor *weights = mlirAttributeIsNull(value) ? NULL : strataTensorFromAttr(value);
  if (!weights) return (MlirValue){NULL};
  int64_t n = strataTensorNumElements(weights), zeros = (int64_t)floor(s->sparsity * (double)n);
  StrataTensor *mask = strataTensorCreate(STRATA_DTYPE_F32, weights->rank, weights->dims);
  Magnitude *order = malloc((size_t)(n ? n : 1) * sizeof *order);
  MlirValue result = {NULL};
  if (mask && order) {
    for (int64_t i = 0; i < n; i++)
      order[i] = (Magnitude){(float)fabs(strataTensorGetDouble(weights, i)), i};
    qsort(order, (size_t)n, sizeof *order, cmpMagnitude);
    for (int64_t i = 0; i < n; i++) strataTensorSetDouble(mask, order[i].index, i < zeros ? 0.0 : 1.0);
    MlirType type = mlirValueGetType(w);
    MlirOperation c = strataCreateOp(b, "nn.constant", loc, .results = STRATA_TYPES(type),
                                     .attrs = STRATA_ATTRS({"value", strataTensorToAttr(type, mask)}));
    MlirOperation mul = strataCreateOp(b, "nn.mul", loc, .operands = STRATA_VALUES(w, strataResult(c, 0)),
                                       .results = STRATA_TYPES(type));
    result = strataResult(mul, 0);
  }
  free(order);
  strataTensorDestroy(mask);
  strataTensorDestroy(weights);
  return result;
}

static void pruneOp(StrataInstrOpContext *c, void *user) {
  const PruneState *s = user;
  const char *name = strataInstrOpGetName(c);
  bool weighted = !strcmp(name, "nn.conv") || !strcmp(name, "nn.matmul") || !strcmp(name, "nn.gemm");
  if (!weighted || strataInstrOpGetNumInputs(c) < 2 ||
      mlirAttributeIsNull(constantF32(strataInstrOpGetInput(c, 1))))
    return; /* weights computed at run time are not pruned (see docs/instrument.md) */
  strataInstrOpSetDouble(c, "sparsity", s->sparsity);
  strataInstrInsertBefore(c, 1, buildMask, (void *)s);
}

StrataInstrTool *instrPruneTool(double sparsity) {
  StrataInstrTool *t = strataInstrToolCreate("prune");
  PruneState *s = calloc(1, sizeof *s);
  if (!t || !s) {
    free(s);
    strataInstrToolDestroy(t);
    return NULL;
  }
  s->sparsity = sparsity;
  strataInstrToolAddCallback(t, STRATA_INSTR_BEFORE_FORWARD, pruneOp, s);
  instrToolSetCleanup(t, free, s);
  return t;
}
