/* What an embedder adds to Strata without touching its sources: a dialect
 * (`ext`, one op with a typed attribute and a region) and a target (`ref`,
 * which runs models through the reference interpreter), both registered
 * from C on a context. A model mixing `nn` and `ext` ops is compiled for the
 * new target and run through strataCompile/strataExecutableInvoke; the
 * built-in `cpu` target, which has no lowering for `ext`, refuses it with a
 * located error instead of guessing. docs/architecture.md walks through
 * this file.
 * RUN: %capi/out_of_tree 2>&1 | FileCheck %s
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

/* ---- The dialect: ext.scaled {scale} ({ body }) : y = scale * body(x) ---- */

static MlirLogicalResult inferScaled(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!strataGetShape(t, &res->rank, res->dims)) {
    strataEmitError(mlirOperationGetLocation(op), "'ext.scaled' op needs a ranked tensor");
    return mlirLogicalResultFailure();
  }
  res->elementType = mlirShapedTypeGetElementType(t);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult interpScaled(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  double scale = mlirFloatAttrGetValueDouble(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("scale")));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  StrataTensor **out;
  size_t n;
  if (mlirLogicalResultIsFailure(strataInterpretBlock(in, body, x, 1, &out, &n)))
    return mlirLogicalResultFailure();
  for (int64_t k = 0; k < strataTensorNumElements(y[0]); k++)
    strataTensorSetDouble(y[0], k, scale * strataTensorGetDouble(out[0], k));
  for (size_t i = 0; i < n; i++) strataTensorDestroy(out[i]);
  free(out);
  return mlirLogicalResultSuccess();
}

static const StrataAttrDef kScaledAttrs[] = {
    {"scale", STRATA_ATTR_FLOAT, 0, NULL, "the factor applied to the body's result"},
};
static const StrataOpDef kExtOps[] = {
    {.name = "ext.scaled",
     .summary = "`scale` times the body applied to `x`",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE | STRATA_OP_OBSERVABLE,
     .infer = inferScaled,
     .interpret = interpScaled,
     .dynamism = STRATA_DYN_ISDO,
     .types = "f32",
     .attrs = kScaledAttrs,
     .numAttrs = 1,
     .regions = "body"},
};
static const StrataOpTable kExtTable = {kExtOps, 1};
static const StrataOpTable *const kExtTables[] = {&kExtTable};
static const StrataDialectDef kExt = {
    .name = "ext", .tables = kExtTables, .numTables = 1, .summary = "an embedder's dialect."};

/* ---- The target: `ref`, the reference interpreter behind strataCompile ---- */

typedef struct {
  StrataContext *ctx;
  MlirModule module;
} RefExecutable;

static void *refCompile(const StrataTargetDef *def, StrataContext *ctx, MlirModule lowered,
                        const StrataCompileOptions *options) {
  (void)def, (void)options;
  RefExecutable *exe = malloc(sizeof *exe);
  if (!exe) {
    mlirModuleDestroy(lowered);
    return NULL;
  }
  *exe = (RefExecutable){ctx, lowered};
  return exe;
}

static MlirLogicalResult refInvoke(void *state, const char *name, StrataTensor *const *inputs,
                                   size_t numInputs, StrataTensor *const *outputs,
                                   size_t numOutputs) {
  RefExecutable *exe = state;
  MlirOperation func = strataLookupFunc(exe->module, name);
  StrataTensor **outs;
  size_t n;
  if (mlirOperationIsNull(func) ||
      mlirLogicalResultIsFailure(strataInterpret(exe->ctx, func, inputs, numInputs, &outs, &n)))
    return mlirLogicalResultFailure();
  for (size_t i = 0; i < n; i++) {
    if (i < numOutputs) memcpy(outputs[i]->data, outs[i]->data, strataTensorNumBytes(outs[i]));
    strataTensorDestroy(outs[i]);
  }
  free(outs);
  return n == numOutputs ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static void refDestroy(void *state) {
  RefExecutable *exe = state;
  mlirModuleDestroy(exe->module);
  free(exe);
}

static const StrataTargetDef kRef = {
    .name = "ref",
    .summary = "the reference interpreter as a target",
    .pipelines = {[STRATA_FUSION_FIXED] = "func.func(nn-fold)"},
    .compile = refCompile,
    .invoke = refInvoke,
    .destroy = refDestroy,
};

/* ---- The model ---- */

/* ext's region ends with an upstream terminator (an IRDL op cannot be one;
 * docs/architecture.md). */
static const char *kModel =
    "func.func @main(%x: tensor<2x3xf32>, %w: tensor<3x2xf32>) -> tensor<2x2xf32> {\n"
    "  %m = \"nn.matmul\"(%x, %w) : (tensor<2x3xf32>, tensor<3x2xf32>) -> tensor<2x2xf32>\n"
    "  %s = \"ext.scaled\"(%m) ({\n"
    "  ^bb0(%v: tensor<2x2xf32>):\n"
    "    %r = \"nn.relu\"(%v) : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
    "    \"gpu.yield\"(%r) : (tensor<2x2xf32>) -> ()\n"
    "  }) {scale = 0.5 : f32} : (tensor<2x2xf32>) -> tensor<2x2xf32>\n"
    "  %y = \"nn.add\"(%s, %m) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>\n"
    "  return %y : tensor<2x2xf32>\n"
    "}\n";

static void onDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag: %s%s%s\n", d->location ? d->location : "", d->location ? ": " : "", d->message);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  strataContextSetDiagnosticCallback(ctx, onDiag, NULL);
  printf("dialect: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, &kExt)));
  printf("target: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterTarget(ctx, &kRef)));
  // CHECK: dialect: 1
  // CHECK-NEXT: target: 1

  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(kModel), "model.mlir");
  printf("verified: %d\n", !mlirModuleIsNull(m) &&
                               mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(m))));
  // CHECK-NEXT: verified: 1

  int64_t xd[2] = {2, 3}, wd[2] = {3, 2}, yd[2] = {2, 2};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 2, xd);
  StrataTensor *w = strataTensorCreate(STRATA_DTYPE_F32, 2, wd);
  StrataTensor *y = strataTensorCreate(STRATA_DTYPE_F32, 2, yd);
  for (int k = 0; k < 6; k++) strataTensorSetDouble(x, k, k - 2), strataTensorSetDouble(w, k, (k * k) % 5 - 2);
  StrataTensor *in[2] = {x, w};

  /* The model computed here in C: m = x @ w, y = 0.5 * relu(m) + m. */
  double expect[4];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double mm = 0;
      for (int k = 0; k < 3; k++) mm += strataTensorGetDouble(x, 3 * i + k) * strataTensorGetDouble(w, 2 * k + j);
      expect[2 * i + j] = 0.5 * fmax(mm, 0) + mm;
    }

  StrataExecutable *exe = strataCompile(ctx, m, "ref", NULL);
  bool ran = exe && mlirLogicalResultIsSuccess(strataExecutableInvoke(exe, "main", in, 2, &y, 1));
  printf("ref ran: %d target: %s\n", ran, exe ? strataExecutableGetTarget(exe)->name : "-");
  // CHECK-NEXT: ref ran: 1 target: ref
  bool same = ran;
  for (int k = 0; k < 4; k++) {
    printf(" %g", strataTensorGetDouble(y, k));
    same = same && strataTensorGetDouble(y, k) == expect[k];
  }
  printf("\nmatches C: %d\n", same);
  // CHECK-NEXT: {{^}} 3 0 -1 -3{{$}}
  // CHECK-NEXT: matches C: 1
  strataExecutableDestroy(exe);

  /* The CPU target has no lowering for ext.scaled: a located refusal. */
  exe = strataCompile(ctx, m, "cpu", NULL);
  printf("cpu: %s\n", exe ? "compiled" : "refused");
  // CHECK-NEXT: diag: model.mlir:3:8: 'ext.scaled' op: target 'cpu' compiles no 'ext' ops (it lowers: nn,instr,sparse,dsp)
  // CHECK-NEXT: cpu: refused
  strataExecutableDestroy(exe);

  strataTensorDestroy(x);
  strataTensorDestroy(w);
  strataTensorDestroy(y);
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
