/* strata-run's model: read (MLIR text or bytecode, or ONNX), verified,
 * made pattern-sparse, integer-quantized, predicated and instrumented if asked; its entry function and that function's inputs,
 * from .npy files or random and seeded. */
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "run.h"
#include "tool_io.h"

bool loadModel(RunState *r, const Options *o) {
  if (!r->text && !(r->text = toolReadFile(o->file, &r->textLen))) return false;
  size_t len = r->textLen;
  if (strataLooksLikeOnnx(o->file, r->text, len)) {
    char *dirCopy = strdup(o->file);
    int external = 0;
    StrataOnnxOptions onnx = {.externalTensors = &external};
    r->module = strataImportOnnx(r->ctx, r->text, len, o->file, dirCopy ? dirname(dirCopy) : ".", &onnx);
    free(dirCopy);
    if (external) r->cacheable = false; /* its weights are not all in the bytes the key covers */
  } else {
    r->module = strataParseModule(r->ctx, mlirStringRefCreate(r->text, len), o->file);
  }
  if (mlirModuleIsNull(r->module) ||
      mlirLogicalResultIsFailure(strataVerify(r->ctx, mlirModuleGetOperation(r->module))))
    return false;
  if (o->sparse.mode && mlirLogicalResultIsFailure(strataSparseApply(r->ctx, r->module, &o->sparse)))
    return false;
  if (o->quantized &&
      mlirLogicalResultIsFailure(strataRunPipeline(r->ctx, mlirModuleGetOperation(r->module), "func.func(nn-qdq-to-qlinear)")))
    return false;
  if (o->predicate) {
    char pipeline[128];
    snprintf(pipeline, sizeof pipeline,
             /* canonicalize merges the adjacent branches on one predicate
              * that skip mode leaves (one guard per value type). */
             "func.func(pred-if-to-guard,pred-loop-to-guard),pred-lower{mode=%s},canonicalize",
             o->predicate);
    if (mlirLogicalResultIsFailure(strataRunPipeline(r->ctx, mlirModuleGetOperation(r->module), pipeline)))
      return false;
  }
  if (!o->instrument) return true;
  char *pipeline = malloc(strlen(o->instrument) + 16);
  if (!pipeline) return false;
  sprintf(pipeline, "instrument{%s}", o->instrument);
  bool instrumented = mlirLogicalResultIsSuccess(
      strataRunPipeline(r->ctx, mlirModuleGetOperation(r->module), pipeline));
  free(pipeline);
  return instrumented;
}

/* Input i: read from its --input file and checked against the type `t`. */
static bool readInput(RunState *r, const Options *o, size_t i, MlirType t, const char *want) {
  char err[512];
  r->inputs[i] = strataNpyRead(o->inputs[i], err, sizeof err);
  if (!r->inputs[i]) {
    fprintf(stderr, "error: %s\n", err);
    return false;
  }
  if (!strataTensorMatchesType(r->inputs[i], t)) {
    char have[256];
    strataTensorFormatType(r->inputs[i], have, sizeof have);
    fprintf(stderr, "error: %s holds %s, but input #%zu of '%s' is %s\n", o->inputs[i], have, i,
            r->entry, want);
    return false;
  }
  return true;
}

/* The spec among `specs` (NAME=DIMS) that names input i, or NULL. */
static const char *specFor(RunState *r, size_t i, const char *const *specs, int numSpecs) {
  MlirAttribute dict = mlirOperationGetAttributeByName(r->func, mlirStringRefCreateFromCString("arg_attrs"));
  MlirAttribute name = {NULL};
  if (!mlirAttributeIsNull(dict) && mlirAttributeIsAArray(dict) && (intptr_t)i < mlirArrayAttrGetNumElements(dict))
    name = mlirDictionaryAttrGetElementByName(mlirArrayAttrGetElement(dict, (intptr_t)i),
                                              mlirStringRefCreateFromCString("onnx.name"));
  char number[24];
  snprintf(number, sizeof number, "%zu", i);
  for (int k = 0; k < numSpecs; k++) {
    size_t len = (size_t)(strchr(specs[k], '=') - specs[k]);
    if (strlen(number) == len && !strncmp(specs[k], number, len)) return specs[k];
    if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name)) {
      MlirStringRef n = mlirStringAttrGetValue(name);
      if (n.length == len && !strncmp(specs[k], n.data, len)) return specs[k];
    }
  }
  return NULL;
}

/* A tensor of type t with the dims of `spec` (NAME=AxBxC): its rank and
 * static dims must be t's. NULL after an error message. */
static StrataTensor *tensorFromSpec(const char *spec, MlirType t, const char *want) {
  int64_t dims[STRATA_MAX_RANK];
  int rank = 0;
  const char *p = strchr(spec, '=') + 1;
  while (*p && rank < STRATA_MAX_RANK) {
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p || v < 0 || (*end && *end != 'x')) break;
    dims[rank++] = v;
    p = *end ? end + 1 : end;
  }
  if (*p || rank != mlirShapedTypeGetRank(t)) {
    fprintf(stderr, "error: --input-shape '%s' is not a shape of rank %ld like AxBxC (the input is %s)\n", spec,
            (long)mlirShapedTypeGetRank(t), want);
    return NULL;
  }
  for (int d = 0; d < rank; d++)
    if (!mlirShapedTypeIsDynamicDim(t, d) && mlirShapedTypeGetDimSize(t, d) != dims[d]) {
      fprintf(stderr, "error: --input-shape '%s' gives dim %d as %lld, but the input is %s\n", spec, d,
              (long long)dims[d], want);
      return NULL;
    }
  StrataTensor *x = strataTensorCreate(strataDTypeFromMlir(mlirShapedTypeGetElementType(t)), rank, dims);
  if (!x) fprintf(stderr, "error: cannot allocate an input of shape '%s'\n", spec);
  return x;
}

/* Input i, random: floats in [-1, 1); integers in [-8, 8), unsigned in
 * [0, 16); bools 0/1; seeded with --seed + i. */
static bool randomInput(RunState *r, const Options *o, size_t i, MlirType t, const char *want,
                        const char *const *specs, int numSpecs) {
  const char *spec = specFor(r, i, specs, numSpecs);
  if (spec) {
    if (!(r->inputs[i] = tensorFromSpec(spec, t, want))) return false;
  } else {
    r->inputs[i] = strataTensorCreateForType(t);
  }
  if (!r->inputs[i]) {
    char why[160];
    strataTensorTypeProblem(t, why, sizeof why);
    fprintf(stderr, "error: input #%zu of '%s' has type %s, which %s; no random input (give --input or "
            "--input-shape)\n", i, r->entry, want, why);
    return false;
  }
  StrataDType dt = r->inputs[i]->dtype;
  bool isFloat = dt == STRATA_DTYPE_F32 || dt == STRATA_DTYPE_F64 || dt == STRATA_DTYPE_F16 || dt == STRATA_DTYPE_BF16;
  bool isUnsigned = dt == STRATA_DTYPE_U8 || dt == STRATA_DTYPE_U16 || dt == STRATA_DTYPE_U32 || dt == STRATA_DTYPE_U64;
  strataTensorFillRandom(r->inputs[i], o->seed + i, isFloat ? -1.0 : isUnsigned ? 0 : -8,
                         isFloat ? 1.0 : isUnsigned ? 16 : 8);
  return true;
}

bool prepareEntry(RunState *r, const Options *o) {
  r->func = strataLookupFunc(r->module, o->entry);
  if (mlirOperationIsNull(r->func)) {
    if (o->entry)
      fprintf(stderr, "%s: error: no function '%s' in the module\n", o->file, o->entry);
    else
      fprintf(stderr, "%s: error: no public function with a body in the module\n", o->file);
    return false;
  }
  /* One function runs: the others of the module are not compiled. */
  if (mlirLogicalResultIsFailure(strataModuleKeepReachable(r->module, r->func))) {
    fprintf(stderr, "error: out of memory\n");
    return false;
  }
  return describeEntry(r, o);
}

bool describeEntry(RunState *r, const Options *o) {
  r->ftype = strataFuncSignature(r->func, r->entry, sizeof r->entry);
  r->numIn = (size_t)mlirFunctionTypeGetNumInputs(r->ftype);
  r->numOut = (size_t)mlirFunctionTypeGetNumResults(r->ftype);
  if (r->numIn > MAX_IO || r->numOut > MAX_IO) {
    fprintf(stderr, "%s: error: '%s' has more than %d inputs or outputs\n", o->file, r->entry, MAX_IO);
    r->numIn = r->numOut = 0;
    return false;
  }
  if (o->numInputs && (size_t)o->numInputs != r->numIn) {
    fprintf(stderr, "error: '%s' takes %zu inputs, %d --input given\n", r->entry, r->numIn, o->numInputs);
    return false;
  }
  if (o->numOutputs > 0 && (size_t)o->numOutputs > r->numOut) {
    fprintf(stderr, "error: '%s' has %zu outputs, %d --output given\n", r->entry, r->numOut,
            o->numOutputs);
    return false;
  }
  if (o->shapesFile) return true; /* the sweep makes the inputs of each shape */
  return makeInputs(r, o, o->inputShapes, o->numInputShapes);
}

bool makeInputs(RunState *r, const Options *o, const char *const *specs, int numSpecs) {
  for (int k = 0; k < numSpecs; k++) {
    bool used = false;
    for (size_t i = 0; i < r->numIn && !used; i++) used = specFor(r, i, &specs[k], 1) != NULL;
    if (!used) {
      fprintf(stderr, "error: '%.*s' in --input-shape names no input of '%s'\n", (int)(strchr(specs[k], '=') - specs[k]),
              specs[k], r->entry);
      return false;
    }
  }
  for (size_t i = 0; i < r->numIn; i++) {
    MlirType t = mlirFunctionTypeGetInput(r->ftype, (intptr_t)i);
    char want[256];
    strataTypeToString(t, want, sizeof want);
    strataTensorDestroy(r->inputs[i]);
    r->inputs[i] = NULL;
    if (!(o->numInputs ? readInput(r, o, i, t, want) : randomInput(r, o, i, t, want, specs, numSpecs)))
      return false;
  }
  return true;
}

void runStateDestroy(RunState *r) {
  strataExecutableDestroy(r->exe);
  for (size_t i = 0; i < MAX_IO; i++) strataTensorDestroy(r->inputs[i]), strataTensorDestroy(r->outputs[i]);
  for (size_t i = 0; i < r->numRef; i++) strataTensorDestroy(r->ref[i]);
  free(r->ref);
  if (!mlirModuleIsNull(r->module)) mlirModuleDestroy(r->module);
  if (r->text) strataModelBytesRelease(r->text, r->textLen, r->mapped);
  strataContextDestroy(r->ctx);
}
