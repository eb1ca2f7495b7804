/* An embedder's own pass, declared once in a StrataPassDef, registered, and
 * run from a textual pipeline next to Strata and upstream passes.
 * RUN: %capi/passes 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "strata/strata.h"

typedef struct {
  int runs;
} Counter;

/* Tags every func.func with `visited = <tag>` and reports its options. */
static void runTag(StrataPassRun *run, MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  printf("run: tag=%s times=%lld verbose=%d scale=%g\n", strataPassGetString(run, "tag"),
         (long long)strataPassGetInt(run, "times"), strataPassGetBool(run, "verbose"),
         strataPassGetDouble(run, "scale"));
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString("visited"),
                                  strataStrAttr(ctx, strataPassGetString(run, "tag")));
  if (strataPassGetInt(run, "times") < 0) strataPassSignalFailure(run);
}

static const StrataPassOptionDef kOpts[] = {
    {"tag", STRATA_OPTION_STRING, "none", "the tag"},
    {"times", STRATA_OPTION_INT, "1", "how many"},
    {"verbose", STRATA_OPTION_BOOL, "false", "talk"},
    {"scale", STRATA_OPTION_DOUBLE, "0.5", "a number"},
};
static const StrataPassDef kTag = {
    .name = "test-tag", .summary = "Tag functions", .anchor = "func.func",
    .options = kOpts, .numOptions = 4, .run = runTag,
};
static const StrataPassDef kAlias = {
    .name = "test-tag-twice", .summary = "Alias", .pipeline = "func.func(test-tag{tag=one}),test-tag{tag=two}",
};

static const char *kModule = "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                             "  %a = \"nn.relu\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
                             "  %b = \"nn.relu\"(%a) : (tensor<4xf32>) -> tensor<4xf32>\n"
                             "  return %b : tensor<4xf32>\n}\n";

static void print(MlirStringRef s, void *u) {
  (void)u;
  fwrite(s.data, 1, s.length, stdout); }

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep stdout and stderr in order */
  StrataContext *ctx = strataContextCreate();
  int first = mlirLogicalResultIsSuccess(strataContextRegisterPass(ctx, &kTag));
  // CHECK: error: pass 'test-tag' is already registered
  int again = mlirLogicalResultIsSuccess(strataContextRegisterPass(ctx, &kTag));
  int alias = mlirLogicalResultIsSuccess(strataContextRegisterPass(ctx, &kAlias));
  // CHECK: error: pass 'cse' is already registered
  int upstream = mlirLogicalResultIsSuccess(
      strataContextRegisterPass(ctx, &(StrataPassDef){.name = "cse", .run = runTag}));
  // CHECK: register: 1 again: 0 alias: 1 upstream name: 0
  printf("register: %d again: %d alias: %d upstream name: %d\n", first, again, alias, upstream);
  // CHECK: lookup: test-tag upstream canonicalize: 1
  printf("lookup: %s upstream canonicalize: %d\n", strataContextLookupPass(ctx, "test-tag")->name,
         strataLookupUpstreamPass("canonicalize") != NULL);

  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "m.mlir");
  // CHECK: run: tag=hello world times=3 verbose=1 scale=2.5
  MlirLogicalResult r = strataRunPipeline(
      ctx, mlirModuleGetOperation(m),
      "builtin.module(func.func(nn-fold,test-tag{tag='hello world' times=3 verbose scale=2.5},canonicalize))");
  // CHECK: pipeline ok: 1
  printf("pipeline ok: %d\n", mlirLogicalResultIsSuccess(r));
  // CHECK: func.func @f({{.*}} attributes {visited = "hello world"}
  // CHECK-COUNT-1: nn.relu
  // CHECK-NOT: nn.relu
  mlirOperationPrint(mlirModuleGetOperation(m), print, NULL);
  printf("\n");

  /* Defaults, and a func.func-anchored pass given at module level nests. */
  // CHECK: run: tag=none times=1 verbose=0 scale=0.5
  r = strataRunPipeline(ctx, mlirModuleGetOperation(m), "test-tag");
  // CHECK: run: tag=one times=1
  // CHECK: run: tag=two times=1
  r = strataRunPipeline(ctx, mlirModuleGetOperation(m), "test-tag-twice");
  // CHECK: alias ok: 1
  printf("alias ok: %d\n", mlirLogicalResultIsSuccess(r));
  // A failing pass fails the pipeline.
  // CHECK: run: tag=none times=-1
  // CHECK: failing pass: 1
  r = strataRunPipeline(ctx, mlirModuleGetOperation(m), "test-tag{times=-1}");
  printf("failing pass: %d\n", mlirLogicalResultIsFailure(r));
  // CHECK: <pass-pipeline>:1:1: error: pass 'test-tag': option 'times' expects an integer, got 'x'
  r = strataRunPipeline(ctx, mlirModuleGetOperation(m), "test-tag{times=x}");
  // CHECK: <pass-pipeline>:1:1: error: pass 'test-tag': option 'verbose' expects true or false, got 'maybe'
  r = strataRunPipeline(ctx, mlirModuleGetOperation(m), "test-tag{verbose=maybe}");

  const char *near[4];
  size_t n = strataSuggestPasses(ctx, "test-tga", near, 4);
  // CHECK: suggest: 1 test-tag
  printf("suggest: %zu %s\n", n, n ? near[0] : "");
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
