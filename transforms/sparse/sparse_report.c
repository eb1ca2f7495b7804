/* --sparse-report{file}: one line per sparse convolution (pattern_conv,
 * fkw_conv, csr_conv), in program order, then the totals:
 *
 *   LOC sparse.fkw_conv [M,C,3,3] patterns=0x03a:5,0x0b2:4 kernels=9/16
 *     flop-cut=4.00x tuning=- index-bytes fkw=N csr=N saving=S%
 *
 * patterns: each pattern of the op's set with the number of kernels using
 * it (for a 3x3 csr_conv: the set sparse-detect would find); kernels: the
 * nonzero ones of all M*C; flop-cut: the dense convolution's multiply-adds
 * over the ones the sparse op performs (per output pixel the same ratio as
 * its weights: all of them against those stored); tuning: the fkw_conv's
 * tile, unroll, permute and layout (tile:4x4,unroll:1,...), or -; index-bytes: the index structures of FKW (offset,
 * reorder, index, stride) and CSR (row pointers, column indices) of the
 * same weights, with 4-byte entries, and how much of CSR's FKW saves.
 * Analysis only: the IR is unchanged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "sparse_xform.h"

enum { INDEX_BYTES = 4 };

typedef struct {
  float *w; /* dense weights [M][C][kh][kw] (malloc'd) */
  int64_t M, C, kh, kw;
} Dense;

typedef struct {
  double denseFlops, sparseFlops, fkwBytes, csrBytes;
  int64_t kept, total, ops, opsWithFkw;
} Totals;

/* The dense weights of a sparse op; false (with a note in the line) when
 * it has none to read, e.g. a pattern_conv with non-constant weights. */
static bool denseWeights(MlirOperation op, Dense *d) {
  memset(d, 0, sizeof *d);
  if (strataOpIsNamed(op, "sparse.pattern_conv")) {
    SparseConv c;
    char why[160];
    if (!sparsePassReadConv(op, &c, why, sizeof why)) return false;
    size_t bytes = strataTensorNumBytes(c.t);
    *d = (Dense){malloc(bytes ? bytes : 1), c.M, c.C, c.kh, c.kw};
    if (d->w) memcpy(d->w, c.w, bytes);
    sparsePassFreeConv(&c);
    return d->w != NULL;
  }
  if (strataOpIsNamed(op, "sparse.fkw_conv")) {
    SparseFkw f;
    if (!sparseFkwFromOp(op, &f)) return false;
    *d = (Dense){malloc(sizeof(float) * (size_t)(f.M * f.C * SPARSE_KERNEL + 1)), f.M, f.C, 3, 3};
    if (d->w) sparseFkwToDense(&f, d->w);
    sparseFkwFree(&f);
    return d->w != NULL;
  }
  SparseCsr csr;
  SparseWindow win;
  if (!sparseWindowGet(op, &win) || !sparseCsrFromOp(op, &csr)) return false;
  int64_t kk = win.kernel[0] * win.kernel[1];
  *d = (Dense){calloc((size_t)(csr.M * csr.K + 1), sizeof(float)), csr.M, csr.K / kk, win.kernel[0], win.kernel[1]};
  for (int64_t m = 0; d->w && m < csr.M; m++)
    for (int64_t j = csr.rowPtr[m]; j < csr.rowPtr[m + 1]; j++) d->w[m * csr.K + csr.col[j]] = csr.val[j];
  sparseCsrFree(&csr);
  return d->w != NULL;
}

/* The pattern set the FKW form of the op uses: its own, or for a 3x3
 * csr_conv the maximal supports (as sparse-detect). 0 if none. */
static int patternSetOf(MlirOperation op, const Dense *d, int64_t *masks) {
  if (d->kh != 3 || d->kw != 3) return 0;
  int64_t n;
  int64_t *v = sparseI64Array(op, "patterns", &n);
  if (!v) {
    n = sparsePassMaximalSupports(d->w, d->M * d->C, masks);
    return n <= SPARSE_MAX_PATTERNS ? (int)n : 0;
  }
  bool good = sparsePatternSetValid(v, n, (char[96]){0}, 96);
  if (good) memcpy(masks, v, sizeof *v * (size_t)n);
  free(v);
  return good ? (int)n : 0;
}

/* " tuning=tile:4x4,unroll:1,permute:oh_co_ow_ci,layout:phases" (the
 * attributes the op has), or " tuning=-". */
static void printTuning(MlirOperation op, FILE *out) {
  static const char *const kArrays[] = {"tile", "unroll"}, *const kEnums[] = {"permute", "layout"};
  const char *sep = " tuning=";
  for (size_t i = 0; i < SPARSE_COUNT(kArrays); i++) {
    int64_t v[4];
    int n = strataGetI64Array(op, kArrays[i], v, 4);
    if (n < 0) continue;
    fprintf(out, "%s%s:", sep, kArrays[i]);
    for (int j = 0; j < n; j++) fprintf(out, "%s%lld", j ? "x" : "", (long long)v[j]);
    sep = ",";
  }
  for (size_t i = 0; i < SPARSE_COUNT(kEnums); i++) {
    MlirAttribute a = strataOpAttr(op, kEnums[i]);
    if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a)) continue;
    MlirStringRef s = mlirStringAttrGetValue(a);
    fprintf(out, "%s%s:%.*s", sep, kEnums[i], (int)s.length, s.data);
    sep = ",";
  }
  if (*sep != ',') fputs(" tuning=-", out);
}

static double outputPixels(MlirOperation op) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) || mlirShapedTypeGetRank(t) != 4) return 0;
  return (double)mlirShapedTypeGetDimSize(t, 0) * (double)mlirShapedTypeGetDimSize(t, 2) *
         (double)mlirShapedTypeGetDimSize(t, 3);
}

static double saving(double fkw, double csr) { return csr > 0 ? 100.0 * (1.0 - fkw / csr) : 0.0; }

static void reportOp(MlirOperation op, FILE *out, Totals *t) {
  char where[512];
  strataLocationFormat(mlirOperationGetLocation(op), where, sizeof where);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  fprintf(out, "%s %.*s", where, (int)name.length, name.data);
  Dense d;
  if (!denseWeights(op, &d)) {
    fputs(" (weights not constant or malformed: not measured)\n", out);
    return;
  }
  int64_t total = d.M * d.C, size = d.kh * d.kw, kept = 0, nnz = 0, masks[512];
  for (int64_t k = 0; k < total; k++) {
    int64_t nz = 0;
    for (int64_t i = 0; i < size; i++) nz += d.w[k * size + i] != 0.0f;
    kept += nz > 0;
    nnz += nz;
  }
  fprintf(out, " [%lld,%lld,%lld,%lld] patterns=", (long long)d.M, (long long)d.C, (long long)d.kh, (long long)d.kw);
  int P = patternSetOf(op, &d, masks);
  int *pat = P ? malloc(sizeof *pat * (size_t)(total ? total : 1)) : NULL;
  int64_t bm, bc;
  SparseFkw f;
  bool fkw = pat && sparseAssignPatterns(d.w, d.M, d.C, masks, P, pat, &bm, &bc) &&
             sparseFkwBuild(d.w, pat, d.M, d.C, masks, P, NULL, NULL, 1, &f);
  if (fkw) {
    for (int p = 0; p < P; p++) {
      int64_t uses = 0;
      for (int64_t k = 0; k < total; k++) uses += pat[k] == p;
      fprintf(out, "%s0x%03llx:%lld", p ? "," : "", (unsigned long long)masks[p], (long long)uses);
    }
  } else {
    fputc('-', out);
  }
  /* What the op multiplies: a pattern op all entries of its kernels'
   * patterns, CSR its nonzeros. */
  double stored = fkw && !strataOpIsNamed(op, "sparse.csr_conv") ? (double)f.numWeights : (double)nnz;
  fprintf(out, " kernels=%lld/%lld flop-cut=", (long long)kept, (long long)total);
  if (stored > 0) fprintf(out, "%.2fx", (double)(total * size) / stored);
  else fputc('-', out);
  printTuning(op, out);
  SparseCsr csr;
  double csrBytes = -1, fkwBytes = fkw ? sparseFkwIndexBytes(&f, INDEX_BYTES) : -1;
  if (sparseCsrBuild(d.w, d.M, d.C * size, &csr)) {
    csrBytes = sparseCsrIndexBytes(&csr, INDEX_BYTES);
    sparseCsrFree(&csr);
  }
  fprintf(out, " index-bytes fkw=");
  if (fkwBytes >= 0) fprintf(out, "%.0f", fkwBytes);
  else fputc('-', out);
  fprintf(out, " csr=%.0f", csrBytes);
  if (fkwBytes >= 0 && csrBytes >= 0) {
    fprintf(out, " saving=%.1f%%", saving(fkwBytes, csrBytes));
    t->fkwBytes += fkwBytes;
    t->csrBytes += csrBytes;
    t->opsWithFkw++;
  }
  fputc('\n', out);
  double pixels = outputPixels(op);
  t->denseFlops += 2.0 * pixels * (double)(total * size);
  t->sparseFlops += 2.0 * pixels * stored;
  t->kept += kept;
  t->total += total;
  t->ops++;
  if (fkw) sparseFkwFree(&f);
  free(pat);
  free(d.w);
}

static void runReport(StrataPassRun *run, MlirOperation module) {
  const char *path = strataPassGetString(run, "file");
  FILE *out = stdout;
  if (*path && !(out = fopen(path, "w"))) {
    strataEmitError(mlirOperationGetLocation(module), "sparse-report: cannot write '%s': %s", path, strerror(errno));
    strataPassSignalFailure(run);
    return;
  }
  static const char *const kOps[] = {"sparse.pattern_conv", "sparse.fkw_conv", "sparse.csr_conv"};
  StrataOpList ops = {0};
  sparsePassCollect(module, kOps, SPARSE_COUNT(kOps), &ops);
  fprintf(out, "sparse-report: %zu sparse convolutions\n", ops.count);
  Totals t = {0};
  for (size_t i = 0; i < ops.count; i++) reportOp(ops.ops[i], out, &t);
  strataOpListDestroy(&ops);
  if (t.ops) {
    fprintf(out, "total: kernels=%lld/%lld flop-cut=", (long long)t.kept, (long long)t.total);
    if (t.sparseFlops > 0) fprintf(out, "%.2fx", t.denseFlops / t.sparseFlops);
    else fputc('-', out);
    fprintf(out, " index-bytes fkw=%.0f csr=%.0f saving=%.1f%% (%lld of %lld ops with an FKW form)\n", t.fkwBytes,
            t.csrBytes, saving(t.fkwBytes, t.csrBytes), (long long)t.opsWithFkw, (long long)t.ops);
  }
  if (out != stdout) fclose(out);
  else fflush(out);
}

static const StrataPassOptionDef kOptions[] = {
    {"file", STRATA_OPTION_STRING, "", "Write the report to this file (created or truncated); default stdout"},
};

const StrataPassDef sparseReportPass = {
    .name = "sparse-report",
    .summary = "Print per sparse convolution: patterns, kernels kept, FLOP cut, tuning, FKW vs CSR index bytes",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = SPARSE_COUNT(kOptions),
    .run = runReport,
};
