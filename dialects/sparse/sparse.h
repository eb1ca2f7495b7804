/* The sparse dialect's interface to the layers above it (transforms,
 * conversions, targets, tools): pattern masks, the pattern assignment of a
 * convolution's 3x3 kernels, Filter Kernel Reorder, the FKW arrays and the
 * CSR baseline, as plain C over f32 weights; and readers of the ops'
 * attributes. docs/sparse.md describes the formats. */
#ifndef STRATA_SPARSE_H
#define STRATA_SPARSE_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"

/* ---- Patterns ----
 * A pattern is a 9-bit mask over a 3x3 kernel, bit 3*r + c for row r and
 * column c (bit 4 is the centre). A pattern set is any list of distinct
 * nonzero masks; the kernel-pattern id of a kernel is the index in the set
 * of the first mask that covers the kernel's nonzero entries. */
enum { SPARSE_MAX_PATTERNS = 64, SPARSE_KERNEL = 9, SPARSE_CENTRE_BIT = 4 };
/* Kernel-pattern ids that are not a set index. */
enum { SPARSE_PRUNED = -1 /* all-zero kernel */, SPARSE_NO_PATTERN = -2 };

int sparsePopcount(int64_t mask);
/* Whether `masks[0..n)` is a valid pattern set; if not, `why` (>= 96 bytes)
 * says which entry is wrong and how. */
bool sparsePatternSetValid(const int64_t *masks, int64_t n, char *why, size_t whySize);
/* The mask of a kernel's nonzero entries. */
int64_t sparseSupport(const float *k9);
/* The id in `masks` of the first pattern covering k9's support,
 * SPARSE_PRUNED for an all-zero kernel, SPARSE_NO_PATTERN if none does. */
int sparseKernelPattern(const float *k9, const int64_t *masks, int numMasks);
/* The natural pattern of a kernel: the centre plus its `n - 1`
 * largest-magnitude other entries (ties: the lower bit). */
int64_t sparseNaturalPattern(const float *k9, int n);

/* The kernel-pattern ids of weights w[M][C][3][3] (C = input channels per
 * group): pat[m*C + c]. False if a kernel fits no pattern, with its filter
 * and channel in *badM, *badC. */
bool sparseAssignPatterns(const float *w, int64_t M, int64_t C, const int64_t *masks, int P,
                          int *pat, int64_t *badM, int64_t *badC);

/* ---- Filter Kernel Reorder ----
 * Filters grouped by length (their number of non-pruned kernels, shorter
 * groups first); inside a group a greedy chain from its lowest-numbered
 * filter, each next filter the most similar to the last placed (similarity:
 * the number of positions at which the filters' pattern ids, sorted, are
 * equal; ties: the lower number). order[s] = the original filter stored at
 * position s; groups[0..numGroups] = group boundaries over stored filters.
 * `groups` has room for M + 1 entries. */
void sparseFkrOrder(const int *pat, int64_t M, int64_t C, int P, int64_t *order, int64_t *groups,
                    int64_t *numGroups);

/* ---- FKW: the five arrays (plus the FKR groups) ----
 * Stored filter s is original filter reorder[s]; its kernels are
 * offset[s]..offset[s+1] in `index` (their input channels), sorted by
 * pattern id then channel; stride[s*(P+1) + p] counts its kernels with a
 * pattern id below p (so stride[s*(P+1)] = 0 and stride[s*(P+1)+P] =
 * offset[s+1] - offset[s]); weights are popcount(mask) values per kernel,
 * in kernel order, each kernel's in increasing bit order. */
typedef struct {
  int64_t M, C, P;
  int64_t masks[SPARSE_MAX_PATTERNS];
  int64_t *offset;  /* M + 1 */
  int64_t *reorder; /* M */
  int64_t *index;   /* offset[M] */
  int64_t *stride;  /* M * (P + 1) */
  int64_t *groups;  /* numGroups + 1 */
  int64_t numGroups;
  float *weight; /* numWeights */
  int64_t numWeights;
} SparseFkw;

/* Builds the FKW form of w[M][C][3][3] with kernel-pattern ids `pat`, in
 * filter order `order` (NULL: the original order) and groups `groups` (NULL:
 * one group). False if memory runs out, or if P is outside 1..64 or an id
 * is P or more (nothing is then read past `masks`). Free with
 * sparseFkwFree. */
bool sparseFkwBuild(const float *w, const int *pat, int64_t M, int64_t C, const int64_t *masks, int P,
                    const int64_t *order, const int64_t *groups, int64_t numGroups, SparseFkw *out);
void sparseFkwFree(SparseFkw *f);
/* Offset into `weight` of each kernel: wstart[j] for kernel j, wstart[nnz]
 * = numWeights (nnz + 1 entries, malloc'd; NULL when out of memory). */
int64_t *sparseFkwWeightStarts(const SparseFkw *f);
/* Writes the dense weights w[M][C][3][3] (zeros where pruned). */
void sparseFkwToDense(const SparseFkw *f, float *w);
/* Whether stored filters a and b read the same inputs: the same
 * convolution group (Mg output channels per group) and the same (pattern,
 * channel) at every kernel position -- what filter-level load-redundancy
 * elimination computes together. */
bool sparseFkwFiltersShare(const SparseFkw *f, int64_t Mg, int64_t a, int64_t b);
/* Bytes of FKW's index structure (offset, reorder, index and stride, each
 * entry `indexBytes` wide; not the weights nor the FKR groups). */
double sparseFkwIndexBytes(const SparseFkw *f, int indexBytes);

/* ---- CSR baseline: rows = output channels, columns = (c, kh, kw) ---- */
typedef struct {
  int64_t M, K; /* K = C * kh * kw */
  int64_t *rowPtr; /* M + 1 */
  int64_t *col;    /* rowPtr[M] */
  float *val;
} SparseCsr;
bool sparseCsrBuild(const float *w, int64_t M, int64_t K, SparseCsr *out);
void sparseCsrFree(SparseCsr *c);
/* Bytes of CSR's index structure (row pointers and column indices). */
double sparseCsrIndexBytes(const SparseCsr *c, int indexBytes);

/* ---- The ops' attributes ----
 * Window of a sparse conv op: strides [2], pads [4] (ONNX order: top, left,
 * bottom, right), dilations [2], group, kernel size.
 * The readers below are the verifiers' checks too: each emits a located
 * error naming the attribute (and entry) at fault and returns false, never
 * reads an array past its length, checks sums and products of attribute
 * values for int64 overflow, and allocates only in proportion to arrays the
 * IR holds (never to a dim or a splat's stated length). */
typedef struct {
  int64_t strides[2], pads[4], dilations[2], group, kernel[2];
} SparseWindow;
/* Reads it from the op. kernel_shape: required on sparse.csr_conv, absent
 * or [3, 3] on the pattern ops. Values positive (pads non-negative), each
 * of at most 64 bits. The output extent is checked by shape inference. */
bool sparseWindowGet(MlirOperation op, SparseWindow *w);
/* The register tile a sparse.fkw_conv without `tile` gets (what the
 * lowerings use and sparse-tune starts from), for OH output rows and
 * `vectors` column vectors a row holds: up to 4 vectors, and 4 rows, or
 * where 4 does not divide OH, 7, 6, 5 or 3 rows if one does (a last tile
 * overlapping the one before computes rows twice: 7 rows in tiles of 4
 * compute 8), within 24 accumulators. tile = [rows, vectors]. */
void sparseDefaultTile(int64_t OH, int64_t vectors, int64_t tile[2]);
/* The distinct column offsets (q*dw)/sw of a 3-wide kernel's taps in the
 * lowerings' phases copy (the `sums` layout keeps a set of sums per
 * offset), and the largest in *largest; 1 and 0 where the lowerings copy
 * views (a column stride above the kernel's width). */
int64_t sparseColumnOffsets(const SparseWindow *w, int64_t *largest);
/* Whether a sparse.fkw_conv with neither `tile` nor `layout` (nor an
 * unroll) gets the `sums` layout, for OH x OW outputs in `lanes`-wide
 * vectors and tile = sparseDefaultTile's: wherever it applies (two column
 * offsets or more, each below the lanes). Then the tile is cut so the
 * sets of sums fit 24 accumulators: where the row's last vector has room
 * for the offsets (narrow rows), its rows, to a divisor of OH if one
 * fits; elsewhere first its vectors, down to 2. The lowering applies it
 * and sparse-tune starts from it, so both mean the same by "the
 * default". */
bool sparseDefaultSums(const SparseWindow *w, int64_t OH, int64_t OW, int64_t lanes, int64_t tile[2]);
/* Reads sparse.fkw_conv's arrays (weights copied) and checks them against
 * each other and the input's channels per group (which must be static);
 * false if malformed. */
bool sparseFkwFromOp(MlirOperation op, SparseFkw *out);
/* Sets the arrays of `f` as sparse.fkw_conv's attributes on `op`. */
void sparseFkwSetAttrs(MlirOperation op, const SparseFkw *f);
/* Reads sparse.csr_conv's arrays (values copied): row_ptr non-decreasing
 * from 0 to the entries, each row's columns increasing within C/group x kh
 * x kw; false if malformed. */
bool sparseCsrFromOp(MlirOperation op, SparseCsr *out);
/* The value attribute of the constant (nn.constant or arith.constant)
 * defining `v`, or null. */
MlirAttribute sparseConstantValue(MlirValue v);
/* A malloc'd copy of an i64 array attribute (DenseI64Array); *n its length.
 * NULL if absent or not one (*n = -1). */
int64_t *sparseI64Array(MlirOperation op, const char *name, int64_t *n);

#endif /* STRATA_SPARSE_H */
