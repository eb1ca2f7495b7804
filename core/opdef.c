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

/* ---- Operand spec: "X, W, B?" ---- */

typedef struct {
  char name[32];
  char kind; /* ' ', '?', '*' */
} SpecEntry;

static int parseSpec(const char *spec, SpecEntry *out, int max) {
  int n = 0;
  for (const char *p = spec ? spec : ""; *p && n < max;) {
    while (*p == ' ' || *p == ',') p++;
    if (!*p) break;
    const char *s = p;
    while (*p && *p != ',' && *p != ' ' && *p != '?' && *p != '*') p++;
    size_t len = (size_t)(p - s) < sizeof out[n].name ? (size_t)(p - s) : sizeof out[n].name - 1;
    memcpy(out[n].name, s, len);
    out[n].name[len] = '\0';
    out[n].kind = (*p == '?' || *p == '*') ? *p++ : ' ';
    n++;
  }
  return n;
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
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  if (!strataGetShape(have, &rank, dims) || rank != want->rank ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(have), want->elementType))
    return false;
  for (int i = 0; i < rank; i++)
    if (dims[i] != -1 && want->dims[i] != -1 && dims[i] != want->dims[i]) return false;
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
  if (variadic ? numResults < 1 : numResults != nr) {
    strataEmitError(loc, "'%s' op expects results (%s), got %d", def->name, def->results,
                    (int)numResults);
    return mlirLogicalResultFailure();
  }
  if (!def->infer) return mlirLogicalResultSuccess();
  StrataShape inferred[numResults];
  memset(inferred, 0, sizeof inferred);
  if (mlirLogicalResultIsFailure(def->infer(def, op, inferred))) return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < numResults; i++) {
    MlirType have = mlirValueGetType(mlirOperationGetResult(op, i));
    if (compatible(&inferred[i], have)) continue;
    char want[256], got[256];
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
  return mlirLogicalResultSuccess();
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
