/* The elementwise op family: one description per op drives its verifier,
 * reference kernel and facts (and, in conversions/nn-to-linalg, its body). */
#ifndef STRATA_NN_ELEMENTWISE_H
#define STRATA_NN_ELEMENTWISE_H

#include "nn_internal.h"

/* Attribute values an elementwise op reads (each op uses a few). */
typedef struct {
  double alpha, beta, gamma; /* LeakyRelu/Elu/Selu/HardSigmoid */
  double lo, hi;             /* Clip */
  int64_t flag;              /* Mod fmod, BitShift direction (1 = RIGHT), Gelu tanh form */
} NnEwAttrs;

typedef enum {
  NN_EW_SAME,    /* result element type = the data operands' */
  NN_EW_BOOL,    /* result is i1 (comparisons, IsNaN) */
  NN_EW_DECLARED /* result element type is whatever is declared (Cast) */
} NnEwResult;

typedef enum {
  NN_EW_PLAIN,        /* all operands are data, broadcast together */
  NN_EW_SELECT,       /* Where: operand 0 is an i1 condition */
  NN_EW_UNIDIRECTIONAL /* PRelu: operand 1 broadcasts to operand 0's shape */
} NnEwForm;

typedef struct {
  const char *name;
  unsigned types; /* element types of the data operands */
  NnEwResult result;
  NnEwForm form;
  double (*f)(const double *x, const NnEwAttrs *a);             /* float semantics */
  int64_t (*fi)(const int64_t *x, const NnEwAttrs *a, StrataDType t); /* integer/bool */
  bool (*attrs)(MlirOperation op, StrataDType t, NnEwAttrs *a); /* read + validate; may be NULL */
  double flopsPerElement;
} NnEwInfo;

/* The description of elementwise op `name` ("nn.add"), or NULL. */
const NnEwInfo *nnElementwiseInfo(MlirStringRef name);
/* Reads and validates the op's attributes with ONNX defaults. */
bool nnElementwiseAttrs(const NnEwInfo *info, MlirOperation op, StrataDType t, NnEwAttrs *a);

/* The range an integer dtype saturates to when Cast converts a float (the
 * 64-bit bounds are held exactly by f32 and f64, for compiled clamps). */
void nnIntRange(StrataDType t, double *lo, double *hi);

#endif
