/* Det: the determinant of each square matrix in the last two dims, by LU
 * factorization with partial pivoting (the pivot of largest magnitude in
 * its column; a zero column makes the determinant 0), in double. The
 * lowering (conversions/nn-to-linalg/lower_det.c) runs the same steps. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "nn_internal.h"

static MlirLogicalResult inferDet(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  StrataShape x;
  if (!nnOperand(def, op, "x", &x) || !nnCheckType(op, "x", &x, NN_FLOAT)) return mlirLogicalResultFailure();
  int64_t m = x.rank >= 2 ? x.dims[x.rank - 1] : 0, n = x.rank >= 2 ? x.dims[x.rank - 2] : 0;
  if (x.rank < 2 || (m >= 0 && n >= 0 && m != n)) {
    char d[300];
    nnError(op, "%s must hold square matrices in its last two dims", nnDescribe("x", &x, d, sizeof d));
    return mlirLogicalResultFailure();
  }
  nnSetShape(res, x.rank - 2, x.dims, x.elementType);
  return mlirLogicalResultSuccess();
}

/* The determinant of the m x m matrix a (row-major), destroyed. */
static double luDeterminant(double *a, int64_t m) {
  double det = 1.0;
  for (int64_t k = 0; k < m; k++) {
    int64_t p = k;
    for (int64_t i = k + 1; i < m; i++)
      if (fabs(a[i * m + k]) > fabs(a[p * m + k])) p = i;
    if (p != k) {
      det = -det;
      for (int64_t j = 0; j < m; j++) {
        double t = a[k * m + j];
        a[k * m + j] = a[p * m + j], a[p * m + j] = t;
      }
    }
    double pivot = a[k * m + k];
    det *= pivot;
    if (pivot == 0) return det; /* a zero column: singular */
    for (int64_t i = k + 1; i < m; i++) {
      double f = a[i * m + k] / pivot;
      for (int64_t j = k + 1; j < m; j++) a[i * m + j] -= f * a[k * m + j];
    }
  }
  return det;
}

static MlirLogicalResult interpDet(StrataInterp *in, MlirOperation op, StrataTensor *const *x, StrataTensor **y) {
  (void)in;
  int64_t m = x[0]->dims[x[0]->rank - 1];
  if (!y[0] && !(y[0] = strataTensorCreate(x[0]->dtype, x[0]->rank - 2, x[0]->dims)))
    return nnInterpError(op, "cannot allocate the result");
  int64_t count = strataTensorNumElements(y[0]);
  if (x[0]->dims[x[0]->rank - 2] != m)
    return nnInterpError(op, "the matrices are %lld x %lld, not square", (long long)x[0]->dims[x[0]->rank - 2],
                         (long long)m);
  double *a = malloc(sizeof(double) * (size_t)(m * m + 1));
  if (!a) return nnInterpError(op, "cannot allocate the factorization's scratch");
  for (int64_t b = 0; b < count; b++) {
    for (int64_t i = 0; i < m * m; i++) a[i] = strataTensorGetDouble(x[0], b * m * m + i);
    strataTensorSetDouble(y[0], b, luDeterminant(a, m));
  }
  free(a);
  return mlirLogicalResultSuccess();
}

static const StrataOpDef kOps[] = {
    {.name = "nn.det",
     .summary = "the determinant of each square matrix in the last two dims (LU with partial pivoting)",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE,
     .infer = inferDet,
     .interpret = interpDet,
     .mapping = nnMapManyToMany,
     .dynamism = STRATA_DYN_ISDOS,
     .types = "f16 bf16 f32 f64"},
};

const StrataOpTable nnDetTable = {kOps, sizeof kOps / sizeof kOps[0]};
