/* dense_resource attributes whose bytes Strata can find again. The MLIR C
 * API reads a resource's elements one by one and never gives its data's
 * address; a blob made here is recorded with its address so that the CPU
 * target binds compiled code to a model's weights where the importer put
 * them, instead of copying them (targets/llvm/params.c). */
#include <stdlib.h>
#include "mlir-c/BuiltinAttributes.h"
#include "grow.h"
#include "internal.h"
#include "strata/support.h"

MlirAttribute strataResourceAttrGet(StrataContext *ctx, MlirType type, const char *key, void *data, size_t bytes,
                                    size_t align, void (*release)(void *user, const void *data, size_t bytes,
                                                                  size_t align),
                                    void *user) {
  if (ctx->numBlobs == ctx->capBlobs) {
    StrataBlobRecord *grown = strataGrow(ctx->blobs, &ctx->capBlobs, ctx->numBlobs + 1, sizeof *grown);
    if (!grown) return mlirAttributeGetNull();
    ctx->blobs = grown;
  }
  MlirAttribute a = mlirUnmanagedDenseResourceElementsAttrGet(type, mlirStringRefCreateFromCString(key), data, bytes,
                                                              align, false, release, user);
  if (!mlirAttributeIsNull(a)) ctx->blobs[ctx->numBlobs++] = (StrataBlobRecord){a.ptr, data, bytes};
  return a;
}

const void *strataResourceData(StrataContext *ctx, MlirAttribute a, size_t *bytes) {
  for (size_t i = ctx ? ctx->numBlobs : 0; i-- > 0;)
    if (ctx->blobs[i].attr == a.ptr) {
      *bytes = ctx->blobs[i].bytes;
      return ctx->blobs[i].data;
    }
  return NULL;
}
