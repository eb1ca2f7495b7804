/* Internals of --fused-blocks-tile: the analysis of one fused block's
 * linalg ops (which loops can be tiled together, tile_analyze.c) and the
 * rewrite into one loop nest over those tiles (tile_blocks.c). */
#ifndef STRATA_TILE_INTERNAL_H
#define STRATA_TILE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include "mlir-c/IR.h"
#include "strata/support.h"

#define TILE_MAX_OPS 96
#define TILE_MAX_VALUES 256
#define TILE_MAX_SLOTS 2048
#define TILE_MAX_LOOPS 8 /* tiled dimensions (loops of the nest) */
/* Stack a block's tile buffers may take; larger tiles are heap/arena
 * buffers (the JIT may run on a thread with a small stack). */
#define TILE_STACK_BYTES (64 * 1024)

enum { TILE_GENERIC, TILE_RESHAPE, TILE_EMPTY, TILE_CONSTANT };

typedef struct {
  MlirOperation op;
  int kind;
  int loopBase; /* first slot of its loops (generic) */
  int numLoops;
  bool resident; /* computed inside the tile loop nest */
  bool reduces;  /* a generic with a reduction loop */
} TileOp;

typedef struct {
  MlirValue v;
  int rank;
  int64_t dims[STRATA_MAX_RANK];
  int slotBase; /* slot of dim 0 */
} TileValue;

/* One block's analysis. Slots are the loops of every generic and the dims
 * of every tensor they touch; a union-find joins a value dim with the loop
 * that indexes it (a pure dim expression in an indexing map). A class that
 * holds no reduction loop, no loop used in a compound expression (a
 * window), no constant index into a non-unit dim and at most one loop per
 * op is a dimension the whole block can be cut along: each tile of it is
 * computed from the matching tiles of the inputs. */
typedef struct {
  TileOp ops[TILE_MAX_OPS];
  int numOps;
  TileValue vals[TILE_MAX_VALUES];
  int numVals;
  int parent[TILE_MAX_SLOTS];
  bool bad[TILE_MAX_SLOTS];
  int64_t extent[TILE_MAX_SLOTS];
  int numSlots;
  /* The dimensions tiled (class roots), outermost first. */
  int tiled[TILE_MAX_LOOPS];
  int numTiled;
  int64_t stackBytes; /* taken by the rewrite's stack tiles so far */
} TileBlock;

/* Fills `t` for the body of `region` (a tagged scf.execute_region) and
 * chooses the tiled classes and the resident ops. False when the block
 * is not one the rewrite handles (then it is left as it is). */
bool tileAnalyze(TileBlock *t, MlirOperation region);

int tileFind(TileBlock *t, int slot);
/* The value's entry, or NULL if the block does not know it. */
const TileValue *tileValue(const TileBlock *t, MlirValue v);
/* The index in t->tiled of the class of the value's dim `d`, or -1. */
int tileDimLoop(TileBlock *t, const TileValue *v, int d);

#endif /* STRATA_TILE_INTERNAL_H */
