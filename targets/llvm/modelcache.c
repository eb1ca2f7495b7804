/* The model cache of the cpu target: a whole executable stored under a key
 * its caller derives from the model and the options (strataExecutableStore,
 * strataExecutableLoad), so that a second run skips the import, the MLIR
 * pipeline and LLVM. DIR/<key>.model holds:
 *
 *   header   magic, file size, the meta part's size and checksum
 *   meta     the object's key in the object cache (objcache.c: the code
 *            itself is not stored twice), the interface (a module of
 *            declarations carrying what the JIT reads of the lowered
 *            module: each function's strata.runtime_results, whether it
 *            keeps shape plans), the caller's entry text, and per weight
 *            its name, size, offset and checksum; the packed forms of the
 *            weights; the entry's plain signature (its name, element
 *            types and dims, the results the runtime delivers), so that
 *            the launcher (tools/strata-run/launcher/) needs no MLIR
 *   weights  4 KiB aligned, each at a 64-byte multiple
 *
 * A load maps the file and binds the weights where they lie (no read, no
 * copy: pages come from the page cache as the code touches them), and
 * lends the runtime the packed forms of the weights its kernels made
 * before the executable was stored (GEMM panels, Winograd-transformed
 * filters), so the first call packs nothing either. Reading is
 * modelfile.c's (plain C, shared with the launcher). Files
 * are written to a name of their own and renamed into place; a file whose
 * size or checksums do not match, or whose object is gone, is a miss. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "strata/support.h"
#include "cpu_internal.h"
#include "kernels.h"
#include "outfile.h"

static const char kMagic[16] = STRATA_MODEL_MAGIC;
enum { kPage = STRATA_MODEL_PAGE, kAlign = STRATA_MODEL_ALIGN };
typedef StrataModelHeader Header;

void strataCpuCacheKey(const void *const *parts, const size_t *sizes, size_t n, char key[33]) {
  StrataHostFacts f;
  strataCpuHostFacts(&f);
  strataCpuModelKey(&f, parts, sizes, n, key);
}

/* ---- A growable byte buffer for the meta part ---- */
typedef struct {
  char *data;
  size_t len, cap;
  bool failed;
} Buf;

static void put(Buf *b, const void *data, size_t n) {
  if (b->failed) return;
  if (b->len + n > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
      b->failed = true;
      return;
    }
    b->data = grown, b->cap = cap;
  }
  memcpy(b->data + b->len, data, n);
  b->len += n;
}

static void putU64(Buf *b, uint64_t v) { put(b, &v, sizeof v); }

static void putText(Buf *b, const char *s, size_t n) {
  putU64(b, n);
  put(b, s, n);
}

static void putCallback(MlirStringRef s, void *user) { put(user, s.data, s.length); }

/* The interface: per function of `lowered` that has them, its
 * strata.runtime_results; the shape-plan table's name if it has one. */
static void putInterface(Buf *b, MlirModule lowered) {
  Buf t = {0};
  static const char kOpen[] = "module {\n", kClose[] = "}\n";
  put(&t, kOpen, sizeof kOpen - 1);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(lowered)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute results = strataOpAttr(op, STRATA_RUNTIME_RESULTS_ATTR), name = strataOpAttr(op, "sym_name");
    if (mlirAttributeIsNull(results) || mlirAttributeIsNull(name)) continue;
    put(&t, "func.func private @", 19);
    mlirAttributePrint(name, putCallback, &t);
    put(&t, "() attributes {" STRATA_RUNTIME_RESULTS_ATTR " = ", strlen(STRATA_RUNTIME_RESULTS_ATTR) + 18);
    mlirAttributePrint(results, putCallback, &t);
    put(&t, "}\n", 2);
  }
  if (strataModuleHasSymbol(mlirModuleGetOperation(lowered), "__strata_shape_plans")) {
    static const char kPlans[] = "func.func private @__strata_shape_plans()\n";
    put(&t, kPlans, sizeof kPlans - 1);
  }
  put(&t, kClose, sizeof kClose - 1);
  if (t.failed) b->failed = true;
  else putText(b, t.data, t.len);
  free(t.data);
}

/* One argument or result type: element type, rank and dims (-1 for a
 * dynamic one); rank -1 for a type that is not a ranked tensor. */
static void putType(Buf *b, MlirType t) {
  if (!mlirTypeIsARankedTensor(t)) {
    putU64(b, 0);
    putU64(b, (uint64_t)-1);
    return;
  }
  intptr_t rank = mlirShapedTypeGetRank(t);
  putU64(b, (uint64_t)strataDTypeFromMlir(mlirShapedTypeGetElementType(t)));
  putU64(b, rank > 16 ? (uint64_t)-1 : (uint64_t)rank);
  for (intptr_t d = 0; d < rank && rank <= 16; d++)
    putU64(b, mlirShapedTypeIsDynamicDim(t, d) ? (uint64_t)-1 : (uint64_t)mlirShapedTypeGetDimSize(t, d));
}

/* The entry's plain signature (modelfile.c reads it): the entry is the
 * caller's declaration text; the results the runtime delivers are the
 * lowered function's strata.runtime_results. False if `entry` is no
 * function declaration. */
static bool putSignature(Buf *b, MlirModule lowered, const char *entry) {
  MlirContext ctx = mlirModuleGetContext(lowered);
  MlirModule m = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(entry));
  if (mlirModuleIsNull(m)) return false;
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirAttribute name = mlirOperationIsNull(f) ? mlirAttributeGetNull() : strataOpAttr(f, "sym_name");
  MlirAttribute type = mlirOperationIsNull(f) ? mlirAttributeGetNull() : strataOpAttr(f, "function_type");
  bool ok = !mlirAttributeIsNull(name) && mlirAttributeIsAString(name) && !mlirAttributeIsNull(type) &&
            mlirAttributeIsAType(type) && mlirTypeIsAFunction(mlirTypeAttrGetValue(type));
  if (ok) {
    MlirStringRef n = mlirStringAttrGetValue(name);
    MlirType ft = mlirTypeAttrGetValue(type);
    intptr_t numIn = mlirFunctionTypeGetNumInputs(ft), numOut = mlirFunctionTypeGetNumResults(ft);
    putText(b, n.data, n.length);
    putU64(b, (uint64_t)numIn);
    putU64(b, (uint64_t)numOut);
    for (intptr_t i = 0; i < numIn; i++) putType(b, mlirFunctionTypeGetInput(ft, i));
    for (intptr_t i = 0; i < numOut; i++) putType(b, mlirFunctionTypeGetResult(ft, i));
    char sym[512];
    snprintf(sym, sizeof sym, "%.*s", (int)n.length, n.data);
    MlirSymbolTable table = mlirSymbolTableCreate(mlirModuleGetOperation(lowered));
    MlirOperation lf = mlirSymbolTableLookup(table, mlirStringRefCreateFromCString(sym));
    mlirSymbolTableDestroy(table);
    MlirAttribute rt = mlirOperationIsNull(lf) ? mlirAttributeGetNull() : strataOpAttr(lf, STRATA_RUNTIME_RESULTS_ATTR);
    bool *isRuntime = calloc((size_t)numOut + 1, sizeof *isRuntime);
    ok = isRuntime != NULL;
    if (ok && !mlirAttributeIsNull(rt) && mlirAttributeIsADenseI64Array(rt))
      for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(rt); i++) {
        int64_t r = mlirDenseI64ArrayGetElement(rt, i);
        if (r >= 0 && r < numOut) isRuntime[r] = true;
        else ok = false;
      }
    for (intptr_t i = 0; ok && i < numOut; i++) putU64(b, isRuntime[i]);
    free(isRuntime);
  }
  mlirModuleDestroy(m);
  return ok;
}

static size_t alignTo(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* The runtime's packed constants derived from these weights, each with
 * where its source lies: `from` < the weights' count is a weight, else
 * packed constant `from` - count of the list (one derived from another:
 * Winograd's transformed filters are packed again as GEMM panels), which
 * comes before it; `offset` is into that source. */
typedef struct {
  StrataRtPacked p;
  uint64_t from, offset;
} Packed;

/* Where `src` lies among the weights and the first n packed constants of
 * `out`; false if nowhere. */
static bool originOf(const void *src, const StrataParams *params, const Packed *out, size_t n, Packed *q) {
  const unsigned char *at = src;
  for (int k = 0; k < params->count; k++) {
    const unsigned char *lo = params->entries[k].data;
    if (at >= lo && at < lo + params->entries[k].bytes) return q->from = (uint64_t)k, q->offset = (uint64_t)(at - lo), true;
  }
  for (size_t j = 0; j < n; j++) {
    const unsigned char *lo = (const unsigned char *)out[j].p.data;
    if (at >= lo && at < lo + out[j].p.floats * sizeof(float))
      return q->from = (uint64_t)params->count + j, q->offset = (uint64_t)(at - lo), true;
  }
  return false;
}

static Packed *packedOf(const StrataParams *params, size_t *n) {
  *n = 0;
  size_t all = strataRtPackedConstantsList(NULL, 0);
  StrataRtPacked *list = all ? malloc(all * sizeof *list) : NULL;
  Packed *out = list ? malloc(all * sizeof *out) : NULL;
  bool *taken = out ? calloc(all, sizeof *taken) : NULL;
  if (taken) {
    size_t listed = strataRtPackedConstantsList(list, all);
    all = listed < all ? listed : all;
  }
  /* Rounds until none is added: each adds those whose source is placed. */
  for (bool added = taken != NULL; added;) {
    added = false;
    for (size_t i = 0; i < all; i++) {
      if (taken[i]) continue;
      Packed q = {list[i], 0, 0};
      if (!originOf(list[i].src, params, out, *n, &q)) continue;
      out[(*n)++] = q;
      taken[i] = added = true;
    }
  }
  free(taken);
  free(list);
  return out;
}

bool strataJitStore(StrataJit *jit, const char *dir, const char *key, const char *entry, char *why,
                    size_t whySize) {
  MlirModule lowered;
  const StrataParams *params;
  char objKey[33];
  bool warned;
  if (!strataJitCacheParts(jit, &lowered, &params, objKey, &warned)) {
    snprintf(why, whySize, "%s", warned ? "" : "it was compiled without a cache directory");
    return false;
  }
  Buf meta = {0};
  put(&meta, objKey, 32);
  putInterface(&meta, lowered);
  putText(&meta, entry, strlen(entry));
  putU64(&meta, (uint64_t)params->count);
  size_t dataSize = 0;
  for (int i = 0; i < params->count; i++) {
    putText(&meta, params->entries[i].name, strlen(params->entries[i].name));
    putU64(&meta, params->entries[i].bytes);
    putU64(&meta, dataSize);
    putU64(&meta, strataCacheChecksum(params->entries[i].data, params->entries[i].bytes));
    dataSize = alignTo(dataSize + params->entries[i].bytes, kAlign);
  }
  size_t numPacked = 0;
  Packed *packed = packedOf(params, &numPacked);
  const char *isa = strataRtIsaName();
  putText(&meta, isa, strlen(isa));
  putU64(&meta, numPacked);
  for (size_t i = 0; i < numPacked; i++) {
    const StrataRtPacked *q = &packed[i].p;
    putU64(&meta, (uint64_t)(unsigned char)q->kind);
    putU64(&meta, packed[i].from);
    putU64(&meta, packed[i].offset);
    put(&meta, q->key, sizeof q->key);
    putU64(&meta, q->floats);
    putU64(&meta, dataSize);
    putU64(&meta, strataCacheChecksum(q->data, q->floats * sizeof(float)));
    dataSize = alignTo(dataSize + q->floats * sizeof(float), kAlign);
  }
  if (!putSignature(&meta, lowered, entry)) meta.failed = true;
  if (meta.failed) {
    free(meta.data);
    free(packed);
    snprintf(why, whySize, "out of memory, or the entry is no function");
    return false;
  }
  Header h = {.metaSize = meta.len, .metaSum = strataCacheChecksum(meta.data, meta.len), .dataSize = dataSize};
  memcpy(h.magic, kMagic, sizeof kMagic);
  h.dataOffset = alignTo(sizeof h + meta.len, kPage);
  h.fileSize = h.dataOffset + dataSize;
  char path[4096];
  int n = snprintf(path, sizeof path, "%s/%s.model", dir, key);
  int err = n > 0 && (size_t)n < sizeof path ? strataCacheMakeDirs(dir) : ENAMETOOLONG;
  StrataRtOutFile out;
  if (err || strataRtOutFileOpen(&out, path, why, whySize) != 0) {
    if (err) snprintf(why, whySize, "%s", strerror(err));
    free(meta.data);
    free(packed);
    return false;
  }
  /* The weights first, then the header and meta before them. */
  static const char zeros[kPage];
  bool ok = fseek(out.f, (long)h.dataOffset, SEEK_SET) == 0;
  size_t at = 0;
  for (int i = 0; ok && i < params->count; i++) {
    const StrataParam *e = &params->entries[i];
    ok = fwrite(e->data, 1, e->bytes, out.f) == e->bytes;
    at += e->bytes;
    size_t pad = alignTo(at, kAlign) - at;
    if (ok && pad) ok = fwrite(zeros, 1, pad, out.f) == pad;
    at += pad;
  }
  for (size_t i = 0; ok && i < numPacked; i++) {
    size_t bytes = packed[i].p.floats * sizeof(float), pad = alignTo(bytes, kAlign) - bytes;
    ok = fwrite(packed[i].p.data, 1, bytes, out.f) == bytes && (!pad || fwrite(zeros, 1, pad, out.f) == pad);
  }
  free(packed);
  ok = ok && fseek(out.f, 0, SEEK_SET) == 0 && fwrite(&h, sizeof h, 1, out.f) == 1 &&
       fwrite(meta.data, 1, meta.len, out.f) == meta.len;
  size_t gap = h.dataOffset - sizeof h - meta.len;
  ok = ok && fwrite(zeros, 1, gap, out.f) == gap;
  free(meta.data);
  if (ok && strataRtOutFileCommit(&out, why, whySize) == 0) {
    /* LLVM's facts for the launcher's keys: without them (a warning-free
     * miss) it hands its runs to the compiler, as before */
    char factsWhy[256];
    (void)strataCpuHostFactsStore(dir, factsWhy, sizeof factsWhy);
    return true;
  }
  if (ok) return false;
  snprintf(why, whySize, "%s", strerror(errno ? errno : EIO));
  strataRtOutFileAbort(&out);
  return false;
}

/* ---- Loading (modelfile.c reads the file) ---- */
StrataJit *strataJitLoad(StrataContext *ctx, const char *dir, const char *key, char **entry) {
  StrataModelFile f;
  *entry = NULL;
  if (!strataModelFileRead(dir, key, &f)) return NULL;
  size_t objSize = 0;
  char *obj = strataObjCacheRead(dir, f.objKey, &objSize);
  MlirModule m = obj ? mlirModuleCreateParse(strataContextGetMlir(ctx), mlirStringRefCreateFromCString(f.iface))
                     : (MlirModule){NULL};
  if (mlirModuleIsNull(m)) {
    free(obj);
    strataModelFileFree(&f, false);
    return NULL;
  }
  *entry = f.entryText, f.entryText = NULL;
  StrataJit *jit = strataJitFromParts(ctx, m, f.params, f.map, f.mapSize, obj, objSize);
  /* Lent to the runtime until the JIT goes (it releases them, then unmaps);
   * one that does not fit is packed again by its first call. */
  for (size_t i = 0; jit && i < f.numPacked; i++) strataRtPackedConstantsAdd(&f.packed[i]);
  strataModelFileFree(&f, true); /* the JIT owns the mapping and the weights' table */
  char why[256]; /* for the launcher's next hit, if a cache of an older build lacks them */
  if (jit) (void)strataCpuHostFactsStore(dir, why, sizeof why);
  if (!jit) {
    free(*entry);
    *entry = NULL;
  }
  return jit;
}
