/* Strata dialects as the C side sees them: an op table per dialect, from
 * which its IRDL definition (embedded in the library, or generated when the
 * context loads it), its docs and its sync tests are produced, plus, per op,
 * what IRDL cannot say -- shape inference (which the generic verifier uses),
 * attribute values, an optional per-op verifier, the reference-interpreter
 * kernel and the op's facts (DNNFusion mapping type, SOD² dynamism class,
 * purity, cost, whether instrumentation may observe it).
 *
 * An embedder defines a dialect the same way and registers it:
 *
 *   static const StrataAttrDef kRepeatAttrs[] = {
 *       {"times", STRATA_ATTR_INT, STRATA_ATTR_NON_NEGATIVE, NULL, "how often"}};
 *   static const StrataOpDef kOps[] = {{
 *       .name = "toy.repeat", .summary = "applies `body` `times` times",
 *       .operands = "x", .results = "y", .flags = STRATA_OP_OBSERVABLE,
 *       .infer = inferRepeat, .interpret = interpRepeat, .dynamism = STRATA_DYN_ISDO,
 *       .types = "any", .attrs = kRepeatAttrs, .numAttrs = 1, .regions = "body"}};
 *   static const StrataOpTable kTable = {kOps, 1};
 *   static const StrataOpTable *const kTables[] = {&kTable};
 *   static const StrataDialectDef kToy = {.name = "toy", .tables = kTables, .numTables = 1};
 *   strataContextRegisterDialect(ctx, &kToy); // IRDL generated from the table
 */
#ifndef STRATA_DIALECT_H
#define STRATA_DIALECT_H

#include "strata/context.h"
#include "strata/tensor.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct StrataInterp StrataInterp;

/* A result type under construction: -1 dims are '?'. A negative rank
 * means a result that is not a tensor: `elementType` is then its whole type
 * (i1, index, vector<4xf32>, ...). */
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
 * accumulating in double. Values that are not tensors are held as tensors:
 * a vector as the tensor of its shape, an integer or float scalar (an i1
 * predicate) as a rank-0 tensor. outputs[i] is allocated to result i's type when
 * that type is static; when it is dynamic, outputs[i] is NULL and a kernel
 * that can compute the shape at run time allocates it. */
typedef MlirLogicalResult (*StrataOpInterpretFn)(StrataInterp *interp, MlirOperation op,
                                                 StrataTensor *const *inputs,
                                                 StrataTensor **outputs);

/* For the kernel of an op with regions: runs `block` in the interpreter
 * running the op (its ops may use values defined outside it), with its
 * arguments bound to copies of `args`, up to its last op, whose operands are
 * the block's results: *results receives a malloc'd array of *numResults
 * tensors, copies the caller owns (destroy each, free the array). The block
 * can be run again, e.g. once per iteration. Errors are located. */
MlirLogicalResult strataInterpretBlock(StrataInterp *interp, MlirBlock block,
                                       StrataTensor *const *args, size_t numArgs,
                                       StrataTensor ***results, size_t *numResults);

/* Mapping type for this op instance (shape-dependent, e.g. a broadcasting
 * add is One-to-Many). */
typedef StrataMappingType (*StrataOpMappingFn)(MlirOperation op);
/* Floating-point operations for this op instance (static shapes). */
typedef double (*StrataOpFlopsFn)(MlirOperation op);

/* Checks what the generic verifier cannot (relations between attributes,
 * region contents, ...), after it has passed; emits located errors. */
typedef MlirLogicalResult (*StrataOpVerifyFn)(const StrataOpDef *def, MlirOperation op);

enum {
  STRATA_OP_PURE = 1u << 0,       /* no side effects: DCE/CSE may erase or merge it */
  STRATA_OP_OBSERVABLE = 1u << 1, /* instrumentation attaches probes to it */
  STRATA_OP_CONSTANT = 1u << 2,   /* a compile-time constant: nothing runs to observe */
};

/* ---- Attributes ------------------------------------------------------------ */

/* What an attribute holds; each kind has an IRDL constraint (in brackets)
 * and a C check with a located message naming the attribute. */
typedef enum {
  STRATA_ATTR_ANY = 0,   /* anything [irdl.any] */
  STRATA_ATTR_INT,       /* an integer: 3 : i64 [#builtin.integer] */
  STRATA_ATTR_FLOAT,     /* a float: 0.5 : f32 [#builtin.float] */
  STRATA_ATTR_BOOL,      /* true or false [#builtin.integer] */
  STRATA_ATTR_STRING,    /* "text" [#builtin.string] */
  STRATA_ATTR_ENUM,      /* a string among `choices` [#builtin.string] */
  STRATA_ATTR_INT_ARRAY, /* array<i64: 1, 2> or [1, 2] [#builtin.dense_array | #builtin.array] */
  STRATA_ATTR_TYPE,      /* a type: f32 [#builtin.type] */
  STRATA_ATTR_ELEMENTS,  /* dense<...> or dense_resource<...> elements */
  STRATA_ATTR_UNIT,      /* present or absent [#builtin.unit] */
} StrataAttrKind;

enum {
  /* IRDL cannot say "optional": an optional attribute is left out of the
   * IRDL definition and checked in C only when present. */
  STRATA_ATTR_OPTIONAL = 1u << 0,
  STRATA_ATTR_NON_NEGATIVE = 1u << 1, /* INT: >= 0 */
  STRATA_ATTR_NON_EMPTY = 1u << 2,    /* STRING, INT_ARRAY: not empty */
};

typedef struct {
  const char *name;
  StrataAttrKind kind;
  unsigned flags;      /* STRATA_ATTR_* */
  const char *choices; /* ENUM: the values, '|'-separated: "before|after" */
  const char *doc;     /* one line for the docs; NULL: none */
} StrataAttrDef;

/* ---- Operand, result and region specs ------------------------------------ *
 *
 * `operands` and `results` are comma-separated entries "name[?|*][: type]":
 * '?' optional, '*' variadic; the type constraint is '|'-separated
 * alternatives, each a family -- tensor (the default), vector, memref,
 * integer (any integer type), any -- or a type written out (i1, index,
 * vector<4xf32>): "cond: i1, x: tensor|vector, n?: index". `regions` names
 * the op's regions, comma-separated; each holds exactly one block. */

typedef struct {
  char name[32];
  char kind;     /* ' ', '?' (optional) or '*' (variadic) */
  char type[96]; /* the type constraint as written; "" = tensor */
} StrataValueSpec;

/* Parses a spec into at most `max` entries; returns how many there are. */
int strataParseValueSpec(const char *spec, StrataValueSpec *out, int max);
/* True if `t` satisfies the type constraint `constraint` ("" = tensor). */
bool strataTypeSatisfies(MlirType t, const char *constraint);

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
  /* Beyond nn's tensor ops (zero/NULL: none). */
  const StrataAttrDef *attrs; /* attributes IRDL and the generic verifier check */
  size_t numAttrs;
  const char *regions; /* "body": region names, one block each; NULL: no regions */
  StrataOpVerifyFn verify;
};

/* A dialect's ops may come from several tables (one per category). */
typedef struct {
  const StrataOpDef *ops;
  size_t numOps;
} StrataOpTable;

struct StrataDialectDef {
  const char *name;        /* "nn" */
  const char *irdlSource;  /* the dialect's .irdl.mlir text; NULL: generated from the tables */
  const char *irdlName;    /* file name used in locations; NULL: "<name>.irdl.mlir" */
  const StrataOpTable *const *tables;
  size_t numTables;
  /* Added for generated definitions and docs (NULL/0: defaults). */
  const char *summary;     /* one line: "one op per DNN operator, ..." */
  const char *irdlComment; /* lines heading the generated IRDL after the summary ('\n'-separated) */
  unsigned opFlags;        /* flags every op of the dialect has besides its own */
};

size_t strataDialectNumOps(const StrataDialectDef *d);
const StrataOpDef *strataDialectGetOp(const StrataDialectDef *d, size_t i);

/* The dialect's IRDL definition generated from its op tables (ops sorted by
 * name): each operand and result gets its own constraint variable from its
 * type constraint, required attributes their kind's constraint, regions one
 * block each. Returns a NUL-terminated malloc'd string and transfers
 * ownership to the caller (free it); NULL if out of memory. */
char *strataDialectGenerateIrdl(const StrataDialectDef *d);

/* The dialect that defines `def` among those loaded in `ctx`, or NULL. */
const StrataDialectDef *strataOpDefGetDialect(StrataContext *ctx, const StrataOpDef *def);
/* def->flags plus its dialect's opFlags. */
unsigned strataOpDefGetFlags(StrataContext *ctx, const StrataOpDef *def);
/* True for an op instrumentation attaches probes to: its definition (or its
 * dialect) is STRATA_OP_OBSERVABLE and it is not STRATA_OP_CONSTANT. */
bool strataOpIsObservable(StrataContext *ctx, MlirOperation op);

/* Verifies one op against its definition, with located errors naming what
 * is at fault: operand and result counts and type constraints by the specs,
 * attributes (presence, kind, value constraints), region count, then infer
 * and the declared result types against the inferred ones, then the op's
 * own `verify`. */
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
