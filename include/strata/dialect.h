/* Strata dialects as the C side sees them: an IRDL definition (embedded in
 * the library) plus, per op, what IRDL cannot say -- the shape/attribute
 * verifier, the reference-interpreter kernel and the op's facts. */
#ifndef STRATA_DIALECT_H
#define STRATA_DIALECT_H

#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct StrataInterp StrataInterp;

/* Verifies what IRDL cannot: shapes, attribute values. Emits located errors
 * naming the operand and the expected shape/type; returns failure. */
typedef MlirLogicalResult (*StrataOpVerifyFn)(MlirOperation op);

/* Reference semantics: computes outputs[i] (already allocated to the result
 * types) from inputs (one per operand). Accumulates in double. */
typedef MlirLogicalResult (*StrataOpInterpretFn)(StrataInterp *interp, MlirOperation op,
                                                 StrataTensor *const *inputs,
                                                 StrataTensor *const *outputs);

enum {
  STRATA_OP_PURE = 1u << 0, /* no side effects: DCE/CSE may erase or merge it */
};

struct StrataOpDef {
  const char *name;    /* full name, "nn.conv2d" */
  const char *summary; /* one line, for docs and --help */
  unsigned flags;
  StrataOpVerifyFn verify;
  StrataOpInterpretFn interpret;
};

struct StrataDialectDef {
  const char *name;        /* "nn" */
  const char *irdlSource;  /* the dialect's .irdl.mlir text */
  const char *irdlName;    /* file name used in locations */
  const StrataOpDef *ops;
  size_t numOps;
};

#ifdef __cplusplus
}
#endif
#endif /* STRATA_DIALECT_H */
