/* The builder of the sparse lowerings' generated functions: index
 * arithmetic, loads and stores of lanes (a vector or one f32), FMAs,
 * scf.for loops carrying values, constant globals. One lane type for the
 * whole function, so the loop skeleton is written once for the scalar
 * (sparse-to-scf) and the vector (sparse-to-vector) code. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "sv_internal.h"

static MlirValue op1(SvGen *g, const char *name, MlirValue a, MlirValue b, MlirType t) {
  return strataResult(strataCreateOp(&g->b, name, g->loc, .operands = STRATA_VALUES(a, b), .results = STRATA_TYPES(t)), 0);
}

MlirValue svC(SvGen *g, int64_t v) { return strataConstInt(&g->b, g->loc, g->index, v); }
MlirValue svAdd(SvGen *g, MlirValue a, MlirValue b) { return op1(g, "arith.addi", a, b, g->index); }
MlirValue svMul(SvGen *g, MlirValue a, MlirValue b) { return op1(g, "arith.muli", a, b, g->index); }
MlirValue svAddC(SvGen *g, MlirValue a, int64_t c) { return c ? svAdd(g, a, svC(g, c)) : a; }
MlirValue svMulC(SvGen *g, MlirValue a, int64_t c) { return c == 1 ? a : svMul(g, a, svC(g, c)); }
/* Unsigned forms: the operands are never negative, and LLVM turns unsigned
 * division by a constant into the shortest multiply-shift. */
MlirValue svDivC(SvGen *g, MlirValue a, int64_t c) { return c == 1 ? a : op1(g, "arith.divui", a, svC(g, c), g->index); }
MlirValue svRemC(SvGen *g, MlirValue a, int64_t c) { return op1(g, "arith.remui", a, svC(g, c), g->index); }
MlirValue svMinC(SvGen *g, MlirValue a, int64_t c) { return op1(g, "arith.minsi", a, svC(g, c), g->index); }

static MlirValue load(SvGen *g, MlirValue mem, MlirValue i, MlirType t) {
  return strataResult(strataCreateOp(&g->b, "memref.load", g->loc, .operands = STRATA_VALUES(mem, i), .results = STRATA_TYPES(t)), 0);
}

MlirValue svLoadIndex(SvGen *g, MlirValue mem, MlirValue i) {
  MlirValue v = load(g, mem, i, g->i32);
  return strataResult(strataCreateOp(&g->b, "arith.index_cast", g->loc, .operands = STRATA_VALUES(v), .results = STRATA_TYPES(g->index)), 0);
}

MlirValue svLoadF32(SvGen *g, MlirValue mem, MlirValue i) { return load(g, mem, i, g->f32); }

MlirValue svLoadLane(SvGen *g, MlirValue mem, MlirValue i) {
  if (!g->vector) return load(g, mem, i, g->f32);
  return strataResult(strataCreateOp(&g->b, "vector.load", g->loc, .operands = STRATA_VALUES(mem, i), .results = STRATA_TYPES(g->lane)), 0);
}

void svStoreLane(SvGen *g, MlirValue v, MlirValue mem, const MlirValue *idx, int n, MlirValue mask) {
  MlirValue ops[8];
  int k = 0;
  bool masked = g->vector && !mlirValueIsNull(mask);
  if (!masked) ops[k++] = v; /* memref.store, vector.store: value, base, indices */
  ops[k++] = mem;
  for (int i = 0; i < n && i < 4; i++) ops[k++] = idx[i];
  if (masked) ops[k++] = mask, ops[k++] = v; /* vector.maskedstore: base, indices, mask, value */
  const char *name = !g->vector ? "memref.store" : masked ? "vector.maskedstore" : "vector.store";
  strataCreateOp(&g->b, name, g->loc, .operands = {ops, k});
}

MlirValue svSplat(SvGen *g, MlirValue scalar) {
  if (!g->vector) return scalar;
  return strataResult(strataCreateOp(&g->b, "vector.broadcast", g->loc, .operands = STRATA_VALUES(scalar), .results = STRATA_TYPES(g->lane)), 0);
}

MlirValue svZeroLane(SvGen *g) { return svSplat(g, strataConstFloat(&g->b, g->loc, g->f32, 0.0)); }

MlirValue svFma(SvGen *g, MlirValue a, MlirValue b, MlirValue acc) {
  return strataResult(strataCreateOp(&g->b, g->vector ? "vector.fma" : "math.fma", g->loc,
                                     .operands = STRATA_VALUES(a, b, acc), .results = STRATA_TYPES(g->lane)),
                      0);
}

MlirValue svMask(SvGen *g, int64_t n) {
  MlirType i1 = mlirIntegerTypeGet(g->ctx, 1);
  int64_t shape = g->lanes;
  MlirType mt = mlirVectorTypeGet(1, &shape, i1);
  return strataResult(strataCreateOp(&g->b, "vector.constant_mask", g->loc, .results = STRATA_TYPES(mt),
                                     .attrs = STRATA_ATTRS({"mask_dim_sizes", mlirDenseI64ArrayGet(g->ctx, 1, &n)})),
                      0);
}

/* ---- Loops ---- */

void svForBegin(SvGen *g, SvLoop *l, MlirValue lb, MlirValue ub, MlirValue step, const MlirValue *inits, int n) {
  MlirValue ops[3 + SV_MAX_ACC];
  MlirType types[1 + SV_MAX_ACC];
  ops[0] = lb, ops[1] = ub, ops[2] = step;
  types[0] = g->index;
  for (int i = 0; i < n; i++) ops[3 + i] = inits[i], types[1 + i] = mlirValueGetType(inits[i]);
  l->op = strataCreateOp(&g->b, "scf.for", g->loc, .operands = {ops, 3 + n}, .results = {types + 1, n}, .numRegions = 1);
  l->body = strataAddBlock(l->op, 0, (StrataTypeList){types, 1 + n}, g->loc);
  l->outer = g->b;
  g->b = strataBuilderAtEnd(g->ctx, l->body);
}

MlirValue svLoopIv(const SvLoop *l) { return mlirBlockGetArgument(l->body, 0); }
MlirValue svLoopArg(const SvLoop *l, int i) { return mlirBlockGetArgument(l->body, 1 + i); }

void svForEnd(SvGen *g, SvLoop *l, const MlirValue *yields, int n) {
  strataCreateOp(&g->b, "scf.yield", g->loc, .operands = {yields, n});
  g->b = l->outer;
}

void svForConst(SvGen *g, SvLoop *l, int64_t lb, int64_t ub, int64_t step, const MlirValue *inits, int n) {
  svForBegin(g, l, svC(g, lb), svC(g, ub), svC(g, step), inits, n);
}

/* ---- Globals ---- */

static MlirValue global(SvGen *g, const char *name, MlirAttribute init, int64_t n, MlirType elem) {
  char sym[160];
  snprintf(sym, sizeof sym, "%s_%s", g->prefix, name);
  MlirType mt = mlirMemRefTypeGet(elem, 1, &n, mlirAttributeGetNull(), mlirAttributeGetNull());
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g->module, 0));
  StrataBuilder top = strataBuilderAtEnd(g->ctx, body);
  top.before = mlirBlockGetFirstOperation(body);
  strataCreateOp(&top, "memref.global", g->loc,
                 .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(g->ctx, sym)},
                                       {"sym_visibility", strataStrAttr(g->ctx, "private")},
                                       {"type", mlirTypeAttrGet(mt)}, {"initial_value", init},
                                       {"constant", mlirUnitAttrGet(g->ctx)},
                                       {"alignment", strataI64Attr(g->ctx, 64)}));
  return strataResult(strataCreateOp(&g->b, "memref.get_global", g->loc, .results = STRATA_TYPES(mt),
                                     .attrs = STRATA_ATTRS({"name", mlirFlatSymbolRefAttrGet(g->ctx, mlirStringRefCreateFromCString(sym))})),
                      0);
}

bool svGlobalI32(SvGen *g, MlirOperation op, const char *name, const int64_t *v, int64_t n, MlirValue *out) {
  int32_t *w = malloc(sizeof *w * (size_t)(n ? n : 1));
  if (!w) {
    strataEmitOpError(op, "out of memory for array '%s'", name);
    return false;
  }
  for (int64_t i = 0; i < n; i++) {
    if (v[i] < INT32_MIN || v[i] > INT32_MAX) {
      strataEmitOpError(op, "%s[%lld] = %lld does not fit the generated code's 32-bit arrays", name, (long long)i,
                (long long)v[i]);
      free(w);
      return false;
    }
    w[i] = (int32_t)v[i];
  }
  int64_t len = n ? n : 1;
  MlirType tt = mlirRankedTensorTypeGet(1, &len, g->i32, mlirAttributeGetNull());
  int32_t zero = 0;
  *out = global(g, name, mlirDenseElementsAttrInt32Get(tt, (intptr_t)len, n ? w : &zero), len, g->i32);
  free(w);
  return true;
}

MlirValue svGlobalF32(SvGen *g, const char *name, const float *v, int64_t n) {
  int64_t len = n ? n : 1;
  float zero = 0;
  MlirType tt = mlirRankedTensorTypeGet(1, &len, g->f32, mlirAttributeGetNull());
  return global(g, name, mlirDenseElementsAttrFloatGet(tt, (intptr_t)len, n ? v : &zero), len, g->f32);
}

/* ---- Functions ---- */

MlirBlock svFuncBegin(SvGen *g, MlirOperation module, MlirLocation loc, const char *name, const MlirType *args,
                      int n, const SvOptions *o) {
  MlirContext ctx = mlirOperationGetContext(module);
  g->ctx = ctx, g->loc = loc, g->module = module;
  g->index = mlirIndexTypeGet(ctx), g->i32 = mlirIntegerTypeGet(ctx, 32), g->f32 = mlirF32TypeGet(ctx);
  g->vector = o->vector, g->lanes = o->vector ? o->lanes : 1;
  g->lane = g->vector ? mlirVectorTypeGet(1, &g->lanes, g->f32) : g->f32;
  g->prefix = name;
  g->act = SV_ACT_NONE, g->lo = -INFINITY, g->hi = INFINITY;
  MlirType fnType = mlirFunctionTypeGet(ctx, n, args, 0, NULL);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  StrataBuilder top = strataBuilderAtEnd(ctx, body);
  MlirOperation fn = strataCreateOp(&top, "func.func", loc,
                                    .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(ctx, name)},
                                                          {"function_type", mlirTypeAttrGet(fnType)},
                                                          {"sym_visibility", strataStrAttr(ctx, "private")}),
                                    .numRegions = 1);
  MlirBlock entry = strataAddBlock(fn, 0, (StrataTypeList){args, n}, loc);
  g->b = strataBuilderAtEnd(ctx, entry);
  return entry;
}

void svFuncEnd(SvGen *g) { strataCreateOp(&g->b, "func.return", g->loc); }
