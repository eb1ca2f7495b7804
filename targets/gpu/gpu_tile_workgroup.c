/* gpu-tile-workgroup: GEMM-like linalg.generic ops (on memrefs, after
 * bufferization) become a gpu.launch whose workgroups each compute a
 * TM x TN tile of the output, its operand tiles staged in workgroup memory.
 *
 * A contraction is a generic with two inputs and one output, every operand
 * a static strided memref of f32, the output map the parallel loops (each
 * once), a reduction loop at least, and a body of arith/math ops of its
 * three arguments (no linalg.index). Its parallel loops split by which
 * input reads them: those only input 0 reads are the GEMM's M dimensions,
 * those only input 1 reads its N dimensions, the rest batch dimensions (a
 * workgroup each); its reduction loops are K. A matmul is
 * (batch..., M, N | K); nn.conv's generic (n, m, o... | c, k...) is
 * M = (n, o...), N = (m), K = (c, k...) read through its maps -- im2col
 * without the copy: strides, dilations and (already explicit) padding are
 * in the maps. A grouped conv reads m in both inputs (a batch dim, N = 1),
 * so it keeps its current path.
 *
 * Kernel: grid (ceil(N/TN), ceil(M/TM), batch), 64 work-items each owning
 * an RM x RN register tile (rows tr + i*TY, columns tc + j*TX). For each K
 * tile of TK, the work-items cooperatively load input 0's TM x TK tile and
 * input 1's TK x TN tile (through the generic's maps; elements past M, N or
 * K are 0 and never used) into workgroup memory, gpu.barrier, each
 * accumulates its register tile over the tile's valid k (at most K - k0:
 * no padded term is ever added), gpu.barrier. The accumulators start from
 * the output's elements and go through the body in increasing k, the
 * order of the loops this replaces: results are bit-identical to them. */
#include <string.h>
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "gpu_host.h"
#include "strata/builder.h"
#include "strata/pass.h"
#include "strata/support.h"

enum {
  TM = 32, TN = 32, TK = 8, RM = 4, RN = 4,
  TX = TN / RN, TY = TM / RM, THREADS = TX * TY,
  MAX_LOOPS = 16, MAX_BODY = 64, MAX_GRID = 65535
};

typedef enum { ROLE_M, ROLE_N, ROLE_BATCH, ROLE_K } Role;

typedef struct {
  MlirOperation op;
  int numLoops;
  int64_t extent[MAX_LOOPS];
  Role role[MAX_LOOPS];
  MlirAffineMap maps[3];
  MlirValue operands[3];
  int64_t size[4]; /* by Role: M, N, batch, K */
} Contraction;

static bool pureDim(MlirAffineExpr e, int *dim) {
  if (!mlirAffineExprIsADim(e)) return false;
  *dim = (int)mlirAffineDimExprGetPosition(e);
  return true;
}

static bool mapReads(MlirAffineMap map, int dim) {
  for (intptr_t q = 0; q < mlirAffineMapGetNumResults(map); q++)
    if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(map, q), dim)) return true;
  return false;
}

static bool bodyIsScalar(MlirOperation op) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body) || mlirBlockGetNumArguments(body) != 3) return false;
  int n = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(body); !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (strataOpIsNamed(o, "linalg.yield")) return mlirOperationGetNumOperands(o) == 1;
    if (++n > MAX_BODY || mlirOperationGetNumRegions(o) || mlirOperationGetNumResults(o) != 1 ||
        !(strataOpIsInDialect(o, "arith") || strataOpIsInDialect(o, "math")))
      return false;
  }
  return false;
}

static bool staticF32(MlirValue v) {
  GpuLayout l;
  char why[256];
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAMemRef(t) && mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) &&
         gpuLayoutOf(t, "gpu", &l, why, sizeof why) && l.numElements > 0;
}

static bool analyze(MlirOperation op, Contraction *c) {
  memset(c, 0, sizeof *c);
  c->op = op;
  MlirAttribute maps = strataOpAttr(op, "indexing_maps"), its = strataOpAttr(op, "iterator_types");
  if (mlirOperationGetNumResults(op) || mlirOperationGetNumOperands(op) != 3 || mlirAttributeIsNull(maps) ||
      mlirAttributeIsNull(its) || mlirArrayAttrGetNumElements(maps) != 3 || !bodyIsScalar(op))
    return false;
  c->numLoops = (int)mlirArrayAttrGetNumElements(its);
  if (c->numLoops > MAX_LOOPS) return false;
  MlirAttribute reduction = strataParseAttr(mlirOperationGetContext(op), "#linalg.iterator_type<reduction>");
  for (int d = 0; d < c->numLoops; d++) {
    c->extent[d] = -1;
    c->role[d] = mlirAttributeEqual(mlirArrayAttrGetElement(its, d), reduction) ? ROLE_K : ROLE_BATCH;
  }
  for (int i = 0; i < 3; i++) {
    c->operands[i] = mlirOperationGetOperand(op, i);
    c->maps[i] = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
    if (!staticF32(c->operands[i]) || mlirAffineMapGetNumDims(c->maps[i]) != c->numLoops ||
        mlirAffineMapGetNumSymbols(c->maps[i]) ||
        mlirAffineMapGetNumResults(c->maps[i]) != mlirShapedTypeGetRank(mlirValueGetType(c->operands[i])))
      return false;
    for (intptr_t q = 0; q < mlirAffineMapGetNumResults(c->maps[i]); q++) {
      int d;
      int64_t n = mlirShapedTypeGetDimSize(mlirValueGetType(c->operands[i]), q);
      if (!pureDim(mlirAffineMapGetResult(c->maps[i], q), &d)) continue;
      if (c->extent[d] >= 0 && c->extent[d] != n) return false;
      c->extent[d] = n;
    }
  }
  /* The output is written in place of the inputs' reads otherwise. */
  if (mlirValueEqual(c->operands[2], c->operands[0]) || mlirValueEqual(c->operands[2], c->operands[1])) return false;
  bool seen[MAX_LOOPS] = {false};
  int parallel = 0;
  for (intptr_t q = 0; q < mlirAffineMapGetNumResults(c->maps[2]); q++) {
    int d;
    if (!pureDim(mlirAffineMapGetResult(c->maps[2], q), &d) || c->role[d] == ROLE_K || seen[d]) return false;
    seen[d] = true;
  }
  for (int r = 0; r < 4; r++) c->size[r] = 1;
  for (int d = 0; d < c->numLoops; d++) {
    if (c->extent[d] <= 0) return false;
    if (c->role[d] != ROLE_K) {
      if (!seen[d]) return false;
      parallel++;
      bool a = mapReads(c->maps[0], d), b = mapReads(c->maps[1], d);
      c->role[d] = a && !b ? ROLE_M : b && !a ? ROLE_N : ROLE_BATCH;
    }
    if (!strataCheckedMul(c->size[c->role[d]], c->extent[d], &c->size[c->role[d]])) return false;
  }
  bool hasK = parallel < c->numLoops;
  /* Tiles pay where a loaded element serves several outputs. */
  return hasK && c->size[ROLE_M] >= 2 && c->size[ROLE_N] >= 2 && c->size[ROLE_K] >= 2 &&
         (c->size[ROLE_N] + TN - 1) / TN <= MAX_GRID && (c->size[ROLE_M] + TM - 1) / TM <= MAX_GRID &&
         c->size[ROLE_BATCH] <= MAX_GRID;
}

/* ---- Building ---- */

static MlirValue cIdx(StrataBuilder *b, MlirLocation loc, int64_t v) {
  return strataConstInt(b, loc, strataIndexType(b->ctx), v);
}

static MlirValue bin(StrataBuilder *b, const char *name, MlirLocation loc, MlirValue x, MlirValue y) {
  return strataResult(strataCreateOp(b, name, loc, .operands = STRATA_VALUES(x, y),
                                     .results = STRATA_TYPES(mlirValueGetType(x))), 0);
}

static MlirValue cmpLt(StrataBuilder *b, MlirLocation loc, MlirValue x, int64_t bound) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64), i1 = mlirIntegerTypeGet(b->ctx, 1);
  return strataResult(strataCreateOp(b, "arith.cmpi", loc, .operands = STRATA_VALUES(x, cIdx(b, loc, bound)),
                                     .results = STRATA_TYPES(i1),
                                     .attrs = STRATA_ATTRS({"predicate", mlirIntegerAttrGet(i64, 6)})), 0); /* ult */
}

/* The loops of `role`, from linear index `lin` over them (the last fastest). */
static void delinearize(StrataBuilder *b, MlirLocation loc, const Contraction *c, Role role, MlirValue lin,
                        MlirValue *vals) {
  int64_t inner = 1;
  int first = -1;
  for (int d = 0; d < c->numLoops && first < 0; d++)
    if (c->role[d] == role) first = d;
  for (int d = c->numLoops - 1; d >= 0; d--) {
    if (c->role[d] != role) continue;
    MlirValue v = lin;
    if (inner > 1) v = bin(b, "arith.divui", loc, v, cIdx(b, loc, inner));
    if (d != first) v = bin(b, "arith.remui", loc, v, cIdx(b, loc, c->extent[d]));
    vals[d] = v;
    inner *= c->extent[d];
  }
}

/* memref.load (or, for a vector type, vector.load) of operand `i` at loop
 * values `vals` through its map. */
static MlirValue loadOperand(StrataBuilder *b, MlirLocation loc, const Contraction *c, int i, const MlirValue *vals,
                             MlirType type) {
  intptr_t rank = mlirAffineMapGetNumResults(c->maps[i]);
  MlirValue ops[1 + MAX_LOOPS];
  ops[0] = c->operands[i];
  for (intptr_t q = 0; q < rank; q++) {
    int d;
    if (pureDim(mlirAffineMapGetResult(c->maps[i], q), &d)) {
      ops[1 + q] = vals[d];
      continue;
    }
    intptr_t pos = q;
    MlirAffineMap sub = mlirAffineMapGetSubMap(c->maps[i], 1, &pos);
    ops[1 + q] = strataResult(strataCreateOp(b, "affine.apply", loc, .operands = {vals, c->numLoops},
                                             .results = STRATA_TYPES(strataIndexType(b->ctx)),
                                             .attrs = STRATA_ATTRS({"map", mlirAffineMapAttrGet(sub)})),
                              0);
  }
  return strataResult(strataCreateOp(b, mlirTypeIsAVector(type) ? "vector.load" : "memref.load", loc,
                                     .operands = {ops, 1 + rank}, .results = STRATA_TYPES(type)),
                      0);
}

static void storeOperand(StrataBuilder *b, MlirLocation loc, const Contraction *c, MlirValue v, const MlirValue *vals) {
  intptr_t rank = mlirAffineMapGetNumResults(c->maps[2]);
  MlirValue ops[2 + MAX_LOOPS] = {v, c->operands[2]};
  for (intptr_t q = 0; q < rank; q++) {
    int d = 0;
    pureDim(mlirAffineMapGetResult(c->maps[2], q), &d); /* analyze checked it is one */
    ops[2 + q] = vals[d];
  }
  strataCreateOp(b, "memref.store", loc, .operands = {ops, 2 + rank});
}

/* scf.if `cond` yielding one f32: the then-block's builder goes to *then;
 * the else-block yields 0. The caller ends the then-block with yieldIf. */
static MlirOperation ifElseZero(StrataBuilder *b, MlirLocation loc, MlirValue cond, StrataBuilder *then) {
  MlirType f32 = strataF32(b->ctx);
  MlirOperation op = strataCreateOp(b, "scf.if", loc, .operands = STRATA_VALUES(cond), .results = STRATA_TYPES(f32),
                                    .numRegions = 2);
  *then = strataBuilderAtEnd(b->ctx, strataAddBlock(op, 0, (StrataTypeList){NULL, 0}, loc));
  StrataBuilder els = strataBuilderAtEnd(b->ctx, strataAddBlock(op, 1, (StrataTypeList){NULL, 0}, loc));
  strataCreateOp(&els, "scf.yield", loc, .operands = STRATA_VALUES(strataConstFloat(&els, loc, f32, 0.0)));
  return op;
}

static MlirValue yieldIf(StrataBuilder *then, MlirLocation loc, MlirOperation ifOp, MlirValue v) {
  strataCreateOp(then, "scf.yield", loc, .operands = STRATA_VALUES(v));
  return mlirOperationGetResult(ifOp, 0);
}

/* An scf.for from lb to ub step 1 carrying `inits`; *body builds its block. */
static MlirOperation forLoop(StrataBuilder *b, MlirLocation loc, MlirValue lb, MlirValue ub, const MlirValue *inits,
                             int n, StrataBuilder *body) {
  MlirValue ops[3 + RM * RN] = {lb, ub, cIdx(b, loc, 1)};
  MlirType types[1 + RM * RN] = {strataIndexType(b->ctx)};
  for (int i = 0; i < n; i++) ops[3 + i] = inits[i], types[1 + i] = strataF32(b->ctx);
  MlirOperation op = strataCreateOp(b, "scf.for", loc, .operands = {ops, 3 + n}, .results = {types + 1, n},
                                    .numRegions = 1);
  *body = strataBuilderAtEnd(b->ctx, strataAddBlock(op, 0, (StrataTypeList){types, 1 + n}, loc));
  return op;
}

/* The generic's body on (a, b, acc), cloned at the end of b's block. */
static MlirValue applyBody(StrataBuilder *b, const Contraction *c, MlirValue x, MlirValue y, MlirValue acc) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 0));
  MlirValue from[3 + MAX_BODY], to[3 + MAX_BODY];
  int n = 3;
  for (int i = 0; i < 3; i++) from[i] = mlirBlockGetArgument(body, i);
  to[0] = x, to[1] = y, to[2] = acc;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);; o = mlirOperationGetNextInBlock(o)) {
    if (strataOpIsNamed(o, "linalg.yield")) {
      MlirValue r = mlirOperationGetOperand(o, 0);
      for (int k = 0; k < n; k++)
        if (mlirValueEqual(from[k], r)) return to[k];
      return r; /* a value from above */
    }
    MlirOperation copy = mlirOperationClone(o);
    for (intptr_t p = 0; p < mlirOperationGetNumOperands(copy); p++)
      for (int k = 0; k < n; k++)
        if (mlirValueEqual(mlirOperationGetOperand(copy, p), from[k])) mlirOperationSetOperand(copy, p, to[k]);
    mlirBlockAppendOwnedOperation(b->block, copy);
    from[n] = mlirOperationGetResult(o, 0), to[n] = mlirOperationGetResult(copy, 0), n++;
  }
}

typedef struct {
  MlirValue tid, tr, tc, m0, n0, tileA, tileB;
  MlirValue batch[MAX_LOOPS]; /* the batch loops' values; the others unset */
} Kernel;

/* The elements one load of input `which` takes: 4 (a vector<4xf32>) where
 * its tile's fast dimension (K for input 0, N for input 1) is the last
 * loop of that role, read by its last index alone with unit stride, its
 * extent a multiple of 4 (a group of 4 never straddles it or the end) and
 * every other stride and the offset multiples of 4 (16-byte aligned); else
 * 1. Each group starts at a multiple of 4 of the fast dimension. */
static int vectorWidth(const Contraction *c, int which) {
  Role fast = which == 0 ? ROLE_K : ROLE_N;
  int last = -1, d;
  for (int l = 0; l < c->numLoops; l++)
    if (c->role[l] == fast) last = l;
  intptr_t rank = mlirAffineMapGetNumResults(c->maps[which]);
  if (last < 0 || c->extent[last] % 4 || !pureDim(mlirAffineMapGetResult(c->maps[which], rank - 1), &d) || d != last)
    return 1;
  for (intptr_t q = 0; q + 1 < rank; q++)
    if (mlirAffineExprIsFunctionOfDim(mlirAffineMapGetResult(c->maps[which], q), last)) return 1;
  GpuLayout l;
  char why[256];
  if (!gpuLayoutOf(mlirValueGetType(c->operands[which]), "gpu", &l, why, sizeof why) || l.strides[rank - 1] != 1 ||
      l.offset % 4)
    return 1;
  for (intptr_t q = 0; q + 1 < rank; q++)
    if (l.strides[q] % 4) return 1;
  return 4;
}

/* Work-item `tid`'s share of one operand tile: `rows` x TK elements of input
 * `which` (rows along M for input 0, along N for input 1), into `tile`, in
 * loads of `width` elements along the fast dimension. */
static void loadTile(StrataBuilder *b, MlirLocation loc, const Contraction *c, const Kernel *k, int which,
                     MlirValue k0) {
  Role side = which == 0 ? ROLE_M : ROLE_N;
  int rows = which == 0 ? TM : TN, width = vectorWidth(c, which);
  int groups = (which == 0 ? TK : TN) / width; /* loads along the fast dimension */
  MlirValue base = which == 0 ? k->m0 : k->n0, tile = which == 0 ? k->tileA : k->tileB;
  MlirType f32 = strataF32(b->ctx), vec = mlirVectorTypeGet(1, (const int64_t[]){4}, f32);
  for (int e = 0; e < rows * TK / (THREADS * width); e++) {
    MlirValue lin = bin(b, "arith.addi", loc, k->tid, cIdx(b, loc, e * THREADS));
    /* Input 0 walks k fastest (a row of A), input 1 its rows (a row of B). */
    MlirValue q = bin(b, "arith.remui", loc, lin, cIdx(b, loc, groups)), p = bin(b, "arith.divui", loc, lin, cIdx(b, loc, groups));
    if (width > 1) q = bin(b, "arith.muli", loc, q, cIdx(b, loc, width));
    MlirValue kk = which == 0 ? q : p, row = which == 0 ? p : q;
    MlirValue r = bin(b, "arith.addi", loc, base, row), kg = bin(b, "arith.addi", loc, k0, kk);
    MlirValue ok = bin(b, "arith.andi", loc, cmpLt(b, loc, r, c->size[side]), cmpLt(b, loc, kg, c->size[ROLE_K]));
    StrataBuilder then;
    MlirOperation ifOp = width == 1 ? ifElseZero(b, loc, ok, &then)
                                    : strataCreateOp(b, "scf.if", loc, .operands = STRATA_VALUES(ok), .numRegions = 2);
    if (width > 1) then = strataBuilderAtEnd(b->ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc));
    MlirValue vals[MAX_LOOPS];
    memcpy(vals, k->batch, sizeof vals);
    delinearize(&then, loc, c, side, r, vals);
    delinearize(&then, loc, c, ROLE_K, kg, vals);
    for (int d = 0; d < c->numLoops; d++)
      if (c->role[d] == (which == 0 ? ROLE_N : ROLE_M)) vals[d] = cIdx(&then, loc, 0); /* unread */
    if (width == 1) {
      MlirValue v = yieldIf(&then, loc, ifOp, loadOperand(&then, loc, c, which, vals, f32));
      strataCreateOp(b, "memref.store", loc, .operands = STRATA_VALUES(v, tile, kk, row));
      continue;
    }
    /* A vector load, its elements stored one by one (A's tile is stored
     * k-major, so they are not adjacent there); zeros outside. */
    StrataBuilder els = strataBuilderAtEnd(b->ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, loc));
    MlirValue v = loadOperand(&then, loc, c, which, vals, vec), zero = strataConstFloat(&els, loc, f32, 0.0);
    for (int i = 0; i < width; i++) {
      MlirValue x = strataResult(strataCreateOp(&then, "vector.extract", loc, .operands = STRATA_VALUES(v),
                                                .results = STRATA_TYPES(f32),
                                                .attrs = STRATA_ATTRS({"static_position",
                                                                       mlirDenseI64ArrayGet(b->ctx, 1, (const int64_t[]){i})})),
                                 0);
      MlirValue tk = which == 0 ? bin(&then, "arith.addi", loc, kk, cIdx(&then, loc, i)) : kk;
      MlirValue tr = which == 0 ? row : bin(&then, "arith.addi", loc, row, cIdx(&then, loc, i));
      strataCreateOp(&then, "memref.store", loc, .operands = STRATA_VALUES(x, tile, tk, tr));
      MlirValue ek = which == 0 ? bin(&els, "arith.addi", loc, kk, cIdx(&els, loc, i)) : kk;
      MlirValue er = which == 0 ? row : bin(&els, "arith.addi", loc, row, cIdx(&els, loc, i));
      strataCreateOp(&els, "memref.store", loc, .operands = STRATA_VALUES(zero, tile, ek, er));
    }
    strataCreateOp(&then, "scf.yield", loc);
    strataCreateOp(&els, "scf.yield", loc);
  }
}

/* Output element (row i, column j) of the work-item's register tile: its
 * in-bounds condition and (through `then`, inside an scf.if the caller
 * makes) its loop values. */
static MlirValue outPos(StrataBuilder *b, MlirLocation loc, const Contraction *c, const Kernel *k, int i, int j,
                        MlirValue *m, MlirValue *n) {
  *m = bin(b, "arith.addi", loc, k->m0, bin(b, "arith.addi", loc, k->tr, cIdx(b, loc, i * TY)));
  *n = bin(b, "arith.addi", loc, k->n0, bin(b, "arith.addi", loc, k->tc, cIdx(b, loc, j * TX)));
  return bin(b, "arith.andi", loc, cmpLt(b, loc, *m, c->size[ROLE_M]), cmpLt(b, loc, *n, c->size[ROLE_N]));
}

static void outVals(StrataBuilder *b, MlirLocation loc, const Contraction *c, const Kernel *k, MlirValue m, MlirValue n,
                    MlirValue *vals) {
  memcpy(vals, k->batch, sizeof k->batch);
  delinearize(b, loc, c, ROLE_M, m, vals);
  delinearize(b, loc, c, ROLE_N, n, vals);
}

/* The K-tile loop body: load both tiles, barrier, accumulate, barrier. */
static void kTile(StrataBuilder *b, MlirLocation loc, const Contraction *c, const Kernel *k, MlirValue kt,
                  const MlirValue *accs, MlirValue *out) {
  MlirValue k0 = bin(b, "arith.muli", loc, kt, cIdx(b, loc, TK));
  loadTile(b, loc, c, k, 0, k0);
  loadTile(b, loc, c, k, 1, k0);
  strataCreateOp(b, "gpu.barrier", loc);
  MlirValue left = bin(b, "arith.subi", loc, cIdx(b, loc, c->size[ROLE_K]), k0);
  MlirValue kend = bin(b, "arith.minui", loc, left, cIdx(b, loc, TK));
  StrataBuilder in;
  MlirOperation inner = forLoop(b, loc, cIdx(b, loc, 0), kend, accs, RM * RN, &in);
  MlirBlock body = in.block;
  MlirValue kk = mlirBlockGetArgument(body, 0), a[RM], bv[RN], next[RM * RN];
  for (int i = 0; i < RM; i++) {
    MlirValue row = bin(&in, "arith.addi", loc, k->tr, cIdx(&in, loc, i * TY));
    a[i] = strataResult(strataCreateOp(&in, "memref.load", loc, .operands = STRATA_VALUES(k->tileA, kk, row),
                                       .results = STRATA_TYPES(strataF32(b->ctx))), 0);
  }
  for (int j = 0; j < RN; j++) {
    MlirValue col = bin(&in, "arith.addi", loc, k->tc, cIdx(&in, loc, j * TX));
    bv[j] = strataResult(strataCreateOp(&in, "memref.load", loc, .operands = STRATA_VALUES(k->tileB, kk, col),
                                        .results = STRATA_TYPES(strataF32(b->ctx))), 0);
  }
  for (int i = 0; i < RM; i++)
    for (int j = 0; j < RN; j++) next[i * RN + j] = applyBody(&in, c, a[i], bv[j], mlirBlockGetArgument(body, 1 + i * RN + j));
  strataCreateOp(&in, "scf.yield", loc, .operands = {next, RM * RN});
  strataCreateOp(b, "gpu.barrier", loc);
  for (int i = 0; i < RM * RN; i++) out[i] = mlirOperationGetResult(inner, i);
}

static void tile(Contraction *c) {
  MlirOperation op = c->op;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  StrataBuilder b = strataBuilderBefore(op, (MlirRewriterBase){NULL});
  MlirType index = strataIndexType(ctx), f32 = strataF32(ctx);
  MlirValue one = cIdx(&b, loc, 1);
  MlirValue gx = cIdx(&b, loc, (c->size[ROLE_N] + TN - 1) / TN), gy = cIdx(&b, loc, (c->size[ROLE_M] + TM - 1) / TM);
  MlirValue gz = cIdx(&b, loc, c->size[ROLE_BATCH]), threads = cIdx(&b, loc, THREADS);
  const int32_t segments[11] = {0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0};
  MlirOperation launch = strataCreateOp(&b, "gpu.launch", loc, .operands = STRATA_VALUES(gx, gy, gz, threads, one, one),
                                        .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 11, segments)}),
                                        .numRegions = 1);
  MlirType ids[12];
  for (int i = 0; i < 12; i++) ids[i] = index;
  MlirBlock body = strataAddBlock(launch, 0, (StrataTypeList){ids, 12}, loc);
  StrataBuilder kb = strataBuilderAtEnd(ctx, body);
  MlirAttribute workgroup = strataParseAttr(ctx, "#gpu.address_space<workgroup>");
  Kernel k;
  int64_t shapeA[2] = {TK, TM}, shapeB[2] = {TK, TN};
  k.tileA = strataResult(strataCreateOp(&kb, "memref.alloc", loc, .results = STRATA_TYPES(mlirMemRefTypeGet(
                                                                          f32, 2, shapeA, mlirAttributeGetNull(), workgroup)),
                                        .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (const int32_t[]){0, 0})})),
                         0);
  k.tileB = strataResult(strataCreateOp(&kb, "memref.alloc", loc, .results = STRATA_TYPES(mlirMemRefTypeGet(
                                                                          f32, 2, shapeB, mlirAttributeGetNull(), workgroup)),
                                        .attrs = STRATA_ATTRS({"operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 2, (const int32_t[]){0, 0})})),
                         0);
  k.tid = mlirBlockGetArgument(body, 3);
  k.tc = bin(&kb, "arith.remui", loc, k.tid, cIdx(&kb, loc, TX));
  k.tr = bin(&kb, "arith.divui", loc, k.tid, cIdx(&kb, loc, TX));
  k.n0 = bin(&kb, "arith.muli", loc, mlirBlockGetArgument(body, 0), cIdx(&kb, loc, TN));
  k.m0 = bin(&kb, "arith.muli", loc, mlirBlockGetArgument(body, 1), cIdx(&kb, loc, TM));
  memset(k.batch, 0, sizeof k.batch);
  delinearize(&kb, loc, c, ROLE_BATCH, mlirBlockGetArgument(body, 2), k.batch);
  /* The accumulators start from the output (0 where out of bounds). */
  MlirValue accs[RM * RN], ms[RM * RN], ns[RM * RN], oks[RM * RN];
  for (int i = 0; i < RM; i++)
    for (int j = 0; j < RN; j++) {
      int r = i * RN + j;
      oks[r] = outPos(&kb, loc, c, &k, i, j, &ms[r], &ns[r]);
      StrataBuilder then;
      MlirOperation ifOp = ifElseZero(&kb, loc, oks[r], &then);
      MlirValue vals[MAX_LOOPS];
      outVals(&then, loc, c, &k, ms[r], ns[r], vals);
      accs[r] = yieldIf(&then, loc, ifOp, loadOperand(&then, loc, c, 2, vals, f32));
    }
  StrataBuilder lb;
  MlirOperation loop = forLoop(&kb, loc, cIdx(&kb, loc, 0), cIdx(&kb, loc, (c->size[ROLE_K] + TK - 1) / TK), accs,
                               RM * RN, &lb);
  MlirValue carried[RM * RN], sums[RM * RN];
  for (int r = 0; r < RM * RN; r++) carried[r] = mlirBlockGetArgument(lb.block, 1 + r);
  kTile(&lb, loc, c, &k, mlirBlockGetArgument(lb.block, 0), carried, sums);
  strataCreateOp(&lb, "scf.yield", loc, .operands = {sums, RM * RN});
  for (int r = 0; r < RM * RN; r++) {
    MlirOperation ifOp = strataCreateOp(&kb, "scf.if", loc, .operands = STRATA_VALUES(oks[r]), .numRegions = 2);
    StrataBuilder then = strataBuilderAtEnd(ctx, strataAddBlock(ifOp, 0, (StrataTypeList){NULL, 0}, loc));
    StrataBuilder els = strataBuilderAtEnd(ctx, strataAddBlock(ifOp, 1, (StrataTypeList){NULL, 0}, loc));
    MlirValue vals[MAX_LOOPS];
    outVals(&then, loc, c, &k, ms[r], ns[r], vals);
    storeOperand(&then, loc, c, mlirOperationGetResult(loop, r), vals);
    strataCreateOp(&then, "scf.yield", loc);
    strataCreateOp(&els, "scf.yield", loc);
  }
  strataCreateOp(&kb, "gpu.terminator", loc);
  mlirOperationDestroy(op);
}

static void runTile(StrataPassRun *run, MlirOperation func) {
  (void)run;
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) return;
  for (MlirOperation op = mlirBlockGetFirstOperation(entry); !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    Contraction c;
    if (strataOpIsNamed(op, "linalg.generic") && analyze(op, &c)) tile(&c);
    op = next;
  }
}

const StrataPassDef strataGpuTileWorkgroupPass = {
    .name = "gpu-tile-workgroup",
    .summary = "GEMM-like linalg.generic ops on memrefs (matmul, batch matmul, conv) as a gpu.launch of "
               "32x32 output tiles: operand tiles staged in workgroup memory between gpu.barriers, a "
               "4x4 register tile per work-item",
    .anchor = "func.func",
    .run = runTile,
};
