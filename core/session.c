/* Sessions (strata/session.h): a module with its entry function's
 * signature, compiled through a target (or run by the interpreter), and
 * calls that check their inputs and allocate their outputs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/interpreter.h"
#include "strata/pass.h"
#include "strata/session.h"
#include "strata/support.h"

struct StrataSession {
  StrataContext *ctx;
  MlirModule module;
  MlirOperation func;
  char entry[256];
  MlirType ftype;
  StrataExecutable *exe; /* NULL: the interpreter runs func */
  bool fromCache;        /* the model cache gave exe (strataSessionCreateFromFile) */
  char *storeDir;        /* after the first call, store exe there under storeKey */
  char storeKey[33];
};

void strataSessionDestroy(StrataSession *s) {
  if (!s) return;
  free(s->storeDir);
  strataExecutableDestroy(s->exe);
  if (!mlirModuleIsNull(s->module)) mlirModuleDestroy(s->module);
  free(s);
}

StrataSession *strataSessionCreate(StrataContext *ctx, MlirModule module, const StrataSessionOptions *options) {
  if (mlirModuleIsNull(module)) return NULL;
  StrataSessionOptions o = options ? *options : (StrataSessionOptions){.compile = {.optLevel = 2}};
  MlirOperation op = mlirModuleGetOperation(module);
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataSession *s = calloc(1, sizeof *s);
  if (!s) {
    strataEmitError(loc, "out of memory");
    mlirModuleDestroy(module);
    return NULL;
  }
  *s = (StrataSession){.ctx = ctx, .module = module};
  if (mlirLogicalResultIsFailure(strataVerify(ctx, op)) ||
      (o.passes && mlirLogicalResultIsFailure(strataRunPipeline(ctx, op, o.passes))))
    goto fail;
  s->func = strataLookupFunc(module, o.entry);
  if (mlirOperationIsNull(s->func)) {
    if (o.entry) strataEmitError(loc, "no function '%s' in the module", o.entry);
    else strataEmitError(loc, "no public function with a body in the module");
    goto fail;
  }
  s->ftype = strataFuncSignature(s->func, s->entry, sizeof s->entry);
  if (o.target && !strcmp(o.target, "interpreter")) return s;
  if ((s->exe = strataCompile(ctx, module, o.target, &o.compile))) return s;
fail:
  strataSessionDestroy(s);
  return NULL;
}

StrataSession *strataSessionAdopt(StrataContext *ctx, MlirModule module, StrataExecutable *exe) {
  StrataSession *s = calloc(1, sizeof *s);
  if (!s) {
    strataEmitError(mlirOperationGetLocation(mlirModuleGetOperation(module)), "out of memory");
    strataExecutableDestroy(exe);
    mlirModuleDestroy(module);
    return NULL;
  }
  *s = (StrataSession){.ctx = ctx, .module = module, .exe = exe, .fromCache = true};
  s->func = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
  s->ftype = strataFuncSignature(s->func, s->entry, sizeof s->entry);
  return s;
}

void strataSessionStoreAfterFirstCall(StrataSession *s, const char *dir, const char *key) {
  free(s->storeDir);
  s->storeDir = s->exe ? strdup(dir) : NULL;
  memcpy(s->storeKey, key, sizeof s->storeKey);
}

bool strataSessionFromCache(const StrataSession *s) { return s->fromCache; }

size_t strataSessionNumInputs(const StrataSession *s) { return (size_t)mlirFunctionTypeGetNumInputs(s->ftype); }
size_t strataSessionNumOutputs(const StrataSession *s) { return (size_t)mlirFunctionTypeGetNumResults(s->ftype); }

static MlirType sigType(const StrataSession *s, bool output, size_t i) {
  if (i >= (output ? strataSessionNumOutputs(s) : strataSessionNumInputs(s))) return (MlirType){NULL};
  return output ? mlirFunctionTypeGetResult(s->ftype, (intptr_t)i) : mlirFunctionTypeGetInput(s->ftype, (intptr_t)i);
}

bool strataSessionGetType(const StrataSession *s, bool output, size_t i, StrataDType *dtype, int *rank,
                          int64_t *dims) {
  MlirType t = sigType(s, output, i);
  if (mlirTypeIsNull(t) || !mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > STRATA_MAX_RANK) return false;
  *dtype = strataDTypeFromMlir(mlirShapedTypeGetElementType(t));
  *rank = (int)mlirShapedTypeGetRank(t);
  for (int d = 0; d < *rank; d++)
    dims[d] = mlirShapedTypeIsDynamicDim(t, d) ? -1 : mlirShapedTypeGetDimSize(t, d);
  return *dtype != STRATA_DTYPE_INVALID;
}

size_t strataSessionGetName(const StrataSession *s, bool output, size_t i, char *buf, size_t size) {
  if (size) *buf = 0;
  if (i >= (output ? strataSessionNumOutputs(s) : strataSessionNumInputs(s))) return 0;
  MlirAttribute all = mlirOperationGetAttributeByName(s->func, mlirStringRefCreateFromCString(output ? "res_attrs" : "arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) || (intptr_t)i >= mlirArrayAttrGetNumElements(all)) return 0;
  MlirAttribute dict = mlirArrayAttrGetElement(all, (intptr_t)i);
  MlirAttribute name = mlirAttributeIsADictionary(dict)
                           ? mlirDictionaryAttrGetElementByName(dict, mlirStringRefCreateFromCString("onnx.name"))
                           : (MlirAttribute){NULL};
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name)) return 0;
  MlirStringRef v = mlirStringAttrGetValue(name);
  if (size) {
    size_t n = v.length < size - 1 ? v.length : size - 1;
    memcpy(buf, v.data, n);
    buf[n] = 0;
  }
  return v.length;
}

/* Checks the inputs against the signature; false after a located error. */
static bool checkInputs(StrataSession *s, StrataTensor *const *inputs, size_t numInputs, size_t numOutputs) {
  MlirLocation loc = mlirOperationGetLocation(s->func);
  if (numInputs != strataSessionNumInputs(s) || numOutputs != strataSessionNumOutputs(s)) {
    strataEmitError(loc, "'%s' takes %zu inputs and has %zu outputs, not %zu and %zu", s->entry,
                    strataSessionNumInputs(s), strataSessionNumOutputs(s), numInputs, numOutputs);
    return false;
  }
  for (size_t i = 0; i < numInputs; i++) {
    MlirType t = sigType(s, false, i);
    if (inputs[i] && strataTensorMatchesType(inputs[i], t)) continue;
    char have[256] = "nothing", want[256];
    if (inputs[i]) strataTensorFormatType(inputs[i], have, sizeof have);
    strataTypeToString(t, want, sizeof want);
    strataEmitError(loc, "input #%zu of '%s' is %s, but %s was given", i, s->entry, want, have);
    return false;
  }
  return true;
}

MlirLogicalResult strataSessionRun(StrataSession *s, StrataTensor *const *inputs, size_t numInputs,
                                   StrataTensor **outputs, size_t numOutputs) {
  for (size_t i = 0; i < numOutputs; i++) outputs[i] = NULL;
  if (!checkInputs(s, inputs, numInputs, numOutputs)) return mlirLogicalResultFailure();
  MlirLocation loc = mlirOperationGetLocation(s->func);
  if (!s->exe) { /* the interpreter allocates the results itself */
    StrataTensor **results = NULL;
    size_t n = 0;
    if (mlirLogicalResultIsFailure(strataInterpret(s->ctx, s->func, inputs, numInputs, &results, &n)))
      return mlirLogicalResultFailure();
    for (size_t i = 0; i < n; i++) {
      if (i < numOutputs) outputs[i] = results[i];
      else strataTensorDestroy(results[i]);
    }
    free(results);
    return mlirLogicalResultSuccess();
  }
  for (size_t i = 0; i < numOutputs; i++) {
    MlirType t = sigType(s, true, i);
    /* a result of dynamic shape receives its extents and buffer from the call */
    bool sizedByCall = mlirTypeIsARankedTensor(t) && !mlirShapedTypeHasStaticShape(t);
    if (!(outputs[i] = sizedByCall ? strataTensorCreateForResult(t) : strataTensorCreateForType(t))) {
      char want[256], why[160];
      strataTypeToString(t, want, sizeof want);
      strataTensorTypeProblem(t, why, sizeof why);
      strataEmitError(loc, "output #%zu of '%s' has type %s, which %s", i, s->entry, want, why);
      goto fail;
    }
  }
  if (mlirLogicalResultIsSuccess(strataExecutableInvoke(s->exe, s->entry, inputs, numInputs, outputs, numOutputs))) {
    if (s->storeDir) { /* now that the kernels have packed the weights */
      char why[512];
      if (!strataExecutableStore(s->exe, s->storeDir, s->storeKey, s->func, why, sizeof why) && *why)
        strataEmitDiagnostic(STRATA_SEVERITY_WARNING, loc, "the model cache '%s' cannot be written (%s)", s->storeDir,
                             why);
      free(s->storeDir);
      s->storeDir = NULL;
    }
    return mlirLogicalResultSuccess();
  }
fail:
  for (size_t i = 0; i < numOutputs; i++) {
    strataTensorDestroy(outputs[i]);
    outputs[i] = NULL;
  }
  return mlirLogicalResultFailure();
}
