/* --nn-multiversion: SOD²'s multi-version code for hot operators, only
 * where RDP leaves the shape open (issue 19, gcd2_sod2.md B7).
 *
 * A matmul or gemm with constant weights (operand 1 an nn.constant) whose
 * row count (A's rows, with matmul's batch dims folded in, as the runtime
 * folds them) RDP leaves symbolic gets two versions, chosen at run time:
 *
 *   %rows = dim(A, 0) * ... ;  scf.if %rows <= R { few-rows } else { general }
 *
 * The few-rows version is the same op tagged `strata.few_rows = R`, which
 * nn-to-kernels lowers to the runtime's few-rows GEMM (runtime/fewrows.c:
 * exactly M register rows, B read once; the blocked GEMM pads M to its
 * microkernel's MR rows); the general one is the op as it was. The single-use
 * element-wise ops after the op (its bias and residual adds, its
 * activation: what nn-to-kernels absorbs into the call) are cloned into
 * both versions, so each call keeps its epilogue.
 *
 * A transpose that A is read through (the kernel reads it in place when
 * the op is its sole reader) is cloned into both versions too; the guard
 * reads the rows from its input. No version where RDP knows the rows (a
 * constant: the shape is static), where they cannot be R or fewer (the
 * polynomial's least value, all symbols 1, is above R), or where A is a
 * transpose others read too. Only ops in the function's entry block are
 * versioned. R (option `rows`) is what measured to pay
 * (docs/dynamic-shapes.md: the encoder at sequence lengths 1-8). */
#include <stdio.h>
#include <string.h>
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/rdp.h"
#include "strata/support.h"

enum { MAX_CHAIN = 4, MAX_CANDIDATES = 512 }; /* weight GEMMs versioned per function, at most */

static MlirOperation ownerOf(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v) : (MlirOperation){NULL};
}

/* The one op reading v once, or null. */
static MlirOperation soleUser(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) || !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u))) return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(u);
}

static bool epilogueOp(MlirOperation op) {
  static const char *const kOps[] = {"nn.add", "nn.sub", "nn.mul", "nn.div", "nn.relu", "nn.clip", "nn.sigmoid",
                                     "nn.tanh"};
  for (size_t i = 0; i < sizeof kOps / sizeof *kOps; i++)
    if (strataOpIsNamed(op, kOps[i])) return true;
  return false;
}

/* The element-wise ops after op that keep its result's type, each the sole
 * reader of the one before, in op's block. */
static int epilogueChain(MlirOperation op, MlirOperation *chain) {
  int n = 0;
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirBlock block = mlirOperationGetBlock(op);
  while (n < MAX_CHAIN) {
    MlirOperation u = soleUser(r);
    if (mlirOperationIsNull(u) || !epilogueOp(u) || mlirOperationGetNumResults(u) != 1 ||
        !mlirBlockEqual(mlirOperationGetBlock(u), block) ||
        !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(u, 0)), mlirValueGetType(r)))
      break;
    chain[n++] = u;
    r = mlirOperationGetResult(u, 0);
  }
  return n;
}

/* A's dims that make the GEMM's rows: all but the last (matmul with a 2-D
 * B folds the batch dims into rows), or gemm's row dim. */
static int rowDims(MlirOperation op, int *dims) {
  MlirType at = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType bt = mlirValueGetType(mlirOperationGetOperand(op, 1));
  if (!mlirTypeIsARankedTensor(at) || !mlirTypeIsARankedTensor(bt) ||
      !mlirTypeIsAF32(mlirShapedTypeGetElementType(at)))
    return 0;
  int ra = (int)mlirShapedTypeGetRank(at);
  if (strataOpIsNamed(op, "nn.gemm")) {
    int64_t ta = 0;
    strataGetI64(op, "transA", &ta);
    if (ra != 2) return 0;
    dims[0] = ta ? 1 : 0;
    return 1;
  }
  if (ra < 2 || mlirShapedTypeGetRank(bt) != 2) return 0;
  for (int d = 0; d < ra - 1; d++) dims[d] = d;
  return ra - 1;
}

typedef struct {
  const StrataRdp *r;
  int64_t bound;
  size_t numSymbols;
} Decide;

/* Whether RDP leaves op's rows open and they can be `bound` or fewer. */
static bool worthVersions(const Decide *c, MlirOperation op, const int *dims, int n) {
  MlirValue a = mlirOperationGetOperand(op, 0);
  bool open = false;
  int64_t least = 1;
  int64_t ones[64];
  for (size_t i = 0; i < c->numSymbols && i < 64; i++) ones[i] = 1;
  for (int i = 0; i < n; i++) {
    int64_t v;
    char buf[256];
    StrataRdpKind k = strataRdpDimOf(c->r, a, dims[i], &v, buf, sizeof buf);
    if (k == STRATA_RDP_CONST) {
      least *= v;
      continue;
    }
    open = true;
    /* a polynomial without negative terms is least at every symbol 1 */
    if ((k == STRATA_RDP_SYMBOL || k == STRATA_RDP_EXPR) && !strchr(buf, '-') && c->numSymbols <= 64 &&
        strataRdpEvalDim(c->r, a, dims[i], ones, c->numSymbols, &v) && v > 0)
      least *= v;
  }
  return open && least <= c->bound;
}

static MlirValue indexConst(StrataBuilder *b, MlirLocation loc, int64_t v) {
  return strataConstInt(b, loc, strataIndexType(b->ctx), v);
}

/* Clones op and its chain at the end of `block`, the first clone tagged
 * (few rows) or not, and yields the last clone's result. */
static void cloneVersion(MlirContext ctx, MlirBlock block, MlirOperation pro, MlirOperation op,
                         const MlirOperation *chain, int n, int64_t fewRows, MlirLocation loc) {
  MlirOperation prev = mlirOperationClone(op);
  if (!mlirOperationIsNull(pro)) { /* the transpose the kernel reads A through, its sole reader again */
    MlirOperation t = mlirOperationClone(pro);
    mlirBlockAppendOwnedOperation(block, t);
    mlirOperationSetOperand(prev, 0, mlirOperationGetResult(t, 0));
  }
  if (fewRows) mlirOperationSetAttributeByName(prev, mlirStringRefCreateFromCString("strata.few_rows"),
                                               strataI64Attr(ctx, fewRows));
  mlirBlockAppendOwnedOperation(block, prev);
  MlirValue from = mlirOperationGetResult(op, 0);
  for (int i = 0; i < n; i++) {
    MlirOperation c = mlirOperationClone(chain[i]);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(c); k++)
      if (mlirValueEqual(mlirOperationGetOperand(c, k), from))
        mlirOperationSetOperand(c, k, mlirOperationGetResult(prev, 0));
    mlirBlockAppendOwnedOperation(block, c);
    from = mlirOperationGetResult(chain[i], 0);
    prev = c;
  }
  StrataBuilder b = strataBuilderAtEnd(ctx, block);
  strataCreateOp(&b, "scf.yield", loc, .operands = STRATA_VALUES(mlirOperationGetResult(prev, 0)));
}

static void version(MlirOperation pro, MlirOperation op, const int *dims, int nd, int64_t bound) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  MlirOperation chain[MAX_CHAIN];
  int n = epilogueChain(op, chain);
  MlirOperation last = n ? chain[n - 1] : op;
  StrataBuilder b = strataBuilderBefore(last, (MlirRewriterBase){NULL});
  MlirValue a = mlirOperationGetOperand(op, 0), rows = {NULL};
  int64_t perm[STRATA_MAX_RANK];
  bool permuted = !mlirOperationIsNull(pro) && strataGetI64Array(pro, "perm", perm, STRATA_MAX_RANK) > 0;
  if (permuted) a = mlirOperationGetOperand(pro, 0); /* A's dim d is dim perm[d] of the transpose's input */
  for (int i = 0; i < nd; i++) {
    int64_t at = permuted ? perm[dims[i]] : dims[i];
    MlirValue d = strataResult(strataCreateOp(&b, "tensor.dim", loc, .operands = STRATA_VALUES(a, indexConst(&b, loc, at)),
                                              .results = STRATA_TYPES(strataIndexType(ctx))),
                               0);
    rows = rows.ptr ? strataResult(strataCreateOp(&b, "arith.muli", loc, .operands = STRATA_VALUES(rows, d),
                                                  .results = STRATA_TYPES(strataIndexType(ctx))),
                                   0)
                    : d;
  }
  MlirValue few = strataResult(
      strataCreateOp(&b, "arith.cmpi", loc, .operands = STRATA_VALUES(rows, indexConst(&b, loc, bound)),
                     .results = STRATA_TYPES(mlirIntegerTypeGet(ctx, 1)),
                     .attrs = STRATA_ATTRS({"predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 7 /* ule */)})),
      0);
  MlirValue result = mlirOperationGetResult(last, 0);
  MlirOperation ifOp = strataCreateOp(&b, "scf.if", loc, .operands = STRATA_VALUES(few),
                                      .results = STRATA_TYPES(mlirValueGetType(result)), .numRegions = 2);
  cloneVersion(ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc), pro, op, chain, n, bound, loc);
  cloneVersion(ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, loc), pro, op, chain, n, 0, loc);
  mlirValueReplaceAllUsesOfWith(result, mlirOperationGetResult(ifOp, 0));
  for (int i = n - 1; i >= 0; i--) mlirOperationDestroy(chain[i]);
  mlirOperationDestroy(op);
  if (!mlirOperationIsNull(pro)) mlirOperationDestroy(pro);
}

static void runMultiversion(StrataPassRun *run, MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) return;
  int64_t bound = strataPassGetInt(run, "rows");
  if (bound < 1 || bound > 8) {
    strataEmitOpError(func, "nn-multiversion: option 'rows' must be in [1, 8] (the runtime's few-rows GEMM), got %lld",
                      (long long)bound);
    strataPassSignalFailure(run);
    return;
  }
  StrataRdp *r = strataRdpRun(strataPassGetContext(run), func, false);
  if (!r) {
    strataPassSignalFailure(run);
    return;
  }
  Decide c = {r, bound, strataRdpNumSymbols(r)};
  MlirOperation picked[MAX_CANDIDATES], prologue[MAX_CANDIDATES];
  int pickedDims[MAX_CANDIDATES][STRATA_MAX_RANK], pickedN[MAX_CANDIDATES];
  size_t np = 0, hot = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op) && np < MAX_CANDIDATES;
       op = mlirOperationGetNextInBlock(op)) {
    if (!strataOpIsNamed(op, "nn.matmul") && !strataOpIsNamed(op, "nn.gemm")) continue;
    MlirOperation w = ownerOf(mlirOperationGetOperand(op, 1)), t = ownerOf(mlirOperationGetOperand(op, 0));
    if (mlirOperationIsNull(w) || !strataOpIsNamed(w, "nn.constant")) continue; /* not a weight GEMM */
    hot++;
    bool transposed = !mlirOperationIsNull(t) && strataOpIsNamed(t, "nn.transpose");
    if (transposed && (!mlirOperationEqual(soleUser(mlirOperationGetResult(t, 0)), op) ||
                       !mlirBlockEqual(mlirOperationGetBlock(t), entry)))
      continue; /* read through a transpose that others read too */
    int n = rowDims(op, pickedDims[np]);
    if (n == 0 || !worthVersions(&c, op, pickedDims[np], n)) continue;
    pickedN[np] = n;
    prologue[np] = transposed ? t : (MlirOperation){NULL};
    picked[np++] = op;
  }
  strataRdpDestroy(r); /* the facts refer to ops about to be replaced */
  for (size_t i = 0; i < np; i++) version(prologue[i], picked[i], pickedDims[i], pickedN[i], bound);
  if (strataPassGetBool(run, "stats")) {
    MlirContext ctx = mlirOperationGetContext(func);
    mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("nn.weight_gemms"), strataI64Attr(ctx, (int64_t)hot));
    mlirOperationSetAttributeByName(func, mlirStringRefCreateFromCString("nn.versioned"), strataI64Attr(ctx, (int64_t)np));
  }
}

static const StrataPassOptionDef kOptions[] = {
    {"rows", STRATA_OPTION_INT, "4", "The few-rows version's bound: rows <= this take it (1-8)"},
    {"stats", STRATA_OPTION_BOOL, "false", "Write nn.weight_gemms and nn.versioned on each function"},
};

static const StrataDialectHandleFn kDeps[] = {mlirGetDialectHandle__tensor__, mlirGetDialectHandle__arith__,
                                              mlirGetDialectHandle__scf__, NULL};

const StrataPassDef strataNnMultiversionPass = {
    .name = "nn-multiversion",
    .summary = "Two versions of each weight matmul/gemm whose rows RDP leaves symbolic: a few-rows GEMM when "
               "rows <= `rows` at run time, the general one otherwise",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof kOptions / sizeof *kOptions,
    .run = runMultiversion,
    .dependentDialects = kDeps,
};
