/* The RDP analysis and its planners through the C API (strata/rdp.h),
 * digest C3.2, C3.5, C3.6, C3.7 and C3.8: lattice elements queried from C,
 * an embedder's EDO op (a NonZero) giving nac and a partition point, the
 * fixpoint's order independence, the exact order planner against brute
 * force on random DAGs, and the memory planners against the exhaustive
 * optimum on random lifetimes.
 * RUN: %capi/rdp 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

/* ---- An embedder's EDO op: toy.non_zero (indices of non-zero elements) ---- */

static MlirLogicalResult inferNonZero(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!strataGetShape(mlirValueGetType(mlirOperationGetOperand(op, 0)), &rank, dims)) {
    strataEmitError(mlirOperationGetLocation(op), "'toy.non_zero' op needs a ranked tensor operand");
    return mlirLogicalResultFailure();
  }
  res->rank = 2;
  res->dims[0] = rank;
  res->dims[1] = -1; /* how many are non-zero: known only after running */
  res->elementType = mlirIntegerTypeGet(mlirOperationGetContext(op), 64);
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kToyOps[] = {{.name = "toy.non_zero",
                                       .summary = "indices of the non-zero elements of `x`",
                                       .operands = "x",
                                       .results = "indices",
                                       .flags = STRATA_OP_PURE,
                                       .infer = inferNonZero,
                                       .dynamism = STRATA_DYN_EDO,
                                       .types = "any"}};
static const StrataOpTable kToyTable = {kToyOps, 1};
static const StrataOpTable *const kToyTables[] = {&kToyTable};
static const StrataDialectDef kToy = {.name = "toy", .tables = kToyTables, .numTables = 1};

static const char *kModule =
    "func.func @f(%x: tensor<?x3x?x?xf32> {onnx.dim_params = [\"N\", \"\", \"H\", \"W\"]},\n"
    "             %w: tensor<64x3x3x3xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {\n"
    "  %c = \"nn.conv\"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x?x?xf32>, tensor<64x3x3x3xf32>) -> tensor<?x64x?x?xf32>\n"
    "  %r = \"nn.relu\"(%c) : (tensor<?x64x?x?xf32>) -> tensor<?x64x?x?xf32>\n"
    "  %s = \"nn.shape\"(%r) : (tensor<?x64x?x?xf32>) -> tensor<4xi64>\n"
    "  %i0 = \"nn.constant\"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "  %n = \"nn.gather\"(%s, %i0) : (tensor<4xi64>, tensor<1xi64>) -> tensor<1xi64>\n"
    "  %m1 = \"nn.constant\"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>\n"
    "  %shape = \"nn.concat\"(%n, %m1) {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>\n"
    "  %y = \"nn.reshape\"(%r, %shape) : (tensor<?x64x?x?xf32>, tensor<2xi64>) -> tensor<?x?xf32>\n"
    "  %nz = \"toy.non_zero\"(%y) : (tensor<?x?xf32>) -> tensor<2x?xi64>\n"
    "  %f = \"nn.cast\"(%nz) {to = f32} : (tensor<2x?xi64>) -> tensor<2x?xf32>\n"
    "  %t = \"nn.transpose\"(%f) : (tensor<2x?xf32>) -> tensor<?x2xf32>\n"
    "  %m = \"nn.matmul\"(%t, %f) : (tensor<?x2xf32>, tensor<2x?xf32>) -> tensor<?x?xf32>\n"
    "  return %y, %m : tensor<?x?xf32>, tensor<?x?xf32>\n}\n";

/* A strided window whose size is not a polynomial: a derived symbol. */
static const char *kStrided =
    "func.func @g(%x: tensor<?x3x?x?xf32> {onnx.dim_params = [\"N\", \"\", \"H\", \"W\"]},\n"
    "             %w: tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32> {\n"
    "  %c = \"nn.conv\"(%x, %w) {strides = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>} : (tensor<?x3x?x?xf32>, tensor<8x3x3x3xf32>) -> tensor<?x8x?x?xf32>\n"
    "  return %c : tensor<?x8x?x?xf32>\n}\n";

static const char *kKinds[] = {"undef", "const", "symbol", "expr", "nac"};

/* The op of `func`'s body named `name` (the k-th one). */
static MlirOperation findOp(MlirOperation func, const char *name, int k) {
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (strataOpIsNamed(op, name) && k-- == 0) return op;
  return (MlirOperation){NULL};
}

static void printDims(const StrataRdp *r, const char *what, MlirValue v) {
  char shape[256];
  strataRdpShapeString(r, v, shape, sizeof shape);
  printf("%s: rank %d %s kinds", what, strataRdpRankOf(r, v), shape);
  for (int d = 0; d < strataRdpRankOf(r, v); d++) printf(" %s", kKinds[strataRdpDimOf(r, v, d, NULL, NULL, 0)]);
  printf("\n");
}

/* Every fact of every op result printed into one string, to compare runs. */
static void allFacts(const StrataRdp *r, MlirOperation func, char *buf, size_t size) {
  size_t n = 0;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    for (intptr_t j = 0; j < mlirOperationGetNumResults(op) && n < size; j++) {
      MlirValue v = mlirOperationGetResult(op, j);
      strataRdpShapeString(r, v, buf + n, size - n);
      n += strlen(buf + n);
      for (int k = 0; k < strataRdpValueLength(r, v) && n < size; k++) {
        n += (size_t)snprintf(buf + n, size - n, " v");
        strataRdpValueOf(r, v, k, NULL, buf + n, size - n);
        n += strlen(buf + n);
      }
      if (n < size) buf[n++] = ';', buf[n] = '\0';
    }
}

static void orderPlannerVsBruteForce(void);
static void memoryPlannersVsExhaustive(void);
static void largestFirstAndLivePeak(void);
static void planStructureReuse(void);

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  if (!ctx || !mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, &kToy))) return 1;
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "rdp.mlir");
  if (mlirModuleIsNull(m)) return 1;
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(m));

  StrataRdp *r = strataRdpRun(ctx, func, false);
  if (!r) return 1;
  // CHECK: symbols: 3 N H W
  printf("symbols: %zu %s %s %s\n", strataRdpNumSymbols(r), strataRdpSymbolName(r, 0), strataRdpSymbolName(r, 1),
         strataRdpSymbolName(r, 2));
  // C3.2 through the C API.
  // CHECK: relu: rank 4 [N, 64, H, W] kinds symbol const symbol symbol
  printDims(r, "relu", mlirOperationGetResult(findOp(func, "nn.relu", 0), 0));
  MlirValue shape = mlirOperationGetResult(findOp(func, "nn.shape", 0), 0);
  char buf[64];
  int64_t c = 0;
  StrataRdpKind k = strataRdpValueOf(r, shape, 1, &c, buf, sizeof buf);
  // CHECK: shape value: length 4, [1] = const 64 (64)
  printf("shape value: length %d, [1] = %s %lld (%s)\n", strataRdpValueLength(r, shape), kKinds[k], (long long)c, buf);
  MlirValue y = mlirOperationGetResult(findOp(func, "nn.reshape", 0), 0);
  // CHECK: reshape: rank 2 [N, 64*H*W] kinds symbol expr
  printDims(r, "reshape", y);
  int64_t sizes[3] = {2, 5, 7}, dim1 = 0;
  bool ok = strataRdpEvalDim(r, y, 1, sizes, 3, &dim1);
  // CHECK: reshape dim 1 at N=2 H=5 W=7: 2240 (ok 1)
  printf("reshape dim 1 at N=2 H=5 W=7: %lld (ok %d)\n", (long long)dim1, ok);
  // CHECK: classes: shape ISDO reshape ISDOS non_zero EDO
  printf("classes: shape %s reshape %s non_zero %s\n", strataDynamismName(strataRdpClassOf(r, findOp(func, "nn.shape", 0))),
         strataDynamismName(strataRdpClassOf(r, findOp(func, "nn.reshape", 0))),
         strataDynamismName(strataRdpClassOf(r, findOp(func, "toy.non_zero", 0))));
  // C3.5: the EDO op's data-dependent dim is nac, and so is everything
  // computed from it; its static dim stays a constant.
  // CHECK: non_zero: rank 2 [2, nac] kinds const nac
  printDims(r, "non_zero", mlirOperationGetResult(findOp(func, "toy.non_zero", 0), 0));
  // CHECK: matmul: rank 2 [nac, nac] kinds nac nac
  printDims(r, "matmul", mlirOperationGetResult(findOp(func, "nn.matmul", 0), 0));
  // CHECK: not a value of the function: rank -3 dim undef
  printf("not a value of the function: rank %d dim %s\n", strataRdpRankOf(r, (MlirValue){NULL}),
         kKinds[strataRdpDimOf(r, (MlirValue){NULL}, 0, NULL, NULL, 0)]);

  // C3.6: the reverse visiting order reaches the same facts; each run ends
  // with a round that changes nothing.
  StrataRdp *rev = strataRdpRun(ctx, func, true);
  char *a = malloc(8192), *b = malloc(8192);
  if (!rev || !a || !b) return 1;
  allFacts(r, func, a, 8192);
  allFacts(rev, func, b, 8192);
  size_t ops = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ops++;
  // CHECK: forward and reverse facts equal: yes
  printf("forward and reverse facts equal: %s\n", strcmp(a, b) ? "no" : "yes");
  // CHECK: visits are whole rounds: yes yes
  printf("visits are whole rounds: %s %s\n", strataRdpNumVisits(r) % ops == 0 ? "yes" : "no",
         strataRdpNumVisits(rev) % ops == 0 ? "yes" : "no");
  fprintf(stderr, "rounds: forward %zu reverse %zu\n", strataRdpNumVisits(r) / ops, strataRdpNumVisits(rev) / ops);
  free(a);
  free(b);
  strataRdpDestroy(rev);
  strataRdpDestroy(r);

  // The analysis runs on functions only, with a located error.
  // CHECK: rdp.mlir:1:1: error: 'builtin.module' op the RDP analysis runs on a func.func with a body
  // CHECK: not a function: refused
  printf("not a function: %s\n", strataRdpRun(ctx, mlirModuleGetOperation(m), false) ? "ran" : "refused");

  /* Derived symbols follow the input ones; evaluation computes them from
   * the input symbols' values: ceil(7/2) = 4, ceil(10/2) = 5. */
  MlirModule sm = strataParseModule(ctx, mlirStringRefCreateFromCString(kStrided), "strided.mlir");
  MlirOperation g = mlirBlockGetFirstOperation(mlirModuleGetBody(sm));
  StrataRdp *rs = strataRdpRun(ctx, g, false);
  if (!rs) return 1;
  MlirValue conv = mlirOperationGetResult(findOp(g, "nn.conv", 0), 0);
  int64_t hw[3] = {1, 7, 10}, h = 0, w = 0;
  bool okH = strataRdpEvalDim(rs, conv, 2, hw, 3, &h), okW = strataRdpEvalDim(rs, conv, 3, hw, 3, &w);
  // CHECK: strided: 5 symbols, 3 inputs, [N, 8, ceil(H/2), ceil(W/2)] at H=7 W=10: 4 5 (ok 1 1)
  char convShape[128];
  strataRdpShapeString(rs, conv, convShape, sizeof convShape);
  printf("strided: %zu symbols, %zu inputs, %s at H=7 W=10: %lld %lld (ok %d %d)\n", strataRdpNumSymbols(rs),
         strataRdpNumInputSymbols(rs), convShape, (long long)h, (long long)w, okH, okW);
  strataRdpDestroy(rs);
  mlirModuleDestroy(sm);

  orderPlannerVsBruteForce();
  memoryPlannersVsExhaustive();
  largestFirstAndLivePeak();
  planStructureReuse();
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}

/* ---- C3.7: random DAGs, exact order planner against brute force ---------- */

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint64_t nextRandom(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Minimum peak over all permutations that are topological orders. */
static int64_t bruteForceOrder(const StrataOrderGraph *g, size_t *perm, size_t k, bool *used, int64_t best) {
  if (k == g->numNodes) {
    int64_t p = strataOrderPeak(g, perm);
    return p >= 0 && (best < 0 || p < best) ? p : best;
  }
  for (size_t v = 0; v < g->numNodes; v++) {
    if (used[v]) continue;
    bool ready = true;
    for (size_t e = g->predStart[v]; e < g->predStart[v + 1]; e++) ready &= used[g->preds[e]];
    if (!ready) continue;
    used[v] = true;
    perm[k] = v;
    best = bruteForceOrder(g, perm, k + 1, used, best);
    used[v] = false;
  }
  return best;
}

static void orderPlannerVsBruteForce(void) {
  int trials = 200, equal = 0, valid = 0;
  for (int trial = 0; trial < trials; trial++) {
    size_t n = 2 + nextRandom() % 7, predStart[10] = {0}, preds[64], np = 0, order[9], perm[9];
    int64_t bytes[9];
    bool out[9], used[9] = {false};
    for (size_t v = 0; v < n; v++) {
      bytes[v] = 1 + (int64_t)(nextRandom() % 100);
      out[v] = nextRandom() % 5 == 0;
      for (size_t u = 0; u < v; u++)
        if (nextRandom() % 3 == 0) preds[np++] = u;
      predStart[v + 1] = np;
    }
    StrataOrderGraph g = {n, bytes, predStart, preds, out};
    int64_t planned = strataOrderPlanExact(&g, order);
    valid += planned >= 0 && strataOrderPeak(&g, order) == planned;
    equal += planned == bruteForceOrder(&g, perm, 0, used, -1);
  }
  // CHECK: order: 200 random DAGs, planned peak valid 200, equal to brute force 200
  printf("order: %d random DAGs, planned peak valid %d, equal to brute force %d\n", trials, valid, equal);
  /* A cycle and a non-topological order are refused. */
  size_t cycStart[3] = {0, 1, 2}, cyc[2] = {1, 0}, order[2] = {1, 0};
  int64_t two[2] = {1, 1};
  StrataOrderGraph c = {2, two, cycStart, cyc, NULL};
  size_t chainStart[3] = {0, 0, 1}, chain[1] = {0};
  StrataOrderGraph ch = {2, two, chainStart, chain, NULL};
  // CHECK: cycle: -1 not topological: -1
  printf("cycle: %lld not topological: %lld\n", (long long)strataOrderPlanExact(&c, order),
         (long long)strataOrderPeak(&ch, order));
}

/* ---- C3.8: memory planners against the exhaustive optimum ---------------- */

static void memoryPlannersVsExhaustive(void) {
  int trials = 300, validWalk = 0, validFit = 0, within = 0, walkWins = 0, validBest = 0, withinBest = 0;
  double worstWalk = 1, worstFit = 1, sumWalk = 0, sumFit = 0, worstBest = 1, sumBest = 0;
  for (int trial = 0; trial < trials; trial++) {
    size_t n = 3 + nextRandom() % 6;
    StrataMemTensor t[9];
    int64_t offWalk[9], offFit[9], offBest[9], offUsed[9];
    for (size_t i = 0; i < n; i++) {
      int64_t s = (int64_t)(nextRandom() % 10), len = (int64_t)(nextRandom() % 4);
      t[i] = (StrataMemTensor){1 + (int64_t)(nextRandom() % 64), s, s + len};
    }
    int64_t walk = strataMemPlanPeakWalk(t, n, offWalk), fit = strataMemPlanBestFit(t, n, offFit),
            best = strataMemPlanExhaustive(t, n, offBest);
    validWalk += strataMemPlanValid(t, n, offWalk);
    validFit += strataMemPlanValid(t, n, offFit);
    /* the planner compiled code uses: the walk, then the others when above the live peak */
    int64_t used = strataMemPlanBest(t, n, offUsed, NULL);
    validBest += strataMemPlanValid(t, n, offUsed) && used <= walk;
    double ru = (double)used / (double)best;
    withinBest += ru <= 1.05;
    worstBest = ru > worstBest ? ru : worstBest;
    sumBest += ru;
    double rw = (double)walk / (double)best, rf = (double)fit / (double)best;
    within += rw <= 1.05;
    walkWins += walk <= fit;
    worstWalk = rw > worstWalk ? rw : worstWalk;
    worstFit = rf > worstFit ? rf : worstFit;
    sumWalk += rw;
    sumFit += rf;
  }
  // CHECK: memory: 300 random sets, valid peak-walk 300 best-fit 300
  printf("memory: %d random sets, valid peak-walk %d best-fit %d\n", trials, validWalk, validFit);
  double meanWalk = sumWalk / trials, meanFit = sumFit / trials;
  // CHECK: peak-walk mean within 1.05x of optimal: yes
  printf("peak-walk mean within 1.05x of optimal: %s\n", meanWalk <= 1.05 ? "yes" : "no");
  // CHECK: at least 90% of sets within 1.05x: yes
  printf("at least 90%% of sets within 1.05x: %s\n", within * 10 >= trials * 9 ? "yes" : "no");
  // CHECK: peak-walk mean no worse than best-fit: yes
  printf("peak-walk mean no worse than best-fit: %s\n", meanWalk <= meanFit ? "yes" : "no");
  // CHECK: compiled code's planner: 300 valid and no worse than the walk; mean within 1.01x: yes; at least 98% within 1.05x: yes
  printf("compiled code's planner: %d valid and no worse than the walk; mean within 1.01x: %s; at least 98%% within "
         "1.05x: %s\n", validBest, sumBest / trials <= 1.01 ? "yes" : "no", withinBest * 50 >= trials * 49 ? "yes" : "no");
  fprintf(stderr, "memory ratios to optimal: peak-walk mean %.4f worst %.3f (%d of %d within 1.05x, %d at most best-fit); "
                  "best-fit mean %.4f worst %.3f; strataMemPlanBest mean %.4f worst %.3f (%d within 1.05x)\n",
          meanWalk, worstWalk, within, trials, walkWins, meanFit, worstFit, sumBest / trials, worstBest, withinBest);
  /* Overlap detection: two tensors live together at the same offset. */
  StrataMemTensor two[2] = {{8, 0, 1}, {8, 1, 2}};
  int64_t clash[2] = {0, 4};
  // CHECK: overlap detected: yes
  printf("overlap detected: %s\n", strataMemPlanValid(two, 2, clash) ? "no" : "yes");
}

/* The other placements compiled code tries when the peak walk is above its
 * bound (runtime/shape_plan.c): largest first is valid, and the live peak
 * bounds every plan from below and is reached by the optimum's bound. */
static void largestFirstAndLivePeak(void) {
  int trials = 300, valid = 0, bounded = 0, tight = 0;
  for (int trial = 0; trial < trials; trial++) {
    size_t n = 3 + nextRandom() % 6;
    StrataMemTensor t[9];
    int64_t off[9], offBest[9];
    for (size_t i = 0; i < n; i++) {
      int64_t s = (int64_t)(nextRandom() % 10), len = (int64_t)(nextRandom() % 4);
      t[i] = (StrataMemTensor){1 + (int64_t)(nextRandom() % 64), s, s + len};
    }
    int64_t largest = strataMemPlanLargestFirst(t, n, off), best = strataMemPlanExhaustive(t, n, offBest),
            live = strataMemPlanLivePeak(t, n);
    valid += strataMemPlanValid(t, n, off) && largest >= best;
    bounded += live <= best;
    tight += live == best;
  }
  // CHECK: largest first: 300 of 300 valid; live peak at most the optimum: 300 of 300
  printf("largest first: %d of %d valid; live peak at most the optimum: %d of %d\n", valid, trials, bounded, trials);
  fprintf(stderr, "live peak equals the optimum in %d of %d sets\n", tight, trials);
  StrataMemTensor bad[1] = {{8, 2, 1}};
  // CHECK: invalid lifetime: -1 -1
  printf("invalid lifetime: %lld %lld\n", (long long)strataMemPlanLargestFirst(bad, 1, (int64_t[1]){0}),
         (long long)strataMemPlanLivePeak(bad, 1));
}

/* C3.9: a plan's structure (strataMemPlanBest) re-evaluated for new sizes
 * (strataMemPlanReuse), as compiled code does for a new shape class
 * (runtime/shape_plan.c): the same sizes give back the same offsets, sizes
 * scaled alike a plan scaled alike, and any other sizes a valid plan,
 * never an overlap, so no class searches again. The structure holds also
 * for an order that is not a plan's (a shuffled one): validity does not
 * come from the search. */
static void planStructureReuse(void) {
  enum { MAXN = 40 };
  int trials = 300, same = 0, scaled = 0, sound = 0, shuffled = 0, noWorse = 0;
  double ratio = 0, worst = 1;
  for (int trial = 0; trial < trials; trial++) {
    size_t n = 3 + nextRandom() % (MAXN - 2);
    StrataMemTensor t[MAXN], u[MAXN];
    int64_t off[MAXN], again[MAXN], walk[MAXN];
    size_t order[MAXN];
    StrataMemPlanShape shape = {order};
    for (size_t i = 0; i < n; i++) {
      int64_t st = (int64_t)(nextRandom() % 30), len = (int64_t)(nextRandom() % 8);
      t[i] = (StrataMemTensor){(int64_t)(nextRandom() % 64), st, st + len};
    }
    int64_t total = strataMemPlanBest(t, n, off, &shape);
    noWorse += total <= strataMemPlanPeakWalk(t, n, walk) && strataMemPlanValid(t, n, off);
    same += strataMemPlanReuse(t, n, &shape, again) == total && !memcmp(again, off, n * sizeof *off);
    int64_t k = 2 + (int64_t)(nextRandom() % 5);
    for (size_t i = 0; i < n; i++) u[i] = t[i], u[i].size *= k;
    bool alike = strataMemPlanReuse(u, n, &shape, again) == k * total;
    for (size_t i = 0; i < n && alike; i++) alike = again[i] == k * off[i];
    scaled += alike;
    for (size_t i = 0; i < n; i++) u[i].size = (int64_t)(nextRandom() % 128);
    int64_t r = strataMemPlanReuse(u, n, &shape, again), live = strataMemPlanLivePeak(u, n);
    sound += r >= 0 && strataMemPlanValid(u, n, again);
    if (live > 0) {
      double q = (double)r / (double)live;
      ratio += q, worst = q > worst ? q : worst;
    }
    for (size_t i = n - 1; i > 0; i--) { /* Fisher-Yates */
      size_t j = nextRandom() % (i + 1), x = order[i];
      order[i] = order[j], order[j] = x;
    }
    r = strataMemPlanReuse(u, n, &shape, again);
    shuffled += r >= 0 && strataMemPlanValid(u, n, again);
  }
  // CHECK: structure: 300 of 300 no worse than the walk, 300 reproduce, 300 scale, 300 of 300 other sizes valid, 300 shuffled valid
  printf("structure: %d of %d no worse than the walk, %d reproduce, %d scale, %d of %d other sizes valid, %d shuffled valid\n",
         noWorse, trials, same, scaled, sound, trials, shuffled);
  fprintf(stderr, "structure re-evaluated for unrelated sizes: mean %.3f worst %.3f of the live peak\n",
          ratio / trials, worst);
  /* A malformed structure is refused: a tensor twice, another never. */
  StrataMemTensor two[2] = {{8, 0, 1}, {8, 1, 2}};
  size_t badOrder[2] = {1, 1};
  int64_t out[2];
  StrataMemPlanShape bad = {badOrder};
  // CHECK: malformed structure: -1
  printf("malformed structure: %lld\n", (long long)strataMemPlanReuse(two, 2, &bad, out));
}
