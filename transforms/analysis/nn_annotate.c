/* --nn-annotate: writes each Strata op's facts onto it as attributes, for
 * people and tests to read: nn.mapping (DNNFusion mapping type of this
 * instance -- a broadcasting add is One-to-Many), nn.dynamism (SOD² class),
 * nn.pure, and with static shapes nn.flops and nn.bytes (operands + results).
 * The analysis itself is the C API: strataOpMappingType, strataOpFlops,
 * strataOpBytes. */
#include <math.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "strata/builder.h"
#include "strata/dialect.h"
#include "strata/pass.h"
#include "nn_flops.h"

typedef struct {
  StrataContext *ctx;
} AnnotateWalk;

static void set(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

static MlirWalkResult annotate(MlirOperation op, void *user) {
  AnnotateWalk *w = user;
  const StrataOpDef *def = strataContextGetOpDef(w->ctx, op);
  if (!def) return MlirWalkResultAdvance;
  MlirContext c = mlirOperationGetContext(op);
  set(op, "nn.mapping", strataStrAttr(c, strataMappingTypeName(strataOpMappingType(def, op))));
  set(op, "nn.dynamism", strataStrAttr(c, strataDynamismName(def->dynamism)));
  if (def->flags & STRATA_OP_PURE) set(op, "nn.pure", mlirUnitAttrGet(c));
  if (nnHasStaticShapes(op)) {
    set(op, "nn.flops", strataI64Attr(c, (int64_t)llround(strataOpFlops(def, op))));
    set(op, "nn.bytes", strataI64Attr(c, (int64_t)llround(strataOpBytes(op))));
  }
  return MlirWalkResultAdvance;
}

static void runAnnotate(StrataPassRun *run, MlirOperation root) {
  AnnotateWalk w = {strataPassGetContext(run)};
  mlirOperationWalk(root, annotate, &w, MlirWalkPreOrder);
}

const StrataPassDef strataNnAnnotatePass = {
    .name = "nn-annotate",
    .summary = "Write each Strata op's facts as attributes: nn.mapping, nn.dynamism, nn.pure, "
               "nn.flops, nn.bytes",
    .run = runAnnotate,
};
