/* Context, dialect loading, diagnostics callback, parsing and verification.
 * RUN: %capi/context 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <string.h>
#include "strata/strata.h"

typedef struct {
  int count;
  char last[512];
} Seen;

static void record(const StrataDiagnostic *d, void *user) {
  Seen *s = user;
  s->count++;
  snprintf(s->last, sizeof s->last, "%s|%u|%u|%s", d->file ? d->file : "(none)", d->line, d->col,
           d->message);
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep stdout and stderr in order */
  /* Two independent contexts: nothing is shared between them. */
  StrataContext *a = strataContextCreate(), *b = strataContextCreate();
  if (!a || !b) return 1;
  // CHECK: dialects: 5 first: nn
  printf("dialects: %zu first: %s\n", strataContextNumDialects(a), strataContextGetDialect(a, 0)->name);
  const StrataOpDef *conv = strataContextLookupOpDef(a, mlirStringRefCreateFromCString("nn.conv"));
  // CHECK: nn.conv pure=1 infer=1 interpret=1 operands=x, w, b? Many-to-Many ISDOS
  printf("%s pure=%d infer=%d interpret=%d operands=%s %s %s\n", conv->name,
         !!(conv->flags & STRATA_OP_PURE), conv->infer != NULL, conv->interpret != NULL,
         conv->operands, strataMappingTypeName(conv->mapping((MlirOperation){NULL})),
         strataDynamismName(conv->dynamism));
  // CHECK: unknown op def: 1
  printf("unknown op def: %d\n", strataContextLookupOpDef(a, mlirStringRefCreateFromCString("nn.nope")) == NULL);

  Seen seen = {0};
  strataContextSetDiagnosticCallback(a, record, &seen);
  const char *bad = "func.func @f(%x: tensor<2xf32>) {\n"
                    "  %y = \"nn.relu\"(%x) : (tensor<2xf32>) -> tensor<3xf32>\n"
                    "  return\n}\n";
  MlirModule m = strataParseModule(a, mlirStringRefCreateFromCString(bad), "model.mlir");
  // CHECK: parsed: 1 errors so far: 0
  printf("parsed: %d errors so far: %zu\n", !mlirModuleIsNull(m), strataContextErrorCount(a));
  MlirLogicalResult r = strataVerify(a, mlirModuleGetOperation(m));
  // CHECK: verify failed: 1 callbacks: 1 errors: 1
  printf("verify failed: %d callbacks: %d errors: %zu\n", mlirLogicalResultIsFailure(r), seen.count,
         strataContextErrorCount(a));
  // CHECK: model.mlir|2|8|'nn.relu' op result type tensor<3xf32> does not match the inferred type tensor<2xf32>
  printf("%s\n", seen.last);
  mlirModuleDestroy(m);

  /* The other context still has the default callback and no errors. */
  // CHECK: other context errors: 0
  printf("other context errors: %zu\n", strataContextErrorCount(b));

  /* Syntax errors are located too; several top-level ops are wrapped. */
  m = strataParseModule(a, mlirStringRefCreateFromCString("func.func @a() {\n  return\n}\n%%%"), "x.mlir");
  // CHECK: null on syntax error: 1
  // CHECK-NEXT: x.mlir|4|1|
  printf("null on syntax error: %d\n%s\n", mlirModuleIsNull(m), seen.last);
  m = strataParseModule(a, mlirStringRefCreateFromCString("func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}\n"), "two.mlir");
  // CHECK: two functions parsed: 1
  printf("two functions parsed: %d\n", !mlirModuleIsNull(m) && !mlirOperationIsNull(strataLookupFunc(m, "b")));
  mlirModuleDestroy(m);

  strataContextResetErrorCount(a);
  // CHECK: reset: 0
  printf("reset: %zu\n", strataContextErrorCount(a));
  strataContextDestroy(a);
  strataContextDestroy(b);
  return 0;
}
