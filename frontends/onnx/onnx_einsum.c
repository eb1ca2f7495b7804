/* Einsum of more than two inputs as a chain of two-operand nn.einsum ops:
 * ((in0 . in1) . in2) ..., each step keeping the subscripts a later input
 * or the result still uses and summing the others -- the same sum of
 * products numpy.einsum computes. "..." dims travel through the chain and
 * broadcast (right aligned) as they would all at once. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "onnx_internal.h"

#define MAX_TERM 64

/* Splits the equation (spaces dropped) into input terms and the result
 * term, making an implicit result explicit: "..." if any term has one,
 * then the letters used exactly once, in ASCII order. */
static bool splitEquation(Node *x, const char *eq, char terms[][MAX_TERM], int numTerms, char *out) {
  char flat[512];
  size_t k = 0;
  for (const char *p = eq; *p && k + 1 < sizeof flat; p++)
    if (*p != ' ') flat[k++] = *p;
  flat[k] = '\0';
  char *arrow = strstr(flat, "->");
  if (arrow) *arrow = '\0';
  int n = 0;
  for (char *s = flat, *comma;; s = comma + 1) {
    comma = strchr(s, ',');
    if (comma) *comma = '\0';
    if (n < numTerms && strlen(s) < MAX_TERM) snprintf(terms[n], MAX_TERM, "%s", s);
    else n = numTerms + 1; /* too many or too long: refused below */
    n++;
    if (!comma) break;
  }
  if (n != numTerms) {
    NODE_ERROR(x->im, x->loc, x->n, "equation \"%.200s\" needs one term (of at most %d characters) per input, %d "
               "inputs", eq, MAX_TERM - 1, numTerms);
    return false;
  }
  if (arrow) {
    snprintf(out, MAX_TERM, "%.*s", MAX_TERM - 1, arrow + 2);
    return true;
  }
  int count[128] = {0};
  bool ellipsis = false;
  for (int i = 0; i < numTerms; i++)
    for (const char *p = terms[i]; *p; p++) {
      if (*p == '.') ellipsis = true;
      else count[(unsigned char)*p & 127]++;
    }
  k = (size_t)snprintf(out, MAX_TERM, "%s", ellipsis ? "..." : "");
  for (int c = 'A'; c <= 'z' && k + 1 < MAX_TERM; c++)
    if (count[c] == 1 && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) out[k++] = (char)c;
  out[k] = '\0';
  return true;
}

/* The subscripts of a and b (first appearance, once each) that `later`
 * terms or the result use; "..." first when a or b has one. */
static void keptTerm(const char *a, const char *b, char later[][MAX_TERM], int numLater, const char *result,
                     char *kept) {
  bool ellipsis = strchr(a, '.') || strchr(b, '.');
  size_t k = (size_t)snprintf(kept, MAX_TERM, "%s", ellipsis ? "..." : "");
  char both[2 * MAX_TERM];
  snprintf(both, sizeof both, "%s%s", a, b);
  for (const char *p = both; *p && k + 1 < MAX_TERM; p++) {
    if (*p == '.' || memchr(kept, *p, k)) continue;
    bool needed = strchr(result, *p) != NULL;
    for (int i = 0; i < numLater && !needed; i++) needed = strchr(later[i], *p) != NULL;
    if (needed) kept[k++] = *p;
  }
  kept[k] = '\0';
}

bool onnxImportEinsumChain(Node *x) {
  const Onnx__AttributeProto *a = onnxFindAttr(x->n, "equation");
  if (!a || a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING) {
    NODE_ERROR(x->im, x->loc, x->n, "needs a string attribute 'equation'");
    return false;
  }
  char eq[512], terms[MAX_IO][MAX_TERM], result[MAX_TERM];
  snprintf(eq, sizeof eq, "%.*s", (int)(a->s.len < 511 ? a->s.len : 511), (const char *)a->s.data);
  if (!splitEquation(x, eq, terms, x->nIn, result)) return false;
  MlirValue acc = x->in[0];
  char cur[MAX_TERM];
  snprintf(cur, sizeof cur, "%s", terms[0]);
  for (int i = 1; i < x->nIn; i++) {
    if (mlirValueIsNull(x->in[i])) {
      NODE_ERROR(x->im, x->loc, x->n, "input #%d is empty (\"\" means absent), but every input of Einsum is "
                 "required", i);
      return false;
    }
    char kept[MAX_TERM], step[4 * MAX_TERM];
    bool last = i == x->nIn - 1;
    if (last) snprintf(kept, sizeof kept, "%s", result);
    else keptTerm(cur, terms[i], terms + i + 1, x->nIn - i - 1, result, kept);
    snprintf(step, sizeof step, "%s,%s->%s", cur, terms[i], kept);
    Attr attrs[1] = {{"equation", mlirStringAttrGet(x->im->mc, mlirStringRefCreateFromCString(step))}};
    acc = onnxBinary(x, "nn.einsum", acc, x->in[i], attrs, 1);
    if (mlirValueIsNull(acc)) return false;
    snprintf(cur, sizeof cur, "%s", kept);
  }
  return onnxBindValue(x, acc);
}
