/* strataParseModule reads exactly source.length bytes: text in a buffer with
 * no NUL after it parses, and errors at its very end stay inside it (under
 * ASan a read past the end would be reported; MLIR's lexer expects a
 * terminator, so the library copies the text first).
 * RUN: %capi/parse_no_nul 2>&1 | FileCheck %s
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "strata/strata.h"

/* Parses a malloc'd copy of exactly strlen(text) bytes, no terminator. */
static MlirModule parseExact(StrataContext *ctx, const char *text, const char *name) {
  size_t n = strlen(text);
  char *buf = malloc(n);
  if (!buf) return (MlirModule){NULL};
  memcpy(buf, text, n);
  MlirModule m = strataParseModule(ctx, mlirStringRefCreate(buf, n), name);
  free(buf); /* the module does not point into the source */
  return m;
}

int main(void) {
  setvbuf(stdout, NULL, _IONBF, 0); /* keep stdout and stderr in order */
  StrataContext *ctx = strataContextCreate();
  if (!ctx) return 1;

  /* A whole module whose last byte is its closing brace. */
  MlirModule m = parseExact(ctx, "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
                                 "  %y = \"nn.relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
                                 "  return %y : tensor<2xf32>\n}", "whole.mlir");
  // CHECK: whole: parsed 1 verified 1
  printf("whole: parsed %d verified %d\n", !mlirModuleIsNull(m),
         !mlirModuleIsNull(m) && mlirLogicalResultIsSuccess(strataVerify(ctx, mlirModuleGetOperation(m))));
  if (!mlirModuleIsNull(m)) mlirModuleDestroy(m);

  /* Several top-level ops (wrapped in a module by the library). */
  m = parseExact(ctx, "func.func @a() {\n  return\n}\nfunc.func @b() {\n  return\n}", "two.mlir");
  // CHECK: two: parsed 1
  printf("two: parsed %d\n", !mlirModuleIsNull(m));
  if (!mlirModuleIsNull(m)) mlirModuleDestroy(m);

  /* The reproducer: a string literal running to the end of the buffer. */
  m = parseExact(ctx, "\nnn.constant\"()`{value = dense<0.0n a singlef16>", "string.mlir");
  // CHECK: string.mlir:2:48: error: expected '"' in string literal
  // CHECK-NEXT: string: null 1
  printf("string: null %d\n", mlirModuleIsNull(m));

  /* Tokens cut by the end of the buffer: a number, an identifier. */
  m = parseExact(ctx, "func.func @f() {\n  %c = arith.constant 12", "number.mlir");
  // CHECK: number.mlir:2:24: error:
  // CHECK-NEXT: number: null 1
  printf("number: null %d\n", mlirModuleIsNull(m));
  m = parseExact(ctx, "func.func @f() -> tensor<2xf32", "ident.mlir");
  // CHECK: ident.mlir:1:30: error: expected '>' in tensor type
  // CHECK-NEXT: ident: null 1
  printf("ident: null %d\n", mlirModuleIsNull(m));

  /* A zero-width integer type is refused before MLIR parses the text. */
  m = parseExact(ctx, "func.func @f() -> tensor<2xui0>", "ui0.mlir");
  // CHECK: ui0.mlir:1:28: error: integer type 'ui0' has zero width; Strata does not support it
  // CHECK-NEXT: ui0: null 1
  printf("ui0: null %d\n", mlirModuleIsNull(m));

  strataContextDestroy(ctx);
  return 0;
}
