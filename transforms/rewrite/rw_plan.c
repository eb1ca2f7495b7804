/* Rewrite plans for --nn-algebraic-rewrite: matching helpers, replacement
 * expressions with broadcast result types, pricing and application. */
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/nn.h"
#include "strata/support.h"
#include "../analysis/nn_flops.h"
#include "../cleanup/nn_fold.h"
#include "rewrite.h"

/* How deep rwSame and rwIsConstant look: enough for the table's
 * subexpressions (Square(A+B), ReduceSum(B)), bounded so that a match costs
 * the same in any size of graph. */
enum { RW_EQUAL_DEPTH = 4 };

/* Ops with an associative, commutative or distributive property (DNNFusion's
 * ECG flags), plus constants. Everything else is a partition point. */
static const char *const kPropertyOps[] = {
    "nn.add", "nn.sub", "nn.mul", "nn.div", "nn.neg", "nn.reciprocal", "nn.sqrt", "nn.abs",
    "nn.exp", "nn.pow", "nn.bit_shift", "nn.max", "nn.min", "nn.reduce_sum", "nn.reduce_prod",
    "nn.reduce_mean", "nn.constant",
};

static bool isPropertyOp(MlirOperation op) {
  for (size_t i = 0; i < sizeof kPropertyOps / sizeof kPropertyOps[0]; i++)
    if (strataOpIsNamed(op, kPropertyOps[i])) return true;
  return false;
}

static bool isStaticTensor(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
}

/* Rewrites price ops with static shapes only; dynamic ones are skipped. */
static bool hasStaticShapes(MlirOperation op) {
  return mlirOperationGetNumResults(op) == 1 && nnHasStaticShapes(op) &&
         isStaticTensor(mlirValueGetType(mlirOperationGetResult(op, 0)));
}

static bool contains(const MlirOperation *ops, int n, MlirOperation op) {
  for (int i = 0; i < n; i++)
    if (mlirOperationEqual(ops[i], op)) return true;
  return false;
}

static void touch(RwPlan *p, MlirOperation op) {
  if (contains(p->touched, p->numTouched, op)) return;
  if (p->numTouched == RW_MAX_TOUCHED) {
    p->ok = false;
    return;
  }
  p->touched[p->numTouched++] = op;
}

void rwPlanInit(RwPlan *p, StrataContext *ctx, MlirOperation root) {
  memset(p, 0, sizeof *p);
  p->ctx = ctx;
  p->root = root;
  p->ok = hasStaticShapes(root);
  p->result = -1;
  p->removed[p->numRemoved++] = root;
  p->touched[p->numTouched++] = root;
}

MlirValue rwOperand(MlirOperation op, int i) {
  if (mlirOperationIsNull(op) || i >= mlirOperationGetNumOperands(op)) return (MlirValue){NULL};
  return mlirOperationGetOperand(op, i);
}

MlirValue rwResultOf(MlirOperation op) { return mlirOperationGetResult(op, 0); }

MlirOperation rwDef(RwPlan *p, MlirValue v, const char *name) {
  MlirOperation none = {NULL};
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v)) return none;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!isPropertyOp(op) || (name && !strataOpIsNamed(op, name)) || !hasStaticShapes(op) ||
      !mlirBlockEqual(mlirOperationGetBlock(op), mlirOperationGetBlock(p->root)))
    return none;
  touch(p, op);
  return op;
}

bool rwHasOneUse(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(use) && mlirOpOperandIsNull(mlirOpOperandGetNextUse(use));
}

bool rwFeedsOnly(MlirOperation root, const char *name) {
  MlirValue v = rwResultOf(root);
  if (!rwHasOneUse(v)) return false;
  MlirOperation user = mlirOpOperandGetOwner(mlirValueGetFirstUse(v));
  return strataOpIsNamed(user, name) && hasStaticShapes(user) &&
         mlirBlockEqual(mlirOperationGetBlock(user), mlirOperationGetBlock(root));
}

void rwConsume(RwPlan *p, MlirOperation op) {
  if (contains(p->removed, p->numRemoved, op)) return;
  if (p->numRemoved == RW_MAX_REMOVED) {
    p->ok = false;
    return;
  }
  p->removed[p->numRemoved++] = op;
}

static bool sameValue(RwPlan *p, MlirValue a, MlirValue b, int depth) {
  if (mlirValueEqual(a, b)) return true;
  if (depth == 0) return false;
  MlirOperation da = rwDef(p, a, NULL), db = rwDef(p, b, NULL);
  if (mlirOperationIsNull(da) || mlirOperationIsNull(db) ||
      !mlirIdentifierEqual(mlirOperationGetName(da), mlirOperationGetName(db)) ||
      mlirOperationGetNumOperands(da) != mlirOperationGetNumOperands(db) ||
      !mlirTypeEqual(mlirValueGetType(a), mlirValueGetType(b)) || !nnSameAttributes(da, db))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(da); i++)
    if (!sameValue(p, mlirOperationGetOperand(da, i), mlirOperationGetOperand(db, i), depth - 1))
      return false;
  return true;
}

bool rwSame(RwPlan *p, MlirValue a, MlirValue b) { return sameValue(p, a, b, RW_EQUAL_DEPTH); }

static bool usedOnlyByRemoved(const RwPlan *p, MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    if (!contains(p->removed, p->numRemoved, mlirOpOperandGetOwner(u))) return false;
  return true;
}

/* The duplicate's own op goes (it must be exclusive, checked when the plan
 * is priced); ops below it go only if nothing else uses them -- they are
 * not the rule's intermediates, just what becomes dead with it. Constants
 * stay for --nn-fold's DCE. */
static void dropDuplicate(RwPlan *p, MlirValue dup, MlirValue keep, bool top) {
  if (mlirValueEqual(dup, keep)) return;
  MlirOperation d = rwDef(p, dup, NULL), k = rwDef(p, keep, NULL);
  if (mlirOperationIsNull(d) || mlirOperationIsNull(k) || strataOpIsNamed(d, "nn.constant")) return;
  if (!top && !usedOnlyByRemoved(p, dup)) return;
  rwConsume(p, d);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(d); i++)
    dropDuplicate(p, mlirOperationGetOperand(d, i), mlirOperationGetOperand(k, i), false);
}

void rwDropDuplicate(RwPlan *p, MlirValue dup, MlirValue keep) { dropDuplicate(p, dup, keep, true); }

static bool isConstant(RwPlan *p, MlirValue v, int depth) {
  MlirOperation d = rwDef(p, v, NULL);
  if (mlirOperationIsNull(d)) return false;
  if (strataOpIsNamed(d, "nn.constant")) return true;
  intptr_t n = mlirOperationGetNumOperands(d);
  if (depth == 0 || n == 0) return false;
  for (intptr_t i = 0; i < n; i++)
    if (!isConstant(p, mlirOperationGetOperand(d, i), depth - 1)) return false;
  return true;
}

bool rwIsConstant(RwPlan *p, MlirValue v) { return isConstant(p, v, RW_EQUAL_DEPTH); }

static MlirType elementTypeOf(MlirValue v) {
  if (mlirValueIsNull(v)) return (MlirType){NULL};
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsATensor(t) ? mlirShapedTypeGetElementType(t) : (MlirType){NULL};
}

bool rwIsFloat(MlirValue v) {
  MlirType e = elementTypeOf(v);
  return !mlirTypeIsNull(e) && mlirTypeIsAFloat(e);
}

bool rwIsUnsigned(MlirValue v) {
  MlirType e = elementTypeOf(v);
  return !mlirTypeIsNull(e) && mlirTypeIsAInteger(e) && mlirIntegerTypeIsUnsigned(e);
}

int64_t rwNumElements(MlirValue v) {
  if (mlirValueIsNull(v) || !isStaticTensor(mlirValueGetType(v))) return -1;
  MlirType t = mlirValueGetType(v);
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) n *= mlirShapedTypeGetDimSize(t, i);
  return n;
}

/* ---- Replacement nodes ---- */

static int newNode(RwPlan *p, RwNodeKind kind, MlirType type) {
  if (!p->ok || mlirTypeIsNull(type) || p->numNodes == RW_MAX_NODES) {
    p->ok = false;
    return -1;
  }
  RwNode *n = &p->nodes[p->numNodes];
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->type = type;
  return p->numNodes++;
}

int rwLeaf(RwPlan *p, MlirValue v) {
  if (mlirValueIsNull(v) || !isStaticTensor(mlirValueGetType(v))) {
    p->ok = false;
    return -1;
  }
  for (int i = 0; i < p->numNodes; i++)
    if (p->nodes[i].kind == RW_LEAF && mlirValueEqual(p->nodes[i].value, v)) return i;
  if (mlirValueIsAOpResult(v)) touch(p, mlirOpResultGetOwner(v));
  int n = newNode(p, RW_LEAF, mlirValueGetType(v));
  if (n >= 0) p->nodes[n].value = v;
  return n;
}

/* Multidirectional broadcast of the operand nodes' types, with the
 * dialect's own rule; null if they do not broadcast or mix element types. */
static MlirType broadcastType(const RwPlan *p, const int *args, int numArgs) {
  MlirType elem = mlirShapedTypeGetElementType(p->nodes[args[0]].type);
  int rank = 0;
  int64_t dims[STRATA_MAX_RANK];
  for (int i = 0; i < numArgs; i++) {
    MlirType t = p->nodes[args[i]].type;
    int r, outRank, bad;
    int64_t d[STRATA_MAX_RANK], out[STRATA_MAX_RANK];
    if (!mlirTypeEqual(mlirShapedTypeGetElementType(t), elem) || !strataGetShape(t, &r, d))
      return (MlirType){NULL};
    if (i == 0) {
      rank = r;
      memcpy(dims, d, sizeof d);
      continue;
    }
    if (!nn_infer_broadcast_shape(dims, rank, d, r, out, &outRank, &bad)) return (MlirType){NULL};
    rank = outRank;
    memcpy(dims, out, sizeof out);
  }
  return strataTensorType(elem, rank, dims);
}

int rwOp(RwPlan *p, const char *name, const int *args, int numArgs, MlirOperation attrsFrom,
         MlirType type) {
  for (int i = 0; i < numArgs; i++)
    if (args[i] < 0) p->ok = false;
  if (!p->ok || numArgs < 1 || numArgs > 2) {
    p->ok = false;
    return -1;
  }
  if (mlirTypeIsNull(type)) type = broadcastType(p, args, numArgs);
  int n = newNode(p, RW_OP, type);
  if (n < 0) return -1;
  RwNode *node = &p->nodes[n];
  node->name = name;
  node->numArgs = numArgs;
  memcpy(node->args, args, (size_t)numArgs * sizeof *args);
  node->attrsFrom = attrsFrom;
  return n;
}

int rwUnary(RwPlan *p, const char *name, int a) {
  return rwOp(p, name, (int[]){a}, 1, (MlirOperation){NULL}, (MlirType){NULL});
}

int rwBinary(RwPlan *p, const char *name, int a, int b) {
  return rwOp(p, name, (int[]){a, b}, 2, (MlirOperation){NULL}, (MlirType){NULL});
}

int rwScalar(RwPlan *p, double v, int like) {
  if (like < 0 || !p->ok) {
    p->ok = false;
    return -1;
  }
  MlirType elem = mlirShapedTypeGetElementType(p->nodes[like].type);
  int n = newNode(p, RW_SCALAR, strataTensorType(elem, 0, NULL));
  if (n >= 0) p->nodes[n].scalar = v;
  return n;
}

void rwSetResult(RwPlan *p, int node) {
  if (node < 0) p->ok = false;
  p->result = node;
}

/* ---- Pricing and application ---- */

static MlirAttribute scalarAttr(MlirType type, double v) {
  return mlirDenseElementsAttrSplatGet(type, strataNumberAttr(mlirShapedTypeGetElementType(type), v));
}

/* Creates the plan's new ops, detached, in node order (operands first).
 * values[i] is node i's value; returns how many ops were created. */
static int build(const RwPlan *p, MlirOperation *ops, MlirValue *values) {
  StrataBuilder detached = {mlirOperationGetContext(p->root), {NULL}, {NULL}, {NULL}};
  MlirLocation loc = mlirOperationGetLocation(p->root);
  int count = 0;
  for (int i = 0; i < p->numNodes; i++) {
    const RwNode *n = &p->nodes[i];
    if (n->kind == RW_LEAF) {
      values[i] = n->value;
      continue;
    }
    MlirOperation op;
    if (n->kind == RW_SCALAR) {
      op = strataCreateOp(&detached, "nn.constant", loc, .results = STRATA_TYPES(n->type),
                          .attrs = STRATA_ATTRS({"value", scalarAttr(n->type, n->scalar)}));
    } else {
      MlirValue args[2] = {values[n->args[0]], n->numArgs > 1 ? values[n->args[1]] : values[n->args[0]]};
      op = strataCreateOp(&detached, n->name, loc, .operands = {args, n->numArgs},
                          .results = STRATA_TYPES(n->type));
      for (intptr_t k = 0; !mlirOperationIsNull(n->attrsFrom) && k < mlirOperationGetNumAttributes(n->attrsFrom); k++) {
        MlirNamedAttribute a = mlirOperationGetAttribute(n->attrsFrom, k);
        mlirOperationSetAttributeByName(op, mlirIdentifierStr(a.name), a.attribute);
      }
    }
    ops[count++] = op;
    values[i] = strataResult(op, 0);
  }
  return count;
}

static void addCost(StrataContext *ctx, MlirOperation op, double *flops, double *bytes) {
  const StrataOpDef *def = strataContextGetOpDef(ctx, op);
  if (def) *flops += strataOpFlops(def, op);
  *bytes += strataOpBytes(op);
}

/* Structural checks: the replacement has the root's exact type (broadcasting
 * must not change it), every deleted intermediate is used only inside the
 * match, and no leaf is a value the rewrite deletes. */
static bool wellFormed(const RwPlan *p) {
  if (!p->ok || p->result < 0 ||
      !mlirTypeEqual(p->nodes[p->result].type, mlirValueGetType(rwResultOf(p->root))))
    return false;
  for (int i = 1; i < p->numRemoved; i++)
    if (!usedOnlyByRemoved(p, rwResultOf(p->removed[i]))) return false;
  for (int i = 0; i < p->numNodes; i++) {
    MlirValue v = p->nodes[i].value;
    if (p->nodes[i].kind == RW_LEAF && mlirValueIsAOpResult(v) &&
        contains(p->removed, p->numRemoved, mlirOpResultGetOwner(v)))
      return false;
  }
  return true;
}

bool rwEvaluate(RwPlan *p, RwSaving *s) {
  memset(s, 0, sizeof *s);
  if (!wellFormed(p)) return false;
  double bytesBefore = 0, bytesAfter = 0;
  for (int i = 0; i < p->numRemoved; i++) addCost(p->ctx, p->removed[i], &s->flopsBefore, &bytesBefore);
  MlirOperation ops[RW_MAX_NODES];
  MlirValue values[RW_MAX_NODES];
  int n = build(p, ops, values);
  for (int i = 0; i < n; i++) addCost(p->ctx, ops[i], &s->flopsAfter, &bytesAfter);
  for (int i = n - 1; i >= 0; i--) mlirOperationDestroy(ops[i]); /* users first */
  s->flops = s->flopsBefore - s->flopsAfter;
  s->bytes = bytesBefore - bytesAfter;
  return s->flops > 0 || (s->flops == 0 && s->bytes > 0);
}

void rwApply(StrataRewrite *rw, RwPlan *p) {
  MlirOperation ops[RW_MAX_NODES];
  MlirValue values[RW_MAX_NODES];
  int n = build(p, ops, values);
  for (int i = 0; i < n; i++) {
    mlirRewriterBaseSetInsertionPointBefore(rw->rewriter, p->root);
    mlirRewriterBaseInsert(rw->rewriter, ops[i]);
  }
  strataReplaceOp(rw, p->root, STRATA_VALUES(values[p->result]));
  /* The intermediates, users before producers. */
  bool erased[RW_MAX_REMOVED] = {true};
  for (bool progress = true; progress;) {
    progress = false;
    for (int i = 1; i < p->numRemoved; i++) {
      if (erased[i] || !mlirOpOperandIsNull(mlirValueGetFirstUse(rwResultOf(p->removed[i])))) continue;
      strataEraseOp(rw, p->removed[i]);
      erased[i] = progress = true;
    }
  }
}
