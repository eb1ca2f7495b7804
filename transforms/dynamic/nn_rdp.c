/* --nn-rdp: runs the RDP analysis (strataRdpRun) on each function and
 * writes its facts as readable attributes:
 *   on the function: rdp.symbols (names) and rdp.arg_shapes;
 *   on each op with results: rdp.shapes (one "[N, 64, H*W]" per result,
 *   "-" for a result that is not analysed), rdp.values when some result
 *   holds a (partly) known shape value, and rdp.class, the op's effective
 *   dynamism class (ISVDOS demoted to ISDOS when its shape operands are
 *   known). The analysis is the C API; the attributes are for people and
 *   tests. */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "rdp_internal.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

static void setAttr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

/* An array attribute of one string per value, each from `print`. */
static MlirAttribute stringsOf(const StrataRdp *r, MlirContext c, MlirValue (*at)(void *, intptr_t), void *owner,
                               intptr_t n, bool values, bool *any) {
  MlirAttribute elems[64];
  if (n > 64) n = 64;
  for (intptr_t i = 0; i < n; i++) {
    char buf[512];
    MlirValue v = at(owner, i);
    if (values) {
      bool has = rdpValueString(r, v, buf, sizeof buf);
      *any |= has;
      if (!has) snprintf(buf, sizeof buf, "-");
    } else {
      strataRdpShapeString(r, v, buf, sizeof buf);
    }
    elems[i] = strataStrAttr(c, buf);
  }
  return mlirArrayAttrGet(c, n, elems);
}

static MlirValue resultAt(void *op, intptr_t i) { return mlirOperationGetResult(*(MlirOperation *)op, i); }
static MlirValue argAt(void *block, intptr_t i) { return mlirBlockGetArgument(*(MlirBlock *)block, i); }

typedef struct {
  const StrataRdp *r;
} Annotate;

static MlirWalkResult annotateOp(MlirOperation op, void *user) {
  const StrataRdp *r = ((Annotate *)user)->r;
  MlirContext c = mlirOperationGetContext(op);
  intptr_t n = mlirOperationGetNumResults(op);
  StrataDynamism cls = strataRdpClassOf(r, op);
  if (cls) setAttr(op, "rdp.class", strataStrAttr(c, strataDynamismName(cls)));
  if (n == 0) return MlirWalkResultAdvance;
  bool any = false;
  setAttr(op, "rdp.shapes", stringsOf(r, c, resultAt, &op, n, false, &any));
  MlirAttribute vals = stringsOf(r, c, resultAt, &op, n, true, &any);
  if (any) setAttr(op, "rdp.values", vals);
  return MlirWalkResultAdvance;
}

static void runRdp(StrataPassRun *run, MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) return; /* a declaration: nothing to analyse */
  const char *order = strataPassGetString(run, "order");
  if (strcmp(order, "forward") && strcmp(order, "reverse")) {
    strataEmitOpError(func, "nn-rdp: option 'order' must be 'forward' or 'reverse', got '%s'", order);
    strataPassSignalFailure(run);
    return;
  }
  bool reverse = !strcmp(order, "reverse");
  StrataRdp *r = strataRdpRun(strataPassGetContext(run), func, reverse);
  if (!r) {
    strataPassSignalFailure(run);
    return;
  }
  MlirContext c = mlirOperationGetContext(func);
  MlirAttribute syms[RDP_MAX_SYMS];
  for (size_t i = 0; i < strataRdpNumSymbols(r); i++) syms[i] = strataStrAttr(c, strataRdpSymbolName(r, i));
  setAttr(func, "rdp.symbols", mlirArrayAttrGet(c, (intptr_t)strataRdpNumSymbols(r), syms));
  bool any = false;
  setAttr(func, "rdp.arg_shapes", stringsOf(r, c, argAt, &entry, mlirBlockGetNumArguments(entry), false, &any));
  Annotate a = {r};
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, annotateOp, &a, MlirWalkPreOrder);
  strataRdpDestroy(r);
}

static const StrataPassOptionDef kOptions[] = {
    {"order", STRATA_OPTION_STRING, "forward",
     "Visit ops in 'forward' or 'reverse' program order (the fixpoint is the same)"},
};

const StrataPassDef strataNnRdpPass = {
    .name = "nn-rdp",
    .summary = "SOD² RDP analysis: symbolic ranks, dims and shape values; writes rdp.shapes, "
               "rdp.values, rdp.class",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof *kOptions,
    .run = runRdp,
};
