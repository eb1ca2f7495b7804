/* Pattern sparsity through the C API (strata/sparse.h), as strata-run
 * --sparse uses it: the pipeline a StrataSparseOptions stands for (and why
 * a malformed one is refused), strataSparseApply converting the
 * convolutions whose weights follow patterns -- the compiled result equal
 * to the dense convolution's and the interpreter's -- pruning that changes
 * the results and says so, and a malformed mode as a located error through
 * the context's diagnostic callback with the module left as it was.
 * RUN: %capi/sparse_apply 2>&1 | FileCheck %s
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

static void diag(const StrataDiagnostic *d, void *user) {
  static const char *kSeverity[] = {"error", "warning", "note", "remark"};
  (*(int *)user)++;
  printf("diag: %s %s: %s\n", kSeverity[d->severity], d->location, d->message);
}

static void pipeline(const char *label, StrataSparseOptions o) {
  char why[512] = "(untouched)";
  char *p = strataSparsePipeline(&o, why, sizeof why);
  if (p) printf("%s: %s\n", label, p);
  else printf("%s: refused: %s\n", label, why);
  free(p);
}

/* ---- A model: two 3x3 convolutions whose kernels follow 3 patterns (a
 * third of them zero), then a dense 3x3 one, which `detect` leaves. ---- */

static uint64_t state = 0x2545F4914F6CDD1Dull;
static float uniform(void) { /* [-1, 1) */
  state ^= state << 13, state ^= state >> 7, state ^= state << 17;
  return (float)((double)(state >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static const int kPatterns[] = {0x03a, 0x0b2, 0x1b0};

/* w[M][C][k][k] as a hex dense attribute; 3x3 kernels pattern-pruned when
 * `pattern` (kernel i of filter m: zero if (m + 2c) % 3 == 0, else pattern
 * (m + c) % 3). */
static void weights(FILE *f, int M, int C, int k, bool pattern) {
  fprintf(f, "dense<\"0x");
  for (int m = 0; m < M; m++)
    for (int c = 0; c < C; c++)
      for (int e = 0; e < k * k; e++) {
        float v = uniform();
        if (pattern && ((m + 2 * c) % 3 == 0 || !(kPatterns[(m + c) % 3] >> e & 1))) v = 0.0f;
        const unsigned char *b = (const unsigned char *)&v;
        for (int i = 0; i < 4; i++) fprintf(f, "%02X", b[i]);
      }
  fprintf(f, "\"> : tensor<%dx%dx%dx%dxf32>", M, C, k, k);
}

static char *model(bool pattern) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f) exit(1);
  state = 0x2545F4914F6CDD1Dull;
  fprintf(f, "func.func @f(%%x: tensor<2x4x9x11xf32>, %%b: tensor<6xf32>) -> tensor<2x3x2x3xf32> {\n");
  fprintf(f, "  %%w1 = \"nn.constant\"() {value = ");
  weights(f, 6, 2, 3, pattern);
  fprintf(f, "} : () -> tensor<6x2x3x3xf32>\n"
             "  %%a = \"nn.conv\"(%%x, %%w1, %%b) {pads = array<i64: 1, 1, 1, 1>, group = 2 : i64} : "
             "(tensor<2x4x9x11xf32>, tensor<6x2x3x3xf32>, tensor<6xf32>) -> tensor<2x6x9x11xf32>\n");
  fprintf(f, "  %%w2 = \"nn.constant\"() {value = ");
  weights(f, 5, 6, 3, pattern);
  fprintf(f, "} : () -> tensor<5x6x3x3xf32>\n"
             "  %%c = \"nn.conv\"(%%a, %%w2) {strides = array<i64: 2, 2>, pads = array<i64: 0, 1, 1, 0>} : "
             "(tensor<2x6x9x11xf32>, tensor<5x6x3x3xf32>) -> tensor<2x5x4x5xf32>\n");
  fprintf(f, "  %%w3 = \"nn.constant\"() {value = ");
  weights(f, 3, 5, 3, false);
  fprintf(f, "} : () -> tensor<3x5x3x3xf32>\n"
             "  %%d = \"nn.conv\"(%%c, %%w3) {dilations = array<i64: 1, 1>, pads = array<i64: 0, 0, 0, 0>} : "
             "(tensor<2x5x4x5xf32>, tensor<3x5x3x3xf32>) -> tensor<2x3x2x3xf32>\n"
             "  return %%d : tensor<2x3x2x3xf32>\n}\n");
  fclose(f);
  return text;
}

static MlirWalkResult countOps(MlirOperation op, void *user) {
  int *n = user;
  n[0] += strataOpIsNamed(op, "nn.conv");
  n[1] += strataOpIsNamed(op, "sparse.pattern_conv");
  n[2] += strataOpIsNamed(op, "sparse.fkw_conv");
  return MlirWalkResultAdvance;
}

static void printOps(const char *label, MlirModule m) {
  int n[3] = {0, 0, 0};
  mlirOperationWalk(mlirModuleGetOperation(m), countOps, n, MlirWalkPreOrder);
  printf("%s: nn.conv %d sparse.pattern_conv %d sparse.fkw_conv %d\n", label, n[0], n[1], n[2]);
}

/* f(x, b) compiled (NULL exe: interpreted) on the seeded inputs. */
static StrataTensor *run(StrataContext *ctx, MlirModule m, bool compiled) {
  MlirOperation func = strataLookupFunc(m, "f");
  MlirType ft = mlirTypeAttrGetValue(strataOpAttr(func, "function_type"));
  StrataTensor *in[2];
  for (int i = 0; i < 2; i++) {
    in[i] = strataTensorCreateForType(mlirFunctionTypeGetInput(ft, i));
    strataTensorFillRandom(in[i], 7 + (uint64_t)i, -1.0, 1.0);
  }
  StrataTensor *out = NULL;
  if (compiled) {
    StrataExecutable *exe = strataCompile(ctx, m, "cpu", NULL);
    out = strataTensorCreateForType(mlirFunctionTypeGetResult(ft, 0));
    if (!exe || mlirLogicalResultIsFailure(strataExecutableInvoke(exe, "f", in, 2, &out, 1)))
      strataTensorDestroy(out), out = NULL;
    if (exe) strataExecutableDestroy(exe);
  } else {
    StrataTensor **outs = NULL;
    size_t n = 0;
    if (mlirLogicalResultIsSuccess(strataInterpret(ctx, func, in, 2, &outs, &n)) && n == 1) out = outs[0];
    free(outs);
  }
  strataTensorDestroy(in[0]), strataTensorDestroy(in[1]);
  return out;
}

/* max |a - b| / max |b|; a failed run is infinitely far. */
static double relDiff(const StrataTensor *a, const StrataTensor *b) {
  if (!a || !b || strataTensorNumElements(a) != strataTensorNumElements(b)) return INFINITY;
  double err = 0, scale = 0;
  for (int64_t i = 0; i < strataTensorNumElements(b); i++) {
    double x = strataTensorGetDouble(a, i), y = strataTensorGetDouble(b, i);
    err = fmax(err, fabs(x - y)), scale = fmax(scale, fabs(y));
  }
  return scale > 0 ? err / scale : INFINITY;
}

static MlirModule parse(StrataContext *ctx, bool pattern) {
  char *text = model(pattern);
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(text), "m.mlir");
  free(text);
  return m;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep stdout and stderr in order */
  StrataContext *ctx = strataContextCreate();
  int diags = 0;
  strataContextSetDiagnosticCallback(ctx, diag, &diags);

  /* ---- The pipelines ---- */
  // CHECK: detect: sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw
  pipeline("detect", (StrataSparseOptions){.mode = "detect"});
  // CHECK-NEXT: no mode: sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw
  pipeline("no mode", (StrataSparseOptions){0});
  // CHECK-NEXT: prune: sparse-pattern-select{count=4},sparse-pattern-prune,sparse-connectivity-prune{rate=2.5},sparse-detect{max-patterns=4},sparse-fkr,sparse-fkw
  pipeline("prune", (StrataSparseOptions){.mode = "prune=4,rate=2.5"});
  // CHECK-NEXT: rate only: sparse-connectivity-prune{rate={{3\.60*1?}}},sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw
  pipeline("rate only", (StrataSparseOptions){.mode = "rate=3.6"});
  // CHECK-NEXT: rate first: sparse-pattern-select{count=64},sparse-pattern-prune,sparse-connectivity-prune{rate=1},sparse-detect{max-patterns=64},sparse-fkr,sparse-fkw
  pipeline("rate first", (StrataSparseOptions){.mode = "rate=1,prune=64"});
  // CHECK-NEXT: tune: sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw,sparse-tune{target=cpu}
  pipeline("tune", (StrataSparseOptions){.mode = "detect", .tune = true});
  // CHECK-NEXT: tune db: sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw,sparse-tune{target=toy db=/tmp/t.db},sparse-report{}
  pipeline("tune db", (StrataSparseOptions){.mode = "detect", .tuneDb = "/tmp/t.db", .target = "toy", .report = "-"});
  // CHECK-NEXT: report file: sparse-detect{max-patterns=8},sparse-fkr,sparse-fkw,sparse-report{file=r.txt}
  pipeline("report file", (StrataSparseOptions){.mode = "detect", .report = "r.txt"});

  /* Malformed: refused with the reason, NULL. */
  // CHECK-NEXT: bogus: refused: bad sparse mode 'bogus': 'detect', or 'prune=N' (N patterns, 1-64) and/or 'rate=R' (connectivity pruning keeping 1/R of the kernels, R >= 1), comma-separated
  pipeline("bogus", (StrataSparseOptions){.mode = "bogus"});
  // CHECK-NEXT: prune=0: refused: bad sparse mode 'prune=0':
  pipeline("prune=0", (StrataSparseOptions){.mode = "prune=0"});
  // CHECK-NEXT: prune=65: refused: bad sparse mode 'prune=65':
  pipeline("prune=65", (StrataSparseOptions){.mode = "prune=65"});
  // CHECK-NEXT: prune=4x: refused: bad sparse mode 'prune=4x':
  pipeline("prune=4x", (StrataSparseOptions){.mode = "prune=4x"});
  // CHECK-NEXT: rate=0.5: refused: bad sparse mode 'rate=0.5':
  pipeline("rate=0.5", (StrataSparseOptions){.mode = "rate=0.5"});
  // CHECK-NEXT: rate=nan: refused: bad sparse mode 'rate=nan':
  pipeline("rate=nan", (StrataSparseOptions){.mode = "rate=nan"});
  // CHECK-NEXT: detect+prune: refused: bad sparse mode 'detect,prune=2':
  pipeline("detect+prune", (StrataSparseOptions){.mode = "detect,prune=2"});
  // CHECK-NEXT: empty: refused: bad sparse mode '':
  pipeline("empty", (StrataSparseOptions){.mode = ""});
  // CHECK-NEXT: db with a space: refused: 'a b.db' is empty or has one of
  pipeline("db with a space", (StrataSparseOptions){.mode = "detect", .tuneDb = "a b.db"});
  // CHECK-NEXT: report with braces: refused: 'r{}.txt' is empty or has one of
  pipeline("report with braces", (StrataSparseOptions){.mode = "detect", .report = "r{}.txt"});
  // CHECK-NEXT: empty target: refused: '' is empty or has one of
  pipeline("empty target", (StrataSparseOptions){.mode = "detect", .target = ""});
  /* The reason is cut to the buffer, NUL-terminated. */
  char small[8];
  memset(small, 'x', sizeof small);
  char *p = strataSparsePipeline(&(StrataSparseOptions){.mode = "bogus"}, small, sizeof small);
  // CHECK-NEXT: small buffer: null 1, why 'bad spa'
  printf("small buffer: null %d, why '%s'\n", p == NULL, small);
  // CHECK-NEXT: diagnostics so far: 0
  printf("diagnostics so far: %d\n", diags);

  /* ---- detect: the pattern convolutions converted, weights unchanged ---- */
  MlirModule dense = parse(ctx, true), sparse = parse(ctx, true);
  // CHECK: before: nn.conv 3 sparse.pattern_conv 0 sparse.fkw_conv 0
  printOps("before", sparse);
  // CHECK-NEXT: sparse-report: 2 sparse convolutions
  /* Kernel (m, c) is zero where (m + 2c) % 3 == 0, else on pattern (m + c) % 3. */
  // CHECK-NEXT: m.mlir:3:8 sparse.fkw_conv [6,2,3,3] patterns=0x03a:2,0x0b2:4,0x1b0:2 kernels=8/12 flop-cut=3.38x tuning=-
  // CHECK-NEXT: m.mlir:5:8 sparse.fkw_conv [5,6,3,3] patterns=0x03a:6,0x0b2:8,0x1b0:6 kernels=20/30 flop-cut=3.38x tuning=-
  // CHECK-NEXT: total: kernels=28/42 flop-cut=3.38x {{.*}}(2 of 2 ops with an FKW form)
  MlirLogicalResult r = strataSparseApply(ctx, sparse, &(StrataSparseOptions){.mode = "detect", .report = "-"});
  // CHECK-NEXT: detect: ok 1, diagnostics 0
  printf("detect: ok %d, diagnostics %d\n", mlirLogicalResultIsSuccess(r), diags);
  // CHECK-NEXT: after: nn.conv 1 sparse.pattern_conv 0 sparse.fkw_conv 2
  printOps("after", sparse);
  // CHECK-NEXT: verified: 1
  printf("verified: %d\n", mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(sparse))));

  StrataTensor *yDense = run(ctx, dense, true), *yRef = run(ctx, dense, false);
  StrataTensor *ySparse = run(ctx, sparse, true), *ySparseRef = run(ctx, sparse, false);
  /* Rounding only (~1e-7); one kernel wrong moves the output by ~1e-1. */
  double dd = relDiff(ySparse, yDense), di = relDiff(ySparse, yRef), ii = relDiff(ySparseRef, yRef);
  // CHECK-NEXT: compiled sparse vs compiled dense: ok
  printf("compiled sparse vs compiled dense: %s (%.2g)\n", dd < 1e-5 ? "ok" : "MISMATCH", dd);
  // CHECK-NEXT: compiled sparse vs interpreted dense: ok
  printf("compiled sparse vs interpreted dense: %s (%.2g)\n", di < 1e-5 ? "ok" : "MISMATCH", di);
  // CHECK-NEXT: interpreted sparse vs interpreted dense: ok
  printf("interpreted sparse vs interpreted dense: %s (%.2g)\n", ii < 1e-5 ? "ok" : "MISMATCH", ii);

  /* Applying it again finds nothing left to convert. */
  r = strataSparseApply(ctx, sparse, &(StrataSparseOptions){.mode = "detect"});
  // CHECK-NEXT: again: ok 1, diagnostics 0
  printf("again: ok %d, diagnostics %d\n", mlirLogicalResultIsSuccess(r), diags);
  // CHECK-NEXT: again: nn.conv 1 sparse.pattern_conv 0 sparse.fkw_conv 2
  printOps("again", sparse);

  /* ---- prune: an unpruned model's weights change, and it says so (one
   * remark per convolution changed, located at the convolution) ---- */
  MlirModule unpruned = parse(ctx, false), pruned = parse(ctx, false);
  // CHECK-NEXT: diag: remark m.mlir:3:8: sparse-pattern-prune: projected 12 of 12 kernels onto the 2 patterns (60 weights set to zero)
  // CHECK-NEXT: diag: remark m.mlir:5:8: sparse-pattern-prune: projected 30 of 30 kernels onto the 2 patterns (150 weights set to zero)
  // CHECK-NEXT: diag: remark m.mlir:7:8: sparse-pattern-prune: projected 15 of 15 kernels onto the 2 patterns (75 weights set to zero)
  // CHECK-NEXT: diag: remark m.mlir:3:8: sparse-connectivity-prune: exempt, the first convolution of @f
  // CHECK-NEXT: diag: remark m.mlir:5:8: sparse-connectivity-prune: kept 15 of 30 kernels (rate 2), 15 nonzero kernels set to zero
  // CHECK-NEXT: diag: remark m.mlir:7:8: sparse-connectivity-prune: kept 8 of 15 kernels (rate 2), 7 nonzero kernels set to zero
  diags = 0;
  r = strataSparseApply(ctx, pruned, &(StrataSparseOptions){.mode = "prune=2,rate=2"});
  // CHECK-NEXT: prune: ok 1, diagnostics 6
  printf("prune: ok %d, diagnostics %d\n", mlirLogicalResultIsSuccess(r), diags);
  /* All three follow the 2 patterns now, the dense one too. */
  // CHECK-NEXT: pruned: nn.conv 0 sparse.pattern_conv 0 sparse.fkw_conv 3
  printOps("pruned", pruned);
  StrataTensor *yUnpruned = run(ctx, unpruned, true), *yPruned = run(ctx, pruned, true),
               *yPrunedRef = run(ctx, pruned, false);
  double changed = relDiff(yPruned, yUnpruned), same = relDiff(yPruned, yPrunedRef);
  // CHECK-NEXT: pruned vs unpruned: changed
  printf("pruned vs unpruned: %s (%.2g)\n", changed > 1e-2 && isfinite(changed) ? "changed" : "UNCHANGED", changed);
  // CHECK-NEXT: pruned compiled vs interpreted: ok
  printf("pruned compiled vs interpreted: %s (%.2g)\n", same < 1e-5 ? "ok" : "MISMATCH", same);

  /* ---- A malformed mode: a located error at the module, through the
   * callback; nothing runs, the module is unchanged ---- */
  MlirModule untouched = parse(ctx, true);
  diags = 0;
  // CHECK-NEXT: diag: error m.mlir:1:1: bad sparse mode 'prune=8,rate=x': 'detect', or 'prune=N'
  r = strataSparseApply(ctx, untouched, &(StrataSparseOptions){.mode = "prune=8,rate=x"});
  // CHECK-NEXT: bad mode: failed 1, diagnostics 1
  printf("bad mode: failed %d, diagnostics %d\n", mlirLogicalResultIsFailure(r), diags);
  // CHECK-NEXT: bad mode: nn.conv 3 sparse.pattern_conv 0 sparse.fkw_conv 0
  printOps("bad mode", untouched);
  // CHECK-NEXT: diag: error m.mlir:1:1: 'x y' is empty or has one of
  r = strataSparseApply(ctx, untouched, &(StrataSparseOptions){.mode = "detect", .tune = true, .tuneDb = "x y"});
  // CHECK-NEXT: bad db: failed 1, diagnostics 2
  printf("bad db: failed %d, diagnostics %d\n", mlirLogicalResultIsFailure(r), diags);
  // CHECK-NEXT: bad db: nn.conv 3 sparse.pattern_conv 0 sparse.fkw_conv 0
  printOps("bad db", untouched);

  StrataTensor *all[] = {yDense, yRef, ySparse, ySparseRef, yUnpruned, yPruned, yPrunedRef};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) strataTensorDestroy(all[i]);
  MlirModule mods[] = {dense, sparse, unpruned, pruned, untouched};
  for (size_t i = 0; i < sizeof mods / sizeof mods[0]; i++) mlirModuleDestroy(mods[i]);
  strataContextDestroy(ctx);
  // CHECK-NEXT: done
  printf("done\n");
  return 0;
}
