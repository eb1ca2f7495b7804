/* frontends/onnx internals. */
#ifndef STRATA_ONNX_INTERNAL_H
#define STRATA_ONNX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h> /* NODE_ERROR */
#include "onnx.pb-c.h"
#include "strata/builder.h"
#include "strata/onnx.h"
#include "strata/tensor.h"

/* ONNX element type -> Strata dtype (INVALID if unsupported). */
StrataDType onnxDType(int32_t elemType);
const char *onnxDTypeName(int32_t elemType);

/* Reads a TensorProto's values (raw_data, typed fields or external data
 * relative to baseDir). NULL with a message in err if the data is missing,
 * of the wrong size, or of an unsupported type. */
StrataTensor *onnxReadTensor(const Onnx__TensorProto *t, const char *baseDir, char *err, size_t errSize);
/* True if t's data is in an external file. */
bool onnxIsExternal(const Onnx__TensorProto *t);

/* ---- The importer's state (onnx_import.c) ---- */

#define MAX_IO 64 /* inputs/outputs per node, inputs/outputs per graph */
#define MAX_GRAPH_DEPTH 64 /* If/Loop subgraphs nested in each other */

typedef struct {
  char *name;
  MlirValue value;
  const char *kind; /* "graph input", "initializer", "node output": for SSA errors */
} Binding;

typedef struct {
  StrataContext *ctx;
  MlirContext mc;
  const char *file, *baseDir;
  int64_t opset;
  size_t resourceThreshold;
  Binding *values;
  size_t numValues, capValues;
  size_t scopeStart; /* values[scopeStart..] are the innermost graph's */
  int depth;         /* subgraphs (If/Loop) being imported around the current one */
  StrataBuilder b; /* at the end of the block being imported into */
  MlirLocation fileLoc;
  int64_t trainingOpset; /* of ai.onnx.preview.training; 0: not imported */
  int externalTensors;   /* tensors read from external data files */
} Importer;

/* Defines `name` as a value of `kind`. ONNX graphs are SSA: a name that is
 * already defined is an error at `loc` (false), not a silent rebinding that
 * would change which value later nodes read. */
bool onnxBind(Importer *im, MlirLocation loc, const char *name, MlirValue v, const char *kind);
/* The value named `name` in the innermost scope that defines it, or null. */
MlirValue onnxLookup(Importer *im, const char *name);
/* A subgraph's scope: its names shadow the enclosing graphs' and are gone
 * after onnxScopePop(im, <what onnxScopePush returned>). */
size_t onnxScopePush(Importer *im);
void onnxScopePop(Importer *im, size_t saved);
/* The tensor type a graph input or output declares ('?' for symbolic or
 * unknown dims; their names into *dimNames when it is not NULL); null with
 * the reason in err when it is no tensor of a supported type and rank. */
MlirType onnxValueInfoType(Importer *im, const Onnx__ValueInfoProto *vi, MlirAttribute *dimNames, char *err,
                           size_t errSize);
/* Imports g's initializers and nodes at im->b; false after a located error. */
bool onnxImportGraphBody(Importer *im, const Onnx__GraphProto *g);

/* A node's op type for messages; protobuf-c leaves an unset one NULL. */
static inline const char *onnxOpType(const Onnx__NodeProto *n) { return n->op_type ? n->op_type : ""; }

/* "<OpType> node: <message>" at the node's location. */
#define NODE_ERROR(im, loc, n, ...)                                                            \
  do {                                                                                         \
    char _m[512];                                                                              \
    snprintf(_m, sizeof _m, __VA_ARGS__);                                                      \
    strataEmitError(loc, "%s node: %s", onnxOpType(n), _m);                                    \
  } while (0)

/* An nn.constant of `value` at the end of the body. */
MlirValue onnxConstant(Importer *im, MlirLocation loc, MlirAttribute value);
const Onnx__AttributeProto *onnxFindAttr(const Onnx__NodeProto *n, const char *name);
/* ONNX attribute -> MLIR attribute; null (after an error) if unsupported. */
MlirAttribute onnxConvertAttr(Importer *im, MlirLocation loc, const Onnx__NodeProto *n,
                              const Onnx__AttributeProto *a);

/* ---- Nodes (onnx_node.c) ---- */

typedef struct {
  const char *name;
  MlirAttribute attr;
} Attr;

/* One ONNX node being imported: its inputs (looked up), its attributes
 * (converted) and the nn op name its op type maps to. */
typedef struct {
  Importer *im;
  const Onnx__NodeProto *n;
  MlirLocation loc;
  MlirValue in[MAX_IO]; /* null where the input name is "" (absent) */
  int nIn;
  Attr attrs[32];
  int nAttrs;
  char nn[64];
} Node;

/* Creates nn op `name` with placeholder results (unranked, of element type
 * `resultElement` or f32) and infers their types; null after an error. */
MlirOperation onnxBuild(Importer *im, MlirLocation loc, const char *name, const MlirValue *ins, int nIns,
                        int nResults, const Attr *attrs, int nAttrs, MlirType resultElement);
/* One result, operands a and (when not null) b. */
MlirOperation onnxBuild1(Importer *im, MlirLocation loc, const char *name, MlirValue a, MlirValue b,
                         const Attr *attrs, int nAttrs);
/* The integer values of a constant operand: the count, -1 if not a constant
 * of at most `max` values, -2 if a value is no int64. */
int onnxConstInts(MlirValue v, int64_t *out, int max);
/* The values of a constant operand as doubles: the count, -1 if not a
 * constant of at most `max` values. */
int onnxConstDoubles(MlirValue v, double *out, int max);
/* Integer values of constant input `index` named `what`; -1 after an error. */
int onnxInputInts(Node *x, int index, const char *what, int64_t *out, int max);
/* Output i of the node is v (nothing to bind when the output name is ""). */
bool onnxBindOutput(Node *x, size_t i, MlirValue v);
bool onnxBindValue(Node *x, MlirValue v);
void onnxDropAttr(Node *x, const char *name);
void onnxSetAttr(Node *x, const char *name, MlirAttribute a);
/* Error when an output from #keep on is used ("what" names them). */
bool onnxNoExtraOutputs(Node *x, size_t keep, const char *what);
bool onnxBindOutputs(Node *x, MlirOperation op, int count);
/* One-result nn ops of a (and b); null, after an error, when an operand is
 * null (an earlier step failed) or the op does not build. */
MlirValue onnxUnary(Node *x, const char *name, MlirValue a, const Attr *attrs, int nAttrs);
MlirValue onnxBinary(Node *x, const char *name, MlirValue a, MlirValue b, const Attr *attrs, int nAttrs);
/* in[start:end] along `axis` (an nn.slice with constant operands). */
MlirValue onnxSliceAxis(Node *x, MlirValue in, int64_t axis, int64_t start, int64_t end);
/* v converted to `elementType` (v itself when it has that type already). */
MlirValue onnxCast(Node *x, MlirValue v, MlirType elementType);
/* nn.where(cond, a, b), of a's element type. */
MlirValue onnxWhere(Node *x, MlirValue cond, MlirValue a, MlirValue b);
/* A 1-D i64 constant. */
MlirValue onnxI64Vector(Node *x, const int64_t *v, int64_t n);
/* The i64 constant 0..n-1 along `axis` of a rank-`rank` shape of 1s. */
/* The same to a run-time i64 scalar (rank 0) n. */
MlirValue onnxIotaTo(Node *x, int rank, int axis, MlirValue n);
MlirValue onnxIota(Node *x, int rank, int axis, int64_t n);
/* A rank-0 constant of a float or integer element type. */
MlirValue onnxScalarConst(Node *x, MlirType elementType, double value);
/* Creates the node's nn op (x->nn) from its inputs and attributes. */
bool onnxDirect(Node *x, int nResults);

/* Imports node #index of the graph as nn op(s); false after a located error. */
bool onnxImportNode(Importer *im, const Onnx__NodeProto *n, size_t index);

/* ---- Control flow (onnx_control.c) ---- */

/* If and Loop as scf.if / scf.while over their subgraphs. */
bool onnxImportIf(Node *x);
bool onnxImportLoop(Node *x);
/* The graph attribute `name` of the node; NULL after an error. */
const Onnx__GraphProto *onnxGraphAttr(Node *x, const char *name);
/* Imports graph g at the end of `block` in its own scope, its inputs bound
 * to the block's arguments (or to `inputs`, when given) and its outputs
 * returned in outs; false after a located error. */
bool onnxImportSubgraph(Node *x, const char *attr, const Onnx__GraphProto *g, MlirBlock block, const MlirValue *inputs,
                        MlirValue *outs);
/* A detached region holding one block with the given arguments. */
MlirRegion onnxNewRegion(MlirLocation loc, const MlirType *args, intptr_t n, MlirBlock *block);
/* Scan (opset 8: batched, sequence_lens; 9+: scan axes and directions) as
 * scf.for over its body (onnx_scan.c). */
bool onnxImportScan(Node *x);

/* ---- Operator versions (onnx_opset.c) ---- */

/* False, after a located error, when the node's op type is not in the
 * model's opset (added later, or removed). */
bool onnxCheckOpset(Importer *im, MlirLocation loc, const Onnx__NodeProto *n);
/* The opset 7-10 form of the node, where its op type has one: *handled is
 * set when the node was imported (or failed) here; false after an error. */
bool onnxImportLegacy(Node *x, bool *handled);
/* Upsample (opsets 7-9) and Resize-10 as nn.resize (onnx_legacy_resize.c). */
bool onnxImportLegacyResize(Node *x);

/* ---- Training (onnx_training.c) ---- */

#define ONNX_TRAINING_DOMAIN "ai.onnx.preview.training"
/* Adagrad, Adam and Momentum of the training domain, per tensor. */
bool onnxImportTraining(Node *x);
/* BatchNormalization with training_mode = 1: batch statistics, running ones updated. */
bool onnxImportBatchNormTraining(Node *x);

/* ---- Signal operators (onnx_signal.c) ---- */

/* The windows' output_datatype and DFT's axis input: *handled is set when
 * the node was imported (or failed) there. */
bool onnxImportSignal(Node *x, bool *handled);

/* ---- Compositions (onnx_compose.c) ---- */

/* Op types with no nn op of their own that import as compositions. */
bool onnxIsComposite(const char *opType);
/* The node as a composition of nn ops, where it needs one (see the file);
 * *handled is set when it was imported (or failed) there. */
bool onnxImportComposite(Node *x, bool *handled);
/* Softmax, LogSoftmax and Hardmax with their opset's axis semantics. */
bool onnxImportNormalizer(Node *x);
MlirType onnxElemOf(MlirValue v);
/* The static shape of v, or false after an error saying `why` needs it. */
bool onnxStaticShape(Node *x, MlirValue v, int *rank, int64_t *dims, const char *why);
/* Output i is v; false if v is null (an earlier step failed) or binding fails. */
bool onnxBindValueAt(Node *x, size_t i, MlirValue v);
/* (onnx_indexing.c) */
bool onnxImportOneHot(Node *x);
bool onnxImportGatherND(Node *x);
bool onnxImportScatterND(Node *x);
/* (onnx_einsum.c) Einsum of more than two inputs as two-operand steps. */
bool onnxImportEinsumChain(Node *x);

/* ---- Random operators (onnx_random.c) ---- */

/* Bernoulli, RandomUniform(Like), RandomNormal(Like). */
bool onnxIsRandom(const char *opType);
bool onnxImportRandom(Node *x);
/* Dropout whose training_mode is not a constant false. */
bool onnxImportDropoutTraining(Node *x);

#endif
