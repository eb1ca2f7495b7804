/* --dsp-select-layouts: GCD²'s global layout and instruction selection
 * (A4) over the dsp operators of a function. A driver, not a pattern set:
 * the choice is global. It builds the operator graph (dsp.matmul,
 * dsp.requant, dsp.transpose; an edge where one's result is another's
 * first operand), gives each operator its local plans (MatMul: one per
 * instruction with the calibrated cost model, vmpa only where it is exact;
 * requant: one per layout;
 * transpose: one per output layout, reading any), selects with
 * strataDspSelect, writes `inst`/`layout`, and puts a dsp.convert_layout on
 * exactly the edges whose two ends disagree. Edges are planned through the
 * conversions already in the function, which are replaced by the new ones
 * (running it twice changes nothing); on failure the IR is left as it was. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dsp_internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "strata/pass.h"
#include "strata/support.h"

static const int kLayouts[] = {1, 2, 4};

static MlirWalkResult collect(MlirOperation op, void *user) {
  StrataOpList *l = user;
  if (strataOpIsNamed(op, "dsp.matmul") || strataOpIsNamed(op, "dsp.requant") ||
      strataOpIsNamed(op, "dsp.transpose") || strataOpIsNamed(op, "dsp.convert_layout"))
    if (!strataOpListAppend(l, op)) return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

static void dims2(MlirValue v, int64_t d[2]) {
  MlirType t = mlirValueGetType(v);
  d[0] = mlirShapedTypeGetDimSize(t, 0);
  d[1] = mlirShapedTypeGetDimSize(t, 1);
}

static double vectors(int c, int64_t rows, int64_t cols) {
  size_t bytes = 0;
  strataDspPackedSize(c, rows, cols, &bytes);
  return (double)(bytes / STRATA_DSP_VBYTES);
}

/* The dense elements of constant v (nn.constant, arith.constant), null if
 * v is not one. */
static MlirAttribute constantValue(MlirValue v) {
  if (!mlirValueIsAOpResult(v)) return mlirAttributeGetNull();
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!strataOpIsNamed(op, "nn.constant") && !strataOpIsNamed(op, "arith.constant")) return mlirAttributeGetNull();
  MlirAttribute a = strataOpAttr(op, "value");
  return !mlirAttributeIsNull(a) && mlirAttributeIsADenseElements(a) ? a : mlirAttributeGetNull();
}

/* Whether vmpa computes the MatMul exactly: only provable for constant
 * weights (and, when the activations are a constant too, their maximum
 * instead of 255). vmpa's pair sums are int16 and wrap (docs/dsp.md). */
static bool vmpaExact(MlirOperation op, int64_t K, int64_t N) {
  MlirAttribute b = constantValue(mlirOperationGetOperand(op, 1)), a = constantValue(mlirOperationGetOperand(op, 0));
  int aMax = 255;
  if (!mlirAttributeIsNull(a)) {
    bool splat = mlirDenseElementsAttrIsSplat(a);
    aMax = 0;
    for (intptr_t i = 0; i < (splat ? 1 : mlirElementsAttrGetNumElements(a)); i++) {
      int v = mlirDenseElementsAttrGetUInt8Value(a, i);
      if (v > aMax) aMax = v;
    }
  }
  if (aMax * 256 <= 32767) return true; /* any two i8 weights */
  if (mlirAttributeIsNull(b) || K * N <= 0) return !mlirAttributeIsNull(b);
  int8_t *w = malloc((size_t)(K * N));
  if (!w) return false;
  for (int64_t i = 0; i < K * N; i++) w[i] = mlirDenseElementsAttrGetInt8Value(b, mlirDenseElementsAttrIsSplat(b) ? 0 : i);
  bool exact = strataDspVmpaExact(K, N, w, aMax);
  free(w);
  return exact;
}

/* The instruction of a MatMul plan: the one its layout is for. */
static StrataDspInstr instOfLayout(int c) { return c == 1 ? STRATA_DSP_VMPY : c == 2 ? STRATA_DSP_VMPA : STRATA_DSP_VRMPY; }

/* The operator's local plans (local enumeration). A MatMul is offered vmpa
 * only where vmpa is exact, so that selection never changes its value. */
static int plansOf(MlirOperation op, StrataDspPlan *p) {
  int64_t in[2], out[2];
  dims2(mlirOperationGetOperand(op, 0), in);
  dims2(mlirOperationGetResult(op, 0), out);
  bool matmul = strataOpIsNamed(op, "dsp.matmul"), vmpa = matmul && vmpaExact(op, in[1], out[1]);
  int n = 0;
  for (int k = 0; k < 3; k++) {
    int c = kLayouts[k];
    if (matmul && (c != 2 || vmpa))
      p[n++] = (StrataDspPlan){strataDspMatMulCost(instOfLayout(c), in[0], in[1], out[1]), c, c};
    else if (strataOpIsNamed(op, "dsp.requant")) /* a shift and a saturate per vector */
      p[n++] = (StrataDspPlan){2 * vectors(c, in[0], in[1]), c, c};
    else if (!matmul) /* transpose: a load and a permute per vector it reads, a store per vector it writes */
      p[n++] = (StrataDspPlan){2 * vectors(1, in[0], in[1]) + vectors(c, out[0], out[1]), 0, c};
  }
  return n;
}

/* The dearest conversion of a value between two layouts. */
static double convertCost(MlirValue v) {
  int64_t d[2];
  double worst = 0;
  dims2(v, d);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      double c = strataDspConvertCost(kLayouts[a], kLayouts[b], d[0], d[1]);
      if (c > worst) worst = c;
    }
  return worst;
}

/* The value under any chain of layout conversions. */
static MlirValue throughConverts(MlirValue x) {
  while (mlirValueIsAOpResult(x) && strataOpIsNamed(mlirOpResultGetOwner(x), "dsp.convert_layout"))
    x = mlirOperationGetOperand(mlirOpResultGetOwner(x), 0);
  return x;
}

static int indexOf(const StrataOpList *nodes, MlirOperation op) {
  for (size_t i = 0; i < nodes->count; i++)
    if (mlirOperationEqual(nodes->ops[i], op)) return (int)i;
  return -1;
}

static int parseMode(const char *s) {
  static const char *const names[] = {NULL, "local", "chain", "partition", "exhaustive"};
  for (int m = STRATA_DSP_SELECT_LOCAL; m <= STRATA_DSP_SELECT_EXHAUSTIVE; m++)
    if (!strcmp(s, names[m])) return m;
  return 0;
}

static void runSelectLayouts(StrataPassRun *run, MlirOperation func) {
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirContext ctx = mlirOperationGetContext(func);
  int mode = parseMode(strataPassGetString(run, "mode"));
  int64_t maxPartition = strataPassGetInt(run, "max-partition");
  if (!mode || maxPartition < 1 || maxPartition > 17) {
    strataEmitError(loc, "dsp-select-layouts: mode must be local, chain, partition or exhaustive "
                    "and max-partition 1..17 (got mode=%s max-partition=%lld)",
                    strataPassGetString(run, "mode"), (long long)maxPartition);
    strataPassSignalFailure(run);
    return;
  }
  StrataOpList all = {0}, nodes = {0};
  StrataDspGraph *g = strataDspGraphCreate();
  bool ok = g != NULL;
  mlirOperationWalk(func, collect, &all, MlirWalkPostOrder);
  for (size_t i = 0; ok && i < all.count; i++)
    if (!strataOpIsNamed(all.ops[i], "dsp.convert_layout")) ok = strataOpListAppend(&nodes, all.ops[i]);
  int numEdges = 0, edgeDst[nodes.count ? nodes.count : 1];
  for (size_t i = 0; ok && i < nodes.count; i++) {
    StrataDspPlan p[STRATA_DSP_MAX_PLANS];
    ok = strataDspGraphAddNode(g, p, plansOf(nodes.ops[i], p)) == (int)i;
  }
  for (size_t i = 0; ok && i < nodes.count; i++) {
    MlirValue x = throughConverts(mlirOperationGetOperand(nodes.ops[i], 0));
    int src = mlirValueIsAOpResult(x) ? indexOf(&nodes, mlirOpResultGetOwner(x)) : -1;
    if (src < 0) continue;
    ok = strataDspGraphAddEdge(g, src, (int)i, convertCost(x));
    edgeDst[numEdges++] = (int)i;
  }
  int choice[nodes.count ? nodes.count : 1], local[nodes.count ? nodes.count : 1];
  char err[256] = "out of memory";
  if (ok) ok = strataDspSelect(g, mode, (int)maxPartition, choice, err, sizeof err) &&
               strataDspSelect(g, STRATA_DSP_SELECT_LOCAL, 0, local, err, sizeof err);
  if (!ok) {
    strataEmitError(loc, "dsp-select-layouts: %s", err);
    strataPassSignalFailure(run);
  }
  /* The conversions there were go (their edges were planned through
   * them); the new ones go where the new plans disagree. Post order erases
   * a chain's first conversion before the next. */
  for (size_t i = 0; ok && i < all.count; i++) {
    MlirOperation op = all.ops[i];
    if (!strataOpIsNamed(op, "dsp.convert_layout")) continue;
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), mlirOperationGetOperand(op, 0));
    mlirOperationDestroy(op);
  }
  int conversions = 0;
  for (size_t i = 0; ok && i < nodes.count; i++) {
    MlirOperation op = nodes.ops[i];
    StrataDspPlan p[STRATA_DSP_MAX_PLANS];
    plansOf(op, p);
    const char *layout = strataDspLayoutName(p[choice[i]].outLayout);
    mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(STRATA_DSP_LAYOUT), strataStrAttr(ctx, layout));
    if (strataOpIsNamed(op, "dsp.matmul"))
      mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(STRATA_DSP_INST),
                                      strataStrAttr(ctx, strataDspInstrName(instOfLayout(p[choice[i]].outLayout))));
  }
  for (int e = 0; ok && e < numEdges; e++) {
    MlirOperation dst = nodes.ops[edgeDst[e]];
    MlirValue x = mlirOperationGetOperand(dst, 0);
    int src = indexOf(&nodes, mlirOpResultGetOwner(x));
    StrataDspPlan ps[STRATA_DSP_MAX_PLANS], pd[STRATA_DSP_MAX_PLANS];
    plansOf(nodes.ops[src], ps);
    plansOf(dst, pd);
    int from = ps[choice[src]].outLayout, to = pd[choice[edgeDst[e]]].inLayout;
    if (to == 0 || to == from) continue;
    StrataBuilder b = strataBuilderBefore(dst, (MlirRewriterBase){NULL});
    MlirOperation cv = strataCreateOp(
        &b, "dsp.convert_layout", mlirOperationGetLocation(dst), .operands = STRATA_VALUES(x),
        .results = STRATA_TYPES(mlirValueGetType(x)),
        .attrs = STRATA_ATTRS({"from", strataStrAttr(ctx, strataDspLayoutName(from))},
                              {"to", strataStrAttr(ctx, strataDspLayoutName(to))}));
    mlirOperationSetOperand(dst, 0, mlirOperationGetResult(cv, 0));
    conversions++;
  }
  if (ok && strataPassGetBool(run, "report"))
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, loc,
                         "dsp-select-layouts (%s): %zu operators, Agg_Cost %.1f (local choice %.1f), "
                         "%d conversion%s", strataPassGetString(run, "mode"), nodes.count,
                         strataDspAggCost(g, choice), strataDspAggCost(g, local), conversions,
                         conversions == 1 ? "" : "s");
  strataOpListDestroy(&all);
  strataOpListDestroy(&nodes);
  strataDspGraphDestroy(g);
}

static const StrataPassOptionDef kOptions[] = {
    {"mode", STRATA_OPTION_STRING, "partition",
     "local | chain | partition | exhaustive (strataDspSelect)"},
    {"max-partition", STRATA_OPTION_INT, "13", "operators a partition holds, 1..17 (GCD²(13), GCD²(17))"},
    {"report", STRATA_OPTION_BOOL, "false", "remark with the Agg_Cost chosen and the local one"},
};

const StrataPassDef strataDspSelectLayoutsPass = {
    .name = "dsp-select-layouts",
    .summary = "Choose a layout and instruction per dsp operator (GCD²'s global selection) and "
               "insert layout conversions where neighbours disagree",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runSelectLayouts,
};
