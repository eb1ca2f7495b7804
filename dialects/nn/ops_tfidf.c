/* TfIdfVectorizer: counts the pool's n-grams in each row of an integer
 * tensor ([C] or [N, C]) and weighs the counts (TF, IDF, TFIDF), as ONNX
 * Runtime and ONNX's reference do: an n-gram of length n at start p with
 * skip distance d (1 to max_skip_count + 1) is x[p], x[p + d], ...,
 * x[p + (n - 1) d]; unigrams are counted at d = 1 only; only lengths from
 * min_gram_length to max_gram_length count. An n-gram's count goes to output
 * column ngram_indexes[i]; weights are indexed by output column. String
 * pools (pool_strings) are refused: Strata has no string tensors. */
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "nn_internal.h"

static MlirLogicalResult fail(void) { return mlirLogicalResultFailure(); }

/* The element count of i64 array attribute `name` (0 when absent and not
 * required); false after an error. */
static bool i64Array(MlirOperation op, const char *name, bool required, int64_t *n) {
  MlirAttribute a = strataOpAttr(op, name);
  *n = 0;
  if (mlirAttributeIsNull(a)) {
    if (required) nnError(op, "needs attribute '%s' (an i64 array)", name);
    return !required;
  }
  if (!mlirAttributeIsADenseI64Array(a)) return nnError(op, "attribute '%s' must be an i64 array", name), false;
  *n = mlirDenseArrayGetNumElements(a);
  return true;
}

/* Copies an i64 array attribute into a new buffer (NULL when empty). */
static int64_t *copyI64(MlirAttribute a, int64_t n) {
  int64_t *v = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  for (int64_t i = 0; v && i < n; i++) v[i] = mlirDenseI64ArrayGetElement(a, (intptr_t)i);
  return v;
}

void nnTfIdfFree(NnTfIdf *t) {
  free(t->pool), free(t->gramStart), free(t->gramLen), free(t->gramCol), free(t->weights);
  memset(t, 0, sizeof *t);
}

bool nnTfIdfParams(MlirOperation op, NnTfIdf *t) {
  memset(t, 0, sizeof *t);
  char mode[8];
  if (!nnAttrString(op, "mode", "", "TF|IDF|TFIDF", mode, sizeof mode)) return false;
  t->mode = !strcmp(mode, "TF") ? NN_TFIDF_TF : !strcmp(mode, "IDF") ? NN_TFIDF_IDF : NN_TFIDF_TFIDF;
  if (!mlirAttributeIsNull(strataOpAttr(op, "pool_strings")))
    return nnError(op, "attribute 'pool_strings' is not supported (string n-grams: Strata has no string tensors; "
                       "give pool_int64s)"), false;
  int64_t nPool, nCounts, nIndexes;
  if (!nnAttrInt(op, "min_gram_length", -1, &t->minLen) || !nnAttrInt(op, "max_gram_length", -1, &t->maxLen) ||
      !nnAttrInt(op, "max_skip_count", -1, &t->maxSkip) || !i64Array(op, "pool_int64s", true, &nPool) ||
      !i64Array(op, "ngram_counts", true, &nCounts) || !i64Array(op, "ngram_indexes", true, &nIndexes))
    return false;
  if (t->minLen < 1 || t->maxLen < t->minLen || t->maxSkip < 0)
    return nnError(op, "needs 1 <= min_gram_length (%lld) <= max_gram_length (%lld) and max_skip_count (%lld) >= 0",
                   (long long)t->minLen, (long long)t->maxLen, (long long)t->maxSkip), false;
  t->pool = copyI64(strataOpAttr(op, "pool_int64s"), nPool);
  int64_t *counts = copyI64(strataOpAttr(op, "ngram_counts"), nCounts);
  int64_t *indexes = copyI64(strataOpAttr(op, "ngram_indexes"), nIndexes);
  t->gramStart = malloc(sizeof(int64_t) * (size_t)(nIndexes ? nIndexes : 1));
  t->gramLen = malloc(sizeof(int64_t) * (size_t)(nIndexes ? nIndexes : 1));
  t->gramCol = malloc(sizeof(int64_t) * (size_t)(nIndexes ? nIndexes : 1));
  bool ok = t->pool && counts && indexes && t->gramStart && t->gramLen && t->gramCol;
  if (!ok) nnError(op, "out of memory reading the n-gram pool");
  /* Pool section i (from ngram_counts[i] to the next start or the end)
   * holds n-grams of length i + 1, one after another. */
  for (int64_t i = 0; ok && i < nCounts; i++) {
    int64_t end = i + 1 < nCounts ? counts[i + 1] : nPool, len = i + 1;
    if (counts[i] < 0 || counts[i] > end || end > nPool || (end - counts[i]) % len) {
      nnError(op, "ngram_counts[%lld] = %lld does not start a section of whole %lld-grams in the pool of %lld",
              (long long)i, (long long)counts[i], (long long)len, (long long)nPool);
      ok = false;
    }
    for (int64_t s = counts[i]; ok && s < end; s += len) {
      if (t->numGrams >= nIndexes) {
        nnError(op, "ngram_indexes has %lld entries; the pool holds more n-grams", (long long)nIndexes);
        ok = false;
        break;
      }
      t->gramStart[t->numGrams] = s, t->gramLen[t->numGrams] = len, t->numGrams++;
    }
  }
  if (ok && nCounts && counts[0] != 0) ok = false, nnError(op, "ngram_counts[0] must be 0 (the unigrams start the pool)");
  if (ok && t->numGrams != nIndexes)
    ok = false, nnError(op, "ngram_indexes has %lld entries for the pool's %lld n-grams", (long long)nIndexes,
                        (long long)t->numGrams);
  for (int64_t g = 0; ok && g < t->numGrams; g++) {
    if (indexes[g] < 0 || indexes[g] >= (int64_t)1 << 40)
      ok = false, nnError(op, "ngram_indexes[%lld] = %lld is not a valid output column", (long long)g, (long long)indexes[g]);
    t->gramCol[g] = indexes[g];
    if (t->numCols <= indexes[g]) t->numCols = indexes[g] + 1;
    /* the same n-gram twice would have two columns */
    for (int64_t h = 0; ok && h < g; h++)
      if (t->gramLen[h] == t->gramLen[g] &&
          !memcmp(t->pool + t->gramStart[h], t->pool + t->gramStart[g], sizeof(int64_t) * (size_t)t->gramLen[g]))
        ok = false, nnError(op, "the pool holds one n-gram twice (n-grams %lld and %lld)", (long long)h, (long long)g);
  }
  free(counts), free(indexes);
  MlirAttribute w = strataOpAttr(op, "weights");
  if (ok && !mlirAttributeIsNull(w)) {
    if (!mlirAttributeIsADenseF32Array(w) || mlirDenseArrayGetNumElements(w) != t->numCols) {
      nnError(op, "attribute 'weights' must be an f32 array of one weight per output column (%lld)", (long long)t->numCols);
      ok = false;
    } else if ((t->weights = malloc(sizeof(double) * (size_t)(t->numCols ? t->numCols : 1)))) {
      for (int64_t c = 0; c < t->numCols; c++) t->weights[c] = mlirDenseF32ArrayGetElement(w, (intptr_t)c);
    } else {
      ok = false, nnError(op, "out of memory reading the weights");
    }
  }
  if (!ok) nnTfIdfFree(t);
  return ok;
}

double nnTfIdfWeigh(const NnTfIdf *t, double count, int64_t col) {
  double w = t->weights ? t->weights[col] : 1.0;
  if (t->mode == NN_TFIDF_TF) return count;
  if (t->mode == NN_TFIDF_IDF) return count > 0 ? w : 0;
  return count * w;
}

static MlirLogicalResult inferTfIdf(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  NnTfIdf t;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_T(STRATA_DTYPE_I32) | NN_T(STRATA_DTYPE_I64)) ||
      !nnTfIdfParams(op, &t))
    return fail();
  int64_t cols = t.numCols;
  nnTfIdfFree(&t);
  if (x.rank != 1 && x.rank != 2) {
    nnError(op, "operand 'x' must have rank 1 ([C]) or 2 ([N, C]), got rank %d", x.rank);
    return fail();
  }
  int64_t dims[2] = {x.dims[0], cols};
  if (x.rank == 1) dims[0] = cols;
  nnSetShape(res, x.rank, dims, mlirF32TypeGet(mlirOperationGetContext(op)));
  return mlirLogicalResultSuccess();
}

/* The count of n-gram g in row r of x viewed as [rows, C]. */
static int64_t gramCount(const NnTfIdf *t, const StrataTensor *x, int64_t r, int64_t C, int64_t g) {
  int64_t len = t->gramLen[g], count = 0;
  if (len < t->minLen || len > t->maxLen) return 0;
  for (int64_t d = 1; d <= (len == 1 ? 1 : t->maxSkip + 1); d++)
    for (int64_t p = 0; p + (len - 1) * d < C; p++) {
      bool match = true;
      for (int64_t j = 0; match && j < len; j++) match = nnGetInt(x, r * C + p + j * d) == t->pool[t->gramStart[g] + j];
      count += match;
    }
  return count;
}

static MlirLogicalResult interpTfIdf(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  NnTfIdf t;
  if (!nnTfIdfParams(op, &t)) return fail();
  int64_t C = x[0]->dims[x[0]->rank - 1], rows = x[0]->rank == 2 ? x[0]->dims[0] : 1;
  memset(y[0]->data, 0, strataTensorNumBytes(y[0]));
  for (int64_t r = 0; r < rows; r++) {
    double *counts = calloc((size_t)(t.numCols ? t.numCols : 1), sizeof(double));
    if (!counts) {
      nnTfIdfFree(&t);
      return nnInterpError(op, "out of memory");
    }
    for (int64_t g = 0; g < t.numGrams; g++) counts[t.gramCol[g]] += (double)gramCount(&t, x[0], r, C, g);
    for (int64_t c = 0; c < t.numCols; c++) strataTensorSetDouble(y[0], r * t.numCols + c, nnTfIdfWeigh(&t, counts[c], c));
    free(counts);
  }
  nnTfIdfFree(&t);
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.tf_idf_vectorizer",
     .summary = "counts of the pool_int64s n-grams (ngram_counts sections, min/max_gram_length, skips up to "
                "max_skip_count) per row of x ([C] or [N, C]) in the ngram_indexes columns, weighed by mode "
                "TF|IDF|TFIDF (weights per column)",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferTfIdf,
     .interpret = interpTfIdf,
     .mapping = nnMapReorganize,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "i32 i64 -> f32"},
};

const StrataOpTable nnTfIdfTable = {kOps, sizeof kOps / sizeof kOps[0]};
