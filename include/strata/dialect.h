/* Strata dialects as the C side sees them: an IRDL definition (embedded in
 * the library) plus, per op, what IRDL cannot say -- shape inference (which
 * the generic verifier uses), the reference-interpreter kernel and the op's
 * facts (DNNFusion mapping type, SOD² dynamism class, purity, cost). */
#ifndef STRATA_DIALECT_H
#define STRATA_DIALECT_H

#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct StrataInterp StrataInterp;

/* A result type under construction: -1 dims are '?'. */
typedef struct {
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  MlirType elementType;
} StrataShape;

/* DNNFusion's operator mapping types (Table 3.2), in increasing complexity. */
typedef enum {
  STRATA_MAP_ONE_TO_ONE = 1,
  STRATA_MAP_REORGANIZE,
  STRATA_MAP_SHUFFLE,
  STRATA_MAP_ONE_TO_MANY,
  STRATA_MAP_MANY_TO_MANY,
} StrataMappingType;

/* SOD²'s dynamism classes (Table 5.2): what determines the output shape. */
typedef enum {
  STRATA_DYN_ISDO = 1, /* input shapes determine output shape and value */
  STRATA_DYN_ISDOS,    /* input shapes determine the output shape */
  STRATA_DYN_ISVDOS,   /* input shapes and some input values determine it */
  STRATA_DYN_EDO,      /* known only after execution */
} StrataDynamism;

const char *strataMappingTypeName(StrataMappingType m); /* "One-to-One", ... */
const char *strataDynamismName(StrataDynamism d);       /* "ISDOS", ... */

typedef struct StrataOpDef StrataOpDef;

/* Computes the result types of `op` from its operands' types, its
 * attributes and the values of constant operands. Emits a located error
 * naming the operand and returns failure when the op is malformed. */
typedef MlirLogicalResult (*StrataOpInferFn)(const StrataOpDef *def, MlirOperation op,
                                             StrataShape *results);

/* Reference semantics: computes outputs from inputs (one per operand),
 * accumulating in double. outputs[i] is allocated to result i's type when
 * that type is static; when it is dynamic, outputs[i] is NULL and a kernel
 * that can compute the shape at run time allocates it. */
typedef MlirLogicalResult (*StrataOpInterpretFn)(StrataInterp *interp, MlirOperation op,
                                                 StrataTensor *const *inputs,
                                                 StrataTensor **outputs);

/* Mapping type for this op instance (shape-dependent, e.g. a broadcasting
 * add is One-to-Many). */
typedef StrataMappingType (*StrataOpMappingFn)(MlirOperation op);
/* Floating-point operations for this op instance (static shapes). */
typedef double (*StrataOpFlopsFn)(MlirOperation op);

enum {
  STRATA_OP_PURE = 1u << 0, /* no side effects: DCE/CSE may erase or merge it */
};

struct StrataOpDef {
  const char *name;     /* full name, "nn.conv" */
  const char *summary;  /* one line, for docs and --help */
  const char *operands; /* "X, W, B?": names; '?' optional, '*' variadic */
  const char *results;  /* "Y" or "outputs*" */
  unsigned flags;
  StrataOpInferFn infer;
  StrataOpInterpretFn interpret;
  StrataOpMappingFn mapping;
  StrataDynamism dynamism;
  StrataOpFlopsFn flops;
  const char *types; /* element types the op accepts, for docs: "f32 f16 i32 ..." */
};

/* A dialect's ops may come from several tables (one per category). */
typedef struct {
  const StrataOpDef *ops;
  size_t numOps;
} StrataOpTable;

struct StrataDialectDef {
  const char *name;        /* "nn" */
  const char *irdlSource;  /* the dialect's .irdl.mlir text */
  const char *irdlName;    /* file name used in locations */
  const StrataOpTable *const *tables;
  size_t numTables;
};

size_t strataDialectNumOps(const StrataDialectDef *d);
const StrataOpDef *strataDialectGetOp(const StrataDialectDef *d, size_t i);

/* Verifies one op against its definition: operand count by the spec, then
 * infer, then the declared result types against the inferred ones. */
MlirLogicalResult strataVerifyOp(const StrataOpDef *def, MlirOperation op);

/* Index range of operand group `group` (by position in def->operands),
 * honouring an `operandSegmentSizes` attribute when the op has more than one
 * optional/variadic group. Returns false if the op's operands do not fit. */
bool strataOperandGroup(const StrataOpDef *def, MlirOperation op, int group, intptr_t *start,
                        intptr_t *size);
/* The operand named `name`, or a null value if it is an absent optional. */
MlirValue strataNamedOperand(const StrataOpDef *def, MlirOperation op, const char *name);

/* Static facts of an op instance. */
StrataMappingType strataOpMappingType(const StrataOpDef *def, MlirOperation op);
double strataOpFlops(const StrataOpDef *def, MlirOperation op);
/* Bytes read and written: all operands plus all results (static shapes). */
double strataOpBytes(MlirOperation op);
/* Bytes of a static ranked tensor type (sub-byte elements count as one
 * byte); 0 for anything else. */
double strataTypeBytes(MlirType t);

#ifdef __cplusplus
}
#endif
#endif /* STRATA_DIALECT_H */
