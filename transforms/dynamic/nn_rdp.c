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
#include <stdlib.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "rdp_internal.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

static void setAttr(MlirOperation op, const char *name, MlirAttribute a) {
  mlirOperationSetAttributeByName(op, mlirStringRefCreateFromCString(name), a);
}

/* An array attribute of one string per value: its shape, or its value map
 * ("-" when none is known; *any says whether one was). Null when out of
 * memory. */
static MlirAttribute stringsOf(const StrataRdp *r, MlirContext c, MlirValue (*at)(void *, intptr_t), void *owner,
                               intptr_t n, bool values, bool *any) {
  MlirAttribute *elems = malloc((size_t)(n ? n : 1) * sizeof *elems);
  if (!elems) return (MlirAttribute){NULL};
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
  MlirAttribute a = mlirArrayAttrGet(c, n, elems);
  free(elems);
  return a;
}

static MlirValue resultAt(void *op, intptr_t i) { return mlirOperationGetResult(*(MlirOperation *)op, i); }
static MlirValue argAt(void *block, intptr_t i) { return mlirBlockGetArgument(*(MlirBlock *)block, i); }

typedef struct {
  const StrataRdp *r;
  bool ok;
} Annotate;

static MlirWalkResult annotateOp(MlirOperation op, void *user) {
  const StrataRdp *r = ((Annotate *)user)->r;
  MlirContext c = mlirOperationGetContext(op);
  intptr_t n = mlirOperationGetNumResults(op);
  StrataDynamism cls = strataRdpClassOf(r, op);
  if (cls) setAttr(op, "rdp.class", strataStrAttr(c, strataDynamismName(cls)));
  if (n == 0) return MlirWalkResultAdvance;
  bool any = false;
  MlirAttribute shapes = stringsOf(r, c, resultAt, &op, n, false, &any);
  MlirAttribute vals = stringsOf(r, c, resultAt, &op, n, true, &any);
  if (mlirAttributeIsNull(shapes) || mlirAttributeIsNull(vals)) {
    strataEmitOpError(op, "out of memory in nn-rdp");
    ((Annotate *)user)->ok = false;
    return MlirWalkResultInterrupt;
  }
  setAttr(op, "rdp.shapes", shapes);
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
  MlirAttribute args = stringsOf(r, c, argAt, &entry, mlirBlockGetNumArguments(entry), false, &any);
  Annotate a = {r, !mlirAttributeIsNull(args)};
  if (a.ok) setAttr(func, "rdp.arg_shapes", args);
  else strataEmitOpError(func, "out of memory in nn-rdp");
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); a.ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, annotateOp, &a, MlirWalkPreOrder);
  if (!a.ok) strataPassSignalFailure(run);
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
