/* f16 on the opencl target without cl_khr_fp16 (opencl_internal.h). OpenCL
 * C 1.2 always has `half` as a storage format: a __global half * is read
 * with vload_half and written with vstore_half_rte. An f16 SSA value lives
 * in a float that holds it exactly, so only the ops producing a new f16
 * value round: arith.truncf (through vstore_half_rte to a private half),
 * and a bitcast from i16. gpu_pipeline.c leaves no other arithmetic on f16
 * (every f16 op is computed in f32 and truncated, as the CPU target does);
 * ops that are exact on a float holding an f16 (comparisons, select,
 * min/max, negation, absolute value, conversions from f16) pass to the f32
 * emitter, and any other op on f16 is refused at the op rather than
 * computed without its rounding. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinTypes.h"
#include "strata/support.h"
#include "opencl_internal.h"

static const char kPrelude[] =
    "/* f16 values live in floats; memory holds halves (no cl_khr_fp16 needed). */\n"
    "__attribute__((overloadable)) static inline float strata_round_half(float x) {\n"
    "  ushort h; vstore_half_rte(x, 0, (__private half *)&h); return vload_half(0, (__private const half *)&h); }\n"
    "static inline ushort strata_half_bits(float x) {\n"
    "  ushort h; vstore_half_rte(x, 0, (__private half *)&h); return h; }\n"
    "static inline float strata_half_value(ushort h) { return vload_half(0, (__private const half *)&h); }\n";
static const char kPreludeF64[] =
    "__attribute__((overloadable)) static inline float strata_round_half(double x) {\n"
    "  ushort h; vstore_half_rte(x, 0, (__private half *)&h); return vload_half(0, (__private const half *)&h); }\n";

void clF16Prelude(ClText *out, bool usesF64) {
  clTextPut(out, "%s%s\n", kPrelude, usesF64 ? kPreludeF64 : "");
}

/* Splits element()'s `name[index]` into its two parts. */
static bool splitRef(const char *ref, char *name, size_t nameSize, char *index, size_t indexSize) {
  const char *open = strchr(ref, '[');
  size_t len = strlen(ref);
  if (!open || len < 2 || ref[len - 1] != ']') return false;
  snprintf(name, nameSize, "%.*s", (int)(open - ref), ref);
  snprintf(index, indexSize, "%.*s", (int)(ref + len - 1 - (open + 1)), open + 1);
  return true;
}

bool clF16Access(ClEmitter *e, MlirValue value, const char *ref, bool store) {
  char name[64], index[640], v[24];
  if (!splitRef(ref, name, sizeof name, index, sizeof index)) return false;
  e->usesF16 = true;
  clName(e, value, v);
  if (store) clLine(e, "vstore_half_rte(%s, %s, %s);", v, index, name);
  else clLine(e, "float %s = vload_half(%s, %s);", v, index, name);
  return true;
}

/* Ops whose result on floats holding f16 values is the f16 result. */
static const char *const kExact[] = {"arith.constant", "arith.extf",     "arith.select",   "arith.cmpf",
                                     "arith.maximumf", "arith.minimumf", "arith.maxnumf",  "arith.minnumf",
                                     "arith.negf",     "math.absf",      "math.copysign",  "arith.fptosi",
                                     "arith.fptoui"};

static bool touchesF16(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    if (mlirTypeIsAF16(mlirValueGetType(mlirOperationGetResult(op, i)))) return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    if (mlirTypeIsAF16(mlirValueGetType(mlirOperationGetOperand(op, i)))) return true;
  return false;
}

bool clEmitF16Op(ClEmitter *e, MlirOperation op, bool *handled) {
  *handled = false;
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  char name[64];
  snprintf(name, sizeof name, "%.*s", (int)n.length, n.data);
  if ((strncmp(name, "arith.", 6) && strncmp(name, "math.", 5)) || !touchesF16(op)) return false;
  e->usesF16 = true;
  for (size_t i = 0; i < sizeof kExact / sizeof kExact[0]; i++)
    if (!strcmp(name, kExact[i])) return false; /* the f32 emitter writes it */
  *handled = true;
  MlirType t = mlirOperationGetNumResults(op) == 1 ? mlirValueGetType(mlirOperationGetResult(op, 0)) : (MlirType){NULL};
  MlirType t0 = mlirOperationGetNumOperands(op) == 1 ? mlirValueGetType(mlirOperationGetOperand(op, 0)) : (MlirType){NULL};
  char r[24], a[24];
  if (!mlirTypeIsNull(t) && !mlirTypeIsNull(t0)) {
    clName(e, mlirOperationGetResult(op, 0), r);
    clName(e, mlirOperationGetOperand(op, 0), a);
    if (!strcmp(name, "arith.truncf") && mlirTypeIsAF16(t) && (mlirTypeIsAF32(t0) || mlirTypeIsAF64(t0))) {
      if (mlirTypeIsAF64(t0)) e->usesF64 = true;
      return clLine(e, "float %s = strata_round_half(%s);", r, a), true;
    }
    if (!strcmp(name, "arith.bitcast") && mlirTypeIsAF16(t) && mlirTypeIsAInteger(t0))
      return clLine(e, "float %s = strata_half_value(%s);", r, a), true;
    if (!strcmp(name, "arith.bitcast") && mlirTypeIsAF16(t0) && mlirTypeIsAInteger(t))
      return clLine(e, "ushort %s = strata_half_bits(%s);", r, a), true;
  }
  strataEmitOpError(op, "the opencl target computes f16 in f32 with a rounding to f16 after each op; '%s' on f16 "
                    "should have been computed in f32 before it reached the emitter", name);
  return false;
}
