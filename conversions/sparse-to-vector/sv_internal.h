/* The sparse dialect's lowerings (sparse-to-scf, sparse-to-vector), shared
 * between their files: a builder for the generated functions (sv_ir.c),
 * the row tile's input views (sv_scratch.c), the FKW loop nest
 * (fkw_loops.c), the register tile with load-redundancy elimination
 * (fkw_tile.c), the CSR baseline (csr_lower.c) and the dispatch and pass
 * rows (sparse_lower_passes.c).
 *
 * Each sparse op becomes a generated private "chunk" function over 1-D
 * memrefs, (x, b, y, scratch, begin, end), that computes items [begin,
 * end): an item is one row tile of one image (all filters, all columns),
 * so items are independent and each needs only its own scratch. The
 * vector lowering hands the chunk function to the runtime's thread pool
 * (strata_rt_parallel_chunks); the scalar one calls it once over every
 * item. The arrays (FKW or CSR) are private constant memref.globals the
 * chunk function reads. */
#ifndef STRATA_SV_INTERNAL_H
#define STRATA_SV_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/builder.h"
#include "strata/context.h"
#include "sparse.h"

/* Register-tile values at most (filters x rows x column offsets x column
 * vectors): the op verifier bounds tile entries by 16 and unroll by 8; the
 * `sums` layout keeps a set per column offset of a 3-wide kernel. */
enum { SV_MAX_ACC = 8 * 16 * 3 * 17, SV_MAX_TAPS = 9, SV_MAX_COLS = 3 };

/* What the generated code may use. */
typedef struct {
  bool vector;     /* vector ops (sparse-to-vector); false: scalars (sparse-to-scf) */
  bool segments;   /* one loop per pattern; false: scf.index_switch per kernel */
  bool lre;        /* register tile + shared loads; false: 1x1 tile, a load per tap */
  bool epilogues;  /* absorb a sole-user nn.relu / nn.clip into the stores */
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
  /* the activation the output tiles are stored through: none, relu, or
   * clip to [lo, hi] (an absorbed nn.relu / nn.clip) */
  enum { SV_ACT_NONE, SV_ACT_RELU, SV_ACT_CLIP } act;
  double lo, hi;
} SvGen;

/* ---- sv_ir.c: ops ---- */
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

/* Output row tiles: tile k starts at min(k * step, last). Tiles overlap at
 * the end when step does not divide the extent; they write the same
 * values twice. */
typedef struct {
  int64_t count, step, last;
} SvTiles;
SvTiles svTiles(int64_t extent, int64_t size);
MlirValue svTileStart(SvGen *g, const SvTiles *t, MlirValue k);

/* ---- sv_scratch.c: the row tile's input views ----
 * An item (image n, output rows oh0 .. oh0+R) first copies the input rows
 * its taps read into the scratch, each row as NV "views" of VL elements:
 *   scratch[c][t][v][j] = padded input (c, oh0*sh + t, j*sw + v*step)
 * for t < RT (the rows the tile reads), zero outside the image. Padding
 * and stride are paid for once per tile, by the copy; the taps then read
 * contiguous elements with no bounds check. Two layouts (the op's
 * `layout`, a tuning choice):
 *  - views: one view per kernel column (v = q, step = dw, VL = OW rounded
 *    up to whole vectors): tap (r, q) reads aligned vectors of view q at
 *    element ow, so no shuffle, but each kernel column is its own copy;
 *  - phases: one view per column-stride phase (v = (q*dw) % sw, step = 1,
 *    VL wide enough for the aligned vectors below): tap (r, q) reads view
 *    (q*dw) % sw at element ow + (q*dw) / sw, one copy of each input
 *    element, and a row read at several offsets is loaded as aligned
 *    vectors the offsets are shifted out of (fkw_tile.c);
 *  - sums: the phases copy, read only as aligned vectors: the register
 *    tile keeps one set of sums per column offset and shifts the sums
 *    into place once, at the store, instead of the inputs at every kernel
 *    (fkw_tile.c). It needs room in the row's last vector for the largest
 *    offset (narrow rows: 28 columns in 2 x 16 lanes), or a tile after
 *    it: a tile whose last vector is full leaves that vector's sums at
 *    offsets c > 0 incomplete (they need the next c input columns, the
 *    next tile's first vector) in the scratch's `carry`, and the next tile
 *    completes and stores it; the row's last vector is then a tile of its
 *    own, with one more vector of sums at those offsets (fkw_tile.c).
 * Tap (r, q) of output row i is then at channel offset
 * (i*sh + r*dh)*RS + v*VL + col (SvTap). */
typedef enum { SV_LAYOUT_VIEWS, SV_LAYOUT_PHASES, SV_LAYOUT_SUMS } SvLayout;
typedef struct {
  int64_t N, C, H, W, M, OH, OW;
  SparseWindow win;
  SvLayout layout;
  SvTiles rows;   /* the items' output row tiles, R rows each */
  int64_t items;  /* N * rows.count */
  int64_t R, RT;  /* output rows per tile; input rows it reads */
  int64_t NV, VL, step; /* views per row, elements per view, their column step */
  int64_t RS, CS, size; /* row and channel strides, floats of the scratch */
  int64_t rowStep;      /* sh * RS: from one output row's inputs to the next's */
  int64_t carry;        /* sums: where the carried vectors start (M x R vectors), after the views */
} SvGeom;
/* From the op's operand and result types, its window (kernel kh x kw), a
 * layout (views where the column stride exceeds the kernel's width) and R
 * output rows per tile (clamped to OH); false after a located error. */
bool svGeomInit(SvGeom *geo, MlirOperation op, const SparseWindow *win, SvLayout layout, int64_t lanes, int64_t R);
/* Where tap (r, q) of the tile's output row i reads output column 0 of
 * its channel: an aligned place plus a column offset (0 for views). */
typedef struct {
  int64_t place, col;
} SvTap;
SvTap svTap(const SvGeom *geo, int64_t i, int64_t r, int64_t q);
/* Fills the scratch (1-D) with the views of image n's rows for the tile
 * starting at output row oh0; x is the NxCxHxW memref. */
void svEmitTileCopy(SvGen *g, const SvGeom *geo, MlirValue x, MlirValue scratch, MlirValue n, MlirValue oh0);

/* Output column tiles of T vectors, starting at multiples of T*lanes (the
 * loads stay aligned): a loop over the whole tiles, then the rest as one
 * tile of fewer vectors whose last has `lastLanes` lanes in the row (the
 * others are computed and not stored). With `endAlone`, the row's last
 * vector is a tile of its own, after those tiles over the vectors before
 * it. `pos` says where a tile is in its row. */
typedef struct {
  bool followed; /* another tile of the row comes after this one (every iteration of a loop) */
  enum { SV_AFTER_NONE, SV_AFTER_ALWAYS, SV_AFTER_IF_NOT_FIRST } after; /* whether one came before */
} SvColumnPos;
typedef void (*SvColumnBody)(void *user, MlirValue ow0, int64_t T, int64_t lastLanes, SvColumnPos pos);
void svColumnTiles(SvGen *g, const SvGeom *geo, int64_t T, bool endAlone, SvColumnBody body, void *user);
/* Stores an R x T tile of lanes (acc[i*T + t]) at y[n, m, oh0 + i, ow0 +
 * t*lanes], through the generator's activation, the last vector of each
 * row masked to `lastLanes`. With `carry` (a scratch offset, else null),
 * each row's last vector goes there instead, as it is (incomplete: the
 * next tile completes it), at carry + i*lanes. */
void svStoreTile(SvGen *g, MlirValue y, MlirValue n, MlirValue m, MlirValue oh0, MlirValue ow0, const MlirValue *acc,
                 int64_t R, int64_t T, int64_t lastLanes, MlirValue scratch, MlirValue carry);
/* max(v, 0) or the clip of the generator's activation (v if none). */
MlirValue svActivation(SvGen *g, MlirValue v);

/* ---- fkw_loops.c / csr_lower.c: the chunk functions' bodies ----
 * Emit the loop over items [begin, end) of the chunk function whose
 * arguments are `args` (x as NxCxHxW, b as M or null, y as NxMxOHxOW, the
 * 1-D scratch, begin, end); false after a located error at `op`. */
enum { SV_ARG_X, SV_ARG_B, SV_ARG_Y, SV_ARG_SCRATCH, SV_ARG_BEGIN, SV_ARG_END, SV_NUM_ARGS };
typedef struct {
  int64_t R, T, U; /* register tile: output rows, column vectors; filters unrolled */
  bool colsOuter;  /* permute oh_ow_co_ci (else oh_co_ow_ci) */
  SvLayout layout;
} SvTuning;
bool svEmitFkw(SvGen *g, MlirOperation op, const SparseFkw *f, const SvGeom *geo, const SvOptions *o,
               const SvTuning *tn, const MlirValue *args);
bool svEmitCsr(SvGen *g, MlirOperation op, const SparseCsr *c, const SvGeom *geo, const SvOptions *o,
               const MlirValue *args);
/* The tuning of a fkw op: its attributes, else the defaults for `o`,
 * clamped to the output (OH x OW). */
SvTuning svTuningFor(MlirOperation op, int64_t OH, int64_t OW, const SvOptions *o);
/* The loop over the chunk's items: n and oh0 of each, then body(user). */
typedef void (*SvItemBody)(void *user, MlirValue n, MlirValue oh0);
void svItemLoop(SvGen *g, const SvGeom *geo, const MlirValue *args, SvItemBody body, void *user);

/* ---- fkw_tile.c: one kernel's contribution to a register tile ---- */
typedef struct {
  const SvGeom *geo;
  int64_t R, T, U;
  bool share; /* LRE: each distinct input vector loaded once */
  /* the sums layout: NC sets of sums, set c for the taps at column offset
   * cols[c] (cols[0] = 0); else NC = 1 and the taps shift their inputs */
  int64_t NC, cols[SV_MAX_COLS];
  /* vectors each set computes: T, or T + 1 for the sets c > 0 of a tile
   * ending its row with no room in its last vector (set 0's last is not
   * computed); `spill`: the last vector's sums at offsets c > 0 are
   * completed by the next tile (svTileOutputs leaves them out) */
  int64_t TC;
  bool spill;
  MlirValue acc[SV_MAX_ACC]; /* ((u * R + i) * NC + c) * TC + t */
} SvTile;
/* The sums layout's column offsets for `geo` (into cols, their count
 * returned) where it applies to every column tile of a row: vector code,
 * sharing, two offsets or more, each below the lanes; else 1 (cols[0] =
 * 0). Whether the row's last vector needs a tile of its own (no room in
 * it for the largest offset) in *endAlone. */
int64_t svSumsOffsets(const SvGeom *geo, const SvGen *g, bool share, int64_t cols[SV_MAX_COLS], bool *endAlone);
/* Sets up `tile` (R, T, U, share given) for a column tile whose last
 * vector has `lastLanes` lanes in the row, at `pos` in it: the sums layout
 * where it applies (svSumsOffsets), NC = 1 elsewhere. */
void svTileInit(SvTile *tile, const SvGen *g, int64_t lastLanes, SvColumnPos pos);
/* Sums: adds the incomplete last vectors the previous tile left (of filter
 * u, output m, in the carry) the sums of this tile's first vectors that
 * belong to them, and stores them at y[n, m, oh0 + i, ow0 - lanes]
 * through the activation. */
void svTileCompleteCarry(SvGen *g, const SvTile *tile, int64_t u, MlirValue scratch, MlirValue y, MlirValue n,
                         MlirValue m, MlirValue oh0, MlirValue ow0);
/* The tile's R x T output vectors of filter u (out[i*T + t]): its sums,
 * shifted into place and added in the sums layout. */
void svTileOutputs(SvGen *g, const SvTile *tile, int64_t u, MlirValue *out);
/* acc += weights (w[u][e], e over the mask's taps in bit order) x the
 * input at scratch[base + tap offsets] (base: the kernel's channel at the
 * tile's first output column). */
void svTileKernel(SvGen *g, SvTile *tile, int64_t mask, MlirValue scratch, MlirValue base,
                  MlirValue w[][SV_MAX_TAPS]);
/* The number of loads svTileKernel emits for a mask with `lanes`-wide
 * vectors. */
int64_t svTileLoads(const SvTile *tile, int64_t mask, int64_t lanes);

#endif /* STRATA_SV_INTERNAL_H */
