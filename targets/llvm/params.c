/* Weights out of the LLVM module. The lowered module's large constant
 * globals (a model's weights: llvm.mlir.global ops initialized from a
 * dense or dense_resource attribute) become external declarations. Their
 * bytes stay where the importer put them when Strata knows that place
 * (strataResourceData: aligned, not copied) and move into one 64-byte
 * aligned parameter blob otherwise. The JIT binds each declaration to its
 * bytes; the AOT writer defines it
 * again after LLVM's optimization, as raw bytes in a section of its own.
 * LLVM then never optimizes or emits element by element what it cannot
 * use anyway: ResNet-18's 45 MB of weights took seconds and 1 GB there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/context.h"
#include "strata/support.h"
#include "strata/tensor.h"
#include "cpu_internal.h"

enum { kParamAlign = 64 };

static MlirAttribute attrOf(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
}

/* The byte size of a global's initial value when it is worth moving: a
 * non-splat dense or dense_resource tensor of a dtype stored one element
 * per strataDTypeSize bytes, of at least `minBytes`; 0 otherwise. */
static size_t movableBytes(MlirOperation op, size_t minBytes) {
  if (!strataOpIsNamed(op, "llvm.mlir.global") || mlirAttributeIsNull(attrOf(op, "constant"))) return 0;
  MlirAttribute v = attrOf(op, "value");
  if (mlirAttributeIsNull(v)) return 0;
  bool dense = mlirAttributeIsADenseElements(v);
  if (!(dense || mlirAttributeIsADenseResourceElements(v))) return 0;
  if (dense && mlirDenseElementsAttrIsSplat(v)) return 0;
  MlirType t = mlirAttributeGetType(v);
  if (!mlirShapedTypeHasStaticShape(t)) return 0;
  StrataDType d = strataDTypeFromMlir(mlirShapedTypeGetElementType(t));
  if (d == STRATA_DTYPE_INVALID || d == STRATA_DTYPE_I1) return 0; /* i1 is bit-packed in attributes */
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); i++) n *= mlirShapedTypeGetDimSize(t, i);
  size_t bytes = (size_t)n * strataDTypeSize(d);
  return bytes >= minBytes ? bytes : 0;
}

static size_t alignUp(size_t n) { return (n + kParamAlign - 1) / kParamAlign * kParamAlign; }

/* The bytes of a global's value where they already are: a dense_resource
 * blob Strata recorded, of the expected size and 64-byte aligned. */
static const unsigned char *knownBytes(MlirAttribute v, size_t bytes) {
  if (!mlirAttributeIsADenseResourceElements(v)) return NULL;
  size_t n = 0;
  const void *d = strataResourceData(strataContextFromMlir(mlirAttributeGetContext(v)), v, &n);
  return d && n == bytes && (uintptr_t)d % kParamAlign == 0 ? d : NULL;
}

/* One pass finds the movable globals (their entries, with the bytes Strata
 * already holds) and sizes the blob; a second over what it found fills the
 * blob and turns each global into a declaration. */
StrataParams *strataParamsExtract(MlirModule lowered, size_t minBytes) {
  StrataParams *p = calloc(1, sizeof *p);
  MlirOperation *ops = NULL;
  int cap = 0;
  if (!p) return NULL;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(lowered)); !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op)) {
    size_t b = movableBytes(op, minBytes);
    if (!b) continue;
    if (p->count == cap) {
      cap = cap ? 2 * cap : 64;
      StrataParam *entries = realloc(p->entries, sizeof *entries * (size_t)cap);
      MlirOperation *grown = entries ? realloc(ops, sizeof *ops * (size_t)cap) : NULL;
      if (entries) p->entries = entries;
      if (!grown) goto fail;
      ops = grown;
    }
    MlirStringRef name = mlirStringAttrGetValue(attrOf(op, "sym_name"));
    StrataParam *e = &p->entries[p->count];
    e->bytes = b;
    e->data = knownBytes(attrOf(op, "value"), b);
    if (!(e->name = strndup(name.data, name.length))) goto fail;
    ops[p->count++] = op;
    if (!e->data) p->bytes += alignUp(b);
  }
  if (p->bytes && !(p->blob = aligned_alloc(kParamAlign, p->bytes))) goto fail;
  MlirAttribute external = mlirAttributeParseGet(mlirOperationGetContext(mlirModuleGetOperation(lowered)),
                                                 mlirStringRefCreateFromCString("#llvm.linkage<external>"));
  size_t offset = 0;
  for (int i = 0; i < p->count; i++) {
    StrataParam *e = &p->entries[i];
    if (!e->data) {
      StrataTensor *t = strataTensorFromAttr(attrOf(ops[i], "value"));
      bool ok = t && strataTensorNumBytes(t) == e->bytes;
      if (ok) memcpy(p->blob + offset, t->data, e->bytes);
      strataTensorDestroy(t);
      if (!ok) goto fail;
      e->data = p->blob + offset;
      offset += alignUp(e->bytes);
    }
    /* A declaration: no initial value, external linkage, and not dso_local
     * (the definition may be anywhere in the address space). */
    mlirOperationRemoveAttributeByName(ops[i], mlirStringRefCreateFromCString("value"));
    mlirOperationRemoveAttributeByName(ops[i], mlirStringRefCreateFromCString("dso_local"));
    mlirOperationSetAttributeByName(ops[i], mlirStringRefCreateFromCString("linkage"), external);
  }
  free(ops);
  return p;
fail:
  free(ops);
  strataParamsDestroy(p);
  return NULL;
}
