/* The sparse dialect's lowerings (sparse-to-scf, sparse-to-vector), shared
 * between their files: a builder for the generated functions (sv_ir.c),
 * the zero-padded input scratch (sv_scratch.c), the FKW loop skeleton
 * (fkw_loops.c), the register tile with load-redundancy elimination
 * (fkw_tile.c), the CSR baseline (csr_lower.c) and the call site and pass
 * rows (sparse_lower_passes.c).
 *
 * Each sparse op becomes a call to a generated private func.func over
 * memrefs: (x, [b,] y, scratch). The arrays (FKW or CSR) are private
 * constant memref.globals the function reads. */
#ifndef STRATA_SV_INTERNAL_H
#define STRATA_SV_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "sparse.h"

/* Register-tile values at most (filters x rows x column vectors): the op
 * verifier bounds tile entries by 16 and unroll by 8. */
enum { SV_MAX_ACC = 8 * 16 * 16, SV_MAX_TAPS = 9 };

/* What the generated code may use. */
typedef struct {
  bool vector;     /* vector ops (sparse-to-vector); false: scalars (sparse-to-scf) */
  bool segments;   /* one loop per pattern; false: scf.index_switch per kernel */
  bool lre;        /* register tile + shared loads; false: 1x1 tile, a load per tap */
  int64_t lanes;   /* f32 lanes of a vector (1 for scalars) */
} SvOptions;

/* Builds ops at an insertion point of a generated function. `lane` is the
 * type one output element group lives in: vector<lanes x f32>, or f32 for
 * scalar code. */
typedef struct {
  MlirContext ctx;
  MlirLocation loc;
  MlirOperation module;
  StrataBuilder b;
  MlirType index, i32, f32, lane;
  int64_t lanes;
  bool vector;
  const char *prefix; /* of the function's globals */
} SvGen;

/* ---- sv_ir.c: ops ---- */
/* "'<op name>' op <message>" at the op. */
void svOpError(MlirOperation op, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
MlirValue svC(SvGen *g, int64_t v);                 /* index constant */
MlirValue svAdd(SvGen *g, MlirValue a, MlirValue b);
MlirValue svMul(SvGen *g, MlirValue a, MlirValue b);
MlirValue svAddC(SvGen *g, MlirValue a, int64_t c); /* a + c (a itself for 0) */
MlirValue svMulC(SvGen *g, MlirValue a, int64_t c); /* a * c (a itself for 1) */
MlirValue svDivC(SvGen *g, MlirValue a, int64_t c); /* a / c, a >= 0 */
MlirValue svRemC(SvGen *g, MlirValue a, int64_t c); /* a % c, a >= 0 */
MlirValue svMinC(SvGen *g, MlirValue a, int64_t c);
/* An element of an i32 global as an index / of an f32 memref. */
MlirValue svLoadIndex(SvGen *g, MlirValue mem, MlirValue i);
MlirValue svLoadF32(SvGen *g, MlirValue mem, MlirValue i);
/* A lane (vector.load, or memref.load for scalars) of a 1-D f32 memref. */
MlirValue svLoadLane(SvGen *g, MlirValue mem, MlirValue i);
/* Stores a lane at mem[idx...] (n indices); `mask`: null, or an i1 vector
 * mask for vector.maskedstore. */
void svStoreLane(SvGen *g, MlirValue v, MlirValue mem, const MlirValue *idx, int n, MlirValue mask);
MlirValue svSplat(SvGen *g, MlirValue scalar); /* scalar -> lane */
MlirValue svZeroLane(SvGen *g);
MlirValue svFma(SvGen *g, MlirValue a, MlirValue b, MlirValue acc); /* a * b + acc */
/* vector.constant_mask of the first n lanes. */
MlirValue svMask(SvGen *g, int64_t n);

/* scf.for lb..ub step `step` carrying `n` values; the builder moves into the
 * body. svForEnd yields `yields` and moves back after the loop. */
typedef struct {
  MlirOperation op;
  MlirBlock body;
  StrataBuilder outer;
} SvLoop;
void svForBegin(SvGen *g, SvLoop *l, MlirValue lb, MlirValue ub, MlirValue step, const MlirValue *inits,
                int n);
MlirValue svLoopIv(const SvLoop *l);
MlirValue svLoopArg(const SvLoop *l, int i);
void svForEnd(SvGen *g, SvLoop *l, const MlirValue *yields, int n);
/* Constant bounds and step. */
void svForConst(SvGen *g, SvLoop *l, int64_t lb, int64_t ub, int64_t step, const MlirValue *inits, int n);

/* A private constant memref.global `<prefix>_<name>` of i32 values (false
 * with a located error at `op` if one does not fit) or f32 values, and the
 * memref.get_global of it at the builder. */
bool svGlobalI32(SvGen *g, MlirOperation op, const char *name, const int64_t *v, int64_t n, MlirValue *out);
MlirValue svGlobalF32(SvGen *g, const char *name, const float *v, int64_t n);

/* A private func.func `name` over `args` at the end of `module`; the
 * builder goes into its entry block. svFuncEnd adds the return. */
MlirBlock svFuncBegin(SvGen *g, MlirOperation module, MlirLocation loc, const char *name, const MlirType *args,
                      int n, const SvOptions *o);
void svFuncEnd(SvGen *g);

/* ---- sv_scratch.c: the zero-padded input ----
 * For image n the input is copied once into scratch[c][row][phase][j] =
 * padded input (c, row, j*sw + phase): every tap (r, q) then reads output
 * columns ow.. as contiguous elements at row oh*sh + r*dh, phase
 * (q*dw) % sw, element ow + (q*dw) / sw, with no bounds check. */
typedef struct {
  int64_t N, C, H, W, M, OH, OW;
  SparseWindow win;
  int64_t Hp, Wph, RS, CS, size; /* rows, phase width, row and channel strides, elements */
} SvGeom;
/* From the op's operand and result types and window (kernel kh x kw). */
bool svGeomInit(SvGeom *geo, MlirOperation op, const SparseWindow *win, int64_t lanes);
/* Offset of tap (r, q) from its output position's (row oh*sh, column ow). */
int64_t svTapOffset(const SvGeom *geo, int64_t r, int64_t q);
/* Copies image n of x (memref NxCxHxW) into the scratch (1-D). */
void svEmitPadCopy(SvGen *g, const SvGeom *geo, MlirValue x, MlirValue scratch, MlirValue n);

/* Output row tiles: tile k starts at min(k * step, last). Tiles overlap at
 * the end when step does not divide the extent; they write the same
 * values twice. */
typedef struct {
  int64_t count, step, last;
} SvTiles;
SvTiles svTiles(int64_t extent, int64_t size);
MlirValue svTileStart(SvGen *g, const SvTiles *t, MlirValue k);
/* Output column tiles of T vectors, starting at multiples of T*lanes (the
 * loads stay aligned): a loop over the whole tiles, then the rest as one
 * tile of fewer vectors whose last has `lastLanes` lanes in the row (the
 * others are computed from the scratch's zeros and not stored). */
typedef void (*SvColumnBody)(void *user, MlirValue ow0, int64_t T, int64_t lastLanes);
void svColumnTiles(SvGen *g, const SvGeom *geo, int64_t T, SvColumnBody body, void *user);
/* Stores an R x T tile of lanes (acc[i*T + t]) at y[n, m, oh0 + i, ow0 +
 * t*lanes], the last vector of each row masked to `lastLanes`. */
void svStoreTile(SvGen *g, MlirValue y, MlirValue n, MlirValue m, MlirValue oh0, MlirValue ow0, const MlirValue *acc,
                 int64_t R, int64_t T, int64_t lastLanes);

/* ---- fkw_loops.c / csr_lower.c: the generated functions ----
 * Emit the body of the function whose arguments are (x, [b,] y, scratch);
 * false after a located error at `op`. */
typedef struct {
  int64_t R, T, U; /* tile: output rows, column vectors; filters unrolled */
  bool rowsOuter;  /* permute oh_co_ow_ci (else co_oh_ow_ci) */
} SvTuning;
bool svEmitFkw(SvGen *g, MlirOperation op, const SparseFkw *f, const SvGeom *geo, const SvOptions *o,
               const SvTuning *tn, MlirBlock entry);
bool svEmitCsr(SvGen *g, MlirOperation op, const SparseCsr *c, const SvGeom *geo, const SvOptions *o,
               MlirBlock entry);
/* The tuning of a fkw op: its attributes, else the defaults for `o`. */
SvTuning svTuningFor(MlirOperation op, const SvGeom *geo, const SvOptions *o);

/* ---- fkw_tile.c: one kernel's contribution to a register tile ---- */
typedef struct {
  const SvGeom *geo;
  int64_t R, T, U;
  bool share; /* LRE: each distinct input vector loaded once */
  MlirValue acc[SV_MAX_ACC]; /* (u * R + i) * T + t */
} SvTile;
/* acc += weights (w[u][e], e over the mask's taps in bit order) x the
 * input at scratch[base + tap offsets]. */
void svTileKernel(SvGen *g, SvTile *tile, int64_t mask, MlirValue scratch, MlirValue base,
                  MlirValue w[][SV_MAX_TAPS]);
/* The number of loads svTileKernel emits for a mask with `lanes`-wide
 * vectors. */
int64_t svTileLoads(const SvTile *tile, int64_t mask, int64_t lanes);

#endif /* STRATA_SV_INTERNAL_H */
