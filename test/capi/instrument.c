/* The instrumentation tool API (include/strata/instrument.h): Amanda's
 * acceptance tests that apply to inference and need C tools -- composition
 * (depends_on order, shared dependency once, cycles rejected), replace once,
 * insert-after affects only later uses, an idle tool leaves the IR
 * byte-identical, and analysis runs once per op.
 * RUN: %capi/instrument 2>&1 | FileCheck %s
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

static const char *kModule =
    "func.func @f(%x: tensor<4xf32>) -> tensor<4xf32> {\n"
    "  %a = \"nn.neg\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %r = \"nn.relu\"(%x) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %b = \"nn.neg\"(%r) : (tensor<4xf32>) -> tensor<4xf32>\n"
    "  %s = \"nn.add\"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
    "  return %s : tensor<4xf32>\n}\n";

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

static char *print(MlirModule m) {
  Text t = {calloc(1, 1), 0};
  mlirOperationPrint(mlirModuleGetOperation(m), append, &t);
  return t.data;
}

static MlirModule parse(StrataContext *ctx) {
  return strataParseModule(ctx, mlirStringRefCreateFromCString(kModule), "test.mlir");
}

/* Runs @f on x = [-2, -1, 1, 3] with the interpreter; prints the result. */
static void run(StrataContext *ctx, MlirModule m, const char *label) {
  int64_t dims[1] = {4};
  StrataTensor *x = strataTensorCreate(STRATA_DTYPE_F32, 1, dims);
  const double xs[4] = {-2, -1, 1, 3};
  for (int i = 0; i < 4; i++) strataTensorSetDouble(x, i, xs[i]);
  StrataTensor **out = NULL;
  size_t n = 0;
  if (mlirLogicalResultIsSuccess(strataInterpret(ctx, strataLookupFunc(m, "f"), &x, 1, &out, &n))) {
    printf("%s:", label);
    for (int i = 0; i < 4; i++) printf(" %g", strataTensorGetDouble(out[0], i));
    printf("\n");
  }
  for (size_t i = 0; i < n; i++) strataTensorDestroy(out[i]);
  free(out);
  strataTensorDestroy(x);
}

/* ---- Composition ---- */

typedef struct {
  const char *name;
  int calls;
} Counter;

/* Tool A: writes context["type"] (the op's short name). */
static void writeType(StrataInstrOpContext *op, void *user) {
  Counter *c = user;
  c->calls++;
  const char *name = strataInstrOpGetName(op);
  strataInstrOpSetString(op, "type", strchr(name, '.') + 1);
  strataInstrOpSetInt(op, "order", 1);
  printf("%s: op_id %lld %s\n", c->name, (long long)strataInstrOpGetId(op), name);
}

/* Tools B and C: read it; they must fire after A. */
static void readType(StrataInstrOpContext *op, void *user) {
  Counter *c = user;
  c->calls++;
  int64_t order = 0;
  strataInstrOpGetInt(op, "order", &order);
  printf("%s: op_id %lld type=%s after=%lld\n", c->name, (long long)strataInstrOpGetId(op),
         strataInstrOpGetString(op, "type") ? strataInstrOpGetString(op, "type") : "(none)",
         (long long)order);
  strataInstrOpSetInt(op, "order", order + 1);
}

static void never(StrataInstrOpContext *op, void *user) {
  (void)op;
  ((Counter *)user)->calls++;
}

/* ---- Actions ---- */

/* relu -> identity: the output is the input. */
static bool identity(StrataBuilder *b, MlirLocation loc, const MlirValue *in, intptr_t nin,
                     MlirValue *out, intptr_t nout, void *user) {
  (void)b, (void)loc, (void)nin, (void)nout, (void)user;
  out[0] = in[0];
  return true;
}

static MlirValue twice(StrataBuilder *b, MlirLocation loc, MlirValue v, void *user) {
  (void)user;
  return strataResult(strataCreateOp(b, "nn.add", loc, .operands = STRATA_VALUES(v, v),
                                     .results = STRATA_TYPES(mlirValueGetType(v))),
                      0);
}

static void replaceRelu(StrataInstrOpContext *op, void *user) {
  if (strcmp(strataInstrOpGetName(op), "nn.relu")) return;
  MlirLogicalResult r = strataInstrReplace(op, identity, NULL);
  printf("%s replace: %s\n", (const char *)user, mlirLogicalResultIsSuccess(r) ? "ok" : "failed");
}

static void doubleRelu(StrataInstrOpContext *op, void *user) {
  (void)user;
  if (!strcmp(strataInstrOpGetName(op), "nn.relu")) strataInstrInsertAfter(op, 0, twice, NULL);
}

static void badIndex(StrataInstrOpContext *op, void *user) {
  (void)user;
  if (!strcmp(strataInstrOpGetName(op), "nn.relu")) strataInstrInsertBefore(op, 3, twice, NULL);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep stdout and stderr in order */
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return 1;

  /* B and C depend on A; only B and C are passed: A runs first, once. */
  Counter a = {"A", 0}, b = {"B", 0}, c = {"C", 0}, back = {"backward", 0};
  StrataInstrTool *ta = strataInstrToolCreate("A"), *tb = strataInstrToolCreate("B"),
                  *tc = strataInstrToolCreate("C");
  strataInstrToolAddCallback(ta, STRATA_INSTR_BEFORE_FORWARD, writeType, &a);
  strataInstrToolAddCallback(tb, STRATA_INSTR_BEFORE_FORWARD, readType, &b);
  strataInstrToolAddCallback(tc, STRATA_INSTR_AFTER_FORWARD, readType, &c);
  strataInstrToolAddCallback(tc, STRATA_INSTR_BEFORE_BACKWARD, never, &back);
  strataInstrToolAddCallback(tc, STRATA_INSTR_AFTER_BACKWARD, never, &back);
  strataInstrToolDependsOn(tb, ta);
  strataInstrToolDependsOn(tc, ta);
  MlirModule m = parse(ctx);
  char *before = print(m);
  StrataInstrTool *bc[2] = {tb, tc};
  // CHECK: A: op_id 0 nn.neg
  // CHECK-NEXT: B: op_id 0 type=neg after=1
  // CHECK-NEXT: C: op_id 0 type=neg after=2
  // CHECK-NEXT: A: op_id 1 nn.relu
  // CHECK-NEXT: B: op_id 1 type=relu after=1
  // CHECK-NEXT: C: op_id 1 type=relu after=2
  // CHECK: C: op_id 3 type=add after=2
  // CHECK-NEXT: composed: 1
  printf("composed: %d\n", mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m), bc, 2, NULL)));
  /* Analysis once per op (4 ops); the backward points are never reached. */
  // CHECK-NEXT: calls: A 4 B 4 C 4 backward 0
  printf("calls: A %d B %d C %d backward %d\n", a.calls, b.calls, c.calls, back.calls);
  /* Nothing recorded: not even ids are written. */
  char *after = print(m);
  // CHECK-NEXT: idle tools leave the IR byte-identical: 1
  printf("idle tools leave the IR byte-identical: %d\n", !strcmp(before, after));
  free(after);

  /* A cycle is rejected, naming the tools on it. */
  StrataInstrTool *tx = strataInstrToolCreate("X"), *ty = strataInstrToolCreate("Y");
  strataInstrToolDependsOn(tx, ty);
  strataInstrToolDependsOn(ty, tx);
  strataInstrToolDependsOn(tb, tx);
  // CHECK-NEXT: test.mlir:1:1: error: instrument: tool dependency cycle: X -> Y -> X
  // CHECK-NEXT: cycle: 0
  printf("cycle: %d\n", mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m), &tb, 1, NULL)));

  /* Replace at most once: a second replace (by another tool) is an error
   * located at the op, and the IR stays as it was. */
  StrataInstrTool *r1 = strataInstrToolCreate("first"), *r2 = strataInstrToolCreate("second");
  strataInstrToolAddCallback(r1, STRATA_INSTR_BEFORE_FORWARD, replaceRelu, "first");
  strataInstrToolAddCallback(r2, STRATA_INSTR_AFTER_FORWARD, replaceRelu, "second");
  StrataInstrTool *both[2] = {r1, r2};
  // CHECK-NEXT: first replace: ok
  // CHECK-NEXT: test.mlir:3:{{[0-9]+}}: error: instrument: tool 'second' replaces 'nn.relu' (op_id 1), which tool 'first' already replaced; an op can be replaced once
  // CHECK-NEXT: second replace: failed
  // CHECK-NEXT: replaced twice: 0 unchanged: 1
  int twiceOk = mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m), both, 2, NULL));
  after = print(m);
  printf("replaced twice: %d unchanged: %d\n", twiceOk, !strcmp(before, after));
  free(after);

  /* An index out of range is a located error too. */
  StrataInstrTool *bad = strataInstrToolCreate("bad");
  strataInstrToolAddCallback(bad, STRATA_INSTR_BEFORE_FORWARD, badIndex, NULL);
  // CHECK-NEXT: test.mlir:3:{{[0-9]+}}: error: instrument: tool 'bad' inserts before input #3 of 'nn.relu' (op_id 1), which has 1
  // CHECK-NEXT: bad index: 0
  printf("bad index: %d\n", mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m), &bad, 1, NULL)));

  /* x = [-2, -1, 1, 3]: f = neg(x) + neg(relu(x)). */
  // CHECK-NEXT: original: 2 1 -2 -6
  run(ctx, m, "original");
  /* Replace relu with the identity: f = neg(x) + neg(x), G without relu. */
  MlirModule m2 = parse(ctx);
  // CHECK-NEXT: first replace: ok
  // CHECK-NEXT: replaced: 1
  printf("replaced: %d\n", mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m2), &r1, 1, NULL)));
  // CHECK-NEXT: without relu: 4 2 -2 -6
  run(ctx, m2, "without relu");
  mlirModuleDestroy(m2);
  /* relu x 2 after the op: only later uses see it, f = neg(x) + neg(2 relu(x)). */
  StrataInstrTool *dbl = strataInstrToolCreate("double");
  strataInstrToolAddCallback(dbl, STRATA_INSTR_AFTER_FORWARD, doubleRelu, NULL);
  m2 = parse(ctx);
  // CHECK-NEXT: doubled: 1
  printf("doubled: %d\n", mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m2), &dbl, 1, NULL)));
  // CHECK-NEXT: relu doubled: 2 1 -3 -9
  run(ctx, m2, "relu doubled");
  mlirModuleDestroy(m2);
  /* Replace by the identity, then double after: the replacement's output is
   * x itself, and the uses of x before the op (neg(x)) must not change:
   * f = neg(x) + neg(2x). */
  m2 = parse(ctx);
  StrataInstrTool *rd[2] = {r1, dbl};
  // CHECK-NEXT: first replace: ok
  // CHECK-NEXT: replaced and doubled: 1
  printf("replaced and doubled: %d\n", mlirLogicalResultIsSuccess(strataInstrument(ctx, mlirModuleGetOperation(m2), rd, 2, NULL)));
  // CHECK-NEXT: identity doubled: 6 3 -3 -9
  run(ctx, m2, "identity doubled");
  /* Ids were written (actions were recorded), and verify. */
  // CHECK-NEXT: verifies: 1 ids: 1
  char *text = print(m2);
  printf("verifies: %d ids: %d\n", mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(m2))),
         strstr(text, "instr.op_id = 3") != NULL);
  free(text);
  mlirModuleDestroy(m2);

  free(before);
  mlirModuleDestroy(m);
  StrataInstrTool *all[] = {ta, tb, tc, tx, ty, r1, r2, bad, dbl};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) strataInstrToolDestroy(all[i]);
  strataContextDestroy(ctx);
  return 0;
}
