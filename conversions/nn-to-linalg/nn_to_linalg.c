/* --nn-to-linalg: lowers nn ops to linalg.generic (+ tensor, arith), one
 * rewrite pattern per op. Shapes must be static (the verifier has checked
 * them); a dynamic one is a located error, not a silent skip. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Tensor.h"
#include "linalg_build.h"
#include "strata/nn.h"
#include "strata/pass.h"
#include "strata/pattern.h"
#include "strata/support.h"

static MlirType resultType(MlirOperation op) { return mlirValueGetType(mlirOperationGetResult(op, 0)); }
static MlirValue operand(MlirOperation op, intptr_t i) { return mlirOperationGetOperand(op, i); }
static int rankOf(MlirValue v) { return (int)mlirShapedTypeGetRank(mlirValueGetType(v)); }
static int64_t dimOf(MlirValue v, int i) { return mlirShapedTypeGetDimSize(mlirValueGetType(v), i); }

/* Result text of a broadcasting input map: operand dims aligned to the right
 * of an output of rank outRank; size-1 dims that the output expands are 0. */
static void broadcastMap(char *buf, size_t size, MlirValue in, MlirType out) {
  int r = rankOf(in), outRank = (int)mlirShapedTypeGetRank(out);
  size_t off = (size_t)snprintf(buf, size, "(");
  for (int i = 0; i < r; i++) {
    int od = outRank - r + i;
    bool expanded = dimOf(in, i) == 1 && mlirShapedTypeGetDimSize(out, od) != 1;
    off += (size_t)snprintf(buf + off, size - off, "%s", i ? ", " : "");
    off += expanded ? (size_t)snprintf(buf + off, size - off, "0")
                    : (size_t)snprintf(buf + off, size - off, "d%d", od);
  }
  snprintf(buf + off, size - off, ")");
}

static void identityMap(char *buf, size_t size, int rank) {
  int dims[STRATA_MAX_RANK];
  for (int i = 0; i < rank; i++) dims[i] = i;
  linalgFormatDims(buf, size, dims, rank);
}

static void parallelIterators(char *buf, int rank) {
  memset(buf, 'p', (size_t)rank);
  buf[rank] = '\0';
}

/* ---- Bodies ---- */
static MlirValue bodyAdd(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  return strataResult(strataCreateOp(b, "arith.addf", loc, .operands = STRATA_VALUES(a[0], a[1]),
                                     .results = STRATA_TYPES(mlirValueGetType(a[0]))), 0);
}
static MlirValue bodyRelu(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  MlirType t = mlirValueGetType(a[0]);
  MlirValue zero = strataConstFloat(b, loc, t, 0.0);
  return strataResult(strataCreateOp(b, "arith.maximumf", loc, .operands = STRATA_VALUES(a[0], zero),
                                     .results = STRATA_TYPES(t)), 0);
}
static MlirValue bodyMulAcc(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)u;
  MlirType t = mlirValueGetType(a[2]);
  MlirValue prod = strataResult(strataCreateOp(b, "arith.mulf", loc, .operands = STRATA_VALUES(a[0], a[1]),
                                               .results = STRATA_TYPES(t)), 0);
  return strataResult(strataCreateOp(b, "arith.addf", loc, .operands = STRATA_VALUES(a[2], prod),
                                     .results = STRATA_TYPES(t)), 0);
}
static MlirValue bodyYieldInput(StrataBuilder *b, MlirLocation loc, const MlirValue *a, void *u) {
  (void)b; (void)loc; (void)u;
  return a[0];
}

/* ---- Patterns ---- */

static MlirLogicalResult lowerConstant(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("value"));
  MlirOperation c = strataCreateOp(&rw->builder, "arith.constant", mlirOperationGetLocation(op),
                                   .results = STRATA_TYPES(resultType(op)),
                                   .attrs = STRATA_ATTRS({"value", v}));
  strataReplaceOp(rw, op, STRATA_VALUES(strataResult(c, 0)));
  return mlirLogicalResultSuccess();
}

/* Any elementwise op with numpy broadcasting: one parallel generic whose
 * input maps broadcast each operand to the result shape; `body` computes one
 * element from the operands' scalars. */
static MlirLogicalResult lowerElementwise(StrataRewrite *rw, MlirOperation op, LinalgBodyFn body) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = resultType(op);
  int r = (int)mlirShapedTypeGetRank(t);
  intptr_t n = mlirOperationGetNumOperands(op);
  char mapText[n + 1][256], its[STRATA_MAX_RANK + 1];
  const char *maps[n + 1];
  MlirValue ins[n];
  for (intptr_t i = 0; i < n; i++) {
    ins[i] = operand(op, i);
    broadcastMap(mapText[i], sizeof mapText[i], ins[i], t);
    maps[i] = mapText[i];
  }
  identityMap(mapText[n], sizeof mapText[n], r);
  maps[n] = mapText[n];
  parallelIterators(its, r);
  MlirValue init = linalgSplatConstant(&rw->builder, loc, t, 0.0);
  MlirValue y = linalgBuildGeneric(&rw->builder, loc, (StrataValueList){ins, n}, init, maps, its,
                                   body, NULL);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult lowerRelu(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  return lowerElementwise(rw, op, bodyRelu);
}

static MlirLogicalResult lowerAdd(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  return lowerElementwise(rw, op, bodyAdd);
}

/* numpy.matmul as one generic: loops = output dims + k (the last loop). */
static MlirLogicalResult lowerMatmul(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirType t = resultType(op);
  MlirValue a = operand(op, 0), b = operand(op, 1);
  int R = (int)mlirShapedTypeGetRank(t), ra = rankOf(a), rb = rankOf(b), k = R;
  int batch = R - (ra >= 2) - (rb >= 2);
  int mDim = batch, nDim = R - 1;
  char ma[256], mb[256], id[256], its[STRATA_MAX_RANK + 2];
  size_t off = (size_t)snprintf(ma, sizeof ma, "(");
  for (int i = 0; i < ra - 2; i++) { /* a's batch dims, right-aligned to the output batch */
    int od = batch - (ra - 2) + i;
    bool expanded = dimOf(a, i) == 1 && mlirShapedTypeGetDimSize(t, od) != 1;
    off += expanded ? (size_t)snprintf(ma + off, sizeof ma - off, "0, ")
                    : (size_t)snprintf(ma + off, sizeof ma - off, "d%d, ", od);
  }
  if (ra >= 2) off += (size_t)snprintf(ma + off, sizeof ma - off, "d%d, ", mDim);
  snprintf(ma + off, sizeof ma - off, "d%d)", k);
  off = (size_t)snprintf(mb, sizeof mb, "(");
  for (int i = 0; i < rb - 2; i++) {
    int od = batch - (rb - 2) + i;
    bool expanded = dimOf(b, i) == 1 && mlirShapedTypeGetDimSize(t, od) != 1;
    off += expanded ? (size_t)snprintf(mb + off, sizeof mb - off, "0, ")
                    : (size_t)snprintf(mb + off, sizeof mb - off, "d%d, ", od);
  }
  if (rb >= 2) snprintf(mb + off, sizeof mb - off, "d%d, d%d)", k, nDim);
  else snprintf(mb + off, sizeof mb - off, "d%d)", k);
  identityMap(id, sizeof id, R);
  parallelIterators(its, R);
  its[R] = 'r';
  its[R + 1] = '\0';
  const char *maps[] = {ma, mb, id};
  MlirValue init = linalgSplatConstant(&rw->builder, loc, t, 0.0);
  MlirValue y = linalgBuildGeneric(&rw->builder, loc, STRATA_VALUES(a, b), init, maps, its,
                                   bodyMulAcc, NULL);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* conv (1-3 spatial dims): explicit zero padding (insert_slice into a
 * splat), then one generic over (n, m, o1..on | c, k1..kn); the group of
 * output channel m selects its input-channel block with a floordiv in the
 * input map. The bias initializes the accumulator. */
static MlirLogicalResult lowerConv(StrataRewrite *rw, MlirOperation op, void *u) {
  (void)u;
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder *b = &rw->builder;
  MlirType t = resultType(op);
  MlirValue x = operand(op, 0), w = operand(op, 1);
  int rank = rankOf(x), sp = rank - 2;
  int64_t kernel[NN_MAX_SPATIAL], in[NN_MAX_SPATIAL], out[NN_MAX_SPATIAL];
  for (int i = 0; i < sp; i++) kernel[i] = dimOf(w, 2 + i), in[i] = dimOf(x, 2 + i);
  NnWindow win;
  const char *why;
  if (!nn_get_window(op, sp, kernel, &win) || !nn_infer_window_output(&win, in, out, &why))
    return mlirLogicalResultFailure();
  MlirType et = mlirShapedTypeGetElementType(t);
  bool padded = false;
  for (int i = 0; i < 2 * sp; i++) padded |= win.pads[i] != 0;
  if (padded) {
    int64_t shape[STRATA_MAX_RANK] = {dimOf(x, 0), dimOf(x, 1)}, offsets[STRATA_MAX_RANK] = {0, 0};
    for (int i = 0; i < sp; i++) {
      shape[2 + i] = in[i] + win.pads[i] + win.pads[sp + i];
      offsets[2 + i] = win.pads[i];
    }
    MlirValue zeros = linalgSplatConstant(b, loc, strataTensorType(et, rank, shape), 0.0);
    x = linalgInsertSlice(b, loc, x, zeros, offsets);
  }
  /* Loops: d0 = n, d1 = m, d2..d(1+sp) = output spatial, then c, then kernel. */
  int dc = 2 + sp, dk = dc + 1;
  int64_t M = dimOf(w, 0), Cg = dimOf(w, 1), Mg = M / win.group;
  char mx[512], mw[256], mo[256], its[2 * NN_MAX_SPATIAL + 4];
  size_t ox = (size_t)snprintf(mx, sizeof mx, "(d0, ");
  ox += win.group == 1 ? (size_t)snprintf(mx + ox, sizeof mx - ox, "d%d", dc)
                       : (size_t)snprintf(mx + ox, sizeof mx - ox, "(d1 floordiv %lld) * %lld + d%d",
                                          (long long)Mg, (long long)Cg, dc);
  size_t ow = (size_t)snprintf(mw, sizeof mw, "(d1, d%d", dc);
  size_t oo = (size_t)snprintf(mo, sizeof mo, "(d0, d1");
  for (int i = 0; i < sp; i++) {
    ox += (size_t)snprintf(mx + ox, sizeof mx - ox, ", d%d * %lld + d%d * %lld", 2 + i,
                           (long long)win.strides[i], dk + i, (long long)win.dilations[i]);
    ow += (size_t)snprintf(mw + ow, sizeof mw - ow, ", d%d", dk + i);
    oo += (size_t)snprintf(mo + oo, sizeof mo - oo, ", d%d", 2 + i);
  }
  snprintf(mx + ox, sizeof mx - ox, ")");
  snprintf(mw + ow, sizeof mw - ow, ")");
  snprintf(mo + oo, sizeof mo - oo, ")");
  int loops = dk + sp;
  for (int i = 0; i < loops; i++) its[i] = i < dc ? 'p' : 'r';
  its[loops] = '\0';
  MlirValue init;
  if (mlirOperationGetNumOperands(op) == 3) {
    char biasIts[STRATA_MAX_RANK + 1], biasMap[16] = "(d1)";
    parallelIterators(biasIts, rank);
    char outMap[256];
    identityMap(outMap, sizeof outMap, rank);
    const char *biasMaps[] = {biasMap, outMap};
    init = linalgBuildGeneric(b, loc, STRATA_VALUES(operand(op, 2)), linalgSplatConstant(b, loc, t, 0.0),
                              biasMaps, biasIts, bodyYieldInput, NULL);
  } else {
    init = linalgSplatConstant(b, loc, t, 0.0);
  }
  const char *maps[] = {mx, mw, mo};
  MlirValue y = linalgBuildGeneric(b, loc, STRATA_VALUES(x, w), init, maps, its, bodyMulAcc, NULL);
  strataReplaceOp(rw, op, STRATA_VALUES(y));
  return mlirLogicalResultSuccess();
}

/* ---- The pass ---- */

/* The patterns trust shapes, so every op must verify first (strataVerify);
 * dynamic dims are refused here, located at the op, before any rewrite. */
static MlirWalkResult refuseDynamic(MlirOperation op, void *user) {
  bool *ok = user;
  if (!strataOpIsInDialect(op, "nn")) return MlirWalkResultAdvance;
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < numOperands + mlirOperationGetNumResults(op); i++) {
    MlirValue v = i < numOperands ? mlirOperationGetOperand(op, i)
                                  : mlirOperationGetResult(op, i - numOperands);
    MlirType t = mlirValueGetType(v);
    if (mlirTypeIsARankedTensor(t) && !mlirShapedTypeHasStaticShape(t)) {
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
      strataEmitError(mlirOperationGetLocation(op),
                      "nn-to-linalg: '%.*s' has dynamic dimensions; this lowering needs static "
                      "shapes", (int)name.length, name.data);
      *ok = false;
      break;
    }
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult findLeftover(MlirOperation op, void *user) {
  if (!strataOpIsInDialect(op, "nn")) return MlirWalkResultAdvance;
  *(MlirOperation *)user = op;
  return MlirWalkResultInterrupt;
}

static void runNnToLinalg(StrataPassRun *run, MlirOperation root) {
  bool ok = mlirLogicalResultIsSuccess(strataVerify(strataPassGetContext(run), root));
  if (ok) mlirOperationWalk(root, refuseDynamic, &ok, MlirWalkPreOrder);
  if (!ok) {
    strataPassSignalFailure(run);
    return;
  }
  StrataPatternSet *set = strataPatternSetCreate(mlirOperationGetContext(root));
  strataPatternSetAdd(set, "nn.constant", 1, lowerConstant, NULL);
  strataPatternSetAdd(set, "nn.relu", 1, lowerRelu, NULL);
  strataPatternSetAdd(set, "nn.add", 1, lowerAdd, NULL);
  strataPatternSetAdd(set, "nn.matmul", 1, lowerMatmul, NULL);
  strataPatternSetAdd(set, "nn.conv", 1, lowerConv, NULL);
  strataApplyPatternsWalk(set, root);
  strataPatternSetDestroy(set);
  MlirOperation leftover = {NULL};
  mlirOperationWalk(root, findLeftover, &leftover, MlirWalkPreOrder);
  if (!mlirOperationIsNull(leftover)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(leftover));
    strataEmitError(mlirOperationGetLocation(leftover),
                    "nn-to-linalg: no lowering for '%.*s'", (int)name.length, name.data);
    strataPassSignalFailure(run);
  }
}

static const StrataDialectHandleFn kDeps[] = {
    mlirGetDialectHandle__linalg__, mlirGetDialectHandle__tensor__,
    mlirGetDialectHandle__arith__, NULL};

const StrataPassDef strataNnToLinalgPass = {
    .name = "nn-to-linalg",
    .summary = "Lower nn ops to linalg.generic, tensor and arith (static shapes)",
    .anchor = "func.func",
    .run = runNnToLinalg,
    .dependentDialects = kDeps,
};
