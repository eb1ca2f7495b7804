/* --sparse-tune: chooses each sparse.fkw_conv's layerwise tuning (tile,
 * unroll, permute, layout) by measuring candidates on this machine: each
 * is the conv alone in a function, compiled for the target with those
 * attributes and timed (strataMeasureKernel). The search is a coordinate
 * descent from the lowering's default (what an op without tuning gets:
 * sparseDefaultTile, filters outside column tiles, the sums layout where
 * sparseDefaultSums applies, else phases): the register tile's rows, then
 * its column vectors, within the accumulators the registers hold and the
 * output; the loop order; the input layout (the others, then the tile
 * again if the layout changed); the filter unroll, only where filters
 * share their kernels (elsewhere it compiles to the same code). The choice
 * then stands only if it beats the default by 5% in an interleaved
 * comparison (`confirmed`); else the default is written.
 * Measurements go to a latency database (`db`, the file format of
 * nn-fuse's profile-db), keyed by the conv's structure and the candidate,
 * so a second compile of the same model measures nothing and decides the
 * same; without `db` an in-memory one still measures each candidate once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/fusion.h"
#include "strata/pass.h"
#include "strata/support.h"
#include "strata/target.h"
#include "sparse.h"
#include "status.h" /* libstrata_rt: the environment's threads */

typedef struct {
  int64_t rows, cols, unroll;
  int permute; /* 0: oh_co_ow_ci, 1: oh_ow_co_ci */
  int layout;  /* 0: phases, 1: views, 2: sums */
} Tuning;

static const char *const kPermutes[] = {"oh_co_ow_ci", "oh_ow_co_ci"};
static const char *const kLayouts[] = {"phases", "views", "sums"};
enum { LAYOUT_PHASES, LAYOUT_VIEWS, LAYOUT_SUMS, NUM_LAYOUTS };

typedef struct {
  StrataContext *ctx;
  StrataFuseDb *db;
  const char *target;
  int threads; /* the runtime's, which the candidates run with */
  int64_t measured, reused, failed;
} Tuner;

/* FNV-1a over the i64 arrays that decide the loop structure (the weights'
 * values do not change the time). */
static uint64_t hashArrays(MlirOperation op) {
  static const char *const kNames[] = {"patterns", "offset", "reorder", "index", "stride", "groups"};
  uint64_t h = 1469598103934665603ull;
  for (size_t a = 0; a < sizeof kNames / sizeof kNames[0]; a++) {
    MlirAttribute v = strataOpAttr(op, kNames[a]);
    intptr_t n = mlirAttributeIsNull(v) ? 0 : mlirDenseArrayGetNumElements(v);
    for (intptr_t i = 0; i < n; i++) {
      uint64_t x = (uint64_t)mlirDenseI64ArrayGetElement(v, i);
      for (int b = 0; b < 8; b++) h = (h ^ ((x >> (8 * b)) & 0xff)) * 1099511628211ull;
    }
    h = (h ^ 0xff) * 1099511628211ull;
  }
  return h;
}

static void printType(MlirStringRef s, void *user) {
  FILE *f = user;
  fwrite(s.data, 1, s.length, f);
}

/* "sparse.fkw_conv(<x type>,<bias?>)s=..,p=..,d=..,g=..#<hash>|tile=R,T|unroll=U|permute=P|layout=L|threads=N":
 * the best tile differs with the threads the row tiles are shared by */
static char *candidateKey(MlirOperation op, const Tuning *t, int threads) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) return NULL;
  SparseWindow w = {0};
  sparseWindowGet(op, &w);
  fputs("sparse.fkw_conv(", f);
  mlirTypePrint(mlirValueGetType(mlirOperationGetOperand(op, 0)), printType, f);
  fprintf(f, ",bias=%d)s=%lld,%lld;p=%lld,%lld,%lld,%lld;d=%lld,%lld;g=%lld#%016llx",
          (int)(mlirOperationGetNumOperands(op) > 1), (long long)w.strides[0], (long long)w.strides[1],
          (long long)w.pads[0], (long long)w.pads[1], (long long)w.pads[2], (long long)w.pads[3],
          (long long)w.dilations[0], (long long)w.dilations[1], (long long)w.group,
          (unsigned long long)hashArrays(op));
  fprintf(f, "|tile=%lld,%lld|unroll=%lld|permute=%s|layout=%s|threads=%d", (long long)t->rows, (long long)t->cols,
          (long long)t->unroll, kPermutes[t->permute], kLayouts[t->layout], threads);
  fclose(f);
  return text;
}

static void setTuning(MlirOperation op, const Tuning *t) {
  MlirContext c = mlirOperationGetContext(op);
  int64_t tile[2] = {t->rows, t->cols}, unroll[1] = {t->unroll};
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("tile"), mlirDenseI64ArrayGet(c, 2, tile));
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("unroll"), mlirDenseI64ArrayGet(c, 1, unroll));
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("permute"),
                                  strataStrAttr(c, kPermutes[t->permute]));
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("layout"), strataStrAttr(c, kLayouts[t->layout]));
}

/* Appends func.func @name(x[, b]) -> y { y = <clone of op with tuning t> }
 * to m. */
static void addCandidate(MlirModule m, MlirOperation op, const Tuning *t, const char *name) {
  MlirContext c = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType in[2], out = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (intptr_t i = 0; i < n; i++) in[i] = mlirValueGetType(mlirOperationGetOperand(op, i));
  StrataBuilder mb = strataBuilderAtEnd(c, mlirModuleGetBody(m));
  MlirType ft = mlirFunctionTypeGet(c, n, in, 1, &out);
  MlirOperation fn = strataCreateOp(&mb, "func.func", loc,
                                    .attrs = STRATA_ATTRS({"sym_name", strataStrAttr(c, name)},
                                                          {"function_type", mlirTypeAttrGet(ft)}),
                                    .numRegions = 1);
  MlirBlock entry = strataAddBlock(fn, 0, (StrataTypeList){in, n}, loc);
  MlirOperation conv = mlirOperationClone(op);
  for (intptr_t i = 0; i < n; i++) mlirOperationSetOperand(conv, i, mlirBlockGetArgument(entry, i));
  setTuning(conv, t);
  mlirBlockAppendOwnedOperation(entry, conv);
  StrataBuilder eb = strataBuilderAtEnd(c, entry);
  MlirValue y = mlirOperationGetResult(conv, 0);
  strataCreateOp(&eb, "func.return", loc, .operands = (StrataValueList){&y, 1});
}

static MlirModule candidate(MlirOperation op, const Tuning *t) {
  MlirModule m = mlirModuleCreateEmpty(mlirOperationGetLocation(op));
  addCandidate(m, op, t, "kernel");
  return m;
}

/* The candidate's time in ns: from the database, else measured; < 0 if it
 * could not be compiled or run (then it is not a choice). */
static double timeOf(Tuner *tu, MlirOperation op, const Tuning *t) {
  char *key = candidateKey(op, t, tu->threads);
  double ns = -1;
  if (!key) return -1;
  if (tu->db && strataFuseDbLookup(tu->db, key, &ns)) {
    tu->reused++;
  } else {
    MlirModule m = candidate(op, t);
    StrataCompileOptions options = {.fusion = STRATA_FUSION_FIXED, .optLevel = 3};
    ns = strataMeasureKernel(tu->ctx, m, tu->target, &options, "kernel", NULL);
    mlirModuleDestroy(m);
    if (ns < 0) {
      tu->failed++;
    } else {
      tu->measured++;
      if (tu->db) strataFuseDbInsert(tu->db, key, ns);
      if (tu->db) strataFuseDbLookup(tu->db, key, &ns); /* the value a later run reads back */
    }
  }
  free(key);
  return ns;
}

/* The final check: the descent's choice against the default, both in one
 * executable, measured alternately over CONFIRM_ROUNDS rounds (medians).
 * The descent measured each candidate once, in its own compile, at its own
 * moment: on a shared machine a load that came and went can make a slower
 * tile look faster. The choice stands only if it is faster than the
 * default by CONFIRM_MARGIN in this comparison. The outcome goes to the
 * database too (the choice's median as a percentage of the default's,
 * under the choice's key + "|against-default"), so that a second compile
 * decides the same without measuring. */
enum { CONFIRM_ROUNDS = 9 };
#define CONFIRM_MARGIN 0.95

static bool confirmed(Tuner *tu, MlirOperation op, const Tuning *def, const Tuning *best) {
  static const char kSuffix[] = "|against-default";
  char *key = candidateKey(op, best, tu->threads), *full = key ? malloc(strlen(key) + sizeof kSuffix) : NULL;
  if (full) strcat(strcpy(full, key), kSuffix);
  free(key);
  if (!full) return false;
  double percent = -1;
  if (tu->db && strataFuseDbLookup(tu->db, full, &percent)) {
    tu->reused++;
  } else {
    MlirModule m = mlirModuleCreateEmpty(mlirOperationGetLocation(op));
    addCandidate(m, op, def, "kernel_default");
    addCandidate(m, op, best, "kernel_best");
    const char *names[2] = {"kernel_default", "kernel_best"};
    double ns[2];
    StrataCompileOptions options = {.fusion = STRATA_FUSION_FIXED, .optLevel = 3};
    if (mlirLogicalResultIsSuccess(
            strataMeasureKernelsInterleaved(tu->ctx, m, tu->target, &options, names, 2, CONFIRM_ROUNDS, ns)) &&
        ns[0] > 0) {
      percent = 100 * ns[1] / ns[0];
      tu->measured++;
      if (tu->db) strataFuseDbInsert(tu->db, full, percent), strataFuseDbLookup(tu->db, full, &percent);
    } else {
      tu->failed++;
    }
    mlirModuleDestroy(m);
  }
  free(full);
  return percent >= 0 && percent < 100 * CONFIRM_MARGIN;
}

/* A candidate wins only by more than 2%: measurement noise must not make
 * two compiles of one model choose differently when nothing is cached. */
static bool sameTuning(const Tuning *a, const Tuning *b) {
  return a->rows == b->rows && a->cols == b->cols && a->unroll == b->unroll && a->permute == b->permute &&
         a->layout == b->layout;
}

/* One conv's search: the best so far and what has been tried (the
 * coordinate descent can come back to a candidate; it is timed once). */
typedef struct {
  Tuning best, tried[32];
  double bestNs;
  int numTried;
} Search;

static void consider(Tuner *tu, MlirOperation op, const Tuning *t, Search *se) {
  for (int i = 0; i < se->numTried; i++)
    if (sameTuning(t, &se->tried[i])) return;
  if (se->numTried < (int)(sizeof se->tried / sizeof se->tried[0])) se->tried[se->numTried++] = *t;
  double ns = timeOf(tu, op, t);
  if (ns >= 0 && (se->bestNs < 0 || ns < se->bestNs * 0.98)) se->best = *t, se->bestNs = ns;
}

/* Whether some run of u consecutive stored filters of one FKR group
 * shares its kernels: only then does unroll=[u] change the code. */
static bool sharesRuns(MlirOperation op, int64_t u) {
  SparseFkw f;
  SparseWindow w;
  if (!sparseWindowGet(op, &w) || !sparseFkwFromOp(op, &f)) return false;
  bool found = false;
  int64_t Mg = f.M / w.group;
  for (int64_t g = 0; g < f.numGroups && !found; g++)
    for (int64_t s = f.groups[g]; s + u <= f.groups[g + 1] && !found; s++) {
      bool all = true;
      for (int64_t v = s + 1; all && v < s + u; v++) all = sparseFkwFiltersShare(&f, Mg, s, v);
      found = all;
    }
  sparseFkwFree(&f);
  return found;
}

/* The register tile's values (its accumulators) for a tuning: the sums
 * layout keeps a set per distinct column offset of the kernel's taps. */
typedef struct {
  int64_t maxAcc, offsets;
} Budget;

static int64_t accumulators(const Budget *b, const Tuning *t) {
  return t->rows * t->cols * t->unroll * (t->layout == LAYOUT_SUMS ? b->offsets : 1);
}

static int64_t columnOffsets(MlirOperation op) {
  SparseWindow w;
  int64_t largest;
  return sparseWindowGet(op, &w) ? sparseColumnOffsets(&w, &largest) : 1;
}

/* The register tile's rows, then its column vectors, within the budget. */
static void searchTile(Tuner *tu, MlirOperation op, const Budget *b, int64_t OH, int64_t maxCols, Search *se) {
  static const int64_t kRows[] = {1, 2, 3, 4, 5, 6, 7, 8}, kCols[] = {1, 2, 3, 4};
  Tuning t;
  for (size_t r = 0; r < sizeof kRows / sizeof kRows[0]; r++)
    if (t = se->best, t.rows = kRows[r], kRows[r] <= OH && accumulators(b, &t) <= b->maxAcc) consider(tu, op, &t, se);
  for (size_t q = 0; q < sizeof kCols / sizeof kCols[0]; q++)
    if (t = se->best, t.cols = kCols[q], kCols[q] <= maxCols && accumulators(b, &t) <= b->maxAcc)
      consider(tu, op, &t, se);
}

static bool tuneOne(Tuner *tu, MlirOperation op, int64_t maxAccumulators) {
  MlirType y = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirShapedTypeHasStaticShape(y)) return false;
  int64_t OH = mlirShapedTypeGetDimSize(y, 2), OW = mlirShapedTypeGetDimSize(y, 3);
  /* column vectors a row has at the host's SIMD width (the lowering's
   * default): more would only repeat a candidate */
  int64_t lanes = strataHostF32Lanes(), maxCols = (OW + lanes - 1) / lanes;
  int64_t tile[2];
  SparseWindow w;
  sparseDefaultTile(OH, maxCols, tile);
  bool sums = sparseWindowGet(op, &w) && sparseDefaultSums(&w, OH, OW, lanes, tile);
  /* the descent starts from what the lowering does with no tuning */
  const Tuning def = {tile[0], tile[1], 1, 0, sums ? LAYOUT_SUMS : LAYOUT_PHASES};
  Search se = {.best = def, .bestNs = -1};
  Budget b = {maxAccumulators, columnOffsets(op)};
  Tuning t = se.best;
  consider(tu, op, &t, &se);
  if (se.bestNs < 0) return false;
  searchTile(tu, op, &b, OH, maxCols, &se);
  t = se.best, t.permute = 1 - se.best.permute;
  consider(tu, op, &t, &se);
  /* the other layouts (sums where the kernel has two column offsets or
   * more), with its rows cut to the budget, and then its own tile search
   * (its sets of sums take registers) */
  Tuning before = se.best;
  for (int l = 0; l < NUM_LAYOUTS; l++) {
    if (l == before.layout || (l == LAYOUT_SUMS && b.offsets < 2)) continue;
    t = before, t.layout = l;
    while (t.rows > 1 && accumulators(&b, &t) > b.maxAcc) t.rows--;
    if (accumulators(&b, &t) <= b.maxAcc) consider(tu, op, &t, &se);
  }
  if (se.best.layout != before.layout) searchTile(tu, op, &b, OH, maxCols, &se);
  for (int64_t u = 2; u <= 4; u *= 2)
    if (t = se.best, t.unroll = u, accumulators(&b, &t) <= b.maxAcc && sharesRuns(op, u)) consider(tu, op, &t, &se);
  setTuning(op, sameTuning(&se.best, &def) || confirmed(tu, op, &def, &se.best) ? &se.best : &def);
  return true;
}

static void collect(MlirOperation op, StrataOpList *l) {
  if (strataOpIsNamed(op, "sparse.fkw_conv")) strataOpListAppend(l, op);
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); r++)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r)); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        collect(o, l);
}

static void runTune(StrataPassRun *run, MlirOperation module) {
  StrataContext *ctx = strataPassGetContext(run);
  const char *dbPath = strataPassGetString(run, "db");
  Tuner tu = {.ctx = ctx, .target = strataPassGetString(run, "target"),
              .threads = strataRtEnvGetNumThreads(strataContextGetRuntimeEnv(ctx))};
  /* an unknown target is one error here, not one per candidate */
  if (!strataContextResolveTarget(ctx, tu.target, mlirOperationGetLocation(module))) {
    strataPassSignalFailure(run);
    return;
  }
  tu.db = strataFuseDbCreate(ctx, dbPath && *dbPath ? dbPath : NULL);
  if (!tu.db || mlirLogicalResultIsFailure(strataFuseDbCheckWritable(tu.db))) {
    strataFuseDbDestroy(tu.db);
    strataPassSignalFailure(run);
    return;
  }
  StrataOpList convs = {0};
  collect(module, &convs);
  int64_t maxAcc = strataPassGetInt(run, "max-accumulators");
  for (size_t i = 0; i < convs.count; i++)
    if (!tuneOne(&tu, convs.ops[i], maxAcc)) {
      strataEmitError(mlirOperationGetLocation(convs.ops[i]),
                      "'sparse.fkw_conv' op: sparse-tune could not compile or run any candidate "
                      "(static shapes are required)");
      strataPassSignalFailure(run);
      break;
    }
  if (strataPassGetBool(run, "verbose"))
    strataEmitDiagnostic(STRATA_SEVERITY_REMARK, mlirOperationGetLocation(module),
                     "sparse-tune: %zu convolutions, %lld candidates measured, %lld from the database, "
                     "%lld failed",
                     convs.count, (long long)tu.measured, (long long)tu.reused, (long long)tu.failed);
  if (mlirLogicalResultIsFailure(strataFuseDbSave(tu.db))) strataPassSignalFailure(run);
  strataOpListDestroy(&convs);
  strataFuseDbDestroy(tu.db);
}

static const StrataPassOptionDef kOptions[] = {
    {"db", STRATA_OPTION_STRING, "",
     "latency database file (created on first use, reused later); empty: measure every time"},
    {"target", STRATA_OPTION_STRING, "cpu", "the target the candidates are compiled for and timed on"},
    {"max-accumulators", STRATA_OPTION_INT, "24",
     "largest register tile (rows x column vectors x unrolled filters) tried"},
    {"verbose", STRATA_OPTION_BOOL, "false", "report how many candidates were measured or reused"},
};

const StrataPassDef strataSparseTunePass = {
    .name = "sparse-tune",
    .summary = "Choose each sparse.fkw_conv's tile, unroll and loop order by timing candidates "
               "on this machine (cached in a latency database)",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runTune,
};
