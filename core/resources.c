/* Checks the dense_resource attributes of a module parsed from text against
 * the blobs its `{-# dialect_resources: { builtin: { ... } } #-}` section
 * holds. MLIR reads a dense_resource's elements by index without checking
 * them against its blob, and the C API cannot ask a blob's size: a blob
 * shorter than its type (or none at all, or a type of 10^11 elements over
 * a 4-byte blob) would be read past its end by every reader of constants
 * (the interpreter, folding, the verifiers). The text is the only place
 * the sizes are visible, so they are checked here, after parsing, at the
 * op holding the attribute. (Bytecode input is not checked: its resource
 * section is not visible through the C API; docs/reliability.md.) */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "grow.h"
#include "internal.h"
#include "strata/support.h"

typedef struct {
  const char *key; /* into the text */
  size_t keyLen;
  int64_t bytes; /* of data, after the blob's 4-byte alignment word; -1 malformed */
} Blob;

typedef struct {
  Blob *blobs;
  size_t count, cap;
  StrataContext *ctx;
  bool ok;
} Blobs;

static const char *skipSpace(const char *p, const char *end) {
  return p + strataSkipMlirTrivia(p, (size_t)(end - p), 0);
}

/* The builtin dialect's entries `key: "0x..."` of the resource section. */
static bool collect(const char *text, size_t n, Blobs *b) {
  const char *end = text + n, *sec = NULL;
  for (const char *p = text; p + 3 <= end && (p = memchr(p, '{', (size_t)(end - p))); p++)
    if (p + 3 <= end && p[1] == '-' && p[2] == '#') sec = p;
  if (!sec) return true;
  /* The first `builtin: {` of the section: blob entries are `key: "0x..."`,
   * so a blob named builtin is not taken for the dialect's entry. */
  const char *p = NULL;
  for (const char *q = sec; !p && q + 8 <= end; q++) {
    if (memcmp(q, "builtin", 7) || isalnum((unsigned char)q[7]) || q[7] == '_') continue;
    const char *r = skipSpace(q + 7, end);
    if (r < end && *r == ':') r = skipSpace(r + 1, end);
    if (r < end && *r == '{') p = r;
  }
  if (!p) return true;
  for (p++;;) {
    p = skipSpace(p, end);
    if (p >= end || *p == '}') break;
    const char *key = p;
    if (*p == '"') { /* a quoted key */
      key = ++p;
      while (p < end && *p != '"') p++;
    } else {
      while (p < end && (isalnum((unsigned char)*p) || *p == '_' || *p == '.' || *p == '$' || *p == '-')) p++;
    }
    size_t keyLen = (size_t)(p - key);
    if (p < end && *p == '"') p++;
    p = skipSpace(p, end);
    if (p >= end || *p != ':') break;
    p = skipSpace(p + 1, end);
    if (p >= end || *p != '"') break;
    const char *hex = ++p;
    while (p < end && *p != '"') p++;
    size_t hexLen = (size_t)(p - hex);
    p++;
    int64_t bytes = -1;
    if (hexLen >= 2 && hex[0] == '0' && (hex[1] == 'x' || hex[1] == 'X') && hexLen % 2 == 0 && hexLen >= 10)
      bytes = (int64_t)(hexLen - 2) / 2 - 4;
    Blob *grown = strataGrow(b->blobs, &b->cap, b->count + 1, sizeof *grown);
    if (!grown) return false;
    b->blobs = grown;
    b->blobs[b->count++] = (Blob){key, keyLen, bytes};
    p = skipSpace(p, end);
    if (p < end && *p == ',') p++;
  }
  return true;
}

static void appendText(MlirStringRef s, void *user) { strataStrAppend(user, s.data, s.length); }

/* Bytes an element of `t` takes in a blob. */
static int64_t elementBytes(MlirType t) {
  if (mlirTypeIsAInteger(t)) return (mlirIntegerTypeGetWidth(t) + 7) / 8;
  if (mlirTypeIsAIndex(t)) return 8;
  if (mlirTypeIsAFloat(t)) return (mlirFloatTypeGetWidth(t) + 7) / 8;
  return -1;
}

static const Blob *findBlob(const Blobs *b, const char *key, size_t keyLen) {
  for (size_t i = 0; i < b->count; i++)
    if (b->blobs[i].keyLen == keyLen && !memcmp(b->blobs[i].key, key, keyLen)) return &b->blobs[i];
  return NULL;
}

static void checkAttr(Blobs *b, MlirOperation op, MlirAttribute a) {
  StrataStr text = {0};
  mlirAttributePrint(a, appendText, &text);
  const char *open = text.data ? strchr(text.data, '<') : NULL, *close = open ? strchr(open, '>') : NULL;
  MlirType t = mlirAttributeGetType(a);
  int64_t elements, width = elementBytes(mlirShapedTypeGetElementType(t)), need;
  bool sized = mlirShapedTypeHasStaticShape(t) && width > 0;
  if (sized) {
    int64_t dims[STRATA_MAX_RANK];
    intptr_t rank = mlirShapedTypeGetRank(t);
    for (intptr_t i = 0; i < rank && i < STRATA_MAX_RANK; i++) dims[i] = mlirShapedTypeGetDimSize(t, i);
    sized = rank <= STRATA_MAX_RANK && strataShapeNumElements(dims, (int)rank, &elements) &&
            strataCheckedMul(elements, width, &need);
  }
  if (!open || !close) { /* not the printed form this reads: nothing to check it against */
    strataStrFree(&text);
    return;
  }
  size_t keyLen = (size_t)(close - open - 1);
  const char *key = open + 1;
  if (keyLen >= 2 && key[0] == '"' && key[keyLen - 1] == '"') key++, keyLen -= 2; /* a quoted key */
  const Blob *blob = findBlob(b, key, keyLen);
  if (!blob) {
    /* A key already in use in the context (parsed before) is renamed
     * key_N when its blob is registered: the text says `key`. */
    size_t stem = keyLen;
    while (stem > 0 && isdigit((unsigned char)key[stem - 1])) stem--;
    if (stem > 1 && stem < keyLen && key[stem - 1] == '_') blob = findBlob(b, key, stem - 1);
  }
  char type[256];
  strataTypeToString(t, type, sizeof type);
  bool good = false;
  if (!blob)
    strataEmitOpError(op, "dense_resource '%.*s' has no blob in the input's resources", (int)keyLen, key);
  else if (blob->bytes < 0)
    strataEmitOpError(op, "dense_resource '%.*s': its blob is not a hex string \"0x...\" with an alignment word",
                      (int)keyLen, key);
  else if (!sized)
    strataEmitOpError(op, "dense_resource '%.*s' of type %s: its size cannot be checked", (int)keyLen, key, type);
  else if (blob->bytes != need)
    strataEmitOpError(op, "dense_resource '%.*s' holds %lld bytes, but its type %s needs %lld", (int)keyLen, key,
                      (long long)blob->bytes, type, (long long)need);
  else
    good = true;
  b->ok = b->ok && good;
  strataStrFree(&text);
}

static MlirWalkResult checkOp(MlirOperation op, void *user) {
  Blobs *b = user;
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op); i++) {
    MlirAttribute a = mlirOperationGetAttribute(op, i).attribute;
    if (mlirAttributeIsADenseResourceElements(a)) checkAttr(b, op, a);
  }
  return MlirWalkResultAdvance;
}

bool strataCheckResourceBlobs(StrataContext *ctx, const char *text, size_t n, MlirOperation op) {
  Blobs b = {NULL, 0, 0, ctx, true};
  if (!collect(text, n, &b)) {
    strataEmitError(mlirOperationGetLocation(op), "out of memory reading the input's resources");
    free(b.blobs);
    return false;
  }
  mlirOperationWalk(op, checkOp, &b, MlirWalkPreOrder);
  free(b.blobs);
  return b.ok;
}
