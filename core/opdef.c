/* Generic handling of Strata op definitions: operand groups by name, the
 * generic verifier (infer, then compare with the declared result types), and
 * op facts. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "internal.h"
#include "strata/support.h"

const char *strataMappingTypeName(StrataMappingType m) {
  switch (m) {
  case STRATA_MAP_ONE_TO_ONE: return "One-to-One";
  case STRATA_MAP_REORGANIZE: return "Reorganize";
  case STRATA_MAP_SHUFFLE: return "Shuffle";
  case STRATA_MAP_ONE_TO_MANY: return "One-to-Many";
  case STRATA_MAP_MANY_TO_MANY: return "Many-to-Many";
  }
  return "unknown";
}

const char *strataDynamismName(StrataDynamism d) {
  switch (d) {
  case STRATA_DYN_ISDO: return "ISDO";
  case STRATA_DYN_ISDOS: return "ISDOS";
  case STRATA_DYN_ISVDOS: return "ISVDOS";
  case STRATA_DYN_EDO: return "EDO";
  }
  return "unknown";
}

size_t strataDialectNumOps(const StrataDialectDef *d) {
  size_t n = 0;
  for (size_t t = 0; t < d->numTables; t++) n += d->tables[t]->numOps;
  return n;
}

const StrataOpDef *strataDialectGetOp(const StrataDialectDef *d, size_t i) {
  for (size_t t = 0; t < d->numTables; t++) {
    if (i < d->tables[t]->numOps) return &d->tables[t]->ops[i];
    i -= d->tables[t]->numOps;
  }
  return NULL;
}

/* ---- Operand spec: "X, W, B?", "cond: i1, x: tensor|vector" ---- */

int strataParseValueSpec(const char *spec, StrataValueSpec *out, int max) {
  int n = 0;
  for (const char *p = spec ? spec : ""; *p;) {
    while (*p == ' ' || *p == ',') p++;
    if (!*p) break;
    const char *s = p;
    while (*p && *p != ',' && *p != ' ' && *p != '?' && *p != '*' && *p != ':') p++;
    StrataValueSpec e = {.kind = ' '};
    size_t len = (size_t)(p - s) < sizeof e.name ? (size_t)(p - s) : sizeof e.name - 1;
    memcpy(e.name, s, len);
    if (*p == '?' || *p == '*') e.kind = *p++;
    while (*p == ' ') p++;
    if (*p == ':') {
      /* The constraint runs to the next ',' outside <...>. */
      for (p++; *p == ' '; p++) {}
      const char *t = p;
      for (int depth = 0; *p && (depth || *p != ','); p++)
        depth += *p == '<' ? 1 : *p == '>' ? -1 : 0;
      const char *end = p;
      while (end > t && end[-1] == ' ') end--;
      len = (size_t)(end - t) < sizeof e.type ? (size_t)(end - t) : sizeof e.type - 1;
      memcpy(e.type, t, len);
    }
    if (n < max) out[n] = e;
    n++;
  }
  return n < max ? n : max;
}

typedef StrataValueSpec SpecEntry;
static int parseSpec(const char *spec, SpecEntry *out, int max) {
  return strataParseValueSpec(spec, out, max);
}

/* One alternative of a type constraint: a family or a type written out. */
static bool satisfiesOne(MlirType t, const char *alt, size_t len) {
#define IS(word) (len == sizeof word - 1 && !strncmp(alt, word, len))
  if (IS("any")) return true;
  if (IS("tensor")) return mlirTypeIsATensor(t);
  if (IS("vector")) return mlirTypeIsAVector(t);
  if (IS("memref")) return mlirTypeIsAMemRef(t);
  if (IS("integer")) return mlirTypeIsAInteger(t);
#undef IS
  MlirType want = mlirTypeParseGet(mlirTypeGetContext(t), mlirStringRefCreate(alt, len));
  return !mlirTypeIsNull(want) && mlirTypeEqual(want, t);
}

bool strataTypeSatisfies(MlirType t, const char *constraint) {
  if (!constraint || !*constraint) return mlirTypeIsATensor(t);
  for (const char *p = constraint; *p;) {
    while (*p == ' ') p++;
    size_t len = 0;
    for (int depth = 0; p[len] && (depth || p[len] != '|'); len++)
      depth += p[len] == '<' ? 1 : p[len] == '>' ? -1 : 0;
    size_t trimmed = len;
    while (trimmed && p[trimmed - 1] == ' ') trimmed--;
    if (trimmed && satisfiesOne(t, p, trimmed)) return true;
    p += len + (p[len] == '|');
  }
  return false;
}

bool strataOperandGroup(const StrataOpDef *def, MlirOperation op, int group, intptr_t *start,
                        intptr_t *size) {
  SpecEntry spec[16];
  int n = parseSpec(def->operands, spec, 16), flexible = 0;
  if (group < 0 || group >= n) return false;
  for (int i = 0; i < n; i++) flexible += spec[i].kind != ' ';
  intptr_t total = mlirOperationGetNumOperands(op), sizes[16];
  if (flexible > 1) {
    MlirAttribute seg =
        mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString("operandSegmentSizes"));
    if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
        mlirDenseArrayGetNumElements(seg) != n)
      return false;
    intptr_t sum = 0;
    for (int i = 0; i < n; i++) {
      sizes[i] = mlirDenseI32ArrayGetElement(seg, i);
      if (sizes[i] < 0 || (spec[i].kind == ' ' && sizes[i] != 1) ||
          (spec[i].kind == '?' && sizes[i] > 1))
        return false;
      sum += sizes[i];
    }
    if (sum != total) return false;
  } else {
    intptr_t fixed = n - flexible;
    for (int i = 0; i < n; i++) {
      sizes[i] = 1;
      if (spec[i].kind != ' ') {
        sizes[i] = total - fixed;
        if (sizes[i] < 0 || (spec[i].kind == '?' && sizes[i] > 1)) return false;
      }
    }
    if (!flexible && total != n) return false;
  }
  intptr_t s = 0;
  for (int i = 0; i < group; i++) s += sizes[i];
  *start = s;
  *size = sizes[group];
  return true;
}

MlirValue strataNamedOperand(const StrataOpDef *def, MlirOperation op, const char *name) {
  SpecEntry spec[16];
  int n = parseSpec(def->operands, spec, 16);
  for (int i = 0; i < n; i++) {
    intptr_t start, size;
    if (strcmp(spec[i].name, name) == 0 && strataOperandGroup(def, op, i, &start, &size) && size)
      return mlirOperationGetOperand(op, start);
  }
  return (MlirValue){NULL};
}

/* ---- The generic verifier ---- */

static bool compatible(const StrataShape *want, MlirType have) {
  if (want->rank < 0) return !mlirTypeIsNull(want->elementType) && mlirTypeEqual(want->elementType, have);
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!strataGetShape(have, &rank, dims) || rank != want->rank ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(have), want->elementType))
    return false;
  for (int i = 0; i < rank; i++)
    if (dims[i] != -1 && want->dims[i] != -1 && dims[i] != want->dims[i]) return false;
  return true;
}

/* What an attribute of `a`'s kind and flags must be, for messages. */
static void expectedAttr(const StrataAttrDef *a, char *buf, size_t size) {
  bool nonNeg = a->flags & STRATA_ATTR_NON_NEGATIVE, nonEmpty = a->flags & STRATA_ATTR_NON_EMPTY;
  switch (a->kind) {
  case STRATA_ATTR_ANY: snprintf(buf, size, "any attribute"); return;
  case STRATA_ATTR_INT: snprintf(buf, size, "a %sinteger", nonNeg ? "non-negative " : ""); return;
  case STRATA_ATTR_FLOAT: snprintf(buf, size, "a float"); return;
  case STRATA_ATTR_BOOL: snprintf(buf, size, "true or false"); return;
  case STRATA_ATTR_STRING: snprintf(buf, size, "a %sstring", nonEmpty ? "non-empty " : ""); return;
  case STRATA_ATTR_INT_ARRAY:
    snprintf(buf, size, "a %sarray of integers", nonEmpty ? "non-empty " : "");
    return;
  case STRATA_ATTR_TYPE: snprintf(buf, size, "a type"); return;
  case STRATA_ATTR_ELEMENTS: snprintf(buf, size, "a dense or resource elements attribute"); return;
  case STRATA_ATTR_UNIT: snprintf(buf, size, "a unit attribute"); return;
  case STRATA_ATTR_ENUM: break;
  }
  /* "before" or "after";  "a", "b" or "c" */
  size_t used = 0;
  buf[0] = '\0';
  const char *choices = a->choices ? a->choices : "";
  for (const char *p = choices; *p && used < size;) {
    size_t len = strcspn(p, "|");
    const char *next = p + len + (p[len] == '|');
    const char *sep = p == choices ? "" : *next ? ", " : " or ";
    used += (size_t)snprintf(buf + used, size - used, "%s\"%.*s\"", sep, (int)len, p);
    p = next;
  }
}

static bool intArrayOk(MlirAttribute v, bool nonEmpty) {
  if (mlirAttributeIsADenseI64Array(v) || mlirAttributeIsADenseI32Array(v))
    return !nonEmpty || mlirDenseArrayGetNumElements(v) > 0;
  if (!mlirAttributeIsAArray(v)) return false;
  intptr_t n = mlirArrayAttrGetNumElements(v);
  for (intptr_t i = 0; i < n; i++)
    if (!mlirAttributeIsAInteger(mlirArrayAttrGetElement(v, i))) return false;
  return !nonEmpty || n > 0;
}

static bool attrOk(const StrataAttrDef *a, MlirAttribute v) {
  switch (a->kind) {
  case STRATA_ATTR_ANY: return true;
  case STRATA_ATTR_INT:
    return mlirAttributeIsAInteger(v) && !mlirAttributeIsABool(v) &&
           (!(a->flags & STRATA_ATTR_NON_NEGATIVE) || mlirIntegerAttrGetValueInt(v) >= 0);
  case STRATA_ATTR_FLOAT: return mlirAttributeIsAFloat(v);
  case STRATA_ATTR_BOOL: return mlirAttributeIsABool(v);
  case STRATA_ATTR_STRING:
    return mlirAttributeIsAString(v) &&
           (!(a->flags & STRATA_ATTR_NON_EMPTY) || mlirStringAttrGetValue(v).length > 0);
  case STRATA_ATTR_ENUM: {
    if (!mlirAttributeIsAString(v)) return false;
    MlirStringRef s = mlirStringAttrGetValue(v);
    for (const char *p = a->choices ? a->choices : ""; *p;) {
      size_t len = strcspn(p, "|");
      if (len == s.length && !strncmp(p, s.data, len)) return true;
      p += len + (p[len] == '|');
    }
    return false;
  }
  case STRATA_ATTR_INT_ARRAY: return intArrayOk(v, a->flags & STRATA_ATTR_NON_EMPTY);
  case STRATA_ATTR_TYPE: return mlirAttributeIsAType(v);
  case STRATA_ATTR_ELEMENTS:
    return mlirAttributeIsADenseElements(v) || mlirAttributeIsADenseResourceElements(v);
  case STRATA_ATTR_UNIT: return mlirAttributeIsAUnit(v);
  }
  return false;
}

/* Attributes by the table: present unless optional, and of their kind. */
static bool verifyAttrs(const StrataOpDef *def, MlirOperation op, MlirLocation loc) {
  for (size_t i = 0; i < def->numAttrs; i++) {
    const StrataAttrDef *a = &def->attrs[i];
    MlirAttribute v = mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(a->name));
    if (mlirAttributeIsNull(v) && (a->flags & STRATA_ATTR_OPTIONAL)) continue;
    if (!mlirAttributeIsNull(v) && attrOk(a, v)) continue;
    char want[256];
    expectedAttr(a, want, sizeof want);
    strataEmitError(loc, "'%s' op needs attribute '%s': %s", def->name, a->name, want);
    return false;
  }
  return true;
}

/* Operand and result types against their specs' constraints. */
static bool verifyTypes(const StrataOpDef *def, MlirOperation op, MlirLocation loc,
                        const SpecEntry *spec, int n, bool results) {
  for (int g = 0; g < n; g++) {
    intptr_t start = g, size = 1;
    if (!results && !strataOperandGroup(def, op, g, &start, &size)) return false;
    if (results && spec[g].kind == '*') size = mlirOperationGetNumResults(op) - g;
    for (intptr_t i = start; i < start + size; i++) {
      MlirType t = mlirValueGetType(results ? mlirOperationGetResult(op, i)
                                            : mlirOperationGetOperand(op, i));
      if (strataTypeSatisfies(t, spec[g].type)) continue;
      char got[256];
      strataTypeToString(t, got, sizeof got);
      strataEmitError(loc, "'%s' op %s '%s' must be %s, got %s", def->name,
                      results ? "result" : "operand", spec[g].name,
                      *spec[g].type ? spec[g].type : "a tensor", got);
      return false;
    }
  }
  return true;
}

MlirLogicalResult strataVerifyOp(const StrataOpDef *def, MlirOperation op) {
  MlirLocation loc = mlirOperationGetLocation(op);
  SpecEntry spec[16];
  int n = parseSpec(def->operands, spec, 16);
  for (int i = 0; i < n; i++) {
    intptr_t start, size;
    if (!strataOperandGroup(def, op, i, &start, &size)) {
      strataEmitError(loc, "'%s' op expects operands (%s), got %d%s", def->name, def->operands,
                      (int)mlirOperationGetNumOperands(op),
                      n > 1 ? " (with several optional operands, give operandSegmentSizes)" : "");
      return mlirLogicalResultFailure();
    }
  }
  SpecEntry rspec[8];
  int nr = parseSpec(def->results, rspec, 8);
  intptr_t numResults = mlirOperationGetNumResults(op);
  bool variadic = nr == 1 && rspec[0].kind == '*';
  if (!variadic && numResults != nr) { /* a variadic group may be empty */
    strataEmitError(loc, "'%s' op expects results (%s), got %d", def->name, def->results,
                    (int)numResults);
    return mlirLogicalResultFailure();
  }
  if (!verifyTypes(def, op, loc, spec, n, false) || !verifyTypes(def, op, loc, rspec, nr, true) ||
      !verifyAttrs(def, op, loc))
    return mlirLogicalResultFailure();
  SpecEntry regions[8];
  int ng = parseSpec(def->regions, regions, 8);
  if (mlirOperationGetNumRegions(op) != ng) {
    strataEmitError(loc, "'%s' op expects %d region%s (%s), got %d", def->name, ng, ng == 1 ? "" : "s",
                    def->regions ? def->regions : "none", (int)mlirOperationGetNumRegions(op));
    return mlirLogicalResultFailure();
  }
  for (int g = 0; g < ng; g++) {
    MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, g));
    if (mlirBlockIsNull(b) || !mlirBlockIsNull(mlirBlockGetNextInRegion(b))) {
      strataEmitError(loc, "'%s' op region '%s' must hold exactly one block", def->name, regions[g].name);
      return mlirLogicalResultFailure();
    }
  }
  if (def->infer) {
    StrataShape inferred[numResults ? numResults : 1];
    memset(inferred, 0, sizeof inferred);
    if (mlirLogicalResultIsFailure(def->infer(def, op, inferred))) return mlirLogicalResultFailure();
    for (intptr_t i = 0; i < numResults; i++) {
      MlirType have = mlirValueGetType(mlirOperationGetResult(op, i));
      if (compatible(&inferred[i], have)) continue;
      char want[256], got[256];
      if (inferred[i].rank < 0)
        strataTypeToString(inferred[i].elementType, want, sizeof want);
      else
        strataShapeToString(inferred[i].dims, inferred[i].rank, inferred[i].elementType, want,
                            sizeof want);
      strataTypeToString(have, got, sizeof got);
      if (numResults == 1)
        strataEmitError(loc, "'%s' op result type %s does not match the inferred type %s", def->name,
                        got, want);
      else
        strataEmitError(loc, "'%s' op result #%d type %s does not match the inferred type %s",
                        def->name, (int)i, got, want);
      return mlirLogicalResultFailure();
    }
  }
  return def->verify ? def->verify(def, op) : mlirLogicalResultSuccess();
}

/* ---- Checking a table before it is loaded ---- */

/* True if every alternative of `c` is a family or parses as a type. */
static bool constraintOk(StrataContext *ctx, const char *c, char *bad, size_t size) {
  for (const char *p = c; *p;) {
    while (*p == ' ') p++;
    size_t len = 0;
    for (int depth = 0; p[len] && (depth || p[len] != '|'); len++)
      depth += p[len] == '<' ? 1 : p[len] == '>' ? -1 : 0;
    size_t t = len;
    while (t && p[t - 1] == ' ') t--;
    static const char *const kFamilies[] = {"any", "tensor", "vector", "memref", "integer"};
    bool ok = t > 0, family = false;
    for (size_t f = 0; f < sizeof kFamilies / sizeof kFamilies[0]; f++)
      family = family || (strlen(kFamilies[f]) == t && !strncmp(kFamilies[f], p, t));
    if (ok && !family) {
      strataCaptureBegin(ctx); /* a parse error here is the table's, reported below */
      ok = !mlirTypeIsNull(mlirTypeParseGet(strataContextGetMlir(ctx), mlirStringRefCreate(p, t)));
      strataCaptureEnd(ctx, false);
    }
    if (!ok) {
      snprintf(bad, size, "%.*s", (int)t, p);
      return false;
    }
    p += len + (p[len] == '|');
  }
  return true;
}

bool strataDialectDefCheck(StrataContext *ctx, const StrataDialectDef *d, MlirLocation loc) {
  for (size_t i = 0; i < strataDialectNumOps(d); i++) {
    const StrataOpDef *op = strataDialectGetOp(d, i);
    const char *specs[2] = {op->operands, op->results};
    for (int k = 0; k < 2; k++) {
      StrataValueSpec v[16];
      int n = strataParseValueSpec(specs[k], v, 16);
      for (int j = 0; j < n; j++) {
        char bad[96];
        if (constraintOk(ctx, v[j].type, bad, sizeof bad)) continue;
        strataEmitError(loc, "dialect '%s': %s '%s' of '%s' has the type constraint '%s', which is "
                        "neither a type nor one of any, tensor, vector, memref, integer",
                        d->name, k ? "result" : "operand", v[j].name, op->name, bad);
        return false;
      }
    }
    for (size_t a = 0; a < op->numAttrs; a++)
      if (!op->attrs[a].name || (op->attrs[a].kind == STRATA_ATTR_ENUM && !op->attrs[a].choices)) {
        strataEmitError(loc, "dialect '%s': attribute #%zu of '%s' needs a name (and an enum its "
                        "choices)", d->name, a, op->name);
        return false;
      }
  }
  return true;
}

/* ---- Ownership and flags ---- */

const StrataDialectDef *strataOpDefGetDialect(StrataContext *ctx, const StrataOpDef *def) {
  for (size_t i = 0; def && i < strataContextNumDialects(ctx); i++) {
    const StrataDialectDef *d = strataContextGetDialect(ctx, i);
    for (size_t t = 0; t < d->numTables; t++)
      if (def >= d->tables[t]->ops && def < d->tables[t]->ops + d->tables[t]->numOps) return d;
  }
  return NULL;
}

unsigned strataOpDefGetFlags(StrataContext *ctx, const StrataOpDef *def) {
  const StrataDialectDef *d = strataOpDefGetDialect(ctx, def);
  return def ? def->flags | (d ? d->opFlags : 0) : 0;
}

bool strataOpIsObservable(StrataContext *ctx, MlirOperation op) {
  unsigned f = strataOpDefGetFlags(ctx, strataContextGetOpDef(ctx, op));
  return (f & STRATA_OP_OBSERVABLE) && !(f & STRATA_OP_CONSTANT);
}

/* ---- Facts ---- */

StrataMappingType strataOpMappingType(const StrataOpDef *def, MlirOperation op) {
  return def->mapping ? def->mapping(op) : STRATA_MAP_ONE_TO_ONE;
}

double strataOpFlops(const StrataOpDef *def, MlirOperation op) {
  return def->flops ? def->flops(op) : 0.0;
}

double strataTypeBytes(MlirType t) {
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t)) return 0;
  MlirType e = mlirShapedTypeGetElementType(t);
  double bits = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e)
                : mlirTypeIsAFloat(e)  ? mlirFloatTypeGetWidth(e)
                                       : 0;
  double n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) n *= (double)mlirShapedTypeGetDimSize(t, i);
  return n * (bits < 8 ? 1 : bits / 8);
}

double strataOpBytes(MlirOperation op) {
  double b = 0;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); i++)
    b += strataTypeBytes(mlirValueGetType(mlirOperationGetOperand(op, i)));
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); i++)
    b += strataTypeBytes(mlirValueGetType(mlirOperationGetResult(op, i)));
  return b;
}
