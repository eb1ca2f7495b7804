/* An out-of-tree dialect registered from C, with no change to Strata's
 * sources: its op table (a typed attribute, an optional one, a region, a
 * non-tensor result, a per-op verifier, an interpreter kernel that runs its
 * region) is all the embedder writes. Strata generates its IRDL, parses and
 * verifies it (located errors from the table and from the op's verifier),
 * interprets it, and instruments it because the table marks it observable.
 * RUN: %capi/dialect_register 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/strata.h"

/* ---- The embedder's dialect: `toy` ---- */

/* toy.repeat: y = body(body(...body(x))), `times` times (0: y = x). */
static MlirLogicalResult inferRepeat(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!strataGetShape(t, &res->rank, res->dims)) {
    strataEmitError(mlirOperationGetLocation(op), "'toy.repeat' op needs a ranked tensor operand");
    return mlirLogicalResultFailure();
  }
  res->elementType = mlirShapedTypeGetElementType(t);
  return mlirLogicalResultSuccess();
}

/* What the table cannot say: the body maps x's type to itself. */
static MlirLogicalResult verifyRepeat(const StrataOpDef *def, MlirOperation op) {
  (void)def;
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation last = {NULL};
  for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    last = o;
  bool ok = mlirBlockGetNumArguments(body) == 1 &&
            mlirTypeEqual(mlirValueGetType(mlirBlockGetArgument(body, 0)), t) &&
            !mlirOperationIsNull(last) && mlirOperationGetNumOperands(last) == 1 &&
            mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(last, 0)), t);
  if (!ok)
    strataEmitError(mlirOperationGetLocation(op),
                    "'toy.repeat' op body must take one value of the operand's type and yield one");
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

static MlirLogicalResult interpRepeat(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                      StrataTensor **y) {
  int64_t times = mlirIntegerAttrGetValueInt(
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("times")));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  StrataTensor *cur = strataTensorCreate(x[0]->dtype, x[0]->rank, x[0]->dims);
  if (!cur) return mlirLogicalResultFailure();
  memcpy(cur->data, x[0]->data, strataTensorNumBytes(x[0]));
  for (int64_t i = 0; i < times; i++) {
    StrataTensor **out;
    size_t n;
    MlirLogicalResult r = strataInterpretBlock(in, body, &cur, 1, &out, &n);
    strataTensorDestroy(cur);
    if (mlirLogicalResultIsFailure(r)) return r;
    cur = out[0];
    free(out);
  }
  strataTensorDestroy(y[0]);
  y[0] = cur;
  return mlirLogicalResultSuccess();
}

/* toy.is_empty: whether x has no elements, as an i1 (not a tensor). */
static MlirLogicalResult inferIsEmpty(const StrataOpDef *def, MlirOperation op, StrataShape *res) {
  (void)def;
  res->rank = -1;
  res->elementType = mlirIntegerTypeGet(mlirOperationGetContext(op), 1);
  return mlirLogicalResultSuccess();
}

/* An i1 result is held as a rank-0 tensor. */
static MlirLogicalResult interpIsEmpty(StrataInterp *in, MlirOperation op, StrataTensor *const *x,
                                       StrataTensor **y) {
  (void)in;
  (void)op;
  strataTensorSetDouble(y[0], 0, strataTensorNumElements(x[0]) == 0);
  return mlirLogicalResultSuccess();
}

static const StrataAttrDef kRepeatAttrs[] = {
    {"times", STRATA_ATTR_INT, STRATA_ATTR_NON_NEGATIVE, NULL, "how often the body runs"},
    {"note", STRATA_ATTR_STRING, STRATA_ATTR_OPTIONAL, NULL, "a remark"},
};

static const StrataOpDef kToyOps[] = {
    {.name = "toy.repeat",
     .summary = "applies `body` to `x`, `times` times",
     .operands = "x",
     .results = "y",
     .flags = STRATA_OP_PURE | STRATA_OP_OBSERVABLE,
     .infer = inferRepeat,
     .interpret = interpRepeat,
     .dynamism = STRATA_DYN_ISDO,
     .types = "any",
     .attrs = kRepeatAttrs,
     .numAttrs = sizeof kRepeatAttrs / sizeof kRepeatAttrs[0],
     .regions = "body",
     .verify = verifyRepeat},
    {.name = "toy.is_empty",
     .summary = "whether `x` has no elements",
     .operands = "x",
     .results = "flag: i1",
     .flags = STRATA_OP_PURE,
     .infer = inferIsEmpty,
     .interpret = interpIsEmpty,
     .dynamism = STRATA_DYN_ISDO,
     .types = "any"},
};
static const StrataOpTable kToyTable = {kToyOps, sizeof kToyOps / sizeof kToyOps[0]};
static const StrataOpTable *const kToyTables[] = {&kToyTable};
static const StrataDialectDef kToy = {
    .name = "toy",
    .tables = kToyTables,
    .numTables = 1,
    .summary = "an embedder's dialect.",
};

/* ---- The embedder's use of it ---- */

/* The body ends with an upstream terminator: an IRDL op cannot be one. */
static const char *kModule =
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %y = \"toy.repeat\"(%x) ({\n"
    "  ^bb0(%v: tensor<4xf32>):\n"
    "    %h = \"nn.add\"(%v, %v) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
    "    \"gpu.yield\"(%h) : (tensor<4xf32>) -> ()\n"
    "  }) {times = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %z = \"nn.relu\"(%y) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %z : tensor<4xf32>\n}\n";

typedef struct {
  char *data;
  size_t len;
} Text;

static void append(MlirStringRef s, void *user) {
  Text *t = user;
  char *p = realloc(t->data, t->len + s.length + 1);
  if (!p) return;
  memcpy(p + t->len, s.data, s.length);
  t->len += s.length;
  p[t->len] = '\0';
  t->data = p;
}

static void printDiag(const StrataDiagnostic *d, void *user) {
  (void)user;
  printf("diag %s:%u:%u: %s\n", d->file ? d->file : "(none)", d->line, d->col, d->message);
}

/* Parses and verifies `text`; prints whether it verified. */
static MlirModule parseAndVerify(StrataContext *ctx, const char *text, const char *name) {
  MlirModule m = strataParseModule(ctx, mlirStringRefCreateFromCString(text), name);
  if (mlirModuleIsNull(m)) {
    printf("%s: does not parse\n", name);
    return m;
  }
  bool ok = mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(m)));
  printf("%s: verifies=%d\n", name, ok);
  if (!ok) {
    mlirModuleDestroy(m);
    return (MlirModule){NULL};
  }
  return m;
}

static void run(StrataContext *ctx, MlirModule m, const char *what) {
  int64_t dims[1] = {4};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 1, dims);
  float in[4] = {1, -2, 0.5f, 3};
  memcpy(x->data, in, sizeof in);
  StrataTensor **out;
  size_t n;
  MlirLogicalResult r = strataInterpret(ctx, strataLookupFunc(m, "f"), &x, 1, &out, &n);
  if (mlirLogicalResultIsSuccess(r)) {
    const float *y = out[0]->data;
    printf("%s: %g %g %g %g\n", what, y[0], y[1], y[2], y[3]);
    for (size_t i = 0; i < n; i++) strataTensorDestroy(out[i]);
    free(out);
  } else {
    printf("%s: failed\n", what);
  }
  strataTensorDestroy(x);
}

static void probeAfter(StrataInstrOpContext *op, void *user) {
  (void)user;
  printf("observed %s (op_id %lld)\n", strataInstrOpGetName(op), (long long)strataInstrOpGetId(op));
  strataInstrProbeAfter(op, 0);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0);
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return 1;
  strataContextSetDiagnosticCallback(ctx, printDiag, NULL);

  /* The IRDL Strata generates from the table, and loads. */
  char *irdl = strataDialectGenerateIrdl(&kToy);
  // CHECK: // The `toy` dialect: an embedder's dialect.
  // CHECK: irdl.dialect @toy {
  // CHECK-NEXT:   irdl.operation @is_empty {
  // CHECK-NEXT:     %t0 = irdl.base "!builtin.tensor"
  // CHECK-NEXT:     %t1 = irdl.is i1
  // CHECK-NEXT:     irdl.operands(x: %t0)
  // CHECK-NEXT:     irdl.results(flag: %t1)
  // CHECK-NEXT:   }
  // CHECK-NEXT:   irdl.operation @repeat {
  // CHECK-NEXT:     %times = irdl.base "#builtin.integer"
  // CHECK-NEXT:     irdl.attributes {"times" = %times}
  // CHECK-NEXT:     %t0 = irdl.base "!builtin.tensor"
  // CHECK-NEXT:     %t1 = irdl.base "!builtin.tensor"
  // CHECK-NEXT:     irdl.operands(x: %t0)
  // CHECK-NEXT:     irdl.results(y: %t1)
  // CHECK-NEXT:     %r0 = irdl.region with size 1
  // CHECK-NEXT:     irdl.regions(body: %r0)
  // CHECK-NEXT:   }
  // CHECK-NEXT: }
  printf("%s", irdl);
  free(irdl);
  size_t before = strataContextNumDialects(ctx);
  // CHECK: register: 1 dialects +1 last=toy
  bool ok = mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, &kToy));
  printf("register: %d dialects +%zu last=%s\n", ok, strataContextNumDialects(ctx) - before,
         strataContextGetDialect(ctx, strataContextNumDialects(ctx) - 1)->name);
  // CHECK: diag (none):0:0: dialect 'toy' is already registered
  // CHECK: again: 0
  printf("again: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, &kToy)));
  static const StrataOpDef kBadOps[] = {{.name = "other.op", .operands = "x", .results = "y"}};
  static const StrataOpTable kBadTable = {kBadOps, 1};
  static const StrataOpTable *const kBadTables[] = {&kBadTable};
  static const StrataDialectDef kBad = {.name = "bad", .tables = kBadTables, .numTables = 1};
  // CHECK: diag (none):0:0: dialect 'bad': op 'other.op' must be named 'bad.<op>'
  // CHECK: misnamed: 0
  printf("misnamed: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, &kBad)));
  static const StrataOpDef kTypoOps[] = {{.name = "typo.op", .operands = "x: tensr", .results = "y"}};
  static const StrataOpTable kTypoTable = {kTypoOps, 1};
  static const StrataOpTable *const kTypoTables[] = {&kTypoTable};
  static const StrataDialectDef kTypo = {.name = "typo", .tables = kTypoTables, .numTables = 1};
  // CHECK: diag (none):0:0: dialect 'typo': operand 'x' of 'typo.op' has the type constraint 'tensr', which is neither a type nor one of any, tensor, vector, memref, integer
  // CHECK-NEXT: typo: 0
  printf("typo: %d\n", mlirLogicalResultIsSuccess(strataContextRegisterDialect(ctx, &kTypo)));
  const StrataOpDef *def = strataContextLookupOpDef(ctx, mlirStringRefCreateFromCString("toy.repeat"));
  // CHECK: toy.repeat attrs=2 regions=body observable-def=1
  printf("%s attrs=%zu regions=%s observable-def=%d\n", def->name, def->numAttrs, def->regions,
         strataOpDefGetDialect(ctx, def) == &kToy && (strataOpDefGetFlags(ctx, def) & STRATA_OP_OBSERVABLE));

  /* Parse, verify, interpret: ((x * 2) * 2) * 2, then relu. */
  // CHECK: toy.mlir: verifies=1
  MlirModule m = parseAndVerify(ctx, kModule, "toy.mlir");
  if (mlirModuleIsNull(m)) return 1;
  // CHECK: interpreted: 8 0 4 24
  run(ctx, m, "interpreted");

  /* Errors located at the op: from the table (attribute value, region
   * count, result type constraint) and from the op's own verifier. */
  // CHECK: diag neg.mlir:2:8: 'toy.repeat' op needs attribute 'times': a non-negative integer
  // CHECK: neg.mlir: verifies=0
  parseAndVerify(ctx,
                 "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  %y = \"toy.repeat\"(%x) ({\n"
                 "  ^bb0(%v: tensor<4xf32>):\n"
                 "    \"gpu.yield\"(%v) : (tensor<4xf32>) -> ()\n"
                 "  }) {times = -1 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
                 "  return %y : tensor<4xf32>\n}\n",
                 "neg.mlir");
  // CHECK: diag body.mlir:2:8: 'toy.repeat' op body must take one value of the operand's type and yield one
  // CHECK: body.mlir: verifies=0
  parseAndVerify(ctx,
                 "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  %y = \"toy.repeat\"(%x) ({\n"
                 "  ^bb0(%v: tensor<4xf32>):\n"
                 "    \"gpu.yield\"() : () -> ()\n"
                 "  }) {times = 2 : i64, note = \"no value\"} : (tensor<4xf32>) -> tensor<4xf32>\n"
                 "  return %y : tensor<4xf32>\n}\n",
                 "body.mlir");
  // CHECK: diag note.mlir:2:8: 'toy.repeat' op needs attribute 'note': a string
  // CHECK: note.mlir: verifies=0
  parseAndVerify(ctx,
                 "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
                 "  %y = \"toy.repeat\"(%x) ({\n"
                 "  ^bb0(%v: tensor<4xf32>):\n"
                 "    \"gpu.yield\"(%v) : (tensor<4xf32>) -> ()\n"
                 "  }) {times = 2 : i64, note = 7 : i64} : (tensor<4xf32>) -> tensor<4xf32>\n"
                 "  return %y : tensor<4xf32>\n}\n",
                 "note.mlir");
  // CHECK: flag.mlir: verifies=1
  MlirModule flag = parseAndVerify(ctx,
                                   "func.func @g(%x: tensor<4xf32>) -> i1 {\n"
                                   "  %e = \"toy.is_empty\"(%x) : (tensor<4xf32>) -> i1\n"
                                   "  return %e : i1\n}\n",
                                   "flag.mlir");
  if (!mlirModuleIsNull(flag)) {
    int64_t dims[1] = {4};
    StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 1, dims), **out;
    size_t n;
    memset(x->data, 0, strataTensorNumBytes(x));
    // CHECK: is_empty: 1 rank=0 value=0
    bool ran = mlirLogicalResultIsSuccess(
        strataInterpret(ctx, strataLookupFunc(flag, "g"), &x, 1, &out, &n));
    printf("is_empty: %d rank=%d value=%g\n", ran, ran ? out[0]->rank : -1,
           ran ? strataTensorGetDouble(out[0], 0) : -1.0);
    for (size_t i = 0; ran && i < n; i++) strataTensorDestroy(out[i]);
    if (ran) free(out);
    strataTensorDestroy(x);
    mlirModuleDestroy(flag);
  }
  // CHECK: diag flagtype.mlir:2:8: expected 'i1' but got 'tensor<i1>'
  // CHECK: flagtype.mlir: does not parse
  parseAndVerify(ctx,
                 "func.func @g(%x: tensor<4xf32>) -> tensor<i1> {\n"
                 "  %e = \"toy.is_empty\"(%x) : (tensor<4xf32>) -> tensor<i1>\n"
                 "  return %e : tensor<i1>\n}\n",
                 "flagtype.mlir");

  /* Instrumentation sees toy.repeat (its table marks it observable) and
   * the nn ops, also those in its body, in pre-order. */
  StrataInstrTool *tool = strataInstrToolCreate("trace");
  strataInstrToolAddCallback(tool, STRATA_INSTR_AFTER_FORWARD, probeAfter, NULL);
  // CHECK: observed toy.repeat (op_id 0)
  // CHECK-NEXT: observed nn.add (op_id 1)
  // CHECK-NEXT: observed nn.relu (op_id 2)
  // CHECK-NEXT: instrumented: 1
  printf("instrumented: %d\n", mlirLogicalResultIsSuccess(
                                   strataInstrument(ctx, mlirModuleGetOperation(m), &tool, 1, NULL)));
  strataInstrToolDestroy(tool);
  Text t = {calloc(1, 1), 0};
  mlirOperationPrint(mlirModuleGetOperation(m), append, &t);
  // CHECK: "toy.repeat"
  // CHECK: "nn.add"
  // CHECK-NEXT: "instr.probe"({{.*}}op_name = "nn.add"
  // CHECK-NEXT: gpu.yield
  // CHECK-NEXT: }) {instr.op_id = 0 : i64, times = 3 : i64}
  // CHECK-NEXT: "instr.probe"({{.*}}op_name = "toy.repeat"
  // CHECK-NEXT: "nn.relu"
  // CHECK-NEXT: "instr.probe"({{.*}}op_name = "nn.relu"
  printf("%s\n", t.data);
  free(t.data);
  // CHECK: instrumented verifies=1
  printf("instrumented verifies=%d\n",
         mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(m))));
  /* Probes interpret as the identity: the same result. */
  // CHECK: instrumented run: 8 0 4 24
  run(ctx, m, "instrumented run");
  mlirModuleDestroy(m);
  strataContextDestroy(ctx);
  return 0;
}
