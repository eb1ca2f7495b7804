/* --nn-fuse: DNNFusion's fusion planning over a function's nn ops (the
 * planner is fuse_plan.c, Table 3.3 fusion_table.c); every planned block,
 * one op or many, is then held in a tagged `scf.execute_region no_inline`
 * (fuse_outline.c) that the fused code generation lowers as one unit. */
#include <stdio.h>
#include <string.h>
#include "fuse_internal.h"
#include "mlir-c/Dialect/SCF.h"
#include "strata/pass.h"
#include "strata/support.h"

static bool profileCell(void *user, const FuseGraph *g, const int *block, int n, int s) {
  FuseProfileState *p = user;
  switch (p->mode) {
  case YELLOW_ALWAYS: return true;
  case YELLOW_NEVER: return false;
  default: return fuseMeasureProfitable(p, g, block, n, s);
  }
}

static bool parseMode(const char *s, FuseYellowMode *m) {
  static const char *const names[] = {"measure", "db", "never", "always"};
  for (int i = 0; i < 4; i++)
    if (!strcmp(s, names[i])) return *m = (FuseYellowMode)i, true;
  return false;
}

static void runFuse(StrataPassRun *run, MlirOperation module) {
  StrataContext *ctx = strataPassGetContext(run);
  const StrataTargetDef *target =
      strataContextResolveTarget(ctx, strataPassGetString(run, "target"), mlirOperationGetLocation(module));
  if (!target) {
    strataPassSignalFailure(run);
    return;
  }
  FuseProfileState prof = {ctx, target, NULL, YELLOW_MEASURE, 0, 0};
  if (!parseMode(strataPassGetString(run, "profile"), &prof.mode)) {
    strataEmitError(mlirOperationGetLocation(module),
                    "nn-fuse: option profile='%s' is not one of measure, db, never, always",
                    strataPassGetString(run, "profile"));
    strataPassSignalFailure(run);
    return;
  }
  const char *dbPath = strataPassGetString(run, "profile-db");
  if (prof.mode == YELLOW_DB && !*dbPath) {
    strataEmitError(mlirOperationGetLocation(module),
                    "nn-fuse: profile=db needs a database (profile-db=FILE)");
    strataPassSignalFailure(run);
    return;
  }
  /* without a file, measurements are still shared within this run */
  if (!(prof.db = strataFuseDbCreate(ctx, *dbPath ? dbPath : NULL)) ||
      (prof.mode == YELLOW_MEASURE && mlirLogicalResultIsFailure(strataFuseDbCheckWritable(prof.db)))) {
    strataFuseDbDestroy(prof.db);
    strataPassSignalFailure(run);
    return;
  }
  FusePlanOptions opts = {(int)strataPassGetInt(run, "max-block-ops"),
                          (int)strataPassGetInt(run, "max-block-inputs"),
                          strataPassGetBool(run, "cpu-kernels"),
                          strataPassGetBool(run, "profile-green"), profileCell, &prof};
  bool report = strataPassGetBool(run, "report");
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(f);
       f = mlirOperationGetNextInBlock(f)) {
    if (!strataOpIsNamed(f, "func.func") || mlirRegionIsNull(mlirOperationGetRegion(f, 0)) ||
        mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0))))
      continue;
    FuseGraph g;
    FusePlan plan;
    if (!fuseGraphBuild(&g, ctx, target, f)) {
      fuseGraphDestroy(&g);
      strataEmitError(mlirOperationGetLocation(f), "nn-fuse: out of memory");
      strataPassSignalFailure(run);
      break;
    }
    fusePlanRun(&g, &opts, &plan);
    fuseWrapBlocks(&g, &plan, f);
    if (report) {
      fuseReportFunction(ctx, f, stderr);
      fprintf(stderr,
              "  decisions: %d red, %d over the constraint, %d would form a cycle, "
              "%d profiled and fused, %d profiled and kept apart\n",
              plan.rejectedRed, plan.rejectedConstraint, plan.rejectedCycle,
              plan.acceptedProfile, plan.rejectedProfile);
    }
    fusePlanDestroy(&plan);
    fuseGraphDestroy(&g);
  }
  if (report && *dbPath)
    fprintf(stderr, "  profile database %s: %zu entries, %zu answered from it, %zu measured\n",
            dbPath, strataFuseDbSize(prof.db), strataFuseDbHits(prof.db),
            strataFuseDbMeasured(prof.db));
  else if (report && strataFuseDbMeasured(prof.db))
    fprintf(stderr, "  measured %zu candidate kernels (no profile-db: not kept)\n",
            strataFuseDbMeasured(prof.db));
  if (report && prof.failed)
    fprintf(stderr, "  %d profile candidates failed to compile or run and stayed apart\n",
            prof.failed);
  if (report && prof.missing)
    fprintf(stderr, "  %d profile cells had no database entry (profile=db) and stayed apart\n",
            prof.missing);
  if (prof.db) {
    if (mlirLogicalResultIsFailure(strataFuseDbSave(prof.db))) strataPassSignalFailure(run);
    strataFuseDbDestroy(prof.db);
  }
}

static const StrataPassOptionDef kOptions[] = {
    {"max-block-ops", STRATA_OPTION_INT, "64", "constraint: most ops in one fused block"},
    {"max-block-inputs", STRATA_OPTION_INT, "16",
     "constraint: most distinct tensors a block reads from outside (register pressure)"},
    {"target", STRATA_OPTION_STRING, "cpu",
     "the target planned for: its library kernels (cpu-kernels) and the compiler of the "
     "measured profile candidates"},
    {"cpu-kernels", STRATA_OPTION_BOOL, "false",
     "constraint for targets with library kernels (the CPU's runtime kernels): no op in a "
     "block feeds an op the target runs as a kernel unless the kernel absorbs it (kernels "
     "absorb epilogues, not prologues)"},
    {"profile", STRATA_OPTION_STRING, "measure",
     "profile cells: measure (time missing entries on this machine), db (database only), "
     "never, always"},
    {"profile-green", STRATA_OPTION_BOOL, "false",
     "settle green cells by the latency database too (the table assumes the thesis' code "
     "generator)"},
    {"profile-db", STRATA_OPTION_STRING, "",
     "latency database file; created on first use, reused later"},
    {"report", STRATA_OPTION_BOOL, "false", "print the fusion report (nn-fuse-report) to stderr"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__scf__, NULL};

const StrataPassDef strataNnFusePass = {
    .name = "nn-fuse",
    .summary = "DNNFusion fusion planning: group nn ops by mapping type into tagged "
               "scf.execute_region blocks",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof kOptions[0],
    .run = runFuse,
    .dependentDialects = kDeps,
};
