/* PatDNN's two projections, explicit opt-in passes that change weights and
 * say so (a remark at each convolution they change):
 *   --sparse-pattern-prune: each nonzero 3x3 kernel keeps the entries of the
 *     set member with the largest retained sum of squares (ties: the lower
 *     index); the set is the option `patterns` or the module's
 *     `sparse.patterns` (sparse-pattern-select);
 *   --sparse-connectivity-prune{rate}: each convolution keeps the
 *     ceil(M*C/rate) kernels of largest L2 norm (ties: the lower (m, c)),
 *     except the first convolution of each function (the paper's first
 *     layer, too small to prune without losing accuracy).
 * Both are patterns on nn.conv applied by one walk; each gives its conv a
 * new weights constant (the old one goes after the walk if nothing else
 * uses it). The result stays nn.conv; sparse-detect turns it into
 * sparse.pattern_conv. Projecting projected weights changes nothing. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "sparse_xform.h"

static const char *const kConv[] = {"nn.conv"};

/* ---- Pattern projection ---- */

typedef struct {
  int64_t masks[SPARSE_MAX_PATTERNS];
  int P;
  StrataOpList dead; /* replaced weight constants */
} PatternSet;

/* Projects k9 onto the member of the set keeping the most energy; returns
 * how many nonzero weights it set to zero. */
static int projectKernel(float *k9, const PatternSet *s) {
  int best = 0;
  double bestEnergy = -1;
  for (int p = 0; p < s->P; p++) {
    double e = 0;
    for (int b = 0; b < SPARSE_KERNEL; b++)
      if (s->masks[p] >> b & 1) e += (double)k9[b] * k9[b];
    if (e > bestEnergy) best = p, bestEnergy = e;
  }
  int zeroed = 0;
  for (int b = 0; b < SPARSE_KERNEL; b++)
    if (!(s->masks[best] >> b & 1) && k9[b] != 0.0f) k9[b] = 0.0f, zeroed++;
  return zeroed;
}

static MlirLogicalResult prunePatterns(StrataRewrite *rw, MlirOperation op, void *user) {
  PatternSet *s = user;
  SparseConv c;
  char why[160];
  if (!sparsePassReadConv(op, &c, why, sizeof why)) return mlirLogicalResultFailure();
  int64_t kernels = c.M * c.C, changed = 0, zeroed = 0;
  if (c.kh == 3 && c.kw == 3)
    for (int64_t k = 0; k < kernels; k++) {
      int z = projectKernel(c.w + k * SPARSE_KERNEL, s);
      changed += z > 0;
      zeroed += z;
    }
  if (changed) {
    sparsePassWriteWeights(rw, &c, &s->dead);
    sparsePassRemark(op, "sparse-pattern-prune: projected %lld of %lld kernels onto the %d patterns (%lld weights set to zero)",
                     (long long)changed, (long long)kernels, s->P, (long long)zeroed);
  }
  sparsePassFreeConv(&c);
  return changed ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* The set: the option, else the module's attribute. False after an error;
 * s->P = 0 when there is none. */
static bool patternSet(StrataPassRun *run, MlirOperation module, PatternSet *s) {
  const char *text = strataPassGetString(run, "patterns");
  char why[160];
  int64_t n = 0;
  s->P = 0;
  if (*text) {
    if (!sparsePassParseMasks(text, s->masks, &n, SPARSE_MAX_PATTERNS, why, sizeof why) ||
        !sparsePatternSetValid(s->masks, n, why, sizeof why)) {
      strataEmitError(mlirOperationGetLocation(module), "sparse-pattern-prune: option patterns='%s': %s", text, why);
      return false;
    }
    /* Recorded, so later passes and reports see the set the weights follow. */
    sparsePassSetModulePatterns(module, s->masks, n);
  } else {
    int64_t *v = sparsePassModulePatterns(module, &n);
    if (!v) return true;
    bool good = sparsePatternSetValid(v, n, why, sizeof why);
    if (good) memcpy(s->masks, v, sizeof *v * (size_t)n);
    else strataEmitOpError(module, "attribute 'sparse.patterns': %s", why);
    free(v);
    if (!good) return false;
  }
  s->P = (int)n;
  return true;
}

static void runPatternPrune(StrataPassRun *run, MlirOperation module) {
  PatternSet s = {.dead = {0}};
  if (!patternSet(run, module, &s)) {
    strataPassSignalFailure(run);
    return;
  }
  if (!s.P) {
    /* Nothing to project onto is an error only if there is something to
     * project (sparse-pattern-select sets nothing on a model without 3x3
     * kernels, and `--sparse prune=N` must still run on it). */
    StrataOpList ops = {0};
    sparsePassCollect(module, kConv, 1, &ops);
    for (size_t i = 0; i < ops.count; i++) {
      SparseConv c;
      char why[160];
      if (!sparsePassReadConv(ops.ops[i], &c, why, sizeof why)) continue;
      bool is3x3 = c.kh == 3 && c.kw == 3;
      sparsePassFreeConv(&c);
      if (!is3x3) continue;
      strataEmitOpError(ops.ops[i], "sparse-pattern-prune: no pattern set to project onto: give "
                                  "patterns=MASK,... or run sparse-pattern-select first");
      strataPassSignalFailure(run);
      break;
    }
    strataOpListDestroy(&ops);
    return;
  }
  sparsePassApply(module, kConv, 1, prunePatterns, &s);
  sparsePassEraseDead(&s.dead);
}

/* ---- Connectivity pruning ---- */

typedef struct {
  double rate;
  StrataOpList exempt; /* the first convolution of each function */
  StrataOpList dead;   /* replaced weight constants */
} Connectivity;

typedef struct {
  double norm;
  int64_t k;
} KernelNorm;

/* Largest norm first; ties: the lower kernel index (m * C + c). */
static int byNorm(const void *a, const void *b) {
  const KernelNorm *x = a, *y = b;
  if (x->norm != y->norm) return x->norm > y->norm ? -1 : 1;
  return x->k < y->k ? -1 : x->k > y->k;
}

static MlirLogicalResult pruneConnectivity(StrataRewrite *rw, MlirOperation op, void *user) {
  Connectivity *cp = user;
  SparseConv c;
  char why[160];
  if (strataOpListContains(&cp->exempt, op) || !sparsePassReadConv(op, &c, why, sizeof why))
    return mlirLogicalResultFailure();
  int64_t n = c.M * c.C, size = c.kh * c.kw, zeroed = 0;
  /* ceil(n / rate), forgiving the rate's binary rounding (36 / 3.6 is 10). */
  int64_t keep = (int64_t)ceil((double)n / cp->rate - 1e-9);
  KernelNorm *norms = malloc(sizeof *norms * (size_t)(n ? n : 1));
  if (!norms) {
    sparsePassFreeConv(&c);
    return mlirLogicalResultFailure();
  }
  for (int64_t k = 0; k < n; k++) {
    double e = 0;
    for (int64_t i = 0; i < size; i++) e += (double)c.w[k * size + i] * c.w[k * size + i];
    norms[k] = (KernelNorm){e, k};
  }
  qsort(norms, (size_t)n, sizeof *norms, byNorm);
  for (int64_t j = keep; j < n; j++) {
    float *kern = c.w + norms[j].k * size;
    bool nonzero = false;
    for (int64_t i = 0; i < size; i++) nonzero |= kern[i] != 0.0f, kern[i] = 0.0f;
    zeroed += nonzero;
  }
  free(norms);
  if (zeroed) {
    sparsePassWriteWeights(rw, &c, &cp->dead);
    sparsePassRemark(op, "sparse-connectivity-prune: kept %lld of %lld kernels (rate %g), %lld nonzero kernels set to zero",
                     (long long)(keep < n ? keep : n), (long long)n, cp->rate, (long long)zeroed);
  }
  sparsePassFreeConv(&c);
  return zeroed ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static void runConnectivityPrune(StrataPassRun *run, MlirOperation module) {
  Connectivity cp = {strataPassGetDouble(run, "rate"), {0}, {0}};
  if (!(cp.rate >= 1.0)) {
    strataEmitError(mlirOperationGetLocation(module),
                    "sparse-connectivity-prune: rate must be at least 1 (1/rate of the kernels are kept), got %g", cp.rate);
    strataPassSignalFailure(run);
    return;
  }
  static const char *const kFunc[] = {"func.func"};
  StrataOpList funcs = {0};
  sparsePassCollect(module, kFunc, 1, &funcs);
  for (size_t f = 0; f < funcs.count; f++) {
    StrataOpList convs = {0};
    sparsePassCollect(funcs.ops[f], kConv, 1, &convs);
    if (convs.count && strataOpListAppend(&cp.exempt, convs.ops[0])) {
      MlirAttribute sym = strataOpAttr(funcs.ops[f], "sym_name");
      MlirStringRef name = mlirStringAttrGetValue(sym);
      sparsePassRemark(convs.ops[0], "sparse-connectivity-prune: exempt, the first convolution of @%.*s",
                       (int)name.length, name.data);
    }
    strataOpListDestroy(&convs);
  }
  strataOpListDestroy(&funcs);
  sparsePassApply(module, kConv, 1, pruneConnectivity, &cp);
  sparsePassEraseDead(&cp.dead);
  strataOpListDestroy(&cp.exempt);
}

static const StrataPassOptionDef kPatternOptions[] = {
    {"patterns", STRATA_OPTION_STRING, "",
     "The pattern set: comma-separated 9-bit masks, decimal or 0x hex (default: the module's sparse.patterns)"},
};

const StrataPassDef sparsePatternPrunePass = {
    .name = "sparse-pattern-prune",
    .summary = "Project each 3x3 kernel of nn.conv onto the pattern set member keeping the largest sum of squares",
    .anchor = "builtin.module",
    .options = kPatternOptions,
    .numOptions = SPARSE_COUNT(kPatternOptions),
    .run = runPatternPrune,
};

static const StrataPassOptionDef kConnectivityOptions[] = {
    {"rate", STRATA_OPTION_DOUBLE, "3.6", "Keep ceil(kernels / rate) kernels per convolution"},
};

const StrataPassDef sparseConnectivityPrunePass = {
    .name = "sparse-connectivity-prune",
    .summary = "Keep the largest-L2 kernels of each nn.conv (1/rate of them; the first of each function exempt)",
    .anchor = "builtin.module",
    .options = kConnectivityOptions,
    .numOptions = SPARSE_COUNT(kConnectivityOptions),
    .run = runConnectivityPrune,
};
