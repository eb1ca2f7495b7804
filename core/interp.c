/* The reference interpreter's driver: walks a function body in order, keeps
 * a tensor per SSA value, and dispatches each op to its dialect's kernel. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "internal.h"
#include "strata/interpreter.h"
#include "strata/support.h"

struct StrataInterp {
  StrataContext *ctx;
  StrataInterpObserver observer; /* called after each op; may be NULL */
  void *observerUser;
  /* Open-addressing map from MlirValue to its tensor. */
  const void **keys;
  StrataTensor **vals;
  size_t cap, count;
  /* The functions func.call is running, innermost last: a value has one
   * slot in the map, so a function may not be entered again while active. */
  MlirOperation calls[STRATA_INTERP_MAX_CALLS];
  int numCalls;
};

bool strataInterpEnterCall(StrataInterp *in, MlirOperation func) {
  if (in->numCalls == STRATA_INTERP_MAX_CALLS) return false;
  for (int i = 0; i < in->numCalls; i++)
    if (mlirOperationEqual(in->calls[i], func)) return false;
  in->calls[in->numCalls++] = func;
  return true;
}

void strataInterpLeaveCall(StrataInterp *in) {
  if (in->numCalls > 0) in->numCalls--;
}

static size_t slotOf(const StrataInterp *in, const void *key) {
  size_t h = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull;
  size_t i = h & (in->cap - 1);
  while (in->keys[i] && in->keys[i] != key) i = (i + 1) & (in->cap - 1);
  return i;
}

static bool mapPut(StrataInterp *in, MlirValue v, StrataTensor *t) {
  if (2 * (in->count + 1) > in->cap) {
    size_t oldCap = in->cap, cap = oldCap ? 2 * oldCap : 64;
    const void **oldKeys = in->keys;
    StrataTensor **oldVals = in->vals;
    in->keys = calloc(cap, sizeof *in->keys);
    in->vals = calloc(cap, sizeof *in->vals);
    if (!in->keys || !in->vals) {
      free(in->keys);
      free(in->vals);
      in->keys = oldKeys;
      in->vals = oldVals;
      return false;
    }
    in->cap = cap;
    for (size_t i = 0; i < oldCap; i++)
      if (oldKeys[i]) {
        size_t s = slotOf(in, oldKeys[i]);
        in->keys[s] = oldKeys[i];
        in->vals[s] = oldVals[i];
      }
    free(oldKeys);
    free(oldVals);
  }
  size_t s = slotOf(in, v.ptr);
  if (!in->keys[s]) in->count++;
  else strataTensorDestroy(in->vals[s]);
  in->keys[s] = v.ptr;
  in->vals[s] = t;
  return true;
}

static StrataTensor *mapGet(const StrataInterp *in, MlirValue v) {
  if (!in->cap) return NULL;
  size_t s = slotOf(in, v.ptr);
  return in->keys[s] ? in->vals[s] : NULL;
}

StrataTensor *strataInterpGet(StrataInterp *in, MlirValue v) { return mapGet(in, v); }
bool strataInterpSet(StrataInterp *in, MlirValue v, StrataTensor *t) {
  if (mapPut(in, v, t)) return true;
  strataTensorDestroy(t);
  return false;
}

static void interpFree(StrataInterp *in) {
  for (size_t i = 0; i < in->cap; i++)
    if (in->keys[i]) strataTensorDestroy(in->vals[i]);
  free(in->keys);
  free(in->vals);
}

MlirOperation strataLookupFunc(MlirModule module, const char *name) {
  MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef opName = mlirIdentifierStr(mlirOperationGetName(op));
    if (opName.length != 9 || strncmp(opName.data, "func.func", 9) != 0) continue;
    MlirAttribute sym = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_name"));
    MlirAttribute vis =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("sym_visibility"));
    bool external = mlirRegionIsNull(mlirOperationGetRegion(op, 0)) ||
                    mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0)));
    if (name) {
      MlirStringRef s = mlirStringAttrGetValue(sym);
      if (s.length == strlen(name) && strncmp(s.data, name, s.length) == 0) return op;
    } else if (mlirAttributeIsNull(vis) && !external) {
      return op;
    }
  }
  return (MlirOperation){NULL};
}

MlirType strataFuncSignature(MlirOperation func, char *name, size_t nameSize) {
  MlirStringRef s = mlirStringAttrGetValue(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("sym_name")));
  snprintf(name, nameSize, "%.*s", (int)s.length, s.data);
  return mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(func, mlirStringRefCreateFromCString("function_type")));
}

/* The tensor type the interpreter holds a value of type `t` in: a vector as
 * the tensor of its shape, an integer or float scalar (an i1 predicate, say)
 * as a rank-0 tensor, an index as a rank-0 i64 tensor; tensors as they are. */
MlirType strataInterpHeldType(MlirType t) {
  if (mlirTypeIsAVector(t)) {
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t dims[rank ? rank : 1];
    for (intptr_t i = 0; i < rank; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
    return mlirRankedTensorTypeGet(rank, dims, mlirShapedTypeGetElementType(t), mlirAttributeGetNull());
  }
  if (mlirTypeIsAIndex(t)) t = mlirIntegerTypeGet(mlirTypeGetContext(t), 64);
  if (mlirTypeIsAInteger(t) || mlirTypeIsAFloat(t))
    return mlirRankedTensorTypeGet(0, NULL, t, mlirAttributeGetNull());
  return t;
}

/* An op with results of dynamic type runs as a concrete clone: its
 * operands of dynamic type become block arguments of their run-time types,
 * and its small integer and float operands that are not constants
 * (run-time starts, shapes, pads, k, scales...) become constants of their
 * run-time values. The op's
 * own shape inference then gives static result shapes, which allocate
 * outputs[i], and its kernel reads the values as it reads constants. A
 * result that stays dynamic (data-dependent) is left NULL for the kernel. */
typedef struct {
  MlirBlock block;
  MlirOperation clone;
} Concrete;

/* Run-time values that become constants: integer and float tensors up to
 * this many elements (the operands that fix a shape: Resize's scales are
 * floats). */
#define CONCRETE_MAX_VALUES 64

static bool isConstantOp(MlirValue v) {
  if (!mlirValueIsAOpResult(v)) return false;
  MlirOperation d = mlirOpResultGetOwner(v);
  return strataOpIsNamed(d, "nn.constant") || strataOpIsNamed(d, "arith.constant");
}

static bool makeConcrete(const StrataOpDef *def, MlirOperation op, StrataTensor *const *inputs,
                         StrataTensor **outputs, Concrete *c) {
  *c = (Concrete){{NULL}, {NULL}};
  intptr_t numOperands = mlirOperationGetNumOperands(op), numResults = mlirOperationGetNumResults(op);
  bool any = false;
  for (intptr_t i = 0; i < numResults; i++) any |= !outputs[i];
  if (!any || !def->infer || mlirOperationGetNumRegions(op)) return true;
  MlirType types[numOperands ? numOperands : 1];
  MlirLocation locs[numOperands ? numOperands : 1];
  MlirLocation loc = mlirOperationGetLocation(op);
  for (intptr_t i = 0; i < numOperands; i++) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (mlirTypeIsARankedTensor(t) && !mlirShapedTypeHasStaticShape(t))
      t = mlirRankedTensorTypeGet(inputs[i]->rank, inputs[i]->dims, mlirShapedTypeGetElementType(t),
                                  mlirAttributeGetNull());
    types[i] = t;
    locs[i] = loc;
  }
  c->block = mlirBlockCreate(numOperands, types, locs);
  c->clone = mlirOperationClone(op);
  for (intptr_t i = 0; i < numOperands; i++) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirType t = types[i];
    MlirType et = mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetElementType(t) : t;
    bool value = mlirTypeIsARankedTensor(t) && (mlirTypeIsAInteger(et) || mlirTypeIsAFloat(et)) &&
                 !isConstantOp(v) && strataTensorNumElements(inputs[i]) <= CONCRETE_MAX_VALUES;
    MlirAttribute attr = value ? strataTensorToAttr(t, inputs[i]) : mlirAttributeGetNull();
    if (!mlirAttributeIsNull(attr)) {
      MlirOperationState st = mlirOperationStateGet(mlirStringRefCreateFromCString("arith.constant"), loc);
      MlirNamedAttribute named = mlirNamedAttributeGet(
          mlirIdentifierGet(mlirTypeGetContext(t), mlirStringRefCreateFromCString("value")), attr);
      mlirOperationStateAddAttributes(&st, 1, &named);
      mlirOperationStateAddResults(&st, 1, &t);
      MlirOperation k = mlirOperationCreate(&st);
      mlirBlockAppendOwnedOperation(c->block, k);
      mlirOperationSetOperand(c->clone, i, mlirOperationGetResult(k, 0));
    } else if (!mlirTypeEqual(t, mlirValueGetType(v))) {
      mlirOperationSetOperand(c->clone, i, mlirBlockGetArgument(c->block, i));
    }
  }
  StrataShape inferred[numResults ? numResults : 1];
  memset(inferred, 0, sizeof inferred);
  if (mlirLogicalResultIsFailure(def->infer(def, c->clone, inferred))) return false;
  for (intptr_t i = 0; i < numResults; i++) {
    if (outputs[i] || inferred[i].rank < 0) continue;
    bool known = true;
    for (int d = 0; d < inferred[i].rank; d++) known &= inferred[i].dims[d] >= 0;
    StrataDType dt = strataDTypeFromMlir(
        mlirShapedTypeGetElementType(mlirValueGetType(mlirOperationGetResult(op, i))));
    if (known) outputs[i] = strataTensorCreate(dt, inferred[i].rank, inferred[i].dims);
  }
  return true;
}

static void concreteDestroy(Concrete *c) {
  if (!mlirOperationIsNull(c->clone)) mlirOperationDestroy(c->clone);
  if (!mlirBlockIsNull(c->block)) mlirBlockDestroy(c->block);
}

static MlirLogicalResult runOp(StrataInterp *in, MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  intptr_t numResults = mlirOperationGetNumResults(op);
  const StrataOpDef *def = strataContextGetOpDef(in->ctx, op);
  if (!def) { /* upstream ops: scf control flow, tensor element moves, arith (interp_upstream.c) */
    bool handled;
    MlirLogicalResult r = strataInterpretUpstream(in, op, &handled);
    if (handled) return r;
  }
  if (!def || !def->interpret) {
    strataEmitError(loc, "interpreter: no reference semantics for '%.*s'", (int)name.length,
                    name.data);
    return mlirLogicalResultFailure();
  }
  intptr_t numOperands = mlirOperationGetNumOperands(op);
  StrataTensor *inputs[numOperands ? numOperands : 1], *outputs[numResults ? numResults : 1];
  for (intptr_t i = 0; i < numOperands; i++) {
    inputs[i] = mapGet(in, mlirOperationGetOperand(op, i));
    if (!inputs[i]) {
      strataEmitError(loc, "interpreter: operand #%d of '%.*s' has no value (defined by an op "
                      "the interpreter did not run)", (int)i, (int)name.length, name.data);
      return mlirLogicalResultFailure();
    }
  }
  for (intptr_t i = 0; i < numResults; i++) {
    MlirType declared = mlirValueGetType(mlirOperationGetResult(op, i)), t = strataInterpHeldType(declared);
    outputs[i] = strataTensorCreateForType(t);
    bool dynamic = mlirTypeIsARankedTensor(t) && !mlirShapedTypeHasStaticShape(t) &&
                   strataDTypeFromMlir(mlirShapedTypeGetElementType(t)) != STRATA_DTYPE_INVALID;
    if (!outputs[i] && !dynamic) {
      for (intptr_t j = 0; j < i; j++) strataTensorDestroy(outputs[j]);
      char ts[256], why[160];
      strataTypeToString(declared, ts, sizeof ts);
      strataTensorTypeProblem(t, why, sizeof why);
      strataEmitError(loc, "interpreter: result #%d of '%.*s' has type %s, which %s", (int)i,
                      (int)name.length, name.data, ts, why);
      return mlirLogicalResultFailure();
    }
  }
  Concrete concrete;
  if (!makeConcrete(def, op, inputs, outputs, &concrete)) {
    concreteDestroy(&concrete);
    for (intptr_t i = 0; i < numResults; i++) strataTensorDestroy(outputs[i]);
    return mlirLogicalResultFailure();
  }
  MlirLogicalResult r =
      def->interpret(in, mlirOperationIsNull(concrete.clone) ? op : concrete.clone, inputs, outputs);
  concreteDestroy(&concrete);
  for (intptr_t i = 0; i < numResults && mlirLogicalResultIsSuccess(r); i++) {
    if (!outputs[i] ||
        !strataTensorMatchesType(outputs[i], strataInterpHeldType(mlirValueGetType(mlirOperationGetResult(op, i))))) {
      strataEmitError(loc, "interpreter: '%.*s' produced no result #%d of its declared type "
                      "(its shape depends on values this kernel cannot resolve)",
                      (int)name.length, name.data, (int)i);
      r = mlirLogicalResultFailure();
    }
  }
  for (intptr_t i = 0; i < numResults; i++) {
    if (mlirLogicalResultIsSuccess(r)) {
      if (!mapPut(in, mlirOperationGetResult(op, i), outputs[i])) {
        r = mlirLogicalResultFailure();
        strataTensorDestroy(outputs[i]);
      }
    } else {
      strataTensorDestroy(outputs[i]); /* NULL-safe */
    }
  }
  return r;
}

/* Runs `op` and reports it to the observer. */
static MlirLogicalResult runObserved(StrataInterp *in, MlirOperation op) {
  MlirLogicalResult r = runOp(in, op);
  if (mlirLogicalResultIsSuccess(r) && in->observer) {
    intptr_t n = mlirOperationGetNumResults(op);
    const StrataTensor *results[n ? n : 1];
    for (intptr_t i = 0; i < n; i++) results[i] = mapGet(in, mlirOperationGetResult(op, i));
    in->observer(op, results, n, in->observerUser);
  }
  return r;
}

StrataTensor *strataTensorCopy(const StrataTensor *t) {
  StrataTensor *c = t ? strataTensorCreate(t->dtype, t->rank, t->dims) : NULL;
  if (c) memcpy(c->data, t->data, strataTensorNumBytes(t));
  return c;
}

MlirLogicalResult strataInterpretBlock(StrataInterp *in, MlirBlock block, StrataTensor *const *args,
                                       size_t numArgs, StrataTensor ***results, size_t *numResults) {
  *results = NULL;
  *numResults = 0;
  /* The block's last op passes its results on (whatever terminator the op's
   * definition expects: an IRDL op cannot be one, so an upstream one). */
  MlirOperation terminator = {NULL};
  for (MlirOperation o = mlirBlockGetFirstOperation(block); !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    terminator = o;
  MlirOperation parent = mlirBlockGetParentOperation(block);
  if (mlirOperationIsNull(terminator) || (size_t)mlirBlockGetNumArguments(block) != numArgs) {
    if (!mlirOperationIsNull(parent))
      strataEmitError(mlirOperationGetLocation(parent),
                      "interpreter: a region block takes %d arguments and ends with the op passing "
                      "its results on; %zu arguments given%s",
                      (int)mlirBlockGetNumArguments(block), numArgs,
                      mlirOperationIsNull(terminator) ? " to an empty block" : "");
    return mlirLogicalResultFailure();
  }
  for (size_t i = 0; i < numArgs; i++) {
    MlirValue arg = mlirBlockGetArgument(block, (intptr_t)i);
    StrataTensor *copy = strataTensorCopy(args[i]);
    if (!copy || !strataTensorMatchesType(copy, strataInterpHeldType(mlirValueGetType(arg)))) {
      char want[256], have[256];
      strataTypeToString(mlirValueGetType(arg), want, sizeof want);
      if (args[i]) strataTensorFormatType(args[i], have, sizeof have);
      else snprintf(have, sizeof have, "no value");
      strataEmitError(mlirOperationGetLocation(mlirOperationIsNull(parent) ? terminator : parent),
                      "interpreter: region argument #%zu has shape %s, the block expects %s", i,
                      have, want);
      strataTensorDestroy(copy);
      return mlirLogicalResultFailure();
    }
    if (!mapPut(in, arg, copy)) {
      strataTensorDestroy(copy);
      return mlirLogicalResultFailure();
    }
  }
  for (MlirOperation op = mlirBlockGetFirstOperation(block); !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op))
    if (mlirLogicalResultIsFailure(runObserved(in, op))) return mlirLogicalResultFailure();
  intptr_t n = mlirOperationGetNumOperands(terminator);
  StrataTensor **outs = calloc(n ? (size_t)n : 1, sizeof *outs);
  if (!outs) return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < n; i++) {
    outs[i] = strataTensorCopy(mapGet(in, mlirOperationGetOperand(terminator, i)));
    if (!outs[i]) {
      MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(terminator));
      strataEmitError(mlirOperationGetLocation(terminator),
                      "interpreter: operand #%d of '%.*s' has no value", (int)i, (int)name.length,
                      name.data);
      for (intptr_t j = 0; j < i; j++) strataTensorDestroy(outs[j]);
      free(outs);
      return mlirLogicalResultFailure();
    }
  }
  *results = outs;
  *numResults = (size_t)n;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult strataInterpret(StrataContext *ctx, MlirOperation func,
                                  StrataTensor *const *inputs, size_t numInputs,
                                  StrataTensor ***outputs, size_t *numOutputs) {
  return strataInterpretObserved(ctx, func, inputs, numInputs, outputs, numOutputs, NULL, NULL);
}

MlirLogicalResult strataInterpretObserved(StrataContext *ctx, MlirOperation func,
                                          StrataTensor *const *inputs, size_t numInputs,
                                          StrataTensor ***outputs, size_t *numOutputs,
                                          StrataInterpObserver observer, void *user) {
  *outputs = NULL;
  *numOutputs = 0;
  MlirLocation loc = mlirOperationGetLocation(func);
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry) || !mlirBlockIsNull(mlirBlockGetNextInRegion(entry))) {
    strataEmitError(loc, "interpreter: the function must have a body of exactly one block");
    return mlirLogicalResultFailure();
  }
  if ((size_t)mlirBlockGetNumArguments(entry) != numInputs) {
    strataEmitError(loc, "interpreter: the function takes %d inputs, %zu given",
                    (int)mlirBlockGetNumArguments(entry), numInputs);
    return mlirLogicalResultFailure();
  }
  StrataInterp in = {ctx, observer, user, NULL, NULL, 0, 0, {{NULL}}, 0};
  strataInterpEnterCall(&in, func); /* the entry function is active too */
  MlirLogicalResult r = mlirLogicalResultSuccess();
  for (size_t i = 0; i < numInputs && mlirLogicalResultIsSuccess(r); i++) {
    MlirValue arg = mlirBlockGetArgument(entry, (intptr_t)i);
    StrataTensor *copy = strataTensorCreate(inputs[i]->dtype, inputs[i]->rank, inputs[i]->dims);
    if (!copy || !strataTensorMatchesType(inputs[i], strataInterpHeldType(mlirValueGetType(arg)))) {
      char want[256], have[256];
      strataTypeToString(mlirValueGetType(arg), want, sizeof want);
      strataTensorFormatType(inputs[i], have, sizeof have);
      strataEmitError(loc, "interpreter: input #%zu has shape %s, the function expects %s", i,
                      have, want);
      strataTensorDestroy(copy);
      r = mlirLogicalResultFailure();
      break;
    }
    memcpy(copy->data, inputs[i]->data, strataTensorNumBytes(copy));
    if (!mapPut(&in, arg, copy)) r = mlirLogicalResultFailure();
  }
  MlirOperation op = mlirBlockGetFirstOperation(entry);
  for (; mlirLogicalResultIsSuccess(r) && !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    if (name.length == 11 && !strncmp(name.data, "func.return", 11)) {
      intptr_t n = mlirOperationGetNumOperands(op);
      StrataTensor **outs = calloc(n ? (size_t)n : 1, sizeof *outs);
      if (!outs) {
        r = mlirLogicalResultFailure();
        break;
      }
      for (intptr_t i = 0; i < n; i++) {
        StrataTensor *t = mapGet(&in, mlirOperationGetOperand(op, i));
        outs[i] = t ? strataTensorCreate(t->dtype, t->rank, t->dims) : NULL;
        if (outs[i]) memcpy(outs[i]->data, t->data, strataTensorNumBytes(t));
      }
      *outputs = outs;
      *numOutputs = (size_t)n;
      break;
    }
    r = runObserved(&in, op);
  }
  interpFree(&in);
  return r;
}
