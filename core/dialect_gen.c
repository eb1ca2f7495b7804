/* A dialect's IRDL definition generated from its op tables: what
 * strata-gen-irdl prints for the checked-in dialects/<d>/<d>.irdl.mlir (the
 * sync tests diff the two) and what the context loads for a registered
 * dialect that brings no IRDL text of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static int cmpOps(const void *a, const void *b) {
  return strcmp((*(const StrataOpDef *const *)a)->name, (*(const StrataOpDef *const *)b)->name);
}

/* The IRDL constraint of one type-constraint alternative. */
static void typeConstraint(StrataStr *out, const char *alt, size_t len) {
#define IS(word) (len == sizeof word - 1 && !strncmp(alt, word, len))
  if (IS("any")) strataStrAppendf(out, "irdl.any");
  else if (IS("tensor")) strataStrAppendf(out, "irdl.base \"!builtin.tensor\"");
  else if (IS("vector")) strataStrAppendf(out, "irdl.base \"!builtin.vector\"");
  else if (IS("memref")) strataStrAppendf(out, "irdl.base \"!builtin.memref\"");
  else if (IS("integer")) strataStrAppendf(out, "irdl.base \"!builtin.integer\"");
  else strataStrAppendf(out, "irdl.is %.*s", (int)len, alt);
#undef IS
}

/* Splits a '|'-separated constraint into trimmed alternatives (at most 8). */
static int alternatives(const char *c, const char **alt, size_t *len) {
  int n = 0;
  for (const char *p = c; *p && n < 8;) {
    while (*p == ' ') p++;
    size_t l = 0;
    for (int depth = 0; p[l] && (depth || p[l] != '|'); l++)
      depth += p[l] == '<' ? 1 : p[l] == '>' ? -1 : 0;
    size_t t = l;
    while (t && p[t - 1] == ' ') t--;
    if (t) {
      alt[n] = p;
      len[n++] = t;
    }
    p += l + (p[l] == '|');
  }
  return n;
}

/* `%var = constraint`, or one variable per alternative and an any_of. */
static void defineVar(StrataStr *out, const char *var, int nalt, const char *const *lines) {
  if (nalt == 1) {
    strataStrAppendf(out, "    %%%s = %s\n", var, lines[0]);
    return;
  }
  for (int i = 0; i < nalt; i++) strataStrAppendf(out, "    %%%s_%d = %s\n", var, i, lines[i]);
  strataStrAppendf(out, "    %%%s = irdl.any_of(", var);
  for (int i = 0; i < nalt; i++) strataStrAppendf(out, "%s%%%s_%d", i ? ", " : "", var, i);
  strataStrAppendf(out, ")\n");
}

static void valueVar(StrataStr *out, int index, const char *constraint) {
  const char *alt[8];
  size_t len[8];
  int n = alternatives(*constraint ? constraint : "tensor", alt, len);
  if (!n) n = alternatives("tensor", alt, len);
  StrataStr lines[8] = {{0}};
  const char *text[8];
  for (int i = 0; i < n; i++) {
    typeConstraint(&lines[i], alt[i], len[i]);
    text[i] = lines[i].data ? lines[i].data : "";
  }
  char var[16];
  snprintf(var, sizeof var, "t%d", index);
  defineVar(out, var, n, text);
  for (int i = 0; i < n; i++) strataStrFree(&lines[i]);
}

static void attrVar(StrataStr *out, const StrataAttrDef *a) {
  const char *one[1], *two[2];
  switch (a->kind) {
  case STRATA_ATTR_ANY: one[0] = "irdl.any"; break;
  case STRATA_ATTR_INT:
  case STRATA_ATTR_BOOL: one[0] = "irdl.base \"#builtin.integer\""; break;
  case STRATA_ATTR_FLOAT: one[0] = "irdl.base \"#builtin.float\""; break;
  case STRATA_ATTR_STRING:
  case STRATA_ATTR_ENUM: one[0] = "irdl.base \"#builtin.string\""; break;
  case STRATA_ATTR_TYPE: one[0] = "irdl.base \"#builtin.type\""; break;
  case STRATA_ATTR_UNIT: one[0] = "irdl.base \"#builtin.unit\""; break;
  case STRATA_ATTR_INT_ARRAY:
    two[0] = "irdl.base \"#builtin.dense_array\"";
    two[1] = "irdl.base \"#builtin.array\"";
    defineVar(out, a->name, 2, two);
    return;
  case STRATA_ATTR_ELEMENTS:
    two[0] = "irdl.base \"#builtin.dense_int_or_fp_elements\"";
    two[1] = "irdl.base \"#builtin.dense_resource_elements\"";
    defineVar(out, a->name, 2, two);
    return;
  default: one[0] = "irdl.any"; break;
  }
  defineVar(out, a->name, 1, one);
}

static void valueList(StrataStr *out, const char *what, const StrataValueSpec *v, int n, int first) {
  if (!n) return;
  strataStrAppendf(out, "    irdl.%s(", what);
  for (int i = 0; i < n; i++)
    strataStrAppendf(out, "%s%s: %s%%t%d", i ? ", " : "", v[i].name,
                     v[i].kind == '?' ? "optional " : v[i].kind == '*' ? "variadic " : "", first + i);
  strataStrAppendf(out, ")\n");
}

static void operation(StrataStr *out, const StrataDialectDef *d, const StrataOpDef *op) {
  strataStrAppendf(out, "  irdl.operation @%s {\n", op->name + strlen(d->name) + 1);
  size_t required = 0;
  for (size_t a = 0; a < op->numAttrs; a++)
    if (!(op->attrs[a].flags & STRATA_ATTR_OPTIONAL)) {
      attrVar(out, &op->attrs[a]);
      required++;
    }
  if (required) {
    strataStrAppendf(out, "    irdl.attributes {");
    size_t k = 0;
    for (size_t a = 0; a < op->numAttrs; a++)
      if (!(op->attrs[a].flags & STRATA_ATTR_OPTIONAL))
        strataStrAppendf(out, "%s\"%s\" = %%%s", k++ ? ", " : "", op->attrs[a].name, op->attrs[a].name);
    strataStrAppendf(out, "}\n");
  }
  StrataValueSpec in[16], res[8], regions[8];
  int ni = strataParseValueSpec(op->operands, in, 16), no = strataParseValueSpec(op->results, res, 8);
  int ng = strataParseValueSpec(op->regions, regions, 8);
  for (int v = 0; v < ni; v++) valueVar(out, v, in[v].type);
  for (int v = 0; v < no; v++) valueVar(out, ni + v, res[v].type);
  valueList(out, "operands", in, ni, 0);
  valueList(out, "results", res, no, ni);
  if (ng) {
    for (int r = 0; r < ng; r++) strataStrAppendf(out, "    %%r%d = irdl.region with size 1\n", r);
    strataStrAppendf(out, "    irdl.regions(");
    for (int r = 0; r < ng; r++) strataStrAppendf(out, "%s%s: %%r%d", r ? ", " : "", regions[r].name, r);
    strataStrAppendf(out, ")\n");
  }
  strataStrAppendf(out, "  }\n");
}

char *strataDialectGenerateIrdl(const StrataDialectDef *d) {
  size_t n = strataDialectNumOps(d);
  const StrataOpDef **ops = malloc((n ? n : 1) * sizeof *ops);
  if (!ops) return NULL;
  for (size_t i = 0; i < n; i++) ops[i] = strataDialectGetOp(d, i);
  qsort(ops, n, sizeof ops[0], cmpOps);
  StrataStr out = {0};
  strataStrAppendf(&out, "// The `%s` dialect%s%s\n", d->name, d->summary ? ": " : ".",
                   d->summary ? d->summary : "");
  const char *comment = d->irdlComment
                            ? d->irdlComment
                            : "GENERATED by strata-gen-irdl from the dialect's op tables; do not edit.";
  strataStrAppendf(&out, "//\n");
  for (const char *p = comment; *p;) {
    size_t len = strcspn(p, "\n");
    if (len) strataStrAppendf(&out, "// %.*s\n", (int)len, p);
    else strataStrAppendf(&out, "//\n");
    p += len + (p[len] == '\n');
  }
  strataStrAppendf(&out, "irdl.dialect @%s {\n", d->name);
  for (size_t i = 0; i < n; i++) operation(&out, d, ops[i]);
  strataStrAppendf(&out, "}\n");
  free(ops);
  if (!out.data) strataStrAppend(&out, "", 0);
  return out.data;
}
